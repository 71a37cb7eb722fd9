/* Point-to-point synchronization (OpenSHMEM 1.5):
 *  - shmem_TYPE_wait_until / shmem_TYPE_test for every sync type and every
 *    comparison (EQ NE GT GE LT LE),
 *  - wait_until_{all,any,some}[_vector] and test_{all,any,some}[_vector] with
 *    a status array that excludes some entries,
 *  - ordering: putmem + fence + int_p(flag) => the payload is complete when
 *    the flag is seen (200 iterations),
 *  - progress: a put without quiet becomes visible to a PE polling
 *    shmem_int_test.
 * Each PE updates the variables of its right neighbour with
 * shmem_TYPE_atomic_set and waits on its own. */
#include "mp_util.h"

#define NCMP 6
static const int cmps[NCMP] = {SHMEM_CMP_EQ, SHMEM_CMP_NE, SHMEM_CMP_GT,
                               SHMEM_CMP_GE, SHMEM_CMP_LT, SHMEM_CMP_LE};
static const char *const cmp_names[NCMP] = {"EQ", "NE", "GT", "GE", "LT", "LE"};
/* offsets from the comparison value: one value that fails, two that pass */
static const int off_false[NCMP] = {+1, 0, 0, -1, 0, +1};
static const int off_true1[NCMP] = {0, +5, +1, 0, -1, 0};
static const int off_true2[NCMP] = {0, -7, +1000, +3, -1000, -3};

#define NV 7
static const int status[NV] = {0, 0, 1, 0, 0, 1, 0}; /* 1 = excluded */
static const int all_excluded[NV] = {1, 1, 1, 1, 1, 1, 1};
#define UNMASKED 0x5Bu /* bits of the included entries: 0 1 3 4 6 */

static unsigned char *single; /* symmetric: NCMP variables */
static unsigned char *group;  /* symmetric: NV variables */

static size_t pick_unmasked(uint64_t *s)
{
    static const size_t inc[] = {0, 1, 3, 4, 6};
    return inc[mp_rand64(s) % 5];
}

static unsigned pick_subset(uint64_t *s)
{
    unsigned m;
    do
        m = (unsigned)mp_rand64(s) & UNMASKED;
    while (m == 0);
    return m;
}

/* The n indices must be distinct members of `allowed`; with `exact` they must
 * be all of them. */
static void check_indices(const char *what, const size_t *idx, size_t n, unsigned allowed,
                          int exact)
{
    unsigned seen = 0;
    if (n == 0 || n > NV)
        mp_fail("%s: returned count (expected 1..%d got %zu)", what, NV, n);
    for (size_t i = 0; i < n; i++) {
        if (idx[i] >= NV || !(allowed & (1u << idx[i])) || (seen & (1u << idx[i])))
            mp_fail("%s: index %zu of %zu is not a new satisfied, included entry "
                    "(expected one of mask 0x%x got %zu)", what, i, n, allowed & ~seen, idx[i]);
        seen |= 1u << idx[i];
    }
    if (exact && seen != allowed)
        mp_fail("%s: returned set (expected mask 0x%x got mask 0x%x)", what, allowed, seen);
}

#define DEF_SYNC(NAME, T, K)                                                    \
    static T base_##NAME(uint64_t *s)                                           \
    {                                                                           \
        T c = (T)(mp_rand64(s) % 1000000 + 1000);                               \
        if (MP_IS_SIGNED(T))                                                    \
            c = (T)(c - 500000);                                                \
        return c;                                                               \
    }                                                                           \
    static void single_##NAME(void)                                             \
    {                                                                           \
        const int right = mp_right();                                           \
        T *iv = (T *)single, cv[NCMP], wcv[NCMP];                               \
        uint64_t so = mp_pe_stream(mp_me, mp_tag(#NAME, 1));                    \
        uint64_t sw = mp_pe_stream(right, mp_tag(#NAME, 1));                    \
        for (int k = 0; k < NCMP; k++) {                                        \
            cv[k] = base_##NAME(&so);                                           \
            wcv[k] = base_##NAME(&sw);                                          \
            iv[k] = (T)(cv[k] + off_false[k]);                                  \
        }                                                                       \
        shmem_barrier_all();                                                    \
        for (int k = 0; k < NCMP; k++) {                                        \
            int r = shmem_##NAME##_test(&iv[k], cmps[k], cv[k]);                \
            if (r != 0)                                                         \
                mp_fail("shmem_" #NAME "_test %s before the update (expected 0 got %d)", \
                        cmp_names[k], r);                                       \
        }                                                                       \
        shmem_barrier_all();                                                    \
        for (int k = NCMP - 1; k >= 0; k--)                                     \
            shmem_##NAME##_atomic_set(&iv[k], (T)(wcv[k] + off_true1[k]), right); \
        for (int k = 0; k < NCMP; k++) {                                        \
            shmem_##NAME##_wait_until(&iv[k], cmps[k], cv[k]);                  \
            MP_EXPECT_VAL(T, "shmem_" #NAME "_wait_until: value on return", k,  \
                          (T)(cv[k] + off_true1[k]), iv[k]);                    \
            MP_CHECK_EQ("shmem_" #NAME "_test after wait_until", 1,             \
                        shmem_##NAME##_test(&iv[k], cmps[k], cv[k]));           \
        }                                                                       \
        shmem_barrier_all();                                                    \
        for (int k = 0; k < NCMP; k++)                                          \
            iv[k] = (T)(cv[k] + off_false[k]);                                  \
        shmem_barrier_all();                                                    \
        for (int k = 0; k < NCMP; k++)                                          \
            shmem_##NAME##_atomic_set(&iv[k], (T)(wcv[k] + off_true2[k]), right); \
        for (int k = 0; k < NCMP; k++) {                                        \
            MP_POLL(shmem_##NAME##_test(&iv[k], cmps[k], cv[k]),                \
                    "shmem_" #NAME "_test %s never saw the update (expected 1 got 0)", \
                    cmp_names[k]);                                              \
            MP_EXPECT_VAL(T, "shmem_" #NAME "_test: value after success", k,    \
                          (T)(cv[k] + off_true2[k]), iv[k]);                    \
        }                                                                       \
        shmem_barrier_all();                                                    \
    }                                                                           \
                                                                                \
    static void group_##NAME(void)                                              \
    {                                                                           \
        const int right = mp_right();                                           \
        T *gv = (T *)group, cvv[NV], wcvv[NV];                                  \
        size_t idx[NV], r;                                                      \
        uint64_t so = mp_pe_stream(mp_me, mp_tag(#NAME, 2));                    \
        uint64_t sw = mp_pe_stream(right, mp_tag(#NAME, 2));                    \
        const T V = base_##NAME(&so), WV = base_##NAME(&sw);                    \
        for (int i = 0; i < NV; i++) {                                          \
            cvv[i] = base_##NAME(&so);                                          \
            wcvv[i] = base_##NAME(&sw);                                         \
        }                                                                       \
        const size_t k1 = pick_unmasked(&so), wk1 = pick_unmasked(&sw);         \
        const size_t k2 = pick_unmasked(&so), wk2 = pick_unmasked(&sw);         \
        const unsigned m1 = pick_subset(&so), wm1 = pick_subset(&sw);           \
        const unsigned m2 = pick_subset(&so), wm2 = pick_subset(&sw);           \
                                                                                \
        /* wait_until_all, EQ */                                                \
        for (int i = 0; i < NV; i++)                                            \
            gv[i] = (T)(V - 1);                                                 \
        shmem_barrier_all();                                                    \
        MP_CHECK_EQ("shmem_" #NAME "_test_all before update", 0,                \
                    shmem_##NAME##_test_all(gv, NV, status, SHMEM_CMP_EQ, V));  \
        MP_CHECK_EQ("shmem_" #NAME "_test_any before update", (long long)SIZE_MAX, \
                    shmem_##NAME##_test_any(gv, NV, status, SHMEM_CMP_EQ, V));  \
        MP_CHECK_EQ("shmem_" #NAME "_test_some before update", 0,               \
                    shmem_##NAME##_test_some(gv, NV, idx, status, SHMEM_CMP_EQ, V)); \
        shmem_barrier_all();                                                    \
        for (int i = NV - 1; i >= 0; i--)                                       \
            if (!status[i])                                                     \
                shmem_##NAME##_atomic_set(&gv[i], WV, right);                   \
        shmem_##NAME##_wait_until_all(gv, NV, status, SHMEM_CMP_EQ, V);         \
        for (int i = 0; i < NV; i++)                                            \
            MP_EXPECT_VAL(T, "shmem_" #NAME "_wait_until_all: value on return", i, \
                          status[i] ? (T)(V - 1) : V, gv[i]);                   \
        MP_CHECK_EQ("shmem_" #NAME "_test_all (masked)", 1,                     \
                    shmem_##NAME##_test_all(gv, NV, status, SHMEM_CMP_EQ, V));  \
        MP_CHECK_EQ("shmem_" #NAME "_test_all (status NULL)", 0,                \
                    shmem_##NAME##_test_all(gv, NV, NULL, SHMEM_CMP_EQ, V));    \
        r = shmem_##NAME##_test_some(gv, NV, idx, status, SHMEM_CMP_EQ, V);     \
        check_indices("shmem_" #NAME "_test_some", idx, r, UNMASKED, 1);        \
        r = shmem_##NAME##_test_any(gv, NV, status, SHMEM_CMP_EQ, V);           \
        check_indices("shmem_" #NAME "_test_any", &r, 1, UNMASKED, 0);          \
        shmem_barrier_all();                                                    \
                                                                                \
        /* wait_until_any, GT; the excluded entry 2 is set first */             \
        for (int i = 0; i < NV; i++)                                            \
            gv[i] = V;                                                          \
        shmem_barrier_all();                                                    \
        MP_CHECK_EQ("shmem_" #NAME "_test_any before update", (long long)SIZE_MAX, \
                    shmem_##NAME##_test_any(gv, NV, status, SHMEM_CMP_GT, V));  \
        shmem_barrier_all();                                                    \
        shmem_##NAME##_atomic_set(&gv[2], (T)(WV + 1), right);                  \
        shmem_##NAME##_atomic_set(&gv[wk1], (T)(WV + 1), right);                \
        r = shmem_##NAME##_wait_until_any(gv, NV, status, SHMEM_CMP_GT, V);     \
        MP_CHECK_EQ("shmem_" #NAME "_wait_until_any index", k1, r);             \
        MP_CHECK_EQ("shmem_" #NAME "_test_any index", k1,                       \
                    shmem_##NAME##_test_any(gv, NV, status, SHMEM_CMP_GT, V));  \
        r = shmem_##NAME##_test_any(gv, NV, NULL, SHMEM_CMP_GT, V);             \
        check_indices("shmem_" #NAME "_test_any (status NULL)", &r, 1,          \
                      (1u << k1) | (1u << 2), 0);                               \
        /* empty wait sets return at once */                                    \
        MP_CHECK_EQ("shmem_" #NAME "_wait_until_any, all excluded", (long long)SIZE_MAX, \
                    shmem_##NAME##_wait_until_any(gv, NV, all_excluded, SHMEM_CMP_EQ, V)); \
        MP_CHECK_EQ("shmem_" #NAME "_wait_until_any, nelems 0", (long long)SIZE_MAX, \
                    shmem_##NAME##_wait_until_any(gv, 0, NULL, SHMEM_CMP_EQ, V)); \
        MP_CHECK_EQ("shmem_" #NAME "_wait_until_some, all excluded", 0,         \
                    shmem_##NAME##_wait_until_some(gv, NV, idx, all_excluded, SHMEM_CMP_EQ, V)); \
        MP_CHECK_EQ("shmem_" #NAME "_test_some, all excluded", 0,               \
                    shmem_##NAME##_test_some(gv, NV, idx, all_excluded, SHMEM_CMP_GT, V)); \
        shmem_##NAME##_wait_until_all(gv, NV, all_excluded, SHMEM_CMP_EQ, (T)(V + 12345)); \
        shmem_barrier_all();                                                    \
                                                                                \
        /* wait_until_some, LE */                                               \
        for (int i = 0; i < NV; i++)                                            \
            gv[i] = (T)(V + 1);                                                 \
        shmem_barrier_all();                                                    \
        MP_CHECK_EQ("shmem_" #NAME "_test_some before update", 0,               \
                    shmem_##NAME##_test_some(gv, NV, idx, status, SHMEM_CMP_LE, V)); \
        shmem_barrier_all();                                                    \
        shmem_##NAME##_atomic_set(&gv[5], (T)(WV - 1), right);                  \
        for (int i = 0; i < NV; i++)                                            \
            if (wm1 & (1u << i))                                                \
                shmem_##NAME##_atomic_set(&gv[i], (T)(WV - i), right);          \
        r = shmem_##NAME##_wait_until_some(gv, NV, idx, status, SHMEM_CMP_LE, V); \
        check_indices("shmem_" #NAME "_wait_until_some", idx, r, m1, 0);        \
        for (size_t j = 0; j < r; j++)                                          \
            MP_EXPECT_VAL(T, "shmem_" #NAME "_wait_until_some: value", idx[j],  \
                          (T)(V - idx[j]), gv[idx[j]]);                         \
        shmem_barrier_all(); /* all updates complete */                         \
        r = shmem_##NAME##_test_some(gv, NV, idx, status, SHMEM_CMP_LE, V);     \
        check_indices("shmem_" #NAME "_test_some after all updates", idx, r, m1, 1); \
        shmem_barrier_all();                                                    \
                                                                                \
        /* wait_until_all_vector, GE */                                         \
        for (int i = 0; i < NV; i++)                                            \
            gv[i] = (T)(cvv[i] - 1);                                            \
        shmem_barrier_all();                                                    \
        MP_CHECK_EQ("shmem_" #NAME "_test_all_vector before update", 0,         \
                    shmem_##NAME##_test_all_vector(gv, NV, status, SHMEM_CMP_GE, cvv)); \
        MP_CHECK_EQ("shmem_" #NAME "_test_any_vector before update", (long long)SIZE_MAX, \
                    shmem_##NAME##_test_any_vector(gv, NV, status, SHMEM_CMP_GE, cvv)); \
        MP_CHECK_EQ("shmem_" #NAME "_test_some_vector before update", 0,        \
                    shmem_##NAME##_test_some_vector(gv, NV, idx, status, SHMEM_CMP_GE, cvv)); \
        shmem_barrier_all();                                                    \
        for (int i = 0; i < NV; i++)                                            \
            if (!status[i])                                                     \
                shmem_##NAME##_atomic_set(&gv[i], (T)(wcvv[i] + i), right);     \
        shmem_##NAME##_wait_until_all_vector(gv, NV, status, SHMEM_CMP_GE, cvv); \
        for (int i = 0; i < NV; i++)                                            \
            MP_EXPECT_VAL(T, "shmem_" #NAME "_wait_until_all_vector: value", i, \
                          (T)(status[i] ? cvv[i] - 1 : cvv[i] + i), gv[i]);     \
        MP_CHECK_EQ("shmem_" #NAME "_test_all_vector (masked)", 1,              \
                    shmem_##NAME##_test_all_vector(gv, NV, status, SHMEM_CMP_GE, cvv)); \
        MP_CHECK_EQ("shmem_" #NAME "_test_all_vector (status NULL)", 0,         \
                    shmem_##NAME##_test_all_vector(gv, NV, NULL, SHMEM_CMP_GE, cvv)); \
        shmem_barrier_all();                                                    \
                                                                                \
        /* wait_until_any_vector, EQ; excluded entry 5 set first */             \
        for (int i = 0; i < NV; i++)                                            \
            gv[i] = (T)(cvv[i] + 1);                                            \
        shmem_barrier_all();                                                    \
        shmem_##NAME##_atomic_set(&gv[5], wcvv[5], right);                      \
        shmem_##NAME##_atomic_set(&gv[wk2], wcvv[wk2], right);                  \
        r = shmem_##NAME##_wait_until_any_vector(gv, NV, status, SHMEM_CMP_EQ, cvv); \
        MP_CHECK_EQ("shmem_" #NAME "_wait_until_any_vector index", k2, r);      \
        MP_CHECK_EQ("shmem_" #NAME "_test_any_vector index", k2,                \
                    shmem_##NAME##_test_any_vector(gv, NV, status, SHMEM_CMP_EQ, cvv)); \
        shmem_barrier_all();                                                    \
                                                                                \
        /* wait_until_some_vector, NE; excluded entry 2 changed too */          \
        for (int i = 0; i < NV; i++)                                            \
            gv[i] = cvv[i];                                                     \
        shmem_barrier_all();                                                    \
        shmem_##NAME##_atomic_set(&gv[2], (T)(wcvv[2] + 3), right);             \
        for (int i = 0; i < NV; i++)                                            \
            if (wm2 & (1u << i))                                                \
                shmem_##NAME##_atomic_set(&gv[i], (T)(wcvv[i] + 1 + i), right); \
        r = shmem_##NAME##_wait_until_some_vector(gv, NV, idx, status, SHMEM_CMP_NE, cvv); \
        check_indices("shmem_" #NAME "_wait_until_some_vector", idx, r, m2, 0); \
        shmem_barrier_all();                                                    \
        r = shmem_##NAME##_test_some_vector(gv, NV, idx, status, SHMEM_CMP_NE, cvv); \
        check_indices("shmem_" #NAME "_test_some_vector after all updates", idx, r, m2, 1); \
        shmem_barrier_all();                                                    \
    }
MP_SYNC_TYPES(DEF_SYNC)

#define ORD_ITERS 200
#define ORD_BYTES ((size_t)128 * 1024)

static void ordering(void)
{
    const int right = mp_right(), left = mp_left();
    unsigned char *buf = (unsigned char *)shmem_malloc(ORD_BYTES);
    int *flag = (int *)shmem_calloc(2, sizeof(int)); /* [0] data flag, [1] ack */
    unsigned char *src = (unsigned char *)malloc(ORD_BYTES);
    MP_CHECK(buf && flag && src, "allocation (expected non-NULL got NULL)");
    mp_poison(buf, ORD_BYTES);
    shmem_barrier_all();
    for (int it = 1; it <= ORD_ITERS; it++) {
        const uint64_t tag = mp_tag("ordering", (uint64_t)it);
        mp_fill(src, ORD_BYTES, mp_me, tag);
        shmem_putmem(buf, src, ORD_BYTES, right);
        shmem_fence();
        shmem_int_p(&flag[0], it, right);

        shmem_int_wait_until(&flag[0], SHMEM_CMP_EQ, it);
        mp_check_bytes("payload of shmem_putmem + shmem_fence when shmem_int_p's flag is seen",
                       buf, ORD_BYTES, left, tag);
        shmem_int_p(&flag[1], it, left); /* our buffer may be overwritten again */
        shmem_int_wait_until(&flag[1], SHMEM_CMP_EQ, it);
    }
    shmem_barrier_all();
    free(src);
    shmem_free(flag);
    shmem_free(buf);
}

static void progress(void)
{
    int *pf = (int *)shmem_calloc(1, sizeof(int));
    const int one = 1;
    MP_CHECK(pf != NULL, "shmem_calloc (expected non-NULL got NULL)");
    shmem_barrier_all();
    shmem_int_put(pf, &one, 1, mp_right()); /* no quiet, no barrier before the poll */
    MP_POLL(shmem_int_test(pf, SHMEM_CMP_EQ, 1),
            "shmem_int_put from pe %d without shmem_quiet never became visible to "
            "shmem_int_test (expected 1 got %d)", mp_left(), *pf);
    shmem_barrier_all();
    shmem_free(pf);
}

int main(void)
{
    mp_init("sync");
    single = (unsigned char *)shmem_malloc(NCMP * 8);
    group = (unsigned char *)shmem_malloc(NV * 8);
    MP_CHECK(single && group, "shmem_malloc (expected non-NULL got NULL)");

#define RUN(NAME, T, K) single_##NAME(); group_##NAME();
    MP_SYNC_TYPES(RUN)
#undef RUN
    ordering();
    progress();

    shmem_free(group);
    shmem_free(single);
    mp_pass();
    shmem_finalize();
    return 0;
}
