/* Deprecated OpenSHMEM names that unchanged legacy (<= 1.3) programs use:
 * start_pes, _my_pe, _num_pes, shmalloc/shfree/shrealloc/shmemalign, the
 * 1.3 AMO names (swap cswap fadd finc add inc fetch set) for int, long and
 * long long, shmem_float_swap/shmem_double_swap, shmem_TYPE_wait,
 * shmem_TYPE_wait_until with _SHMEM_CMP_*, shmem_wait, and the
 * _SHMEM_SYNC_VALUE / _SHMEM_BARRIER_SYNC_SIZE / SHMEM_SYNC_VALUE constants.
 *
 * Like a 1.0-era program it never calls shmem_finalize (start_pes programs
 * finalize implicitly at exit) unless run with --finalize. */
#include <mpp/shmem.h> /* the deprecated include path */

#include "mp_util.h"

#if defined(__GNUC__)
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
#endif

/* Legacy programs size and initialise their pSync arrays like this; the
 * active-set shmem_barrier that consumes them is not in gshmem yet (the
 * collectives arrive with teams), so only the constants are exercised. */
static long pSync_old[_SHMEM_BARRIER_SYNC_SIZE];
static long pSync_new[SHMEM_BARRIER_SYNC_SIZE];

#define OLD_AMO_TYPES(X)                                                        \
    X(int, int)                                                                 \
    X(long, long)                                                               \
    X(longlong, long long)

#define DEF_OLD(NAME, T)                                                        \
    static T *amo_##NAME, *wait_##NAME;                                         \
    static void old_amo_##NAME(void)                                            \
    {                                                                           \
        const int right = mp_right(), left = mp_left();                         \
        T *x = amo_##NAME;                                                      \
        uint64_t s = mp_pe_stream(mp_me, mp_tag(#NAME, 1));                     \
        uint64_t w = mp_pe_stream(left, mp_tag(#NAME, 1));                      \
        T a = (T)(mp_rand64(&s) % 100000), b = (T)(a + 11), c = (T)(a + 22);    \
        T d = (T)(mp_rand64(&s) % 1000);                                        \
        T wa = (T)(mp_rand64(&w) % 100000), wc = (T)(wa + 22);                  \
        T wd = (T)(mp_rand64(&w) % 1000);                                       \
        shmem_barrier_all();                                                    \
        shmem_##NAME##_set(x, a, right);                                        \
        shmem_quiet();                                                          \
        MP_CHECK_EQ("shmem_" #NAME "_fetch after shmem_" #NAME "_set", a,       \
                    shmem_##NAME##_fetch(x, right));                            \
        MP_CHECK_EQ("shmem_" #NAME "_swap", a, shmem_##NAME##_swap(x, b, right)); \
        MP_CHECK_EQ("shmem_" #NAME "_cswap (match)", b, shmem_##NAME##_cswap(x, b, c, right)); \
        MP_CHECK_EQ("shmem_" #NAME "_cswap (no match)", c,                      \
                    shmem_##NAME##_cswap(x, b, a, right));                      \
        MP_CHECK_EQ("shmem_" #NAME "_finc", c, shmem_##NAME##_finc(x, right));  \
        shmem_##NAME##_inc(x, right);                                           \
        shmem_quiet();                                                          \
        MP_CHECK_EQ("shmem_" #NAME "_fadd", (T)(c + 2), shmem_##NAME##_fadd(x, d, right)); \
        shmem_##NAME##_add(x, d, right);                                        \
        shmem_quiet();                                                          \
        MP_CHECK_EQ("shmem_" #NAME "_fetch after add", (T)(c + 2 + 2 * d),      \
                    shmem_##NAME##_fetch(x, right));                            \
        shmem_barrier_all();                                                    \
        MP_CHECK_EQ("shmem_" #NAME "_* final value seen by the owner",          \
                    (T)(wc + 2 + 2 * wd), *x);                                  \
        shmem_barrier_all();                                                    \
    }                                                                           \
    /* shmem_TYPE_wait waits for a change; wait_until with _SHMEM_CMP_* */      \
    static void old_wait_##NAME(void)                                           \
    {                                                                           \
        T *v = wait_##NAME;                                                     \
        v[0] = 0;                                                               \
        v[1] = 0;                                                               \
        v[2] = 100;                                                             \
        shmem_barrier_all();                                                    \
        shmem_##NAME##_p(&v[0], (T)(mp_me + 1), mp_right());                    \
        shmem_##NAME##_set(&v[1], (T)(mp_right() + 7), mp_right());             \
        shmem_##NAME##_add(&v[2], 50, mp_right());                              \
        shmem_##NAME##_wait(&v[0], 0);                                          \
        MP_CHECK_EQ("shmem_" #NAME "_wait: value on return", mp_left() + 1, v[0]); \
        shmem_##NAME##_wait_until(&v[1], _SHMEM_CMP_EQ, (T)(mp_me + 7));        \
        shmem_##NAME##_wait_until(&v[2], _SHMEM_CMP_GE, (T)150);                \
        MP_CHECK_EQ("shmem_" #NAME "_wait_until _SHMEM_CMP_GE: value", 150, v[2]); \
        shmem_barrier_all();                                                    \
    }
OLD_AMO_TYPES(DEF_OLD)

static void old_fp_swap(void)
{
    static float fx;
    static double dx;
    const int right = mp_right(), left = mp_left();
    fx = (float)mp_me + 0.5f;
    dx = (double)mp_me + 0.25;
    shmem_barrier_all();
    MP_EXPECT_VAL(float, "shmem_float_swap", 0, (float)right + 0.5f,
                  shmem_float_swap(&fx, (float)mp_me * 2.0f + 0.75f, right));
    MP_EXPECT_VAL(double, "shmem_double_swap", 0, (double)right + 0.25,
                  shmem_double_swap(&dx, (double)mp_me * 3.0 + 0.125, right));
    shmem_barrier_all();
    MP_EXPECT_VAL(float, "shmem_float_swap value seen by the owner", 0, (float)left * 2.0f + 0.75f,
                  fx);
    MP_EXPECT_VAL(double, "shmem_double_swap value seen by the owner", 0,
                  (double)left * 3.0 + 0.125, dx);
    shmem_barrier_all();
}

static void old_alloc(void)
{
    const uint64_t tag = mp_tag("shmalloc", 0);
    unsigned char *p = (unsigned char *)shmalloc(5000);
    MP_CHECK(p != NULL, "shmalloc(5000) (expected non-NULL got NULL)");
    unsigned char *src = (unsigned char *)malloc(5000);
    MP_CHECK(src != NULL, "malloc (expected non-NULL got NULL)");
    mp_poison(p, 5000);
    shmem_barrier_all();
    mp_fill(src, 5000, mp_me, tag);
    shmem_putmem(p, src, 5000, mp_right());
    shmem_barrier_all();
    mp_check_bytes("remote put into a shmalloc block", p, 5000, mp_left(), tag);

    p = (unsigned char *)shrealloc(p, 50000);
    MP_CHECK(p != NULL, "shrealloc(p, 50000) (expected non-NULL got NULL)");
    mp_check_bytes("shrealloc preserved contents", p, 5000, mp_left(), tag);

    unsigned char *a = (unsigned char *)shmemalign(4096, 3000);
    MP_CHECK(a != NULL, "shmemalign(4096, 3000) (expected non-NULL got NULL)");
    MP_CHECK_EQ("shmemalign(4096, 3000) address % 4096", 0, (uintptr_t)a % 4096);
    mp_poison(a, 3000);
    shmem_barrier_all();
    mp_fill(src, 3000, mp_me, tag + 1);
    shmem_putmem(a, src, 3000, mp_right());
    shmem_barrier_all();
    mp_check_bytes("remote put into a shmemalign block", a, 3000, mp_left(), tag + 1);
    shmem_barrier_all();
    shfree(a);
    shfree(p);
    free(src);
}

static void old_sync(void)
{
    long *lw = (long *)shmalloc(sizeof(long));
    MP_CHECK(lw != NULL, "shmalloc (expected non-NULL got NULL)");
    *lw = -1;
    shmem_barrier_all();
    shmem_long_p(lw, (long)mp_me * 10, mp_right());
    shmem_wait(lw, -1); /* long-only legacy wait */
    MP_CHECK_EQ("shmem_wait: value on return", (long)mp_left() * 10, *lw);
    shmem_barrier_all();
    shfree(lw);
}

/* The deprecated type-generic names (C11 _Generic), still part of OpenSHMEM 1.5: each PE updates
 * its right neighbour's objects, starting from a fresh random base. */
static int gen_i;
static long gen_l;
static long long gen_ll;
static double gen_d;
static void old_generic(void)
{
    uint64_t s = mp_pe_stream(mp_me, mp_tag("old_generic", 0));
    uint64_t sl = mp_pe_stream(mp_left(), mp_tag("old_generic", 0));
    const int base = (int)(mp_rand64(&s) % 100000), lb = (int)(mp_rand64(&sl) % 100000), r = mp_right();
    gen_i = gen_l = gen_ll = -1;
    gen_d = -1;
    shmem_barrier_all();
    shmem_set(&gen_i, base, r);
    shmem_set(&gen_l, (long)base, r);
    shmem_set(&gen_ll, (long long)base, r);
    shmem_set(&gen_d, base + 0.5, r);
    shmem_barrier_all();
    MP_CHECK_EQ("generic shmem_set (int)", lb, gen_i);
    MP_CHECK_EQ("generic shmem_fetch (int)", base, shmem_fetch(&gen_i, r));
    MP_CHECK_EQ("generic shmem_fetch (double) x2", 2LL * base + 1, (long long)(2 * shmem_fetch(&gen_d, r)));
    shmem_barrier_all();
    MP_CHECK_EQ("generic shmem_swap (long)", base, shmem_swap(&gen_l, (long)base + 1, r));
    MP_CHECK_EQ("generic shmem_cswap (long long)", base, shmem_cswap(&gen_ll, (long long)base, (long long)base + 2, r));
    MP_CHECK_EQ("generic shmem_finc (int)", base, shmem_finc(&gen_i, r));
    shmem_inc(&gen_i, r);
    MP_CHECK_EQ("generic shmem_fadd (long)", base + 1, shmem_fadd(&gen_l, 10L, r));
    shmem_add(&gen_l, 5L, r);
    MP_CHECK_EQ("generic shmem_swap (double) x2", 2LL * base + 1, (long long)(2 * shmem_swap(&gen_d, 1.25, r)));
    shmem_barrier_all();
    MP_CHECK_EQ("generic shmem_finc + shmem_inc (int)", lb + 2, gen_i);
    MP_CHECK_EQ("generic shmem_swap + shmem_fadd + shmem_add (long)", lb + 16, gen_l);
    MP_CHECK_EQ("generic shmem_cswap (long long) target", lb + 2, gen_ll);
    MP_CHECK(gen_d == 1.25, "generic shmem_swap (double) target (expected 1.25 got %g)", gen_d);
    shmem_barrier_all();
}

int main(int argc, char **argv)
{
    for (int i = 0; i < _SHMEM_BARRIER_SYNC_SIZE; i++)
        pSync_old[i] = _SHMEM_SYNC_VALUE;
    for (int i = 0; i < SHMEM_BARRIER_SYNC_SIZE; i++)
        pSync_new[i] = SHMEM_SYNC_VALUE;

    start_pes(0);
    mp_setup("deprecated");
    MP_CHECK_EQ("_my_pe() vs shmem_my_pe()", shmem_my_pe(), _my_pe());
    MP_CHECK_EQ("_num_pes() vs shmem_n_pes()", shmem_n_pes(), _num_pes());
    MP_CHECK_EQ("_SHMEM_SYNC_VALUE vs SHMEM_SYNC_VALUE", SHMEM_SYNC_VALUE, _SHMEM_SYNC_VALUE);
    MP_CHECK_EQ("_SHMEM_BARRIER_SYNC_SIZE vs SHMEM_BARRIER_SYNC_SIZE", SHMEM_BARRIER_SYNC_SIZE,
                _SHMEM_BARRIER_SYNC_SIZE);
    MP_CHECK(_SHMEM_BARRIER_SYNC_SIZE >= 1 && pSync_old[0] == pSync_new[0],
             "pSync constants (expected size >= 1 and equal sync values got size %d, %ld vs %ld)",
             (int)_SHMEM_BARRIER_SYNC_SIZE, pSync_old[0], pSync_new[0]);
    MP_CHECK_EQ("_SHMEM_CMP_EQ", SHMEM_CMP_EQ, _SHMEM_CMP_EQ);
    MP_CHECK_EQ("_SHMEM_CMP_NE", SHMEM_CMP_NE, _SHMEM_CMP_NE);
    MP_CHECK_EQ("_SHMEM_CMP_GT", SHMEM_CMP_GT, _SHMEM_CMP_GT);
    MP_CHECK_EQ("_SHMEM_CMP_GE", SHMEM_CMP_GE, _SHMEM_CMP_GE);
    MP_CHECK_EQ("_SHMEM_CMP_LT", SHMEM_CMP_LT, _SHMEM_CMP_LT);
    MP_CHECK_EQ("_SHMEM_CMP_LE", SHMEM_CMP_LE, _SHMEM_CMP_LE);

#define ALLOC(NAME, T)                                                          \
    amo_##NAME = (T *)shmalloc(sizeof(T));                                      \
    wait_##NAME = (T *)shmalloc(3 * sizeof(T));                                 \
    MP_CHECK(amo_##NAME && wait_##NAME, "shmalloc (expected non-NULL got NULL)");
    OLD_AMO_TYPES(ALLOC)
#define RUN(NAME, T) old_amo_##NAME(); old_wait_##NAME();
    OLD_AMO_TYPES(RUN)
    old_fp_swap();
    old_alloc();
    old_sync();
    old_generic();

    mp_pass();
    if (argc > 1 && strcmp(argv[1], "--finalize") == 0)
        shmem_finalize();
    return 0;
}
