/* gshmem: OpenSHMEM 1.6 C API. An unchanged OpenSHMEM C program compiles against this header
 * with a plain C compiler (C99 or later; the type-generic names need C11 or C++). */
#ifndef SHMEM_H
#define SHMEM_H

/* One OpenSHMEM per program: another implementation's shmem.h included first (Open MPI's, found
 * when its include directory comes before gshmem's) declares the same names differently. */
#if defined(OSHMEM_SHMEM_H)
#error "gshmem's shmem.h: Open MPI's OSHMEM shmem.h was included first (its include directory comes before gshmem's on the include path); a program uses one OpenSHMEM: put gshmem's include directory first"
#endif

#include <stddef.h>
#include <stdint.h>

#include "gshmem/export.h"
#include "gshmem/version.h"
#include "gshmem/constants.h"
#include "gshmem/device_host/type_tables.h"

GSHMEM_EXTERN_C_BEGIN

/* ---- Library setup, exit and query ---- */
void shmem_init(void);
int shmem_init_thread(int requested, int *provided);
void shmem_query_thread(int *provided);
void shmem_query_initialized(int *initialized);
void shmem_finalize(void);
void shmem_global_exit(int status);
int shmem_pe_accessible(int pe);
int shmem_addr_accessible(const void *addr, int pe);
/* Also callable from device code: host declarations for the host pass, inline device
 * definitions (the constants above) for the device pass. */
#if !defined(__CUDA_ARCH__)
void shmem_info_get_version(int *major, int *minor);
void shmem_info_get_name(char *name);
#else
static __device__ __forceinline__ void shmem_info_get_version(int *major, int *minor) {
  if (major) *major = SHMEM_MAJOR_VERSION;
  if (minor) *minor = SHMEM_MINOR_VERSION;
}
static __device__ __forceinline__ void shmem_info_get_name(char *name) {
  const char s[] = SHMEM_VENDOR_STRING;
  if (name)
    for (unsigned i = 0; i < sizeof s && i < SHMEM_MAX_NAME_LEN; ++i) name[i] = s[i];
}
#endif
/* Profiling control (OpenSHMEM 1.5 sec. 10.1): gshmem itself does nothing with level; a tool
 * that defines shmem_pcontrol sees the calls (0: profiling off, 1: on, 2+: tool-defined). */
void shmem_pcontrol(int level, ...);

/* ---- Memory management ---- */
void *shmem_malloc(size_t size);
void *shmem_calloc(size_t count, size_t size);
void *shmem_align(size_t alignment, size_t size);
void *shmem_realloc(void *ptr, size_t size);
void shmem_free(void *ptr);
void *shmem_malloc_with_hints(size_t size, long hints);

GSHMEM_EXTERN_C_END

/* Everything below down to "end of the device-capable API" is also callable from CUDA device code.
 * Under nvcc the device compilation pass gets inline device definitions of these names
 * (gshmem/device_api.cuh) instead of the host declarations. */
#if defined(__CUDACC__)
#include "gshmem/device_api.cuh"
#endif
#if !defined(__CUDA_ARCH__)
GSHMEM_EXTERN_C_BEGIN

int shmem_my_pe(void);
int shmem_n_pes(void);
void *shmem_ptr(const void *dest, int pe);

/* ---- Remote memory access ---- */
#define GSHMEM_DECL_RMA(T, N)                                                                    \
  void shmem_##N##_put(T *dest, const T *source, size_t nelems, int pe);                         \
  void shmem_##N##_put_nbi(T *dest, const T *source, size_t nelems, int pe);                     \
  void shmem_##N##_get(T *dest, const T *source, size_t nelems, int pe);                         \
  void shmem_##N##_get_nbi(T *dest, const T *source, size_t nelems, int pe);                     \
  void shmem_##N##_p(T *dest, T value, int pe);                                                  \
  T shmem_##N##_g(const T *source, int pe);                                                      \
  void shmem_##N##_iput(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,   \
                        int pe);                                                                 \
  void shmem_##N##_iget(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,   \
                        int pe);                                                                 \
  void shmem_##N##_ibput(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize,   \
                         size_t nblocks, int pe);                                                \
  void shmem_##N##_ibget(T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize,   \
                         size_t nblocks, int pe);                                                \
  void shmem_##N##_put_signal(T *dest, const T *source, size_t nelems, uint64_t *sig_addr,       \
                              uint64_t signal, int sig_op, int pe);                              \
  void shmem_##N##_put_signal_nbi(T *dest, const T *source, size_t nelems, uint64_t *sig_addr,   \
                                  uint64_t signal, int sig_op, int pe);
GSHMEM_RMA_TYPES(GSHMEM_DECL_RMA)
#undef GSHMEM_DECL_RMA

#define GSHMEM_DECL_SIZED(B)                                                                     \
  void shmem_put##B(void *dest, const void *source, size_t nelems, int pe);                      \
  void shmem_put##B##_nbi(void *dest, const void *source, size_t nelems, int pe);                \
  void shmem_get##B(void *dest, const void *source, size_t nelems, int pe);                      \
  void shmem_get##B##_nbi(void *dest, const void *source, size_t nelems, int pe);                \
  void shmem_iput##B(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, \
                     int pe);                                                                    \
  void shmem_iget##B(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, \
                     int pe);                                                                    \
  void shmem_ibput##B(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, \
                      size_t nblocks, int pe);                                                   \
  void shmem_ibget##B(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t bsize, \
                      size_t nblocks, int pe);                                                   \
  void shmem_put##B##_signal(void *dest, const void *source, size_t nelems, uint64_t *sig_addr,  \
                             uint64_t signal, int sig_op, int pe);                               \
  void shmem_put##B##_signal_nbi(void *dest, const void *source, size_t nelems,                  \
                                 uint64_t *sig_addr, uint64_t signal, int sig_op, int pe);
GSHMEM_SIZES(GSHMEM_DECL_SIZED)
#undef GSHMEM_DECL_SIZED

void shmem_putmem(void *dest, const void *source, size_t nelems, int pe);
void shmem_putmem_nbi(void *dest, const void *source, size_t nelems, int pe);
void shmem_getmem(void *dest, const void *source, size_t nelems, int pe);
void shmem_getmem_nbi(void *dest, const void *source, size_t nelems, int pe);
void shmem_putmem_signal(void *dest, const void *source, size_t nelems, uint64_t *sig_addr,
                         uint64_t signal, int sig_op, int pe);
void shmem_putmem_signal_nbi(void *dest, const void *source, size_t nelems, uint64_t *sig_addr,
                             uint64_t signal, int sig_op, int pe);

/* ---- Signals ---- */
uint64_t shmem_signal_fetch(const uint64_t *sig_addr);
uint64_t shmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t cmp_value);
void shmem_signal_add(uint64_t *sig_addr, uint64_t signal, int pe);
void shmem_signal_set(uint64_t *sig_addr, uint64_t signal, int pe);

/* ---- Atomic memory operations ---- */
#define GSHMEM_DECL_AMO_EXT(T, N)                                                                \
  T shmem_##N##_atomic_fetch(const T *source, int pe);                                           \
  void shmem_##N##_atomic_set(T *dest, T value, int pe);                                         \
  T shmem_##N##_atomic_swap(T *dest, T value, int pe);                                           \
  void shmem_##N##_atomic_fetch_nbi(T *fetch, const T *source, int pe);                          \
  void shmem_##N##_atomic_swap_nbi(T *fetch, T *dest, T value, int pe);
GSHMEM_AMO_EXT_TYPES(GSHMEM_DECL_AMO_EXT)
#undef GSHMEM_DECL_AMO_EXT

#define GSHMEM_DECL_AMO_STD(T, N)                                                                \
  T shmem_##N##_atomic_compare_swap(T *dest, T cond, T value, int pe);                           \
  T shmem_##N##_atomic_fetch_inc(T *dest, int pe);                                               \
  void shmem_##N##_atomic_inc(T *dest, int pe);                                                  \
  T shmem_##N##_atomic_fetch_add(T *dest, T value, int pe);                                      \
  void shmem_##N##_atomic_add(T *dest, T value, int pe);                                         \
  void shmem_##N##_atomic_compare_swap_nbi(T *fetch, T *dest, T cond, T value, int pe);          \
  void shmem_##N##_atomic_fetch_inc_nbi(T *fetch, T *dest, int pe);                              \
  void shmem_##N##_atomic_fetch_add_nbi(T *fetch, T *dest, T value, int pe);
GSHMEM_AMO_STD_TYPES(GSHMEM_DECL_AMO_STD)
#undef GSHMEM_DECL_AMO_STD

#define GSHMEM_DECL_AMO_BIT(T, N)                                                                \
  T shmem_##N##_atomic_fetch_and(T *dest, T value, int pe);                                      \
  void shmem_##N##_atomic_and(T *dest, T value, int pe);                                         \
  T shmem_##N##_atomic_fetch_or(T *dest, T value, int pe);                                       \
  void shmem_##N##_atomic_or(T *dest, T value, int pe);                                          \
  T shmem_##N##_atomic_fetch_xor(T *dest, T value, int pe);                                      \
  void shmem_##N##_atomic_xor(T *dest, T value, int pe);                                         \
  void shmem_##N##_atomic_fetch_and_nbi(T *fetch, T *dest, T value, int pe);                     \
  void shmem_##N##_atomic_fetch_or_nbi(T *fetch, T *dest, T value, int pe);                      \
  void shmem_##N##_atomic_fetch_xor_nbi(T *fetch, T *dest, T value, int pe);
GSHMEM_AMO_BIT_TYPES(GSHMEM_DECL_AMO_BIT)
#undef GSHMEM_DECL_AMO_BIT

/* ---- Memory ordering ---- */
void shmem_fence(void);
void shmem_quiet(void);
void shmem_pe_quiet(const int *target_pes, size_t npes);

/* ---- Point-to-point synchronization ---- */
#define GSHMEM_DECL_P2P(T, N)                                                                    \
  void shmem_##N##_wait_until(T *ivar, int cmp, T cmp_value);                                    \
  void shmem_##N##_wait_until_all(T *ivars, size_t nelems, const int *status, int cmp,           \
                                  T cmp_value);                                                  \
  size_t shmem_##N##_wait_until_any(T *ivars, size_t nelems, const int *status, int cmp,         \
                                    T cmp_value);                                                \
  size_t shmem_##N##_wait_until_some(T *ivars, size_t nelems, size_t *indices,                   \
                                     const int *status, int cmp, T cmp_value);                   \
  void shmem_##N##_wait_until_all_vector(T *ivars, size_t nelems, const int *status, int cmp,    \
                                         const T *cmp_values);                                         \
  size_t shmem_##N##_wait_until_any_vector(T *ivars, size_t nelems, const int *status, int cmp,  \
                                           const T *cmp_values);                                       \
  size_t shmem_##N##_wait_until_some_vector(T *ivars, size_t nelems, size_t *indices,            \
                                            const int *status, int cmp, const T *cmp_values);          \
  int shmem_##N##_test(T *ivar, int cmp, T cmp_value);                                           \
  int shmem_##N##_test_all(T *ivars, size_t nelems, const int *status, int cmp, T cmp_value);    \
  size_t shmem_##N##_test_any(T *ivars, size_t nelems, const int *status, int cmp, T cmp_value); \
  size_t shmem_##N##_test_some(T *ivars, size_t nelems, size_t *indices, const int *status,      \
                               int cmp, T cmp_value);                                            \
  int shmem_##N##_test_all_vector(T *ivars, size_t nelems, const int *status, int cmp,           \
                                  const T *cmp_values);                                                \
  size_t shmem_##N##_test_any_vector(T *ivars, size_t nelems, const int *status, int cmp,        \
                                     const T *cmp_values);                                             \
  size_t shmem_##N##_test_some_vector(T *ivars, size_t nelems, size_t *indices,                  \
                                      const int *status, int cmp, const T *cmp_values);
GSHMEM_P2P_TYPES(GSHMEM_DECL_P2P)
#undef GSHMEM_DECL_P2P

/* ---- Barriers (teams and the other collectives come with the next release) ---- */
void shmem_barrier_all(void);
void shmem_sync_all(void);

/* Deprecated long waits (also the long overload of the C++ generic shmem_wait_until). */
void shmem_wait(long *ivar, long cmp_value);
void shmem_wait_until(long *ivar, int cmp, long cmp_value);

GSHMEM_EXTERN_C_END
#endif /* !__CUDA_ARCH__: end of the device-capable API */

GSHMEM_EXTERN_C_BEGIN

/* ---- Deprecated names still used by older programs and benchmarks ---- */
void start_pes(int npes);
int _my_pe(void);
int _num_pes(void);
void *shmalloc(size_t size);
void shfree(void *ptr);
void *shrealloc(void *ptr, size_t size);
void *shmemalign(size_t alignment, size_t size);
#define GSHMEM_DECL_OLD_EXT(T, N)                                                                \
  T shmem_##N##_fetch(const T *source, int pe);                                                  \
  void shmem_##N##_set(T *dest, T value, int pe);                                                \
  T shmem_##N##_swap(T *dest, T value, int pe);
#define GSHMEM_DECL_OLD_STD(T, N)                                                                \
  T shmem_##N##_cswap(T *dest, T cond, T value, int pe);                                         \
  T shmem_##N##_finc(T *dest, int pe);                                                           \
  void shmem_##N##_inc(T *dest, int pe);                                                         \
  T shmem_##N##_fadd(T *dest, T value, int pe);                                                  \
  void shmem_##N##_add(T *dest, T value, int pe);
#define GSHMEM_OLD_STD_TYPES(X) X(int, int) X(long, long) X(long long, longlong)
#define GSHMEM_OLD_EXT_TYPES(X) X(float, float) X(double, double) GSHMEM_OLD_STD_TYPES(X)
#define GSHMEM_OLD_WAIT_TYPES(X) X(short, short) GSHMEM_OLD_STD_TYPES(X)
GSHMEM_OLD_EXT_TYPES(GSHMEM_DECL_OLD_EXT)
GSHMEM_OLD_STD_TYPES(GSHMEM_DECL_OLD_STD)
#undef GSHMEM_DECL_OLD_EXT
#undef GSHMEM_DECL_OLD_STD
long shmem_swap(long *dest, long value, int pe);
#define GSHMEM_DECL_OLD_WAIT(T, N) void shmem_##N##_wait(T *ivar, T cmp_value);
GSHMEM_OLD_WAIT_TYPES(GSHMEM_DECL_OLD_WAIT)
#undef GSHMEM_DECL_OLD_WAIT

GSHMEM_EXTERN_C_END

#include "gshmem/teams.h"
#if defined(__CUDACC__)
#include "gshmem/coll_api.cuh" /* team queries and collectives in device code (barrier_all too) */
#endif
#include "gshmem/ctx.h"
#include "gshmem/generic.h"

#endif /* SHMEM_H */
