/* Global and static variables are symmetric data objects (OpenSHMEM 1.5
 * section 3.2): initialised (.data) and zero-initialised (.bss) globals,
 * file-scope statics, function-local statics and a 1 MiB static array must
 * all work as targets of RMA (put/get/p/g) and atomics from remote PEs. */
#include "mp_util.h"

#define BIG_BYTES ((size_t)1 << 20)

int g_data_int = 42;                      /* .data */
long g_bss_long;                          /* .bss */
double g_data_dbl[8] = {1.5, 2.5, 3.5};   /* .data, partly zero */
int64_t g_counter;                        /* .bss, atomics */
static long long s_data_ll = -7;          /* file-scope static, .data */
static unsigned s_bss_arr[333];           /* file-scope static, .bss */
static unsigned char s_big[BIG_BYTES];    /* 1 MiB static, .bss */
static unsigned char s_big_data[4096] = {1}; /* static, .data */

static int *fn_static_data(void)
{
    static int v = 7; /* function-local static, .data */
    return &v;
}

static uint64_t *fn_static_bss(void)
{
    static uint64_t arr[64]; /* function-local static, .bss */
    return arr;
}

static void check_initial_values(void)
{
    const int left = mp_left();
    /* nobody has written yet: the remote copies hold the initial images */
    MP_CHECK_EQ("shmem_int_g of an initialised global", 42, shmem_int_g(&g_data_int, left));
    MP_CHECK_EQ("shmem_long_g of a bss global", 0, shmem_long_g(&g_bss_long, left));
    MP_CHECK_EQ("shmem_longlong_g of an initialised static", -7,
                shmem_longlong_g(&s_data_ll, left));
    MP_CHECK_EQ("shmem_int_g of a function-local static", 7, shmem_int_g(fn_static_data(), left));
    MP_CHECK_EQ("shmem_uint64_g of a function-local bss static", 0,
                shmem_uint64_g(&fn_static_bss()[63], left));
    double d[8];
    shmem_double_get(d, g_data_dbl, 8, left);
    for (int i = 0; i < 8; i++)
        MP_EXPECT_VAL(double, "shmem_double_get of an initialised global array", i,
                      i < 3 ? 1.5 + i : 0.0, d[i]);
    unsigned char b[4];
    shmem_getmem(b, s_big_data, 4, left);
    MP_CHECK_EQ("shmem_getmem of a static .data array [0]", 1, b[0]);
    MP_CHECK_EQ("shmem_getmem of a static .data array [3]", 0, b[3]);
    shmem_barrier_all();
}

static void test_scalars(void)
{
    const int right = mp_right(), left = mp_left();
    uint64_t s = mp_pe_stream(mp_me, mp_tag("scalars", 0));
    uint64_t w = mp_pe_stream(left, mp_tag("scalars", 0));
    int vi = (int)mp_rand64(&s), wi = (int)mp_rand64(&w);
    long vl = (long)mp_rand64(&s), wl = (long)mp_rand64(&w);
    long long vll = (long long)mp_rand64(&s), wll = (long long)mp_rand64(&w);
    int vf = (int)mp_rand64(&s), wf = (int)mp_rand64(&w);
    uint64_t vu = mp_rand64(&s), wu = mp_rand64(&w);

    shmem_int_p(&g_data_int, vi, right);
    shmem_long_p(&g_bss_long, vl, right);
    shmem_longlong_put(&s_data_ll, &vll, 1, right);
    shmem_int_p(fn_static_data(), vf, right);
    shmem_uint64_put(&fn_static_bss()[5], &vu, 1, right);
    shmem_barrier_all();
    MP_CHECK_EQ("shmem_int_p into an initialised global", wi, g_data_int);
    MP_CHECK_EQ("shmem_long_p into a bss global", wl, g_bss_long);
    MP_CHECK_EQ("shmem_longlong_put into a static", wll, s_data_ll);
    MP_CHECK_EQ("shmem_int_p into a function-local static", wf, *fn_static_data());
    MP_CHECK_EQ("shmem_uint64_put into a function-local bss static", (long long)wu,
                (long long)fn_static_bss()[5]);
    /* and read back from the left PE: it holds what its own left PE wrote */
    const int ll = (left + mp_npes - 1) % mp_npes;
    uint64_t x = mp_pe_stream(ll, mp_tag("scalars", 0));
    int xi = (int)mp_rand64(&x);
    long xl = (long)mp_rand64(&x);
    MP_CHECK_EQ("shmem_int_g of a written global", xi, shmem_int_g(&g_data_int, left));
    MP_CHECK_EQ("shmem_long_g of a written bss global", xl, shmem_long_g(&g_bss_long, left));
    shmem_barrier_all();
}

static void test_arrays(void)
{
    const int right = mp_right(), left = mp_left();
    const uint64_t t_big = mp_tag("big", 0), t_arr = mp_tag("arr", 0);
    unsigned char *src = (unsigned char *)malloc(BIG_BYTES);
    unsigned char *dst = (unsigned char *)malloc(BIG_BYTES);
    MP_CHECK(src && dst, "malloc (expected non-NULL got NULL)");

    mp_poison(s_big, BIG_BYTES);
    mp_poison(s_bss_arr, sizeof s_bss_arr);
    shmem_barrier_all();
    mp_fill(src, BIG_BYTES, mp_me, t_big);
    shmem_putmem(s_big, src, BIG_BYTES, right);
    mp_fill(src, sizeof s_bss_arr, mp_me, t_arr);
    /* strided into a static bss array: every other element of the first half */
    shmem_uint_iput(s_bss_arr, (const unsigned *)src, 2, 1, 333 / 2, right);
    shmem_barrier_all();
    mp_check_bytes("shmem_putmem into a 1 MiB static array", s_big, BIG_BYTES, left, t_big);
    {
        unsigned e[333];
        mp_fill(e, sizeof e, left, t_arr);
        for (int i = 0; i < 333 / 2; i++)
            MP_CHECK_EQ("shmem_uint_iput into a static bss array", e[i], s_bss_arr[2 * i]);
        mp_check_poison("shmem_uint_iput gap", &s_bss_arr[1], sizeof(unsigned));
    }
    /* get the left PE's whole 1 MiB array (holds what ITS left PE put) */
    mp_poison(dst, BIG_BYTES);
    shmem_getmem(dst, s_big, BIG_BYTES, left);
    mp_check_bytes("shmem_getmem from a 1 MiB static array", dst, BIG_BYTES,
                   (left + mp_npes - 1) % mp_npes, t_big);
    /* g at the far end of the static array */
    MP_CHECK_EQ("shmem_uchar_g at the end of a 1 MiB static array", dst[BIG_BYTES - 1],
                shmem_uchar_g(&s_big[BIG_BYTES - 1], left));
    shmem_barrier_all();
    free(src);
    free(dst);
}

static void test_atomics(void)
{
    const int npes = mp_npes, me = mp_me;
    g_counter = 0;
    *fn_static_data() = 0;
    shmem_barrier_all();
    /* everybody hits PE 0's bss counter and each PE's function-local static */
    for (int i = 0; i < 100; i++)
        shmem_int64_atomic_fetch_add(&g_counter, (int64_t)me + 1, 0);
    for (int pe = 0; pe < npes; pe++)
        shmem_int_atomic_inc(fn_static_data(), pe);
    /* compare_swap on the right PE's initialised global: only I touch it */
    shmem_barrier_all();
    int cur = shmem_int_atomic_fetch(&g_data_int, mp_right());
    MP_CHECK_EQ("shmem_int_atomic_compare_swap on a global", cur,
                shmem_int_atomic_compare_swap(&g_data_int, cur, me, mp_right()));
    shmem_long_atomic_set(&g_bss_long, 1000L + me, mp_right());
    shmem_quiet();
    shmem_long_atomic_add(&g_bss_long, 5, mp_right());
    shmem_quiet();
    MP_CHECK_EQ("shmem_long_atomic_fetch after set + add on a bss global", 1005L + me,
                shmem_long_atomic_fetch(&g_bss_long, mp_right()));
    shmem_barrier_all();
    if (me == 0)
        MP_CHECK_EQ("atomic fetch_add on a bss global", 100LL * npes * (npes + 1) / 2, g_counter);
    MP_CHECK_EQ("atomic inc on a function-local static", npes, *fn_static_data());
    MP_CHECK_EQ("atomic compare_swap result on a global", mp_left(), g_data_int);
    MP_CHECK_EQ("atomic set + add on a bss global, seen by the owner", 1005L + mp_left(),
                g_bss_long);
    shmem_barrier_all();
}

int main(void)
{
    mp_init("globals");
    check_initial_values();
    test_scalars();
    test_arrays();
    test_atomics();
    mp_pass();
    shmem_finalize();
    return 0;
}
