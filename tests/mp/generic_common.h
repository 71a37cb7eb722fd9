/* Body shared by generic_c11.c (C11 _Generic interfaces) and generic_cxx.cpp
 * (C++ overloads): the type-generic OpenSHMEM names shmem_put, shmem_get,
 * shmem_p, shmem_g, shmem_iput, shmem_iget, shmem_put_nbi, shmem_get_nbi,
 * shmem_put_signal, shmem_atomic_{fetch,set,swap,compare_swap,inc,fetch_inc,
 * fetch_add,add,fetch_and}, shmem_wait_until and shmem_test. Every value
 * argument has exactly the element type, so both dispatch mechanisms (and
 * template deduction) see one candidate. Valid C11 and C++17. */
#ifndef GSHMEM_TESTS_MP_GENERIC_COMMON_H
#define GSHMEM_TESTS_MP_GENERIC_COMMON_H

#include "mp_util.h"

#define GEN_RMA_TYPES(X)                                                        \
    X(char, char, MPK_I)                                                        \
    X(schar, signed char, MPK_I)                                                \
    X(short, short, MPK_I)                                                      \
    X(int, int, MPK_I)                                                          \
    X(long, long, MPK_I)                                                        \
    X(longlong, long long, MPK_I)                                               \
    X(ushort, unsigned short, MPK_I)                                            \
    X(uint, unsigned int, MPK_I)                                                \
    X(ulonglong, unsigned long long, MPK_I)                                     \
    X(float, float, MPK_F)                                                      \
    X(double, double, MPK_F)                                                    \
    X(longdouble, long double, MPK_F)

#define GEN_AMO_TYPES(X)                                                        \
    X(int, int, MPK_I)                                                          \
    X(long, long, MPK_I)                                                        \
    X(longlong, long long, MPK_I)                                               \
    X(uint, unsigned int, MPK_I)                                                \
    X(ulong, unsigned long, MPK_I)                                              \
    X(ulonglong, unsigned long long, MPK_I)

#define GEN_EXT_TYPES(X)                                                        \
    X(float, float, MPK_F)                                                      \
    X(double, double, MPK_F)

#define GEN_BIT_TYPES(X)                                                        \
    X(uint, unsigned int, MPK_I)                                                \
    X(ulong, unsigned long, MPK_I)                                              \
    X(ulonglong, unsigned long long, MPK_I)

#define GN 333 /* contiguous elements */
#define GS 100 /* strided elements */
#define GNP 16 /* p / g elements */
#define GBYTES ((size_t)(GN + 2) * 16)

static unsigned char *g_sdst, *g_ssrc, *g_slot; /* symmetric */
static uint64_t *g_sig;                         /* symmetric */
static unsigned char *g_lsrc, *g_ldst;          /* private */

MP_RMA_TYPES(MP_DEF_TYPED_HELPERS)

#define GEN_RMA(NAME, T, K)                                                     \
    static void gen_rma_##NAME(void)                                            \
    {                                                                           \
        const int right = mp_right(), left = mp_left();                         \
        T *d = (T *)g_sdst + 1, *src = (T *)g_ssrc, *ls = (T *)g_lsrc;          \
        T *ld = (T *)g_ldst + 1;                                                \
        const uint64_t t_src = mp_tag("g_" #NAME, 0), t_put = mp_tag("g_" #NAME, 1); \
        const uint64_t t_p = mp_tag("g_" #NAME, 2), t_nbi = mp_tag("g_" #NAME, 3); \
        const uint64_t t_sig = mp_tag("g_" #NAME, 4);                           \
        mpt_fill_##NAME(src, GN, mp_me, t_src);                                 \
        mp_poison(g_sdst, GBYTES);                                              \
        shmem_barrier_all();                                                    \
        mpt_fill_##NAME(ls, GN, mp_me, t_put);                                  \
        shmem_put(d, ls, GN, right);                                            \
        shmem_barrier_all();                                                    \
        mpt_check_##NAME("shmem_put (" #T ")", d, GN, 1, 1, left, t_put);       \
        mp_poison(g_ldst, GBYTES);                                              \
        shmem_get(ld, src, GN, left);                                           \
        mpt_check_##NAME("shmem_get (" #T ")", ld, GN, 1, 1, left, t_src);      \
                                                                                \
        mp_poison(g_sdst, GBYTES);                                              \
        shmem_barrier_all();                                                    \
        {                                                                       \
            uint64_t s = mp_pe_stream(mp_me, t_p);                              \
            for (int i = 0; i < GNP; i++) {                                     \
                T v = MP_RAND(K, T, &s);                                        \
                shmem_p(d + i, v, right);                                       \
            }                                                                   \
        }                                                                       \
        shmem_barrier_all();                                                    \
        mpt_check_##NAME("shmem_p (" #T ")", d, GNP, 1, 1, left, t_p);          \
        mp_poison(g_ldst, GBYTES);                                              \
        for (int i = 0; i < GNP; i++)                                           \
            ld[i] = shmem_g(src + i, left);                                     \
        mpt_check_##NAME("shmem_g (" #T ")", ld, GNP, 1, 1, left, t_src);       \
                                                                                \
        mp_poison(g_sdst, GBYTES);                                              \
        shmem_barrier_all();                                                    \
        shmem_iput(d, ls, 3, 2, GS, right);                                     \
        shmem_barrier_all();                                                    \
        mpt_check_##NAME("shmem_iput (" #T ")", d, GS, 3, 2, left, t_put);      \
        mp_poison(g_ldst, GBYTES);                                              \
        shmem_iget(ld, src, 2, 3, GS, left);                                    \
        mpt_check_##NAME("shmem_iget (" #T ")", ld, GS, 2, 3, left, t_src);     \
                                                                                \
        mp_poison(g_sdst, GBYTES);                                              \
        shmem_barrier_all();                                                    \
        mpt_fill_##NAME(ls, GN, mp_me, t_nbi);                                  \
        shmem_put_nbi(d, ls, GN, right);                                        \
        shmem_quiet();                                                          \
        shmem_barrier_all();                                                    \
        mpt_check_##NAME("shmem_put_nbi (" #T ")", d, GN, 1, 1, left, t_nbi);   \
        mp_poison(g_ldst, GBYTES);                                              \
        shmem_get_nbi(ld, src, GN, left);                                       \
        shmem_quiet();                                                          \
        mpt_check_##NAME("shmem_get_nbi (" #T ")", ld, GN, 1, 1, left, t_src);  \
                                                                                \
        mp_poison(g_sdst, GBYTES);                                              \
        *g_sig = 0;                                                             \
        shmem_barrier_all();                                                    \
        mpt_fill_##NAME(ls, GN, mp_me, t_sig);                                  \
        shmem_put_signal(d, ls, GN, g_sig, (uint64_t)mp_me + 1, SHMEM_SIGNAL_SET, right); \
        shmem_signal_wait_until(g_sig, SHMEM_CMP_EQ, (uint64_t)left + 1);       \
        mpt_check_##NAME("shmem_put_signal (" #T ")", d, GN, 1, 1, left, t_sig); \
        shmem_barrier_all();                                                    \
    }
GEN_RMA_TYPES(GEN_RMA)

/* small values: c + 1 + d never overflows */
#define GEN_VALS(T, pe, a, b, c, d)                                             \
    do {                                                                        \
        uint64_t s_ = mp_pe_stream((pe), mp_tag("g_amo_" #T, 0));               \
        a = (T)(mp_rand64(&s_) % 1000);                                         \
        b = (T)(a + 1 + (T)(mp_rand64(&s_) % 1000));                            \
        c = (T)(mp_rand64(&s_) % 100000);                                       \
        d = (T)(mp_rand64(&s_) % 1000);                                         \
    } while (0)

#define GEN_AMO(NAME, T, K)                                                     \
    static void gen_amo_##NAME(void)                                            \
    {                                                                           \
        const int right = mp_right();                                           \
        T *x = (T *)g_slot, a, b, c, d, wa, wb, wc, wd;                         \
        GEN_VALS(T, mp_me, a, b, c, d);                                         \
        GEN_VALS(T, mp_left(), wa, wb, wc, wd);                                 \
        (void)wa;                                                               \
        (void)wb;                                                               \
        shmem_atomic_set(x, a, right);                                          \
        shmem_quiet();                                                          \
        MP_EXPECT_VAL(T, "shmem_atomic_fetch (" #T ")", 0, a, shmem_atomic_fetch(x, right)); \
        MP_EXPECT_VAL(T, "shmem_atomic_compare_swap (" #T ")", 0, a,            \
                      shmem_atomic_compare_swap(x, a, b, right));               \
        MP_EXPECT_VAL(T, "shmem_atomic_swap (" #T ")", 0, b, shmem_atomic_swap(x, c, right)); \
        MP_EXPECT_VAL(T, "shmem_atomic_fetch_inc (" #T ")", 0, c,               \
                      shmem_atomic_fetch_inc(x, right));                        \
        shmem_atomic_inc(x, right);                                             \
        shmem_quiet();                                                          \
        MP_EXPECT_VAL(T, "shmem_atomic_fetch_add (" #T ")", 0, (T)(c + 2),      \
                      shmem_atomic_fetch_add(x, d, right));                     \
        shmem_atomic_add(x, d, right);                                          \
        shmem_quiet();                                                          \
        MP_EXPECT_VAL(T, "shmem_atomic_fetch after add (" #T ")", 0, (T)(c + 2 + 2 * d), \
                      shmem_atomic_fetch(x, right));                            \
        shmem_barrier_all();                                                    \
        MP_EXPECT_VAL(T, "generic atomics: final value seen by the owner (" #T ")", 0, \
                      (T)(wc + 2 + 2 * wd), *x);                                \
        shmem_barrier_all();                                                    \
    }
GEN_AMO_TYPES(GEN_AMO)

#define GEN_EXT(NAME, T, K)                                                     \
    static void gen_ext_##NAME(void)                                            \
    {                                                                           \
        const int right = mp_right();                                           \
        T *x = (T *)g_slot;                                                     \
        const T a = (T)(mp_me + 0.5), b = (T)(mp_me * 2 + 0.25);                \
        shmem_atomic_set(x, a, right);                                          \
        shmem_quiet();                                                          \
        MP_EXPECT_VAL(T, "shmem_atomic_fetch (" #T ")", 0, a, shmem_atomic_fetch(x, right)); \
        MP_EXPECT_VAL(T, "shmem_atomic_swap (" #T ")", 0, a, shmem_atomic_swap(x, b, right)); \
        shmem_barrier_all();                                                    \
        MP_EXPECT_VAL(T, "shmem_atomic_swap: value seen by the owner (" #T ")", 0, \
                      (T)(mp_left() * 2 + 0.25), *x);                           \
        shmem_barrier_all();                                                    \
    }
GEN_EXT_TYPES(GEN_EXT)

#define GEN_BIT(NAME, T, K)                                                     \
    static void gen_bit_##NAME(void)                                            \
    {                                                                           \
        const int right = mp_right();                                           \
        T *x = (T *)g_slot;                                                     \
        uint64_t s = mp_pe_stream(mp_me, mp_tag("g_bit_" #NAME, 0));            \
        const T a = (T)mp_rand64(&s), m = (T)mp_rand64(&s);                     \
        shmem_atomic_set(x, a, right);                                          \
        shmem_quiet();                                                          \
        MP_EXPECT_VAL(T, "shmem_atomic_fetch_and (" #T ")", 0, a,               \
                      shmem_atomic_fetch_and(x, m, right));                     \
        MP_EXPECT_VAL(T, "shmem_atomic_fetch after fetch_and (" #T ")", 0, (T)(a & m), \
                      shmem_atomic_fetch(x, right));                            \
        shmem_barrier_all();                                                    \
    }
GEN_BIT_TYPES(GEN_BIT)

#define GEN_SYNC(NAME, T, K)                                                    \
    static void gen_sync_##NAME(void)                                           \
    {                                                                           \
        T *v = (T *)g_slot;                                                     \
        const T zero = (T)0, mine = (T)(mp_left() + 1);                         \
        *v = zero;                                                              \
        shmem_barrier_all();                                                    \
        MP_CHECK_EQ("shmem_test before the update (" #T ")", 0,                 \
                    shmem_test(v, SHMEM_CMP_NE, zero));                         \
        shmem_barrier_all();                                                    \
        shmem_atomic_set(v, (T)(mp_me + 1), mp_right());                        \
        shmem_wait_until(v, SHMEM_CMP_EQ, mine);                                \
        MP_EXPECT_VAL(T, "shmem_wait_until: value on return (" #T ")", 0, mine, *v); \
        MP_CHECK_EQ("shmem_test after the update (" #T ")", 1,                  \
                    shmem_test(v, SHMEM_CMP_GE, mine));                         \
        shmem_barrier_all();                                                    \
    }
GEN_AMO_TYPES(GEN_SYNC)

/* Context forms: shmem_put(ctx, ...), shmem_g(ctx, ...), shmem_atomic_fetch_add(ctx, ...), ...
 * on a created context over a team of the odd/even... (WORLD here, PE numbers unchanged). */
#define GEN_CTX(NAME, T, K)                                                     \
    static void gen_ctx_##NAME(shmem_ctx_t ctx)                                 \
    {                                                                           \
        const int right = mp_right(), left = mp_left();                         \
        T *d = (T *)g_sdst + 1, *ls = (T *)g_lsrc, *ld = (T *)g_ldst + 1;       \
        const uint64_t t_put = mp_tag("gc_" #NAME, 1);                          \
        mp_poison(g_sdst, GBYTES);                                              \
        shmem_barrier_all();                                                    \
        mpt_fill_##NAME(ls, GN, mp_me, t_put);                                  \
        shmem_put(ctx, d, ls, GN - 1, right);                                   \
        shmem_p(ctx, d + GN - 1, ls[GN - 1], right);                            \
        shmem_ctx_quiet(ctx);                                                   \
        shmem_barrier_all();                                                    \
        mpt_check_##NAME("shmem_put(ctx) (" #T ")", d, GN, 1, 1, left, t_put);  \
        mp_poison(g_ldst, GBYTES);                                              \
        shmem_get(ctx, ld, d, GN, right);                                       \
        mpt_check_##NAME("shmem_get(ctx) (" #T ")", ld, GN, 1, 1, mp_me, t_put); \
        MP_EXPECT_VAL(T, "shmem_g(ctx) (" #T ")", 7, ls[7], shmem_g(ctx, (const T *)d + 7, right)); \
        shmem_barrier_all();                                                    \
    }
#define GEN_CTX_AMO(NAME, T, K)                                                 \
    static void gen_ctx_amo_##NAME(shmem_ctx_t ctx)                             \
    {                                                                           \
        T *c = (T *)g_slot;                                                     \
        *c = 0;                                                                 \
        shmem_barrier_all();                                                    \
        shmem_atomic_add(ctx, c, (T)1, 0);                                      \
        (void)shmem_atomic_fetch_add(ctx, c, (T)2, 0);                          \
        shmem_atomic_inc(ctx, c, 0);                                            \
        shmem_ctx_quiet(ctx);                                                   \
        shmem_barrier_all();                                                    \
        if (mp_me == 0) MP_CHECK_EQ("context atomics (" #T ")", (long long)(4 * mp_npes), (long long)shmem_atomic_fetch(ctx, c, 0)); \
        shmem_barrier_all();                                                    \
    }
GEN_RMA_TYPES(GEN_CTX)
GEN_AMO_TYPES(GEN_CTX_AMO)

/* Team-based generic collectives (1.5) and both shmem_sync forms. Values are fresh per run. */
static void gen_team_colls(void)
{
    static long pSync[SHMEM_SYNC_SIZE];
    static int isrc[4], idst[4];
    static double dsrc[2], ddst[2];
    static long double ldsrc[2], lddst[2];
    static unsigned usrc[1], udst[1];
    static char csrc[1], cdst[1];
    static long lsrc[4], ldst[4 * 64];
    const int n = mp_npes, me = mp_me;
    uint64_t st = mp_pe_stream(0, mp_tag("gen_team_colls", 0)); /* the same on every PE */
    const int salt = (int)(mp_rand64(&st) % 1000);
    for (int i = 0; i < SHMEM_SYNC_SIZE; i++) pSync[i] = SHMEM_SYNC_VALUE;
    for (int i = 0; i < 4; i++) isrc[i] = salt + me * 4 + i, idst[i] = -1;
    dsrc[0] = me + 0.5; dsrc[1] = salt;
    ldsrc[0] = me; ldsrc[1] = 1;
    usrc[0] = 1u << (me % 32);
    csrc[0] = (char)(me % 100);
    for (int i = 0; i < 4; i++) lsrc[i] = (long)salt * 1000 + me * 10 + i;
    for (int i = 0; i < 4 * 64; i++) ldst[i] = -1;
    shmem_barrier_all();
    MP_CHECK_EQ("shmem_sum_reduce(team, int) returns", 0, shmem_sum_reduce(SHMEM_TEAM_WORLD, idst, isrc, 4));
    for (int i = 0; i < 4; i++)
        MP_CHECK_EQ("shmem_sum_reduce(team, int)", (long long)n * (salt + i) + 4LL * n * (n - 1) / 2, idst[i]);
    shmem_prod_reduce(SHMEM_TEAM_WORLD, lddst, ldsrc + 1, 1);
    MP_CHECK_EQ("shmem_prod_reduce(team, long double)", 1, (long long)lddst[0]);
    shmem_max_reduce(SHMEM_TEAM_WORLD, ddst, dsrc, 1);
    MP_CHECK_EQ("shmem_max_reduce(team, double) x2", 2 * (n - 1) + 1, (long long)(2 * ddst[0]));
    shmem_min_reduce(SHMEM_TEAM_WORLD, cdst, csrc, 1);
    MP_CHECK_EQ("shmem_min_reduce(team, char)", 0, cdst[0]);
    shmem_or_reduce(SHMEM_TEAM_WORLD, udst, usrc, 1);
    MP_CHECK_EQ("shmem_or_reduce(team, unsigned)", n >= 32 ? 0xffffffffLL : (long long)((1u << n) - 1), udst[0]);
    shmem_broadcast(SHMEM_TEAM_WORLD, ldst, lsrc, 4, n - 1);
    for (int i = 0; i < 4; i++)
        MP_CHECK_EQ("shmem_broadcast(team, long)", (long long)salt * 1000 + (n - 1) * 10 + i, ldst[i]);
    shmem_fcollect(SHMEM_TEAM_WORLD, ldst, lsrc, 4);
    for (int i = 0; i < 4 * n && n <= 64; i++)
        MP_CHECK_EQ("shmem_fcollect(team, long)", (long long)salt * 1000 + (i / 4) * 10 + i % 4, ldst[i]);
    shmem_collect(SHMEM_TEAM_WORLD, ldst, lsrc, 1);
    for (int i = 0; i < n && n <= 64; i++)
        MP_CHECK_EQ("shmem_collect(team, long)", (long long)salt * 1000 + i * 10, ldst[i]);
    shmem_alltoall(SHMEM_TEAM_WORLD, ldst, lsrc, 1); /* n <= 4 here: source has 4 elements */
    if (n <= 4)
        for (int i = 0; i < n; i++)
            MP_CHECK_EQ("shmem_alltoall(team, long)", (long long)salt * 1000 + i * 10 + me, ldst[i]);
    shmem_alltoalls(SHMEM_TEAM_WORLD, ldst, lsrc, 1, 1, 1);
    if (n <= 4)
        for (int i = 0; i < n; i++)
            MP_CHECK_EQ("shmem_alltoalls(team, long)", (long long)salt * 1000 + i * 10 + me, ldst[i]);
    MP_CHECK_EQ("shmem_sync(team)", 0, shmem_sync(SHMEM_TEAM_WORLD));
    shmem_sync(0, 0, n, pSync); /* the deprecated active-set form */
    shmem_barrier_all();
}

static void generic_main(const char *name)
{
    mp_init(name);
    g_sdst = (unsigned char *)shmem_malloc(GBYTES);
    g_ssrc = (unsigned char *)shmem_malloc(GBYTES);
    g_slot = (unsigned char *)shmem_malloc(64);
    g_sig = (uint64_t *)shmem_malloc(sizeof(uint64_t));
    g_lsrc = (unsigned char *)malloc(GBYTES);
    g_ldst = (unsigned char *)malloc(GBYTES);
    MP_CHECK(g_sdst && g_ssrc && g_slot && g_sig && g_lsrc && g_ldst,
             "allocation (expected non-NULL got NULL)");

#define GEN_RUN_RMA(NAME, T, K) gen_rma_##NAME();
#define GEN_RUN_AMO(NAME, T, K) gen_amo_##NAME(); gen_sync_##NAME();
#define GEN_RUN_EXT(NAME, T, K) gen_ext_##NAME();
#define GEN_RUN_BIT(NAME, T, K) gen_bit_##NAME();
    GEN_RMA_TYPES(GEN_RUN_RMA)
    GEN_AMO_TYPES(GEN_RUN_AMO)
    GEN_EXT_TYPES(GEN_RUN_EXT)
    GEN_BIT_TYPES(GEN_RUN_BIT)
    {
        shmem_ctx_t ctx = SHMEM_CTX_INVALID;
        MP_CHECK(shmem_ctx_create(SHMEM_CTX_PRIVATE, &ctx) == 0, "shmem_ctx_create failed");
#define GEN_RUN_CTX(NAME, T, K) gen_ctx_##NAME(ctx);
#define GEN_RUN_CTX_AMO(NAME, T, K) gen_ctx_amo_##NAME(ctx);
        GEN_RMA_TYPES(GEN_RUN_CTX)
        GEN_AMO_TYPES(GEN_RUN_CTX_AMO)
        shmem_ctx_destroy(ctx);
    }
    gen_team_colls();

    free(g_ldst);
    free(g_lsrc);
    shmem_free(g_sig);
    shmem_free(g_slot);
    shmem_free(g_ssrc);
    shmem_free(g_sdst);
    mp_pass();
    shmem_finalize();
}

#endif /* GSHMEM_TESTS_MP_GENERIC_COMMON_H */
