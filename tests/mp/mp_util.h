/* Shared helpers for the multi-PE tests (tests/mp): PRNG streams, poisoning,
 * checks that fail the whole job, bounded polling and the OpenSHMEM 1.5 type
 * tables as X-macros.
 *
 * Include this header FIRST in every test (it selects the POSIX feature set).
 * The header is valid C11 and C++17.
 *
 * Payload scheme: every PE draws a seed (time ^ pe, or MP_SEED from the
 * environment) and mp_setup() publishes all seeds to all PEs.  A payload is a
 * deterministic stream of (seed of the producing PE, tag), so a receiver can
 * regenerate what its peer sent and check every element without any extra
 * communication. */
#ifndef GSHMEM_TESTS_MP_UTIL_H
#define GSHMEM_TESTS_MP_UTIL_H

#ifndef _GNU_SOURCE
#define _GNU_SOURCE 1
#endif

#include <shmem.h>

#include <inttypes.h>
#include <sched.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define MP_POISON 0xA5

/* ---- type tables (OpenSHMEM 1.5) ------------------------------------------
 * X(NAME, TYPE, KIND): KIND is MPK_I (integer) or MPK_F (floating point);
 * not I / F, which <complex.h> (included by some shmem.h) defines as macros.          */
#define MP_RMA_TYPES(X)                                                         \
    X(float, float, MPK_F)                                                      \
    X(double, double, MPK_F)                                                    \
    X(longdouble, long double, MPK_F)                                           \
    X(char, char, MPK_I)                                                        \
    X(schar, signed char, MPK_I)                                                \
    X(short, short, MPK_I)                                                      \
    X(int, int, MPK_I)                                                          \
    X(long, long, MPK_I)                                                        \
    X(longlong, long long, MPK_I)                                               \
    X(uchar, unsigned char, MPK_I)                                              \
    X(ushort, unsigned short, MPK_I)                                            \
    X(uint, unsigned int, MPK_I)                                                \
    X(ulong, unsigned long, MPK_I)                                              \
    X(ulonglong, unsigned long long, MPK_I)                                     \
    X(int8, int8_t, MPK_I)                                                      \
    X(int16, int16_t, MPK_I)                                                    \
    X(int32, int32_t, MPK_I)                                                    \
    X(int64, int64_t, MPK_I)                                                    \
    X(uint8, uint8_t, MPK_I)                                                    \
    X(uint16, uint16_t, MPK_I)                                                  \
    X(uint32, uint32_t, MPK_I)                                                  \
    X(uint64, uint64_t, MPK_I)                                                  \
    X(size, size_t, MPK_I)                                                      \
    X(ptrdiff, ptrdiff_t, MPK_I)

/* Standard AMO types == point-to-point synchronization types (minus the
 * deprecated short/ushort sync types). */
#define MP_AMO_STD_TYPES(X)                                                     \
    X(int, int, MPK_I)                                                          \
    X(long, long, MPK_I)                                                        \
    X(longlong, long long, MPK_I)                                               \
    X(uint, unsigned int, MPK_I)                                                \
    X(ulong, unsigned long, MPK_I)                                              \
    X(ulonglong, unsigned long long, MPK_I)                                     \
    X(int32, int32_t, MPK_I)                                                    \
    X(int64, int64_t, MPK_I)                                                    \
    X(uint32, uint32_t, MPK_I)                                                  \
    X(uint64, uint64_t, MPK_I)                                                  \
    X(size, size_t, MPK_I)                                                      \
    X(ptrdiff, ptrdiff_t, MPK_I)

#define MP_SYNC_TYPES(X) MP_AMO_STD_TYPES(X)

/* Extended AMO types beyond the standard ones (fetch, set, swap only). */
#define MP_AMO_EXT_FP_TYPES(X)                                                  \
    X(float, float, MPK_F)                                                      \
    X(double, double, MPK_F)

#define MP_AMO_BITWISE_TYPES(X)                                                 \
    X(uint, unsigned int, MPK_I)                                                \
    X(ulong, unsigned long, MPK_I)                                              \
    X(ulonglong, unsigned long long, MPK_I)                                     \
    X(int32, int32_t, MPK_I)                                                    \
    X(int64, int64_t, MPK_I)                                                    \
    X(uint32, uint32_t, MPK_I)                                                  \
    X(uint64, uint64_t, MPK_I)

/* ---- state ---------------------------------------------------------------- */
static const char *mp_name = "?";
static int mp_me = -1;
static int mp_npes = 0;
static uint64_t mp_my_seed = 0;
static uint64_t *mp_seeds = NULL; /* symmetric, mp_npes entries */

/* ---- PRNG ----------------------------------------------------------------- */
static inline uint64_t mp_splitmix64(uint64_t x)
{
    x += 0x9E3779B97F4A7C15ull;
    x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9ull;
    x = (x ^ (x >> 27)) * 0x94D049BB133111EBull;
    return x ^ (x >> 31);
}

/* xorshift64* */
static inline uint64_t mp_rand64(uint64_t *s)
{
    uint64_t x = *s;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *s = x;
    return x * 0x2545F4914F6CDD1Dull;
}

/* FNV-1a of a name mixed with a small integer: a tag for mp_stream(). */
static inline uint64_t mp_tag(const char *name, uint64_t op)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (const char *p = name; *p; p++) {
        h ^= (unsigned char)*p;
        h *= 0x100000001b3ull;
    }
    return mp_splitmix64(h ^ (op * 0x9E3779B97F4A7C15ull));
}

/* Deterministic stream for (seed of a PE, tag); never returns state 0. */
static inline uint64_t mp_stream(uint64_t seed, uint64_t tag)
{
    uint64_t s = mp_splitmix64(seed ^ mp_splitmix64(tag));
    return s ? s : 0x1234567ull;
}

static inline uint64_t mp_pe_stream(int pe, uint64_t tag)
{
    return mp_stream(mp_seeds[pe], tag);
}

/* A floating value that every float type represents exactly (|v| < 2^21,
 * two fractional bits). */
static inline double mp_rand_fp(uint64_t *s)
{
    return (double)((int64_t)(mp_rand64(s) >> 42) - (int64_t)(1 << 21)) * 0.25;
}

#define MP_RAND_MPK_I(T, s) ((T)mp_rand64(s))
#define MP_RAND_MPK_F(T, s) ((T)mp_rand_fp(s))
#define MP_RAND(K, T, s) MP_RAND_##K(T, s)
#define MP_IS_SIGNED(T) ((T)-1 < (T)1)

/* Byte payloads: 8 bytes per draw, so fill and check consume the stream the
 * same way for any length. */
static inline void mp_fill_s(void *buf, size_t n, uint64_t s)
{
    unsigned char *b = (unsigned char *)buf;
    size_t i = 0;
    while (i < n) {
        uint64_t r = mp_rand64(&s);
        for (int k = 0; k < 8 && i < n; k++, i++)
            b[i] = (unsigned char)(r >> (8 * k));
    }
}

static inline void mp_fill(void *buf, size_t n, int pe, uint64_t tag)
{
    mp_fill_s(buf, n, mp_pe_stream(pe, tag));
}

static inline void mp_poison(void *buf, size_t n)
{
    memset(buf, MP_POISON, n);
}

/* ---- failing ---------------------------------------------------------------- */
#if defined(__GNUC__)
#define MP_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define MP_PRINTF(a, b)
#endif

static inline void mp_fail(const char *fmt, ...) MP_PRINTF(1, 2);
static inline void mp_fail(const char *fmt, ...)
{
    /* one write, so messages of PEs failing together do not interleave */
    char msg[1024];
    int n = snprintf(msg, sizeof msg, "FAIL %s: pe %d: ", mp_name, mp_me);
    va_list ap;
    va_start(ap, fmt);
    if (n >= 0 && (size_t)n < sizeof msg)
        n += vsnprintf(msg + n, sizeof msg - (size_t)n, fmt, ap);
    va_end(ap);
    if (n >= 0 && (size_t)n < sizeof msg)
        snprintf(msg + n, sizeof msg - (size_t)n,
                 "\n  (pe %d seed 0x%016" PRIx64 "; rerun with MP_SEED=<n> for a fixed seed)\n",
                 mp_me, mp_my_seed);
    fflush(stdout);
    fputs(msg, stderr);
    fflush(stderr);
    shmem_global_exit(1);
    exit(1); /* not reached: shmem_global_exit does not return */
}

#define MP_CHECK(cond, ...)                                                     \
    do {                                                                        \
        if (!(cond))                                                            \
            mp_fail(__VA_ARGS__);                                               \
    } while (0)

/* Integer equality, printed as (un)signed 64-bit. */
#define MP_CHECK_EQ(what, expected, got)                                        \
    do {                                                                        \
        long long mp_e_ = (long long)(expected), mp_g_ = (long long)(got);      \
        if (mp_e_ != mp_g_)                                                     \
            mp_fail("%s (expected %lld got %lld)", (what), mp_e_, mp_g_);       \
    } while (0)

/* Value bytes as a little-endian hex number (first `size` bytes, at most 16). */
static inline void mp_hex(char *out, const void *v, size_t size)
{
    const unsigned char *b = (const unsigned char *)v;
    if (size > 16)
        size = 16;
    out[0] = '0';
    out[1] = 'x';
    for (size_t i = 0; i < size; i++)
        snprintf(out + 2 + 2 * i, 3, "%02x", b[size - 1 - i]);
}

static inline void mp_fail_val(const char *what, size_t idx, const void *exp, const void *got,
                               size_t size)
{
    char e[40], g[40];
    mp_hex(e, exp, size);
    mp_hex(g, got, size);
    mp_fail("%s: element %zu (expected %s got %s)", what, idx, e, g);
}

/* Typed value check with ==, so floating padding bytes do not matter. */
#define MP_EXPECT_VAL(T, what, idx, expected, got)                              \
    do {                                                                        \
        T mp_ev_ = (expected), mp_gv_ = (got);                                  \
        if (!(mp_ev_ == mp_gv_))                                                \
            mp_fail_val((what), (size_t)(idx), &mp_ev_, &mp_gv_, sizeof(T));    \
    } while (0)

static inline void mp_check_poison(const char *what, const void *buf, size_t n)
{
    const unsigned char *b = (const unsigned char *)buf;
    for (size_t i = 0; i < n; i++)
        if (b[i] != MP_POISON)
            mp_fail("%s: byte %zu of %zu was overwritten (expected 0x%02x got 0x%02x)", what, i,
                    n, MP_POISON, b[i]);
}

static inline void mp_check_bytes_s(const char *what, const void *buf, size_t n, uint64_t s)
{
    const unsigned char *b = (const unsigned char *)buf;
    size_t i = 0;
    while (i < n) {
        uint64_t r = mp_rand64(&s);
        for (int k = 0; k < 8 && i < n; k++, i++) {
            unsigned char e = (unsigned char)(r >> (8 * k));
            if (b[i] != e)
                mp_fail("%s: byte %zu of %zu (expected 0x%02x got 0x%02x)", what, i, n, e, b[i]);
        }
    }
}

/* Check that buf holds the payload PE `pe` generated for `tag`. */
static inline void mp_check_bytes(const char *what, const void *buf, size_t n, int pe,
                                  uint64_t tag)
{
    mp_check_bytes_s(what, buf, n, mp_pe_stream(pe, tag));
}

/* Typed payload helpers for one type of a table:
 *   mpt_fill_NAME(buf, n, pe, tag): element i = draw i of PE pe's stream;
 *   mpt_check_NAME(what, buf, n, bstride, sstride, pe, tag): buf[i * bstride]
 *     must equal draw i * sstride, gap elements (and one guard element before
 *     and after) must still be poisoned. Compare with ==, so long double
 *     padding does not matter. */
#define MP_DEF_TYPED_HELPERS(NAME, T, K)                                        \
    static inline void mpt_fill_##NAME(T *buf, size_t n, int pe, uint64_t tag)  \
    {                                                                           \
        uint64_t s = mp_pe_stream(pe, tag);                                     \
        for (size_t i = 0; i < n; i++)                                          \
            buf[i] = MP_RAND(K, T, &s);                                         \
    }                                                                           \
    static inline void mpt_check_##NAME(const char *what, const T *buf, size_t n, \
                                        size_t bstride, size_t sstride, int pe, \
                                        uint64_t tag)                           \
    {                                                                           \
        uint64_t s = mp_pe_stream(pe, tag);                                     \
        mp_check_poison(what, buf - 1, sizeof(T));                              \
        for (size_t i = 0; i < n; i++) {                                        \
            T e = MP_RAND(K, T, &s);                                            \
            for (size_t k = 1; k < sstride; k++)                                \
                (void)mp_rand64(&s);                                            \
            MP_EXPECT_VAL(T, what, i, e, buf[i * bstride]);                     \
            if (i + 1 < n)                                                      \
                mp_check_poison(what, buf + i * bstride + 1, (bstride - 1) * sizeof(T)); \
        }                                                                       \
        mp_check_poison(what, buf + (n ? (n - 1) * bstride + 1 : 0), sizeof(T)); \
    }

/* ---- time and polling --------------------------------------------------------- */
static inline double mp_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

#define MP_STR_(x) #x
#define MP_STR(x) MP_STR_(x)
#define MP_POLL_TIMEOUT_S 30

/* Poll `cond` (yielding the CPU) until it is true; fail loudly after
 * MP_POLL_TIMEOUT_S seconds instead of hanging. The first variadic argument
 * must be a string literal (the failure message format). */
#define MP_POLL(cond, ...)                                                      \
    do {                                                                        \
        double mp_deadline_ = mp_now() + MP_POLL_TIMEOUT_S;                     \
        unsigned long mp_iter_ = 0;                                             \
        while (!(cond)) {                                                       \
            if ((++mp_iter_ & 63) == 0 && mp_now() > mp_deadline_)              \
                mp_fail("timed out after " MP_STR(MP_POLL_TIMEOUT_S) " s: " __VA_ARGS__); \
            sched_yield();                                                      \
        }                                                                       \
    } while (0)

/* ---- setup ------------------------------------------------------------------- */
static inline int mp_right(void) { return (mp_me + 1) % mp_npes; }
static inline int mp_left(void) { return (mp_me + mp_npes - 1) % mp_npes; }

/* Call after shmem_init (or start_pes / shmem_init_thread). Collective. */
static inline void mp_setup(const char *name)
{
    mp_name = name;
    mp_me = shmem_my_pe();
    mp_npes = shmem_n_pes();
    if (mp_npes < 2 || mp_me < 0 || mp_me >= mp_npes)
        mp_fail("needs at least 2 PEs (expected npes >= 2 got npes %d, pe %d)", mp_npes, mp_me);

    const char *env = getenv("MP_SEED");
    if (env && *env) {
        mp_my_seed = strtoull(env, NULL, 0) + (uint64_t)mp_me;
    } else {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        mp_my_seed = (uint64_t)ts.tv_sec * 1000000007ull + (uint64_t)ts.tv_nsec;
        mp_my_seed ^= (uint64_t)(mp_me + 1) * 0x9E3779B97F4A7C15ull;
    }
    mp_my_seed = mp_splitmix64(mp_my_seed);

    mp_seeds = (uint64_t *)shmem_malloc((size_t)mp_npes * sizeof(uint64_t));
    if (!mp_seeds)
        mp_fail("shmem_malloc of the seed table returned NULL (expected non-NULL got NULL)");
    for (int pe = 0; pe < mp_npes; pe++)
        shmem_uint64_p(&mp_seeds[mp_me], mp_my_seed, pe);
    shmem_barrier_all();
    if (mp_seeds[mp_me] != mp_my_seed)
        mp_fail("seed exchange: own entry (expected 0x%" PRIx64 " got 0x%" PRIx64 ")",
                mp_my_seed, mp_seeds[mp_me]);
}

static inline void mp_init(const char *name)
{
    shmem_init();
    mp_setup(name);
}

/* Collective: all PEs passed; PE 0 reports. Does not finalize. */
static inline void mp_pass(void)
{
    shmem_barrier_all();
    if (mp_me == 0) {
        printf("PASS %s\n", mp_name);
        fflush(stdout);
    }
}

/* SHMEM_SYMMETRIC_SIZE as bytes (K/M/G/T suffixes, powers of 1024); 0 if
 * unset or unparsable. */
static inline size_t mp_symmetric_size(void)
{
    const char *env = getenv("SHMEM_SYMMETRIC_SIZE");
    if (!env || !*env)
        return 0;
    char *end = NULL;
    double v = strtod(env, &end);
    if (end == env || v <= 0)
        return 0;
    switch (*end) {
    case 'k': case 'K': v *= 1024.0; break;
    case 'm': case 'M': v *= 1024.0 * 1024.0; break;
    case 'g': case 'G': v *= 1024.0 * 1024.0 * 1024.0; break;
    case 't': case 'T': v *= 1024.0 * 1024.0 * 1024.0 * 1024.0; break;
    default: break;
    }
    return (size_t)v;
}

#endif /* GSHMEM_TESTS_MP_UTIL_H */
