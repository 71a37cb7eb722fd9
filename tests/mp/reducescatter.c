/* shmemx_TYPE_OP_reducescatter on CPU PEs: every operator on a spread of types, on the world team
 * and on a strided team (odd PEs; even PEs when only 2), with nreduce 1, 7 and 1000. Each PE's
 * source is a fresh random stream the others can regenerate, so every PE recomputes its expected
 * block from every member's contribution and checks every element; destinations are poisoned. */
#include "mp_util.h"

#include <shmemx.h>

#define MAXN 1000

static uint64_t val_seed(int pe, uint64_t tag) { return mp_pe_stream(pe, tag); }

/* Values small enough that sums and products over 8 PEs stay exact in every type. */
#define RS_VALUE(T, s, op) ((T)(strcmp(op, "prod") == 0 ? 1 + mp_rand64(s) % 3 : mp_rand64(s) % 100))

#define RS_TEST(T, N, OP, EXPR)                                                                   \
    static void rs_##N##_##OP(shmem_team_t team, int tstart, int tstride, int tsize, size_t n,    \
                              T *src, T *dst)                                                     \
    {                                                                                             \
        const uint64_t tag = mp_tag("rs_" #N "_" #OP, (uint64_t)n * 31u + (uint64_t)tsize);         \
        const int me = shmem_team_my_pe(team);                                                    \
        uint64_t s = val_seed(mp_me, tag);                                                        \
        for (size_t i = 0; i < (size_t)tsize * n; i++) src[i] = RS_VALUE(T, &s, #OP);             \
        mp_poison(dst, n * sizeof(T));                                                            \
        shmem_team_sync(team);                                                                    \
        int rc = shmemx_##N##_##OP##_reducescatter(team, dst, src, n);                            \
        MP_CHECK_EQ("shmemx_" #N "_" #OP "_reducescatter return", 0, rc);                       \
        T *exp = (T *)calloc(n, sizeof(T)), *theirs = (T *)malloc((size_t)tsize * n * sizeof(T)); \
        MP_CHECK(exp && theirs, "malloc (expected non-NULL got NULL)");                           \
        for (int m = 0; m < tsize; m++) { /* member m's whole source, regenerated */              \
            uint64_t ps = val_seed(tstart + m * tstride, tag);                                    \
            for (size_t k = 0; k < (size_t)tsize * n; k++) theirs[k] = RS_VALUE(T, &ps, #OP);     \
            for (size_t i = 0; i < n; i++) {                                                      \
                T acc = exp[i], v = theirs[(size_t)me * n + i];                                   \
                exp[i] = m == 0 ? v : (T)(EXPR);                                                  \
            }                                                                                     \
        }                                                                                         \
        for (size_t i = 0; i < n; i++)                                                            \
            if (dst[i] != exp[i])                                                                 \
                mp_fail("shmemx_" #N "_" #OP "_reducescatter: team of %d, nreduce %zu, element %zu " \
                        "(expected %lld got %lld)", tsize, n, i, (long long)exp[i], (long long)dst[i]); \
        free(exp);                                                                                \
        free(theirs);                                                                             \
        shmem_team_sync(team);                                                                    \
    }

#define RS_OPS_ARITH(T, N)                                                                        \
    RS_TEST(T, N, sum, acc + v) RS_TEST(T, N, prod, acc * v)                                      \
    RS_TEST(T, N, min, v < acc ? v : acc) RS_TEST(T, N, max, v > acc ? v : acc)
#define RS_OPS_BIT(T, N) RS_TEST(T, N, and, acc & v) RS_TEST(T, N, or, acc | v) RS_TEST(T, N, xor, acc ^ v)

RS_OPS_ARITH(int, int)
RS_OPS_ARITH(long, long)
RS_OPS_ARITH(double, double)
RS_OPS_ARITH(float, float)
RS_OPS_ARITH(int8_t, int8)
RS_OPS_ARITH(uint64_t, uint64)
RS_OPS_BIT(uint64_t, uint64)
RS_OPS_BIT(int32_t, int32)
RS_OPS_BIT(unsigned char, uchar)

#define RS_RUN_ARITH(N) rs_##N##_sum(t, a, b, c, n, (void *)src, (void *)dst); \
    rs_##N##_prod(t, a, b, c, n, (void *)src, (void *)dst);                    \
    rs_##N##_min(t, a, b, c, n, (void *)src, (void *)dst);                     \
    rs_##N##_max(t, a, b, c, n, (void *)src, (void *)dst);
#define RS_RUN_BIT(N) rs_##N##_and(t, a, b, c, n, (void *)src, (void *)dst); \
    rs_##N##_or(t, a, b, c, n, (void *)src, (void *)dst);                    \
    rs_##N##_xor(t, a, b, c, n, (void *)src, (void *)dst);

static void run_all(shmem_team_t t, int a, int b, int c, void *src, void *dst)
{
    const size_t ns[] = {1, 7, MAXN};
    for (int k = 0; k < 3; k++) {
        const size_t n = ns[k];
        RS_RUN_ARITH(int) RS_RUN_ARITH(long) RS_RUN_ARITH(double) RS_RUN_ARITH(float)
        RS_RUN_ARITH(int8) RS_RUN_ARITH(uint64)
        RS_RUN_BIT(uint64) RS_RUN_BIT(int32) RS_RUN_BIT(uchar)
    }
}

int main(void)
{
    mp_init("reducescatter");
    /* symmetric buffers big enough for the world team: npes * MAXN elements of 8 bytes */
    void *src = shmem_malloc((size_t)mp_npes * MAXN * 8);
    void *dst = shmem_malloc(MAXN * 8);
    MP_CHECK(src && dst, "shmem_malloc (expected non-NULL got NULL)");
    run_all(SHMEM_TEAM_WORLD, 0, 1, mp_npes, src, dst);

    /* a strided team: the odd PEs (the even ones at 2 PEs) */
    const int start = mp_npes > 2 ? 1 : 0, size = mp_npes > 2 ? mp_npes / 2 : 1;
    shmem_team_t odd = SHMEM_TEAM_INVALID;
    shmem_team_split_strided(SHMEM_TEAM_WORLD, start, 2, size, NULL, 0, &odd);
    if (odd != SHMEM_TEAM_INVALID) run_all(odd, start, 2, size, src, dst);
    shmem_barrier_all();
    if (odd != SHMEM_TEAM_INVALID) shmem_team_destroy(odd);
    mp_pass();
    shmem_finalize();
    return 0;
}
