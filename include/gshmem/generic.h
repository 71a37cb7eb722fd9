/* Type-generic OpenSHMEM names: C11 _Generic selections in C, overloads in C++.
 * Selection is over the distinct C base types (int32_t, size_t, ... are typedefs of these). */
#ifndef GSHMEM_GENERIC_H
#define GSHMEM_GENERIC_H
/* Part of shmem.h (it comes last there); included on its own it brings shmem.h first. */
#include "../shmem.h" /* by path: another OpenSHMEM's shmem.h earlier on the include path cannot stand in */

/* X(T, TYPENAME, OP) */
#define GSHMEM_G_RMA(X, OP) X(long double, longdouble, OP) GSHMEM_G_RMA_DEV(X, OP)
/* device code has no long double */
#define GSHMEM_G_RMA_DEV(X, OP)                                                                   \
  X(float, float, OP) X(double, double, OP) X(char, char, OP)                                     \
  X(signed char, schar, OP) X(short, short, OP) X(int, int, OP) X(long, long, OP)                 \
  X(long long, longlong, OP) X(unsigned char, uchar, OP) X(unsigned short, ushort, OP)            \
  X(unsigned int, uint, OP) X(unsigned long, ulong, OP) X(unsigned long long, ulonglong, OP)
#define GSHMEM_G_AMO_STD(X, OP)                                                                   \
  X(int, int, OP) X(long, long, OP) X(long long, longlong, OP) X(unsigned int, uint, OP)          \
  X(unsigned long, ulong, OP) X(unsigned long long, ulonglong, OP)
#define GSHMEM_G_AMO_EXT(X, OP) X(float, float, OP) X(double, double, OP) GSHMEM_G_AMO_STD(X, OP)
#define GSHMEM_G_AMO_BIT(X, OP)                                                                   \
  X(unsigned int, uint, OP) X(unsigned long, ulong, OP) X(unsigned long long, ulonglong, OP)      \
  X(int, int32, OP) X(long, int64, OP)
/* point-to-point synchronization types (short and unsigned short are deprecated there in 1.5) */
#define GSHMEM_G_P2P(X, OP) X(short, short, OP) X(unsigned short, ushort, OP) GSHMEM_G_AMO_STD(X, OP)

#if !defined(__cplusplus) && defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L

#define GSHMEM_G_ASSOC(T, N, OP) , T : shmem_##N##_##OP
#define GSHMEM_G_SEL(LIST, OP, x) _Generic(*(x) LIST(GSHMEM_G_ASSOC, OP))
/* RMA and AMO names also take a leading context: shmem_put(ctx, dest, source, nelems, pe).
 * The first argument's type picks the form; the pointer argument's type picks the function.
 * A call that matches no type names gshmemi_generic_no_match in the compiler's message. */
void gshmemi_generic_no_match(void);
#define GSHMEM_G_ARG1(a, ...) a
#define GSHMEM_G_ARG2(a, b, ...) b
#define GSHMEM_G_PASSOC(T, N, OP) , T * : shmem_##N##_##OP, const T * : shmem_##N##_##OP
#define GSHMEM_G_CPASSOC(T, N, OP) , T * : shmem_ctx_##N##_##OP, const T * : shmem_ctx_##N##_##OP
#define GSHMEM_G_CSEL(LIST, OP, ...)                                                                    \
  _Generic((GSHMEM_G_ARG1(__VA_ARGS__, 0)),                                                             \
      shmem_ctx_t : _Generic((GSHMEM_G_ARG2(__VA_ARGS__, 0, 0)) LIST(GSHMEM_G_CPASSOC, OP),             \
                             default : gshmemi_generic_no_match),                                      \
      default : _Generic((GSHMEM_G_ARG1(__VA_ARGS__, 0)) LIST(GSHMEM_G_PASSOC, OP),                     \
                         default : gshmemi_generic_no_match))

#define shmem_put(...) GSHMEM_G_CSEL(GSHMEM_G_RMA, put, __VA_ARGS__)(__VA_ARGS__)
#define shmem_put_nbi(...) GSHMEM_G_CSEL(GSHMEM_G_RMA, put_nbi, __VA_ARGS__)(__VA_ARGS__)
#define shmem_get(...) GSHMEM_G_CSEL(GSHMEM_G_RMA, get, __VA_ARGS__)(__VA_ARGS__)
#define shmem_get_nbi(...) GSHMEM_G_CSEL(GSHMEM_G_RMA, get_nbi, __VA_ARGS__)(__VA_ARGS__)
#define shmem_p(...) GSHMEM_G_CSEL(GSHMEM_G_RMA, p, __VA_ARGS__)(__VA_ARGS__)
#define shmem_g(...) GSHMEM_G_CSEL(GSHMEM_G_RMA, g, __VA_ARGS__)(__VA_ARGS__)
#define shmem_iput(...) GSHMEM_G_CSEL(GSHMEM_G_RMA, iput, __VA_ARGS__)(__VA_ARGS__)
#define shmem_iget(...) GSHMEM_G_CSEL(GSHMEM_G_RMA, iget, __VA_ARGS__)(__VA_ARGS__)
#define shmem_ibput(...) GSHMEM_G_CSEL(GSHMEM_G_RMA, ibput, __VA_ARGS__)(__VA_ARGS__)
#define shmem_ibget(...) GSHMEM_G_CSEL(GSHMEM_G_RMA, ibget, __VA_ARGS__)(__VA_ARGS__)
#define shmem_put_signal(...) GSHMEM_G_CSEL(GSHMEM_G_RMA, put_signal, __VA_ARGS__)(__VA_ARGS__)
#define shmem_put_signal_nbi(...) GSHMEM_G_CSEL(GSHMEM_G_RMA, put_signal_nbi, __VA_ARGS__)(__VA_ARGS__)

/* OpenSHMEM 1.6 names only the context form generic; the plain call keeps working through it. */
#define GSHMEM_G_CTX_OR(F, ...) _Generic((GSHMEM_G_ARG1(__VA_ARGS__, 0)), shmem_ctx_t : shmem_ctx_##F, default : shmem_##F)
#define shmem_signal_add(...) GSHMEM_G_CTX_OR(signal_add, __VA_ARGS__)(__VA_ARGS__)
#define shmem_signal_set(...) GSHMEM_G_CTX_OR(signal_set, __VA_ARGS__)(__VA_ARGS__)

#define shmem_atomic_fetch(...) GSHMEM_G_CSEL(GSHMEM_G_AMO_EXT, atomic_fetch, __VA_ARGS__)(__VA_ARGS__)
#define shmem_atomic_set(...) GSHMEM_G_CSEL(GSHMEM_G_AMO_EXT, atomic_set, __VA_ARGS__)(__VA_ARGS__)
#define shmem_atomic_swap(...) GSHMEM_G_CSEL(GSHMEM_G_AMO_EXT, atomic_swap, __VA_ARGS__)(__VA_ARGS__)
#define shmem_atomic_fetch_nbi(...) GSHMEM_G_CSEL(GSHMEM_G_AMO_EXT, atomic_fetch_nbi, __VA_ARGS__)(__VA_ARGS__)
#define shmem_atomic_swap_nbi(...) GSHMEM_G_CSEL(GSHMEM_G_AMO_EXT, atomic_swap_nbi, __VA_ARGS__)(__VA_ARGS__)
#define shmem_atomic_compare_swap(...) GSHMEM_G_CSEL(GSHMEM_G_AMO_STD, atomic_compare_swap, __VA_ARGS__)(__VA_ARGS__)
#define shmem_atomic_fetch_inc(...) GSHMEM_G_CSEL(GSHMEM_G_AMO_STD, atomic_fetch_inc, __VA_ARGS__)(__VA_ARGS__)
#define shmem_atomic_inc(...) GSHMEM_G_CSEL(GSHMEM_G_AMO_STD, atomic_inc, __VA_ARGS__)(__VA_ARGS__)
#define shmem_atomic_fetch_add(...) GSHMEM_G_CSEL(GSHMEM_G_AMO_STD, atomic_fetch_add, __VA_ARGS__)(__VA_ARGS__)
#define shmem_atomic_add(...) GSHMEM_G_CSEL(GSHMEM_G_AMO_STD, atomic_add, __VA_ARGS__)(__VA_ARGS__)
#define shmem_atomic_compare_swap_nbi(...) GSHMEM_G_CSEL(GSHMEM_G_AMO_STD, atomic_compare_swap_nbi, __VA_ARGS__)(__VA_ARGS__)
#define shmem_atomic_fetch_inc_nbi(...) GSHMEM_G_CSEL(GSHMEM_G_AMO_STD, atomic_fetch_inc_nbi, __VA_ARGS__)(__VA_ARGS__)
#define shmem_atomic_fetch_add_nbi(...) GSHMEM_G_CSEL(GSHMEM_G_AMO_STD, atomic_fetch_add_nbi, __VA_ARGS__)(__VA_ARGS__)
#define shmem_atomic_fetch_and(...) GSHMEM_G_CSEL(GSHMEM_G_AMO_BIT, atomic_fetch_and, __VA_ARGS__)(__VA_ARGS__)
#define shmem_atomic_and(...) GSHMEM_G_CSEL(GSHMEM_G_AMO_BIT, atomic_and, __VA_ARGS__)(__VA_ARGS__)
#define shmem_atomic_fetch_or(...) GSHMEM_G_CSEL(GSHMEM_G_AMO_BIT, atomic_fetch_or, __VA_ARGS__)(__VA_ARGS__)
#define shmem_atomic_or(...) GSHMEM_G_CSEL(GSHMEM_G_AMO_BIT, atomic_or, __VA_ARGS__)(__VA_ARGS__)
#define shmem_atomic_fetch_xor(...) GSHMEM_G_CSEL(GSHMEM_G_AMO_BIT, atomic_fetch_xor, __VA_ARGS__)(__VA_ARGS__)
#define shmem_atomic_xor(...) GSHMEM_G_CSEL(GSHMEM_G_AMO_BIT, atomic_xor, __VA_ARGS__)(__VA_ARGS__)
#define shmem_atomic_fetch_and_nbi(...) GSHMEM_G_CSEL(GSHMEM_G_AMO_BIT, atomic_fetch_and_nbi, __VA_ARGS__)(__VA_ARGS__)
#define shmem_atomic_fetch_or_nbi(...) GSHMEM_G_CSEL(GSHMEM_G_AMO_BIT, atomic_fetch_or_nbi, __VA_ARGS__)(__VA_ARGS__)
#define shmem_atomic_fetch_xor_nbi(...) GSHMEM_G_CSEL(GSHMEM_G_AMO_BIT, atomic_fetch_xor_nbi, __VA_ARGS__)(__VA_ARGS__)

#define shmem_wait_until(ivar, ...) GSHMEM_G_SEL(GSHMEM_G_P2P, wait_until, ivar)(ivar, __VA_ARGS__)
#define shmem_wait_until_all(ivars, ...) GSHMEM_G_SEL(GSHMEM_G_P2P, wait_until_all, ivars)(ivars, __VA_ARGS__)
#define shmem_wait_until_any(ivars, ...) GSHMEM_G_SEL(GSHMEM_G_P2P, wait_until_any, ivars)(ivars, __VA_ARGS__)
#define shmem_wait_until_some(ivars, ...) GSHMEM_G_SEL(GSHMEM_G_P2P, wait_until_some, ivars)(ivars, __VA_ARGS__)
#define shmem_wait_until_all_vector(ivars, ...) GSHMEM_G_SEL(GSHMEM_G_P2P, wait_until_all_vector, ivars)(ivars, __VA_ARGS__)
#define shmem_wait_until_any_vector(ivars, ...) GSHMEM_G_SEL(GSHMEM_G_P2P, wait_until_any_vector, ivars)(ivars, __VA_ARGS__)
#define shmem_wait_until_some_vector(ivars, ...) GSHMEM_G_SEL(GSHMEM_G_P2P, wait_until_some_vector, ivars)(ivars, __VA_ARGS__)
#define shmem_test(ivar, ...) GSHMEM_G_SEL(GSHMEM_G_P2P, test, ivar)(ivar, __VA_ARGS__)
#define shmem_test_all(ivars, ...) GSHMEM_G_SEL(GSHMEM_G_P2P, test_all, ivars)(ivars, __VA_ARGS__)
#define shmem_test_any(ivars, ...) GSHMEM_G_SEL(GSHMEM_G_P2P, test_any, ivars)(ivars, __VA_ARGS__)
#define shmem_test_some(ivars, ...) GSHMEM_G_SEL(GSHMEM_G_P2P, test_some, ivars)(ivars, __VA_ARGS__)
#define shmem_test_all_vector(ivars, ...) GSHMEM_G_SEL(GSHMEM_G_P2P, test_all_vector, ivars)(ivars, __VA_ARGS__)
#define shmem_test_any_vector(ivars, ...) GSHMEM_G_SEL(GSHMEM_G_P2P, test_any_vector, ivars)(ivars, __VA_ARGS__)
#define shmem_test_some_vector(ivars, ...) GSHMEM_G_SEL(GSHMEM_G_P2P, test_some_vector, ivars)(ivars, __VA_ARGS__)

/* Deprecated (1.4) generic AMO names, still part of OpenSHMEM 1.5; shmem_swap on a long is also
 * the deprecated long function. */
#define GSHMEM_G_OLD_STD(X, OP) X(int, int, OP) X(long, long, OP) X(long long, longlong, OP)
#define GSHMEM_G_OLD_EXT(X, OP) X(float, float, OP) X(double, double, OP) GSHMEM_G_OLD_STD(X, OP)
#define shmem_fetch(source, ...) GSHMEM_G_SEL(GSHMEM_G_OLD_EXT, fetch, source)(source, __VA_ARGS__)
#define shmem_set(dest, ...) GSHMEM_G_SEL(GSHMEM_G_OLD_EXT, set, dest)(dest, __VA_ARGS__)
#define shmem_swap(dest, ...) GSHMEM_G_SEL(GSHMEM_G_OLD_EXT, swap, dest)(dest, __VA_ARGS__)
#define shmem_cswap(dest, ...) GSHMEM_G_SEL(GSHMEM_G_OLD_STD, cswap, dest)(dest, __VA_ARGS__)
#define shmem_finc(dest, ...) GSHMEM_G_SEL(GSHMEM_G_OLD_STD, finc, dest)(dest, __VA_ARGS__)
#define shmem_inc(dest, ...) GSHMEM_G_SEL(GSHMEM_G_OLD_STD, inc, dest)(dest, __VA_ARGS__)
#define shmem_fadd(dest, ...) GSHMEM_G_SEL(GSHMEM_G_OLD_STD, fadd, dest)(dest, __VA_ARGS__)
#define shmem_add(dest, ...) GSHMEM_G_SEL(GSHMEM_G_OLD_STD, add, dest)(dest, __VA_ARGS__)

#elif defined(__cplusplus)

/* Under nvcc the overloads are callable from host and device code (each pass sees the matching
 * typed functions). */
#if defined(__CUDACC__)
#define GSHMEM_HD __host__ __device__
#else
#define GSHMEM_HD
#endif

#define GSHMEM_CXX_RMA(T, N, _)                                                                   \
  GSHMEM_HD inline void shmem_put(T *d, const T *s, size_t n, int pe) { shmem_##N##_put(d, s, n, pe); }    \
  GSHMEM_HD inline void shmem_put_nbi(T *d, const T *s, size_t n, int pe) { shmem_##N##_put_nbi(d, s, n, pe); } \
  GSHMEM_HD inline void shmem_get(T *d, const T *s, size_t n, int pe) { shmem_##N##_get(d, s, n, pe); }    \
  GSHMEM_HD inline void shmem_get_nbi(T *d, const T *s, size_t n, int pe) { shmem_##N##_get_nbi(d, s, n, pe); } \
  GSHMEM_HD inline void shmem_p(T *d, T v, int pe) { shmem_##N##_p(d, v, pe); }                           \
  GSHMEM_HD inline T shmem_g(const T *s, int pe) { return shmem_##N##_g(s, pe); }                          \
  GSHMEM_HD inline void shmem_iput(T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) {     \
    shmem_##N##_iput(d, s, dst, sst, n, pe);                                                     \
  }                                                                                              \
  GSHMEM_HD inline void shmem_iget(T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) {     \
    shmem_##N##_iget(d, s, dst, sst, n, pe);                                                     \
  }                                                                                              \
  GSHMEM_HD inline void shmem_put_signal(T *d, const T *s, size_t n, uint64_t *sa, uint64_t sv, int op, int pe) { \
    shmem_##N##_put_signal(d, s, n, sa, sv, op, pe);                                             \
  }                                                                                              \
  GSHMEM_HD inline void shmem_put_signal_nbi(T *d, const T *s, size_t n, uint64_t *sa, uint64_t sv, int op, int pe) { \
    shmem_##N##_put_signal_nbi(d, s, n, sa, sv, op, pe);                                         \
  }
GSHMEM_G_RMA_DEV(GSHMEM_CXX_RMA, _)
#if !defined(__CUDA_ARCH__)
#undef GSHMEM_HD
#define GSHMEM_HD
GSHMEM_CXX_RMA(long double, longdouble, _)
#undef GSHMEM_HD
#if defined(__CUDACC__)
#define GSHMEM_HD __host__ __device__
#else
#define GSHMEM_HD
#endif
#endif
#undef GSHMEM_CXX_RMA

#define GSHMEM_CXX_AMO_EXT(T, N, _)                                                               \
  GSHMEM_HD inline T shmem_atomic_fetch(const T *s, int pe) { return shmem_##N##_atomic_fetch(s, pe); }    \
  GSHMEM_HD inline void shmem_atomic_set(T *d, T v, int pe) { shmem_##N##_atomic_set(d, v, pe); }          \
  GSHMEM_HD inline T shmem_atomic_swap(T *d, T v, int pe) { return shmem_##N##_atomic_swap(d, v, pe); }    \
  GSHMEM_HD inline void shmem_atomic_fetch_nbi(T *f, const T *s, int pe) { shmem_##N##_atomic_fetch_nbi(f, s, pe); } \
  GSHMEM_HD inline void shmem_atomic_swap_nbi(T *f, T *d, T v, int pe) { shmem_##N##_atomic_swap_nbi(f, d, v, pe); }
GSHMEM_G_AMO_EXT(GSHMEM_CXX_AMO_EXT, _)
#undef GSHMEM_CXX_AMO_EXT

#define GSHMEM_CXX_AMO_STD(T, N, _)                                                               \
  GSHMEM_HD inline T shmem_atomic_compare_swap(T *d, T c, T v, int pe) {                                   \
    return shmem_##N##_atomic_compare_swap(d, c, v, pe);                                         \
  }                                                                                              \
  GSHMEM_HD inline T shmem_atomic_fetch_inc(T *d, int pe) { return shmem_##N##_atomic_fetch_inc(d, pe); }  \
  GSHMEM_HD inline void shmem_atomic_inc(T *d, int pe) { shmem_##N##_atomic_inc(d, pe); }                  \
  GSHMEM_HD inline T shmem_atomic_fetch_add(T *d, T v, int pe) { return shmem_##N##_atomic_fetch_add(d, v, pe); } \
  GSHMEM_HD inline void shmem_atomic_add(T *d, T v, int pe) { shmem_##N##_atomic_add(d, v, pe); }          \
  GSHMEM_HD inline void shmem_atomic_compare_swap_nbi(T *f, T *d, T c, T v, int pe) {                      \
    shmem_##N##_atomic_compare_swap_nbi(f, d, c, v, pe);                                         \
  }                                                                                              \
  GSHMEM_HD inline void shmem_atomic_fetch_inc_nbi(T *f, T *d, int pe) { shmem_##N##_atomic_fetch_inc_nbi(f, d, pe); } \
  GSHMEM_HD inline void shmem_atomic_fetch_add_nbi(T *f, T *d, T v, int pe) {                              \
    shmem_##N##_atomic_fetch_add_nbi(f, d, v, pe);                                               \
  }
GSHMEM_G_AMO_STD(GSHMEM_CXX_AMO_STD, _)
#undef GSHMEM_CXX_AMO_STD

#define GSHMEM_CXX_AMO_BIT(T, N, _)                                                               \
  GSHMEM_HD inline T shmem_atomic_fetch_and(T *d, T v, int pe) { return shmem_##N##_atomic_fetch_and(d, v, pe); } \
  GSHMEM_HD inline void shmem_atomic_and(T *d, T v, int pe) { shmem_##N##_atomic_and(d, v, pe); }          \
  GSHMEM_HD inline T shmem_atomic_fetch_or(T *d, T v, int pe) { return shmem_##N##_atomic_fetch_or(d, v, pe); } \
  GSHMEM_HD inline void shmem_atomic_or(T *d, T v, int pe) { shmem_##N##_atomic_or(d, v, pe); }            \
  GSHMEM_HD inline T shmem_atomic_fetch_xor(T *d, T v, int pe) { return shmem_##N##_atomic_fetch_xor(d, v, pe); } \
  GSHMEM_HD inline void shmem_atomic_xor(T *d, T v, int pe) { shmem_##N##_atomic_xor(d, v, pe); }          \
  GSHMEM_HD inline void shmem_atomic_fetch_and_nbi(T *f, T *d, T v, int pe) { shmem_##N##_atomic_fetch_and_nbi(f, d, v, pe); } \
  GSHMEM_HD inline void shmem_atomic_fetch_or_nbi(T *f, T *d, T v, int pe) { shmem_##N##_atomic_fetch_or_nbi(f, d, v, pe); } \
  GSHMEM_HD inline void shmem_atomic_fetch_xor_nbi(T *f, T *d, T v, int pe) { shmem_##N##_atomic_fetch_xor_nbi(f, d, v, pe); }
GSHMEM_G_AMO_BIT(GSHMEM_CXX_AMO_BIT, _)
#undef GSHMEM_CXX_AMO_BIT

/* shmem_wait_until(long *, int, long) is also the deprecated C function: it serves long. */
#define GSHMEM_CXX_WAIT_UNTIL(T, N, _) \
  GSHMEM_HD inline void shmem_wait_until(T *v, int c, T x) { shmem_##N##_wait_until(v, c, x); }
GSHMEM_CXX_WAIT_UNTIL(short, short, _)
GSHMEM_CXX_WAIT_UNTIL(unsigned short, ushort, _)
GSHMEM_CXX_WAIT_UNTIL(int, int, _)
GSHMEM_CXX_WAIT_UNTIL(long long, longlong, _)
GSHMEM_CXX_WAIT_UNTIL(unsigned int, uint, _)
GSHMEM_CXX_WAIT_UNTIL(unsigned long, ulong, _)
GSHMEM_CXX_WAIT_UNTIL(unsigned long long, ulonglong, _)
#undef GSHMEM_CXX_WAIT_UNTIL

#define GSHMEM_CXX_P2P(T, N, _)                                                                   \
  GSHMEM_HD inline void shmem_wait_until_all(T *v, size_t n, const int *st, int c, T x) {                  \
    shmem_##N##_wait_until_all(v, n, st, c, x);                                                  \
  }                                                                                              \
  GSHMEM_HD inline size_t shmem_wait_until_any(T *v, size_t n, const int *st, int c, T x) {                \
    return shmem_##N##_wait_until_any(v, n, st, c, x);                                           \
  }                                                                                              \
  GSHMEM_HD inline size_t shmem_wait_until_some(T *v, size_t n, size_t *ix, const int *st, int c, T x) {   \
    return shmem_##N##_wait_until_some(v, n, ix, st, c, x);                                      \
  }                                                                                              \
  GSHMEM_HD inline void shmem_wait_until_all_vector(T *v, size_t n, const int *st, int c, const T *x) {          \
    shmem_##N##_wait_until_all_vector(v, n, st, c, x);                                           \
  }                                                                                              \
  GSHMEM_HD inline size_t shmem_wait_until_any_vector(T *v, size_t n, const int *st, int c, const T *x) {        \
    return shmem_##N##_wait_until_any_vector(v, n, st, c, x);                                    \
  }                                                                                              \
  GSHMEM_HD inline size_t shmem_wait_until_some_vector(T *v, size_t n, size_t *ix, const int *st, int c, const T *x) { \
    return shmem_##N##_wait_until_some_vector(v, n, ix, st, c, x);                               \
  }                                                                                              \
  GSHMEM_HD inline int shmem_test(T *v, int c, T x) { return shmem_##N##_test(v, c, x); }                  \
  GSHMEM_HD inline int shmem_test_all(T *v, size_t n, const int *st, int c, T x) {                         \
    return shmem_##N##_test_all(v, n, st, c, x);                                                 \
  }                                                                                              \
  GSHMEM_HD inline size_t shmem_test_any(T *v, size_t n, const int *st, int c, T x) {                      \
    return shmem_##N##_test_any(v, n, st, c, x);                                                 \
  }                                                                                              \
  GSHMEM_HD inline size_t shmem_test_some(T *v, size_t n, size_t *ix, const int *st, int c, T x) {         \
    return shmem_##N##_test_some(v, n, ix, st, c, x);                                            \
  }                                                                                              \
  GSHMEM_HD inline int shmem_test_all_vector(T *v, size_t n, const int *st, int c, const T *x) {                 \
    return shmem_##N##_test_all_vector(v, n, st, c, x);                                          \
  }                                                                                              \
  GSHMEM_HD inline size_t shmem_test_any_vector(T *v, size_t n, const int *st, int c, const T *x) {              \
    return shmem_##N##_test_any_vector(v, n, st, c, x);                                          \
  }                                                                                              \
  GSHMEM_HD inline size_t shmem_test_some_vector(T *v, size_t n, size_t *ix, const int *st, int c, const T *x) { \
    return shmem_##N##_test_some_vector(v, n, ix, st, c, x);                                     \
  }
GSHMEM_G_P2P(GSHMEM_CXX_P2P, _)
#undef GSHMEM_CXX_P2P

/* Deprecated (1.4) generic AMO names (host only); shmem_swap(long *, long, int) is the C function. */
#if !defined(__CUDA_ARCH__)
#define GSHMEM_CXX_OLD_STD(T, N)                                                                   \
  inline T shmem_cswap(T *d, T c, T v, int pe) { return shmem_##N##_cswap(d, c, v, pe); }          \
  inline T shmem_finc(T *d, int pe) { return shmem_##N##_finc(d, pe); }                            \
  inline void shmem_inc(T *d, int pe) { shmem_##N##_inc(d, pe); }                                  \
  inline T shmem_fadd(T *d, T v, int pe) { return shmem_##N##_fadd(d, v, pe); }                    \
  inline void shmem_add(T *d, T v, int pe) { shmem_##N##_add(d, v, pe); }
#define GSHMEM_CXX_OLD_EXT(T, N)                                                                   \
  inline T shmem_fetch(const T *s, int pe) { return shmem_##N##_fetch(s, pe); }                    \
  inline void shmem_set(T *d, T v, int pe) { shmem_##N##_set(d, v, pe); }
#define GSHMEM_CXX_OLD_SWAP(T, N) inline T shmem_swap(T *d, T v, int pe) { return shmem_##N##_swap(d, v, pe); }
GSHMEM_OLD_STD_TYPES(GSHMEM_CXX_OLD_STD)
GSHMEM_OLD_EXT_TYPES(GSHMEM_CXX_OLD_EXT)
GSHMEM_CXX_OLD_SWAP(int, int)
GSHMEM_CXX_OLD_SWAP(long long, longlong)
GSHMEM_CXX_OLD_SWAP(float, float)
GSHMEM_CXX_OLD_SWAP(double, double)
#undef GSHMEM_CXX_OLD_STD
#undef GSHMEM_CXX_OLD_EXT
#undef GSHMEM_CXX_OLD_SWAP
#endif

/* Context forms (host only): shmem_put(ctx, dest, source, nelems, pe), ... */
#if !defined(__CUDA_ARCH__)
#define GSHMEM_CXX_CTX_RMA(T, N, _)                                                                 \
  inline void shmem_put(shmem_ctx_t c, T *d, const T *s, size_t n, int pe) { shmem_ctx_##N##_put(c, d, s, n, pe); } \
  inline void shmem_put_nbi(shmem_ctx_t c, T *d, const T *s, size_t n, int pe) { shmem_ctx_##N##_put_nbi(c, d, s, n, pe); } \
  inline void shmem_get(shmem_ctx_t c, T *d, const T *s, size_t n, int pe) { shmem_ctx_##N##_get(c, d, s, n, pe); } \
  inline void shmem_get_nbi(shmem_ctx_t c, T *d, const T *s, size_t n, int pe) { shmem_ctx_##N##_get_nbi(c, d, s, n, pe); } \
  inline void shmem_p(shmem_ctx_t c, T *d, T v, int pe) { shmem_ctx_##N##_p(c, d, v, pe); }               \
  inline T shmem_g(shmem_ctx_t c, const T *s, int pe) { return shmem_ctx_##N##_g(c, s, pe); }              \
  inline void shmem_iput(shmem_ctx_t c, T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) { \
    shmem_ctx_##N##_iput(c, d, s, dst, sst, n, pe);                                                 \
  }                                                                                                 \
  inline void shmem_iget(shmem_ctx_t c, T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) { \
    shmem_ctx_##N##_iget(c, d, s, dst, sst, n, pe);                                                 \
  }                                                                                                 \
  inline void shmem_put_signal(shmem_ctx_t c, T *d, const T *s, size_t n, uint64_t *sa, uint64_t sv, int op, int pe) { \
    shmem_ctx_##N##_put_signal(c, d, s, n, sa, sv, op, pe);                                         \
  }                                                                                                 \
  inline void shmem_put_signal_nbi(shmem_ctx_t c, T *d, const T *s, size_t n, uint64_t *sa, uint64_t sv, int op, int pe) { \
    shmem_ctx_##N##_put_signal_nbi(c, d, s, n, sa, sv, op, pe);                                     \
  }
GSHMEM_G_RMA(GSHMEM_CXX_CTX_RMA, _)
#undef GSHMEM_CXX_CTX_RMA
/* OpenSHMEM 1.6 blocked strides (host only until device forms exist) */
#define GSHMEM_CXX_IB(T, N, _)                                                                      \
  inline void shmem_ibput(T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t b, size_t n, int pe) { \
    shmem_##N##_ibput(d, s, dst, sst, b, n, pe);                                                    \
  }                                                                                                 \
  inline void shmem_ibget(T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t b, size_t n, int pe) { \
    shmem_##N##_ibget(d, s, dst, sst, b, n, pe);                                                    \
  }                                                                                                 \
  inline void shmem_ibput(shmem_ctx_t c, T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t b, size_t n, \
                          int pe) {                                                                 \
    shmem_ctx_##N##_ibput(c, d, s, dst, sst, b, n, pe);                                             \
  }                                                                                                 \
  inline void shmem_ibget(shmem_ctx_t c, T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t b, size_t n, \
                          int pe) {                                                                 \
    shmem_ctx_##N##_ibget(c, d, s, dst, sst, b, n, pe);                                             \
  }
GSHMEM_G_RMA(GSHMEM_CXX_IB, _)
#undef GSHMEM_CXX_IB
inline void shmem_signal_add(shmem_ctx_t c, uint64_t *sa, uint64_t sv, int pe) { shmem_ctx_signal_add(c, sa, sv, pe); }
inline void shmem_signal_set(shmem_ctx_t c, uint64_t *sa, uint64_t sv, int pe) { shmem_ctx_signal_set(c, sa, sv, pe); }
#define GSHMEM_CXX_CTX_AMO_EXT(T, N, _)                                                             \
  inline T shmem_atomic_fetch(shmem_ctx_t c, const T *s, int pe) { return shmem_ctx_##N##_atomic_fetch(c, s, pe); } \
  inline void shmem_atomic_set(shmem_ctx_t c, T *d, T v, int pe) { shmem_ctx_##N##_atomic_set(c, d, v, pe); } \
  inline T shmem_atomic_swap(shmem_ctx_t c, T *d, T v, int pe) { return shmem_ctx_##N##_atomic_swap(c, d, v, pe); } \
  inline void shmem_atomic_fetch_nbi(shmem_ctx_t c, T *f, const T *s, int pe) { shmem_ctx_##N##_atomic_fetch_nbi(c, f, s, pe); } \
  inline void shmem_atomic_swap_nbi(shmem_ctx_t c, T *f, T *d, T v, int pe) { shmem_ctx_##N##_atomic_swap_nbi(c, f, d, v, pe); }
GSHMEM_G_AMO_EXT(GSHMEM_CXX_CTX_AMO_EXT, _)
#undef GSHMEM_CXX_CTX_AMO_EXT
#define GSHMEM_CXX_CTX_AMO_STD(T, N, _)                                                             \
  inline T shmem_atomic_compare_swap(shmem_ctx_t c, T *d, T k, T v, int pe) {                       \
    return shmem_ctx_##N##_atomic_compare_swap(c, d, k, v, pe);                                     \
  }                                                                                                 \
  inline T shmem_atomic_fetch_inc(shmem_ctx_t c, T *d, int pe) { return shmem_ctx_##N##_atomic_fetch_inc(c, d, pe); } \
  inline void shmem_atomic_inc(shmem_ctx_t c, T *d, int pe) { shmem_ctx_##N##_atomic_inc(c, d, pe); } \
  inline T shmem_atomic_fetch_add(shmem_ctx_t c, T *d, T v, int pe) { return shmem_ctx_##N##_atomic_fetch_add(c, d, v, pe); } \
  inline void shmem_atomic_add(shmem_ctx_t c, T *d, T v, int pe) { shmem_ctx_##N##_atomic_add(c, d, v, pe); } \
  inline void shmem_atomic_compare_swap_nbi(shmem_ctx_t c, T *f, T *d, T k, T v, int pe) {          \
    shmem_ctx_##N##_atomic_compare_swap_nbi(c, f, d, k, v, pe);                                     \
  }                                                                                                 \
  inline void shmem_atomic_fetch_inc_nbi(shmem_ctx_t c, T *f, T *d, int pe) { shmem_ctx_##N##_atomic_fetch_inc_nbi(c, f, d, pe); } \
  inline void shmem_atomic_fetch_add_nbi(shmem_ctx_t c, T *f, T *d, T v, int pe) {                  \
    shmem_ctx_##N##_atomic_fetch_add_nbi(c, f, d, v, pe);                                           \
  }
GSHMEM_G_AMO_STD(GSHMEM_CXX_CTX_AMO_STD, _)
#undef GSHMEM_CXX_CTX_AMO_STD
#define GSHMEM_CXX_CTX_AMO_BIT_OP(T, N, OP)                                                         \
  inline T shmem_atomic_fetch_##OP(shmem_ctx_t c, T *d, T v, int pe) { return shmem_ctx_##N##_atomic_fetch_##OP(c, d, v, pe); } \
  inline void shmem_atomic_##OP(shmem_ctx_t c, T *d, T v, int pe) { shmem_ctx_##N##_atomic_##OP(c, d, v, pe); } \
  inline void shmem_atomic_fetch_##OP##_nbi(shmem_ctx_t c, T *f, T *d, T v, int pe) {               \
    shmem_ctx_##N##_atomic_fetch_##OP##_nbi(c, f, d, v, pe);                                        \
  }
#define GSHMEM_CXX_CTX_AMO_BIT(T, N, _) \
  GSHMEM_CXX_CTX_AMO_BIT_OP(T, N, and) GSHMEM_CXX_CTX_AMO_BIT_OP(T, N, or) GSHMEM_CXX_CTX_AMO_BIT_OP(T, N, xor)
GSHMEM_G_AMO_BIT(GSHMEM_CXX_CTX_AMO_BIT, _)
#undef GSHMEM_CXX_CTX_AMO_BIT
#undef GSHMEM_CXX_CTX_AMO_BIT_OP
#endif

#endif /* C11 / C++ */
#include "gshmem/generic_coll.h"
#endif /* GSHMEM_GENERIC_H */
