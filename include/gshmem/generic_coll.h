/* Type-generic OpenSHMEM 1.5 team collectives and shmem_sync: C11 _Generic selections in C,
 * overloads in C++. The destination's element type picks the typed routine:
 *   shmem_sum_reduce(team, dest, source, nreduce)   and, or, xor, max, min, sum, prod
 *   shmem_sum_inscan, shmem_sum_exscan(team, dest, source, nelems)   (OpenSHMEM 1.6 scans)
 *   shmem_broadcast(team, dest, source, nelems, PE_root), shmem_collect, shmem_fcollect,
 *   shmem_alltoall, shmem_alltoalls(team, dest, source, dst, sst, nelems)
 *   shmem_sync(team) -> shmem_team_sync; shmem_sync(PE_start, logPE_stride, PE_size, pSync) stays
 *   the deprecated active-set routine (the number of arguments tells them apart).
 * Selection is over the distinct C base types: int8_t..uint64_t, size_t and ptrdiff_t are
 * typedefs of these (LP64), so e.g. an int64_t array reaches shmem_int64_and_reduce. */
#ifndef GSHMEM_GENERIC_COLL_H
#define GSHMEM_GENERIC_COLL_H
/* Part of shmem.h (through generic.h); included on its own it brings shmem.h first. */
#include "../shmem.h" /* by path (see generic.h) */

/* X(T, TYPENAME, OP): table "Reduction Types, Names and Supporting Operations" by base type */
#define GSHMEM_G_REDUCE_BIT(X, OP)                                                                \
  X(unsigned char, uchar, OP) X(unsigned short, ushort, OP) X(unsigned int, uint, OP)             \
  X(unsigned long, ulong, OP) X(unsigned long long, ulonglong, OP) X(signed char, int8, OP)       \
  X(short, int16, OP) X(int, int32, OP) X(long, int64, OP)
#define GSHMEM_G_REDUCE_MINMAX_DEV(X, OP)                                                         \
  X(char, char, OP) X(signed char, schar, OP) X(short, short, OP) X(int, int, OP)                 \
  X(long, long, OP) X(long long, longlong, OP) X(unsigned char, uchar, OP)                        \
  X(unsigned short, ushort, OP) X(unsigned int, uint, OP) X(unsigned long, ulong, OP)             \
  X(unsigned long long, ulonglong, OP) X(float, float, OP) X(double, double, OP)
#define GSHMEM_G_REDUCE_MINMAX(X, OP) GSHMEM_G_REDUCE_MINMAX_DEV(X, OP) X(long double, longdouble, OP)

#if !defined(__cplusplus) && defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L

#if GSHMEM_HAVE_COMPLEX
#define GSHMEM_G_REDUCE_ARITH(X, OP) \
  GSHMEM_G_REDUCE_MINMAX(X, OP) X(double _Complex, complexd, OP) X(float _Complex, complexf, OP)
#else
#define GSHMEM_G_REDUCE_ARITH(X, OP) GSHMEM_G_REDUCE_MINMAX(X, OP)
#endif

/* The second argument (dest) picks the routine. */
#define GSHMEM_G_TEAM_SEL(LIST, OP, team, dest) \
  _Generic(*(dest) LIST(GSHMEM_G_ASSOC, OP), default : gshmemi_generic_no_match)

#define shmem_and_reduce(team, dest, ...) GSHMEM_G_TEAM_SEL(GSHMEM_G_REDUCE_BIT, and_reduce, team, dest)(team, dest, __VA_ARGS__)
#define shmem_or_reduce(team, dest, ...) GSHMEM_G_TEAM_SEL(GSHMEM_G_REDUCE_BIT, or_reduce, team, dest)(team, dest, __VA_ARGS__)
#define shmem_xor_reduce(team, dest, ...) GSHMEM_G_TEAM_SEL(GSHMEM_G_REDUCE_BIT, xor_reduce, team, dest)(team, dest, __VA_ARGS__)
#define shmem_max_reduce(team, dest, ...) GSHMEM_G_TEAM_SEL(GSHMEM_G_REDUCE_MINMAX, max_reduce, team, dest)(team, dest, __VA_ARGS__)
#define shmem_min_reduce(team, dest, ...) GSHMEM_G_TEAM_SEL(GSHMEM_G_REDUCE_MINMAX, min_reduce, team, dest)(team, dest, __VA_ARGS__)
#define shmem_sum_reduce(team, dest, ...) GSHMEM_G_TEAM_SEL(GSHMEM_G_REDUCE_ARITH, sum_reduce, team, dest)(team, dest, __VA_ARGS__)
#define shmem_prod_reduce(team, dest, ...) GSHMEM_G_TEAM_SEL(GSHMEM_G_REDUCE_ARITH, prod_reduce, team, dest)(team, dest, __VA_ARGS__)
#define shmem_sum_inscan(team, dest, ...) GSHMEM_G_TEAM_SEL(GSHMEM_G_REDUCE_ARITH, sum_inscan, team, dest)(team, dest, __VA_ARGS__)
#define shmem_sum_exscan(team, dest, ...) GSHMEM_G_TEAM_SEL(GSHMEM_G_REDUCE_ARITH, sum_exscan, team, dest)(team, dest, __VA_ARGS__)
#define shmem_broadcast(team, dest, ...) GSHMEM_G_TEAM_SEL(GSHMEM_G_RMA, broadcast, team, dest)(team, dest, __VA_ARGS__)
#define shmem_collect(team, dest, ...) GSHMEM_G_TEAM_SEL(GSHMEM_G_RMA, collect, team, dest)(team, dest, __VA_ARGS__)
#define shmem_fcollect(team, dest, ...) GSHMEM_G_TEAM_SEL(GSHMEM_G_RMA, fcollect, team, dest)(team, dest, __VA_ARGS__)
#define shmem_alltoall(team, dest, ...) GSHMEM_G_TEAM_SEL(GSHMEM_G_RMA, alltoall, team, dest)(team, dest, __VA_ARGS__)
#define shmem_alltoalls(team, dest, ...) GSHMEM_G_TEAM_SEL(GSHMEM_G_RMA, alltoalls, team, dest)(team, dest, __VA_ARGS__)

/* One argument: the team form; four: the deprecated active-set form (the name inside a macro's
 * own expansion is not expanded again, so it reaches the function). */
#define GSHMEM_G_SYNC_PICK(_1, _2, _3, _4, NAME, ...) NAME
#define shmem_sync(...) GSHMEM_G_SYNC_PICK(__VA_ARGS__, shmem_sync, gshmemi_generic_no_match, \
                                           gshmemi_generic_no_match, shmem_team_sync, 0)(__VA_ARGS__)

#elif defined(__cplusplus)

#define GSHMEM_CXX_REDUCE(T, N, OP)                                                               \
  GSHMEM_HD inline int shmem_##OP##_reduce(shmem_team_t team, T *d, const T *s, size_t n) {       \
    return shmem_##N##_##OP##_reduce(team, d, s, n);                                              \
  }
#define GSHMEM_CXX_SCAN(T, N, _)                                                                  \
  GSHMEM_HD inline int shmem_sum_inscan(shmem_team_t team, T *d, const T *s, size_t n) {          \
    return shmem_##N##_sum_inscan(team, d, s, n);                                                 \
  }                                                                                               \
  GSHMEM_HD inline int shmem_sum_exscan(shmem_team_t team, T *d, const T *s, size_t n) {          \
    return shmem_##N##_sum_exscan(team, d, s, n);                                                 \
  }
#define GSHMEM_CXX_COLL(T, N, _)                                                                  \
  GSHMEM_HD inline int shmem_broadcast(shmem_team_t team, T *d, const T *s, size_t n, int root) { \
    return shmem_##N##_broadcast(team, d, s, n, root);                                            \
  }                                                                                               \
  GSHMEM_HD inline int shmem_collect(shmem_team_t team, T *d, const T *s, size_t n) {             \
    return shmem_##N##_collect(team, d, s, n);                                                    \
  }                                                                                               \
  GSHMEM_HD inline int shmem_fcollect(shmem_team_t team, T *d, const T *s, size_t n) {            \
    return shmem_##N##_fcollect(team, d, s, n);                                                   \
  }                                                                                               \
  GSHMEM_HD inline int shmem_alltoall(shmem_team_t team, T *d, const T *s, size_t n) {            \
    return shmem_##N##_alltoall(team, d, s, n);                                                   \
  }                                                                                               \
  GSHMEM_HD inline int shmem_alltoalls(shmem_team_t team, T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n) { \
    return shmem_##N##_alltoalls(team, d, s, dst, sst, n);                                        \
  }

#if defined(__CUDACC__)
#define GSHMEM_HD __host__ __device__
#else
#define GSHMEM_HD
#endif
GSHMEM_G_REDUCE_BIT(GSHMEM_CXX_REDUCE, and)
GSHMEM_G_REDUCE_BIT(GSHMEM_CXX_REDUCE, or)
GSHMEM_G_REDUCE_BIT(GSHMEM_CXX_REDUCE, xor)
GSHMEM_G_REDUCE_MINMAX_DEV(GSHMEM_CXX_REDUCE, max)
GSHMEM_G_REDUCE_MINMAX_DEV(GSHMEM_CXX_REDUCE, min)
GSHMEM_G_REDUCE_MINMAX_DEV(GSHMEM_CXX_REDUCE, sum)
GSHMEM_G_REDUCE_MINMAX_DEV(GSHMEM_CXX_REDUCE, prod)
GSHMEM_G_REDUCE_MINMAX_DEV(GSHMEM_CXX_SCAN, _)
GSHMEM_G_RMA_DEV(GSHMEM_CXX_COLL, _)
GSHMEM_HD inline int shmem_sync(shmem_team_t team) { return shmem_team_sync(team); }
#undef GSHMEM_HD
/* long double: host only (device code has none) */
#if !defined(__CUDA_ARCH__)
#define GSHMEM_HD
GSHMEM_CXX_REDUCE(long double, longdouble, max)
GSHMEM_CXX_REDUCE(long double, longdouble, min)
GSHMEM_CXX_REDUCE(long double, longdouble, sum)
GSHMEM_CXX_REDUCE(long double, longdouble, prod)
GSHMEM_CXX_COLL(long double, longdouble, _)
GSHMEM_CXX_SCAN(long double, longdouble, _)
#undef GSHMEM_HD
#endif
#undef GSHMEM_CXX_REDUCE
#undef GSHMEM_CXX_COLL
#undef GSHMEM_CXX_SCAN

#endif /* C11 / C++ */
#endif /* GSHMEM_GENERIC_COLL_H */
