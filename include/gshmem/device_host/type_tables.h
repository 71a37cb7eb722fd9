/* The OpenSHMEM 1.5 standard type tables, as X-macro lists: X(TYPE, TYPENAME).
 * These lists are the only macro-generated part of the API (declarations in shmem.h, thin
 * definitions in src/api). */
#ifndef GSHMEM_TYPE_TABLES_H
#define GSHMEM_TYPE_TABLES_H

/* Table "Standard RMA Types and Names". Device code has no long double, so the list is split. */
#define GSHMEM_RMA_TYPES_DEVICE(X)                                                                 \
  X(float, float) X(double, double) X(char, char)                                                 \
  X(signed char, schar) X(short, short) X(int, int) X(long, long) X(long long, longlong)          \
  X(unsigned char, uchar) X(unsigned short, ushort) X(unsigned int, uint) X(unsigned long, ulong) \
  X(unsigned long long, ulonglong) X(int8_t, int8) X(int16_t, int16) X(int32_t, int32)            \
  X(int64_t, int64) X(uint8_t, uint8) X(uint16_t, uint16) X(uint32_t, uint32) X(uint64_t, uint64) \
  X(size_t, size) X(ptrdiff_t, ptrdiff)
#define GSHMEM_RMA_TYPES(X) X(long double, longdouble) GSHMEM_RMA_TYPES_DEVICE(X)

/* Table "Standard AMO Types and Names" (compare_swap, fetch_inc, inc, fetch_add, add) */
#define GSHMEM_AMO_STD_TYPES(X)                                                                   \
  X(int, int) X(long, long) X(long long, longlong) X(unsigned int, uint) X(unsigned long, ulong) \
  X(unsigned long long, ulonglong) X(int32_t, int32) X(int64_t, int64) X(uint32_t, uint32)        \
  X(uint64_t, uint64) X(size_t, size) X(ptrdiff_t, ptrdiff)

/* Table "Extended AMO Types and Names" (fetch, set, swap) */
#define GSHMEM_AMO_EXT_TYPES(X) X(float, float) X(double, double) GSHMEM_AMO_STD_TYPES(X)

/* Table "Bitwise AMO Types and Names" (and, or, xor) */
#define GSHMEM_AMO_BIT_TYPES(X)                                                                    \
  X(unsigned int, uint) X(unsigned long, ulong) X(unsigned long long, ulonglong) X(int32_t, int32) \
  X(int64_t, int64) X(uint32_t, uint32) X(uint64_t, uint64)

/* Table "Point-to-Point Synchronization Types and Names" */
#define GSHMEM_P2P_TYPES(X)                                                                       \
  X(short, short) X(unsigned short, ushort)                                                       \
  X(int, int) X(long, long) X(long long, longlong) X(unsigned int, uint) X(unsigned long, ulong) \
  X(unsigned long long, ulonglong) X(int32_t, int32) X(int64_t, int64) X(uint32_t, uint32)        \
  X(uint64_t, uint64) X(size_t, size) X(ptrdiff_t, ptrdiff)

/* Table "Reduction Types, Names and Supporting Operations" */
#define GSHMEM_REDUCE_BIT_TYPES(X)                                                                 \
  X(unsigned char, uchar) X(unsigned short, ushort) X(unsigned int, uint) X(unsigned long, ulong)  \
  X(unsigned long long, ulonglong) X(int8_t, int8) X(int16_t, int16) X(int32_t, int32)            \
  X(int64_t, int64) X(uint8_t, uint8) X(uint16_t, uint16) X(uint32_t, uint32) X(uint64_t, uint64) \
  X(size_t, size)
#define GSHMEM_REDUCE_MINMAX_TYPES_DEVICE(X)                                                       \
  X(char, char) X(signed char, schar) X(short, short) X(int, int) X(long, long)                   \
  X(long long, longlong) X(ptrdiff_t, ptrdiff) GSHMEM_REDUCE_BIT_TYPES(X) X(float, float)         \
  X(double, double)
#define GSHMEM_REDUCE_MINMAX_TYPES(X) GSHMEM_REDUCE_MINMAX_TYPES_DEVICE(X) X(long double, longdouble)
/* sum and prod: the min/max types plus these (C only: _Complex) */
#define GSHMEM_REDUCE_COMPLEX_TYPES(X) X(double _Complex, complexd) X(float _Complex, complexf)
/* Deprecated *_to_all reductions */
#define GSHMEM_TO_ALL_BIT_TYPES(X) X(short, short) X(int, int) X(long, long) X(long long, longlong)
#define GSHMEM_TO_ALL_ARITH_TYPES(X) GSHMEM_TO_ALL_BIT_TYPES(X) X(float, float) X(double, double) X(long double, longdouble)

/* Complex reductions are declared where the compiler has C99 _Complex in this language mode. */
#if !defined(__cplusplus) && !defined(__CUDACC__) && !defined(__STDC_NO_COMPLEX__)
#define GSHMEM_HAVE_COMPLEX 1
#elif defined(__cplusplus) && defined(__GNUC__) && !defined(__CUDACC__)
#define GSHMEM_HAVE_COMPLEX 1
#else
#define GSHMEM_HAVE_COMPLEX 0
#endif

/* Sized RMA and sized iput/iget: X(BITS) */
#define GSHMEM_SIZES(X) X(8) X(16) X(32) X(64) X(128)

#endif
