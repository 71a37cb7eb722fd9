/* Sized RMA: shmem_put{8,16,32,64,128,mem}, get*, their _nbi forms and
 * shmem_iput/iget{8..128} with strides > 1, for 0, 1, 7, 4096 and about
 * 1 MiB of data. Zero-length transfers with NULL pointers must be no-ops. */
#include "mp_util.h"

typedef void (*xfer_fn)(void *, const void *, size_t, int);
typedef void (*sxfer_fn)(void *, const void *, ptrdiff_t, ptrdiff_t, size_t, int);

struct sized {
    const char *suffix; /* "8" ... "128", "mem" */
    size_t esz;         /* bytes per element */
    xfer_fn put, get, put_nbi, get_nbi;
    sxfer_fn iput, iget; /* NULL for mem */
};

static const struct sized kinds[] = {
    {"8", 1, shmem_put8, shmem_get8, shmem_put8_nbi, shmem_get8_nbi, shmem_iput8, shmem_iget8},
    {"16", 2, shmem_put16, shmem_get16, shmem_put16_nbi, shmem_get16_nbi, shmem_iput16,
     shmem_iget16},
    {"32", 4, shmem_put32, shmem_get32, shmem_put32_nbi, shmem_get32_nbi, shmem_iput32,
     shmem_iget32},
    {"64", 8, shmem_put64, shmem_get64, shmem_put64_nbi, shmem_get64_nbi, shmem_iput64,
     shmem_iget64},
    {"128", 16, shmem_put128, shmem_get128, shmem_put128_nbi, shmem_get128_nbi, shmem_iput128,
     shmem_iget128},
    {"mem", 1, shmem_putmem, shmem_getmem, shmem_putmem_nbi, shmem_getmem_nbi, NULL, NULL},
};
#define NKINDS (sizeof(kinds) / sizeof(kinds[0]))

#define MIB ((size_t)1 << 20)
#define GUARD 16 /* bytes of poison before and after every destination */
#define BUF (MIB + 64 + 2 * GUARD)
#define NSTRIDED 5
#define DST_STRIDE 3
#define SRC_STRIDE 2
#define STRIDED_BUF ((size_t)20000 * 16 * DST_STRIDE + 2 * GUARD)

static unsigned char *sdst, *ssrc; /* symmetric */
static unsigned char *ldst, *lsrc; /* private */

/* Element counts: 0, 1, 7, 4096 and about 1 MiB of bytes (1 MiB + 3 bytes for
 * the byte-sized kinds, 1 MiB / esz + 3 elements for the others). */
static size_t count_for(size_t which, size_t esz)
{
    static const size_t small[] = {0, 1, 7, 4096};
    if (which < 4)
        return small[which];
    return MIB / esz + 3;
}

static const size_t strided_counts[NSTRIDED] = {0, 1, 7, 4096, 20000};

static void check_region(const char *what, const unsigned char *dst, size_t nbytes, int pe,
                         uint64_t tag)
{
    mp_check_poison(what, dst - GUARD, GUARD);
    mp_check_bytes(what, dst, nbytes, pe, tag);
    mp_check_poison(what, dst + nbytes, GUARD);
}

/* Strided check: element i of `dst` (stride dstride elements) must equal
 * element i * sstride of the producer's byte stream; gaps stay poisoned. */
static void check_strided(const char *what, const unsigned char *dst, size_t n, size_t esz,
                          size_t dstride, size_t sstride, int pe, uint64_t tag)
{
    static unsigned char exp[STRIDED_BUF];
    size_t srcbytes = n ? ((n - 1) * sstride + 1) * esz : 0;
    mp_fill(exp, srcbytes, pe, tag);
    mp_check_poison(what, dst - GUARD, GUARD);
    for (size_t i = 0; i < n; i++) {
        const unsigned char *g = dst + i * dstride * esz, *e = exp + i * sstride * esz;
        if (memcmp(g, e, esz) != 0)
            mp_fail_val(what, i, e, g, esz);
        if (i + 1 < n)
            mp_check_poison(what, g + esz, (dstride - 1) * esz);
    }
    mp_check_poison(what, dst + (n ? ((n - 1) * dstride + 1) * esz : 0), GUARD);
}

static void test_contiguous(const struct sized *k, size_t which)
{
    const int right = mp_right(), left = mp_left();
    const size_t n = count_for(which, k->esz), nbytes = n * k->esz;
    char what[96];
    const uint64_t t_src = mp_tag(k->suffix, 100 + which);
    const uint64_t t_put = mp_tag(k->suffix, 200 + which);
    const uint64_t t_nbi = mp_tag(k->suffix, 300 + which);
    unsigned char *d = sdst + GUARD, *ld = ldst + GUARD;

    mp_fill(ssrc, nbytes, mp_me, t_src);
    mp_poison(sdst, BUF);
    shmem_barrier_all();

    /* put (source reusable on return) */
    mp_fill(lsrc, nbytes, mp_me, t_put);
    k->put(d, lsrc, n, right);
    mp_poison(lsrc, nbytes);
    shmem_barrier_all();
    snprintf(what, sizeof what, "shmem_put%s nelems %zu", k->suffix, n);
    check_region(what, d, nbytes, left, t_put);

    /* get */
    mp_poison(ldst, BUF);
    k->get(ld, ssrc, n, left);
    snprintf(what, sizeof what, "shmem_get%s nelems %zu", k->suffix, n);
    check_region(what, ld, nbytes, left, t_src);

    /* put_nbi */
    mp_poison(sdst, BUF);
    shmem_barrier_all();
    mp_fill(lsrc, nbytes, mp_me, t_nbi);
    k->put_nbi(d, lsrc, n, right);
    shmem_quiet();
    mp_poison(lsrc, nbytes);
    shmem_barrier_all();
    snprintf(what, sizeof what, "shmem_put%s_nbi nelems %zu", k->suffix, n);
    check_region(what, d, nbytes, left, t_nbi);

    /* get_nbi */
    mp_poison(ldst, BUF);
    k->get_nbi(ld, ssrc, n, left);
    shmem_quiet();
    snprintf(what, sizeof what, "shmem_get%s_nbi nelems %zu", k->suffix, n);
    check_region(what, ld, nbytes, left, t_src);

    shmem_barrier_all(); /* right PE finished reading ssrc */
}

static void test_strided(const struct sized *k, size_t which)
{
    const int right = mp_right(), left = mp_left();
    const size_t n = strided_counts[which], esz = k->esz;
    const size_t srcbytes = n ? ((n - 1) * DST_STRIDE + 1) * esz : 0;
    char what[96];
    const uint64_t t_src = mp_tag(k->suffix, 400 + which);
    const uint64_t t_put = mp_tag(k->suffix, 500 + which);
    unsigned char *d = sdst + GUARD, *ld = ldst + GUARD;

    mp_fill(ssrc, srcbytes, mp_me, t_src);
    mp_poison(sdst, STRIDED_BUF);
    shmem_barrier_all();

    /* iput: target stride 3, source stride 2 */
    mp_fill(lsrc, n ? ((n - 1) * SRC_STRIDE + 1) * esz : 0, mp_me, t_put);
    k->iput(d, lsrc, DST_STRIDE, SRC_STRIDE, n, right);
    shmem_barrier_all();
    snprintf(what, sizeof what, "shmem_iput%s nelems %zu", k->suffix, n);
    check_strided(what, d, n, esz, DST_STRIDE, SRC_STRIDE, left, t_put);

    /* iget: target stride 2, source stride 3 */
    mp_poison(ldst, STRIDED_BUF);
    k->iget(ld, ssrc, SRC_STRIDE, DST_STRIDE, n, left);
    snprintf(what, sizeof what, "shmem_iget%s nelems %zu", k->suffix, n);
    check_strided(what, ld, n, esz, SRC_STRIDE, DST_STRIDE, left, t_src);

    shmem_barrier_all();
}

/* Zero-length transfers are no-ops, also with NULL buffers. */
static void test_zero_null(void)
{
    const int right = mp_right(), left = mp_left();
    mp_poison(sdst, 64);
    mp_poison(ldst, 64);
    shmem_barrier_all();
    for (size_t i = 0; i < NKINDS; i++) {
        const struct sized *k = &kinds[i];
        k->put(NULL, NULL, 0, right);
        k->get(NULL, NULL, 0, left);
        k->put_nbi(NULL, NULL, 0, right);
        k->get_nbi(NULL, NULL, 0, left);
        k->put(sdst + GUARD, NULL, 0, right);
        k->get(ldst + GUARD, NULL, 0, left);
        if (k->iput) {
            k->iput(NULL, NULL, DST_STRIDE, SRC_STRIDE, 0, right);
            k->iget(NULL, NULL, SRC_STRIDE, DST_STRIDE, 0, left);
        }
    }
    shmem_quiet();
    shmem_barrier_all();
    mp_check_poison("zero-length transfers (symmetric destination)", sdst, 64);
    mp_check_poison("zero-length transfers (local destination)", ldst, 64);
}

/* Unaligned byte transfer into the middle of a symmetric object. */
static void test_unaligned(void)
{
    const int right = mp_right(), left = mp_left();
    const uint64_t tag = mp_tag("unaligned", 0);
    const size_t n = 4093;
    mp_poison(sdst, BUF);
    shmem_barrier_all();
    mp_fill(lsrc, n, mp_me, tag);
    shmem_putmem(sdst + GUARD + 3, lsrc, n, right);
    shmem_barrier_all();
    check_region("shmem_putmem at offset 3", sdst + GUARD + 3, n, left, tag);
    mp_poison(ldst, BUF);
    shmem_getmem(ldst + GUARD + 5, sdst + GUARD + 3, n, left);
    /* the left PE's copy holds what ITS left PE put */
    check_region("shmem_getmem at offset 3 -> 5", ldst + GUARD + 5, n,
                 (left + mp_npes - 1) % mp_npes, tag);
    shmem_barrier_all();
}

int main(void)
{
    mp_init("rma_sized");
    sdst = (unsigned char *)shmem_malloc(BUF);
    ssrc = (unsigned char *)shmem_malloc(BUF);
    ldst = (unsigned char *)malloc(BUF);
    lsrc = (unsigned char *)malloc(BUF);
    MP_CHECK(sdst && ssrc && ldst && lsrc, "buffer allocation (expected non-NULL got NULL)");
    _Static_assert(STRIDED_BUF <= BUF, "strided buffers exceed BUF");

    test_zero_null();
    for (size_t i = 0; i < NKINDS; i++)
        for (size_t w = 0; w < 5; w++)
            test_contiguous(&kinds[i], w);
    for (size_t i = 0; i < NKINDS; i++)
        if (kinds[i].iput)
            for (size_t w = 0; w < NSTRIDED; w++)
                test_strided(&kinds[i], w);
    test_unaligned();

    shmem_free(sdst);
    shmem_free(ssrc);
    free(ldst);
    free(lsrc);
    mp_pass();
    shmem_finalize();
    return 0;
}
