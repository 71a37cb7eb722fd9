/* Atomic memory operations (OpenSHMEM 1.5):
 *  - standard AMOs (fetch, set, compare_swap, swap, fetch_inc, inc,
 *    fetch_add, add) for every standard AMO type,
 *  - extended AMOs (fetch, set, swap) for float and double,
 *  - bitwise AMOs (fetch_and, and, fetch_or, or, fetch_xor, xor),
 *  - the non-blocking fetching forms (*_nbi) completed by shmem_quiet.
 * Every PE operates on a variable of its right neighbour, which no other PE
 * touches, so every returned value is known exactly. The owner then checks
 * the final value in its own memory by replaying the left PE's stream. */
#include "mp_util.h"

static unsigned char *slot; /* symmetric, 64 bytes */

/* Values used against the variable of PE `owner` by its left neighbour. */
#define DEF_VALS(NAME, T, K)                                                    \
    struct vals_##NAME {                                                        \
        T a, b, c, d, m[6];                                                     \
    };                                                                          \
    static struct vals_##NAME vals_##NAME(int writer, uint64_t op)              \
    {                                                                           \
        struct vals_##NAME v;                                                   \
        uint64_t s = mp_pe_stream(writer, mp_tag(#NAME, op));                   \
        v.a = MP_RAND(K, T, &s);                                                \
        do                                                                      \
            v.b = MP_RAND(K, T, &s);                                            \
        while (v.b == v.a);                                                     \
        /* c, d small: c + 2 + 2d never overflows a signed type */              \
        v.c = (T)((int64_t)(mp_rand64(&s) % 2000001) - 1000000);                \
        v.d = (T)((int64_t)(mp_rand64(&s) % 2001) - 1000);                      \
        if (v.c == v.b)                                                         \
            v.c = (T)(v.b + 1);                                                 \
        for (int i = 0; i < 6; i++)                                             \
            v.m[i] = MP_RAND(K, T, &s);                                         \
        return v;                                                               \
    }
MP_AMO_STD_TYPES(DEF_VALS)
MP_AMO_EXT_FP_TYPES(DEF_VALS)

#define FN(NAME, OP) "shmem_" #NAME "_atomic_" #OP
#define EXPECT(T, what, expected, got) MP_EXPECT_VAL(T, what, 0, expected, got)

/* Final value check by the owner, after a barrier. */
#define OWNER_CHECK(T, what, expected)                                          \
    do {                                                                        \
        shmem_barrier_all();                                                    \
        EXPECT(T, what " (final value seen by the owner)", (expected), *x);     \
        shmem_barrier_all();                                                    \
    } while (0)

#define DEF_STD(NAME, T, K)                                                     \
    static void std_##NAME(void)                                                \
    {                                                                           \
        const int right = mp_right();                                           \
        T *x = (T *)slot;                                                       \
        struct vals_##NAME v = vals_##NAME(mp_me, 1);                           \
        struct vals_##NAME w = vals_##NAME(mp_left(), 1);                       \
        shmem_##NAME##_atomic_set(x, v.a, right);                               \
        shmem_quiet();                                                          \
        EXPECT(T, FN(NAME, fetch) " after set", v.a, shmem_##NAME##_atomic_fetch(x, right)); \
        EXPECT(T, FN(NAME, compare_swap) " (no match) return", v.a,             \
               shmem_##NAME##_atomic_compare_swap(x, (T)(v.a ^ 1), v.b, right)); \
        EXPECT(T, FN(NAME, fetch) " after failed compare_swap", v.a,            \
               shmem_##NAME##_atomic_fetch(x, right));                          \
        EXPECT(T, FN(NAME, compare_swap) " (match) return", v.a,                \
               shmem_##NAME##_atomic_compare_swap(x, v.a, v.b, right));         \
        EXPECT(T, FN(NAME, swap) " return", v.b, shmem_##NAME##_atomic_swap(x, v.c, right)); \
        EXPECT(T, FN(NAME, fetch_inc) " return", v.c, shmem_##NAME##_atomic_fetch_inc(x, right)); \
        shmem_##NAME##_atomic_inc(x, right);                                    \
        shmem_quiet();                                                          \
        EXPECT(T, FN(NAME, fetch_add) " return", (T)(v.c + 2),                  \
               shmem_##NAME##_atomic_fetch_add(x, v.d, right));                 \
        shmem_##NAME##_atomic_add(x, v.d, right);                               \
        shmem_quiet();                                                          \
        EXPECT(T, FN(NAME, fetch) " after add", (T)(v.c + 2 + 2 * v.d),         \
               shmem_##NAME##_atomic_fetch(x, right));                          \
        OWNER_CHECK(T, FN(NAME, add), (T)(w.c + 2 + 2 * w.d));                  \
                                                                                \
        /* non-blocking fetching forms */                                       \
        T f[8];                                                                 \
        mp_poison(f, sizeof f);                                                 \
        shmem_##NAME##_atomic_set(x, v.a, right);                               \
        shmem_quiet();                                                          \
        shmem_##NAME##_atomic_fetch_nbi(&f[0], x, right);                       \
        shmem_quiet();                                                          \
        EXPECT(T, FN(NAME, fetch_nbi), v.a, f[0]);                              \
        shmem_##NAME##_atomic_swap_nbi(&f[1], x, v.b, right);                   \
        shmem_quiet();                                                          \
        EXPECT(T, FN(NAME, swap_nbi), v.a, f[1]);                               \
        shmem_##NAME##_atomic_compare_swap_nbi(&f[2], x, v.b, v.c, right);      \
        shmem_quiet();                                                          \
        EXPECT(T, FN(NAME, compare_swap_nbi) " (match)", v.b, f[2]);            \
        shmem_##NAME##_atomic_compare_swap_nbi(&f[3], x, v.b, v.a, right);      \
        shmem_quiet();                                                          \
        EXPECT(T, FN(NAME, compare_swap_nbi) " (no match)", v.c, f[3]);         \
        shmem_##NAME##_atomic_fetch_inc_nbi(&f[4], x, right);                   \
        shmem_quiet();                                                          \
        EXPECT(T, FN(NAME, fetch_inc_nbi), v.c, f[4]);                          \
        shmem_##NAME##_atomic_fetch_add_nbi(&f[5], x, v.d, right);              \
        shmem_quiet();                                                          \
        EXPECT(T, FN(NAME, fetch_add_nbi), (T)(v.c + 1), f[5]);                 \
        mp_check_poison(FN(NAME, *_nbi) " wrote past its fetch object", &f[6], 2 * sizeof(T)); \
        OWNER_CHECK(T, FN(NAME, fetch_add_nbi), (T)(w.c + 1 + w.d));            \
    }
MP_AMO_STD_TYPES(DEF_STD)

#define DEF_EXT(NAME, T, K)                                                     \
    static void ext_##NAME(void)                                                \
    {                                                                           \
        const int right = mp_right();                                           \
        T *x = (T *)slot;                                                       \
        struct vals_##NAME v = vals_##NAME(mp_me, 2);                           \
        struct vals_##NAME w = vals_##NAME(mp_left(), 2);                       \
        T f[2];                                                                 \
        shmem_##NAME##_atomic_set(x, v.a, right);                               \
        shmem_quiet();                                                          \
        EXPECT(T, FN(NAME, fetch) " after set", v.a, shmem_##NAME##_atomic_fetch(x, right)); \
        EXPECT(T, FN(NAME, swap) " return", v.a, shmem_##NAME##_atomic_swap(x, v.b, right)); \
        EXPECT(T, FN(NAME, fetch) " after swap", v.b, shmem_##NAME##_atomic_fetch(x, right)); \
        shmem_##NAME##_atomic_fetch_nbi(&f[0], x, right);                       \
        shmem_quiet();                                                          \
        EXPECT(T, FN(NAME, fetch_nbi), v.b, f[0]);                              \
        shmem_##NAME##_atomic_swap_nbi(&f[1], x, v.m[0], right);                \
        shmem_quiet();                                                          \
        EXPECT(T, FN(NAME, swap_nbi), v.b, f[1]);                               \
        OWNER_CHECK(T, FN(NAME, swap_nbi), w.m[0]);                             \
    }
MP_AMO_EXT_FP_TYPES(DEF_EXT)

/* Bitwise: vals of the matching standard type are reused. */
#define DEF_BIT(NAME, T, K)                                                     \
    static T bit_expect_##NAME(const struct vals_##NAME *v)                     \
    {                                                                           \
        T r = v->a;                                                             \
        r = (T)(r & v->m[0]); r = (T)(r & v->m[1]);                             \
        r = (T)(r | v->m[2]); r = (T)(r | v->m[3]);                             \
        r = (T)(r ^ v->m[4]); r = (T)(r ^ v->m[5]);                             \
        r = (T)(r & v->m[1]); r = (T)(r | v->m[0]); r = (T)(r ^ v->m[2]);       \
        return r;                                                               \
    }                                                                           \
    static void bit_##NAME(void)                                                \
    {                                                                           \
        const int right = mp_right();                                           \
        T *x = (T *)slot, e, f[3];                                              \
        struct vals_##NAME v = vals_##NAME(mp_me, 3);                           \
        struct vals_##NAME w = vals_##NAME(mp_left(), 3);                       \
        shmem_##NAME##_atomic_set(x, v.a, right);                               \
        shmem_quiet();                                                          \
        e = v.a;                                                                \
        EXPECT(T, FN(NAME, fetch_and), e, shmem_##NAME##_atomic_fetch_and(x, v.m[0], right)); \
        e = (T)(e & v.m[0]);                                                    \
        shmem_##NAME##_atomic_and(x, v.m[1], right);                            \
        shmem_quiet();                                                          \
        e = (T)(e & v.m[1]);                                                    \
        EXPECT(T, FN(NAME, fetch_or) " after and", e,                           \
               shmem_##NAME##_atomic_fetch_or(x, v.m[2], right));               \
        e = (T)(e | v.m[2]);                                                    \
        shmem_##NAME##_atomic_or(x, v.m[3], right);                             \
        shmem_quiet();                                                          \
        e = (T)(e | v.m[3]);                                                    \
        EXPECT(T, FN(NAME, fetch_xor) " after or", e,                           \
               shmem_##NAME##_atomic_fetch_xor(x, v.m[4], right));              \
        e = (T)(e ^ v.m[4]);                                                    \
        shmem_##NAME##_atomic_xor(x, v.m[5], right);                            \
        shmem_quiet();                                                          \
        e = (T)(e ^ v.m[5]);                                                    \
        EXPECT(T, FN(NAME, fetch) " after xor", e, shmem_##NAME##_atomic_fetch(x, right)); \
        shmem_##NAME##_atomic_fetch_and_nbi(&f[0], x, v.m[1], right);           \
        shmem_quiet();                                                          \
        EXPECT(T, FN(NAME, fetch_and_nbi), e, f[0]);                            \
        e = (T)(e & v.m[1]);                                                    \
        shmem_##NAME##_atomic_fetch_or_nbi(&f[1], x, v.m[0], right);            \
        shmem_quiet();                                                          \
        EXPECT(T, FN(NAME, fetch_or_nbi), e, f[1]);                             \
        e = (T)(e | v.m[0]);                                                    \
        shmem_##NAME##_atomic_fetch_xor_nbi(&f[2], x, v.m[2], right);           \
        shmem_quiet();                                                          \
        EXPECT(T, FN(NAME, fetch_xor_nbi), e, f[2]);                            \
        e = (T)(e ^ v.m[2]);                                                    \
        EXPECT(T, "bitwise replay", bit_expect_##NAME(&v), e);                  \
        OWNER_CHECK(T, FN(NAME, fetch_xor_nbi), bit_expect_##NAME(&w));         \
    }
MP_AMO_BITWISE_TYPES(DEF_BIT)

int main(void)
{
    mp_init("amo");
    slot = (unsigned char *)shmem_malloc(64);
    MP_CHECK(slot != NULL, "shmem_malloc(64) (expected non-NULL got NULL)");
    shmem_barrier_all();

#define RUN_STD(NAME, T, K) std_##NAME();
#define RUN_EXT(NAME, T, K) ext_##NAME();
#define RUN_BIT(NAME, T, K) bit_##NAME();
    MP_AMO_STD_TYPES(RUN_STD)
    MP_AMO_EXT_FP_TYPES(RUN_EXT)
    MP_AMO_BITWISE_TYPES(RUN_BIT)

    shmem_free(slot);
    mp_pass();
    shmem_finalize();
    return 0;
}
