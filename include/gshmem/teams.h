/* Teams and team-based collectives (OpenSHMEM 1.5), and the deprecated active-set forms.
 * Included by shmem.h. Team handles are small integers (NVSHMEM-style), so they can be passed
 * to kernels. */
#ifndef GSHMEM_TEAMS_H
#define GSHMEM_TEAMS_H

#include <stddef.h>
#include <stdint.h>

#include "gshmem/export.h"
#include "gshmem/device_host/type_tables.h"

GSHMEM_EXTERN_C_BEGIN

/* shmem_team_t and the predefined handles (shared with device code) */
#include "gshmem/device_host/team.h"

typedef struct {
  int num_contexts;
} shmem_team_config_t;
#define SHMEM_TEAM_NUM_CONTEXTS (1L << 0)

/* Names also callable from device code (gshmem/coll_api.cuh) are declared for the host pass only. */
#if !defined(__CUDA_ARCH__)
int shmem_team_my_pe(shmem_team_t team);
int shmem_team_n_pes(shmem_team_t team);
int shmem_team_sync(shmem_team_t team);
int shmem_team_translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team);
#endif
int shmem_team_get_config(shmem_team_t team, long config_mask, shmem_team_config_t *config);
int shmem_team_split_strided(shmem_team_t parent_team, int start, int stride, int size,
                             const shmem_team_config_t *config, long config_mask, shmem_team_t *new_team);
int shmem_team_split_2d(shmem_team_t parent_team, int xrange, const shmem_team_config_t *xaxis_config,
                        long xaxis_mask, shmem_team_t *xaxis_team, const shmem_team_config_t *yaxis_config,
                        long yaxis_mask, shmem_team_t *yaxis_team);
void shmem_team_destroy(shmem_team_t team);
void *shmem_team_ptr(shmem_team_t team, const void *dest, int pe);

/* ---- Team collectives: return 0 on success ---- */
#define GSHMEM_DECL_TEAM_COLL(T, N)                                                                 \
  int shmem_##N##_broadcast(shmem_team_t team, T *dest, const T *source, size_t nelems, int PE_root); \
  int shmem_##N##_collect(shmem_team_t team, T *dest, const T *source, size_t nelems);              \
  int shmem_##N##_fcollect(shmem_team_t team, T *dest, const T *source, size_t nelems);             \
  int shmem_##N##_alltoall(shmem_team_t team, T *dest, const T *source, size_t nelems);             \
  int shmem_##N##_alltoalls(shmem_team_t team, T *dest, const T *source, ptrdiff_t dst, ptrdiff_t sst, \
                            size_t nelems);
GSHMEM_DECL_TEAM_COLL(long double, longdouble)
#define GSHMEM_DECL_REDUCE(T, N, OP) \
  int shmem_##N##_##OP##_reduce(shmem_team_t team, T *dest, const T *source, size_t nreduce);
#define GSHMEM_DECL_REDUCE_BIT(T, N) GSHMEM_DECL_REDUCE(T, N, and) GSHMEM_DECL_REDUCE(T, N, or) GSHMEM_DECL_REDUCE(T, N, xor)
#define GSHMEM_DECL_REDUCE_MINMAX(T, N) GSHMEM_DECL_REDUCE(T, N, max) GSHMEM_DECL_REDUCE(T, N, min)
#define GSHMEM_DECL_REDUCE_ARITH(T, N) GSHMEM_DECL_REDUCE(T, N, sum) GSHMEM_DECL_REDUCE(T, N, prod)
/* OpenSHMEM 1.6 scans (prefix sums) over every SUM type */
#define GSHMEM_DECL_SCAN(T, N)                                                                 \
  int shmem_##N##_sum_inscan(shmem_team_t team, T *dest, const T *source, size_t nelems);      \
  int shmem_##N##_sum_exscan(shmem_team_t team, T *dest, const T *source, size_t nelems);
GSHMEM_DECL_REDUCE_MINMAX(long double, longdouble)
GSHMEM_DECL_REDUCE_ARITH(long double, longdouble)
GSHMEM_DECL_SCAN(long double, longdouble)
#if GSHMEM_HAVE_COMPLEX
GSHMEM_REDUCE_COMPLEX_TYPES(GSHMEM_DECL_REDUCE_ARITH)
GSHMEM_REDUCE_COMPLEX_TYPES(GSHMEM_DECL_SCAN)
#endif
/* the collectives over device types: also device functions */
#if !defined(__CUDA_ARCH__)
int shmem_broadcastmem(shmem_team_t team, void *dest, const void *source, size_t nelems, int PE_root);
int shmem_collectmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_fcollectmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_alltoallmem(shmem_team_t team, void *dest, const void *source, size_t nelems);
int shmem_alltoallsmem(shmem_team_t team, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,
                       size_t nelems);
GSHMEM_RMA_TYPES_DEVICE(GSHMEM_DECL_TEAM_COLL)
GSHMEM_REDUCE_BIT_TYPES(GSHMEM_DECL_REDUCE_BIT)
GSHMEM_REDUCE_MINMAX_TYPES_DEVICE(GSHMEM_DECL_REDUCE_MINMAX)
GSHMEM_REDUCE_MINMAX_TYPES_DEVICE(GSHMEM_DECL_REDUCE_ARITH)
GSHMEM_REDUCE_MINMAX_TYPES_DEVICE(GSHMEM_DECL_SCAN)
#endif
#undef GSHMEM_DECL_SCAN
#undef GSHMEM_DECL_TEAM_COLL

/* ---- Deprecated active-set forms (pSync/pWrk), for older programs ---- */
void shmem_barrier(int PE_start, int logPE_stride, int PE_size, long *pSync);
void shmem_sync(int PE_start, int logPE_stride, int PE_size, long *pSync);
void shmem_broadcast32(void *dest, const void *source, size_t nelems, int PE_root, int PE_start, int logPE_stride,
                       int PE_size, long *pSync);
void shmem_broadcast64(void *dest, const void *source, size_t nelems, int PE_root, int PE_start, int logPE_stride,
                       int PE_size, long *pSync);
void shmem_collect32(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride, int PE_size,
                     long *pSync);
void shmem_collect64(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride, int PE_size,
                     long *pSync);
void shmem_fcollect32(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride, int PE_size,
                      long *pSync);
void shmem_fcollect64(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride, int PE_size,
                      long *pSync);
void shmem_alltoall32(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride, int PE_size,
                      long *pSync);
void shmem_alltoall64(void *dest, const void *source, size_t nelems, int PE_start, int logPE_stride, int PE_size,
                      long *pSync);
void shmem_alltoalls32(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int PE_start,
                       int logPE_stride, int PE_size, long *pSync);
void shmem_alltoalls64(void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, int PE_start,
                       int logPE_stride, int PE_size, long *pSync);
#define GSHMEM_DECL_TO_ALL(T, N, OP)                                                                   \
  void shmem_##N##_##OP##_to_all(T *dest, const T *source, int nreduce, int PE_start, int logPE_stride, \
                                 int PE_size, T *pWrk, long *pSync);
#define GSHMEM_DECL_TO_ALL_BIT(T, N) GSHMEM_DECL_TO_ALL(T, N, and) GSHMEM_DECL_TO_ALL(T, N, or) GSHMEM_DECL_TO_ALL(T, N, xor)
#define GSHMEM_DECL_TO_ALL_ARITH(T, N)                                                                 \
  GSHMEM_DECL_TO_ALL(T, N, max) GSHMEM_DECL_TO_ALL(T, N, min) GSHMEM_DECL_TO_ALL(T, N, sum) GSHMEM_DECL_TO_ALL(T, N, prod)
GSHMEM_TO_ALL_BIT_TYPES(GSHMEM_DECL_TO_ALL_BIT)
GSHMEM_TO_ALL_ARITH_TYPES(GSHMEM_DECL_TO_ALL_ARITH)
#if GSHMEM_HAVE_COMPLEX
GSHMEM_DECL_TO_ALL(double _Complex, complexd, sum)
GSHMEM_DECL_TO_ALL(double _Complex, complexd, prod)
GSHMEM_DECL_TO_ALL(float _Complex, complexf, sum)
GSHMEM_DECL_TO_ALL(float _Complex, complexf, prod)
#endif
#undef GSHMEM_DECL_TO_ALL_BIT
#undef GSHMEM_DECL_TO_ALL_ARITH
#undef GSHMEM_DECL_TO_ALL
#undef GSHMEM_DECL_REDUCE_BIT
#undef GSHMEM_DECL_REDUCE_MINMAX
#undef GSHMEM_DECL_REDUCE_ARITH
#undef GSHMEM_DECL_REDUCE

/* Distributed locks */
void shmem_set_lock(long *lock);
void shmem_clear_lock(long *lock);
int shmem_test_lock(long *lock);

GSHMEM_EXTERN_C_END
#endif
