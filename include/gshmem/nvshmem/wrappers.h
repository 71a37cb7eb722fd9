/* NVSHMEM 3.x functions whose arguments differ from gshmem's (the rest are plain renames in
 * gshmem/nvshmem/names.h): comparison and signal-operation constants translated from NVSHMEM's
 * values, NVSHMEM's team-config and init structures converted, the team barrier, and NVSHMEM
 * names gshmem composes from its own operations (sized and typed forms of the byte-wise calls,
 * strided puts and gets at warp and block scope). Host-and-device names are inline for both
 * passes of nvcc and plain static inline for a C or C++ host compiler. docs/nvshmem.md. */
#ifndef GSHMEM_NVSHMEM_WRAPPERS_H
#define GSHMEM_NVSHMEM_WRAPPERS_H

#include <string.h>

#include "gshmem/nvshmem/types.h"

/* HD: host and device; H: host only (seen by both passes of nvcc, like every host declaration);
 * D: device only. */
#if defined(__CUDACC__)
#define GSHMEM_NV_HD static __host__ __device__ __forceinline__
#define GSHMEM_NV_H static __host__ inline
#define GSHMEM_NV_D static __device__ __forceinline__
#else
#define GSHMEM_NV_HD static inline
#define GSHMEM_NV_H static inline
#endif

/* NVSHMEM_CMP_* -> SHMEM_CMP_*; other values pass unchanged (gshmem reports them). */
GSHMEM_NV_HD int gshmem_nv_cmp(int cmp) {
  switch (cmp) {
    case NVSHMEM_CMP_EQ: return SHMEM_CMP_EQ;
    case NVSHMEM_CMP_NE: return SHMEM_CMP_NE;
    case NVSHMEM_CMP_GT: return SHMEM_CMP_GT;
    case NVSHMEM_CMP_LE: return SHMEM_CMP_LE;
    case NVSHMEM_CMP_LT: return SHMEM_CMP_LT;
    case NVSHMEM_CMP_GE: return SHMEM_CMP_GE;
    default: return cmp;
  }
}
/* NVSHMEM_SIGNAL_SET/ADD -> SHMEM_SIGNAL_SET/ADD; any other value becomes -1 (gshmem reports it). */
GSHMEM_NV_HD int gshmem_nv_sig_op(int op) {
  return op == NVSHMEM_SIGNAL_SET ? SHMEM_SIGNAL_SET : op == NVSHMEM_SIGNAL_ADD ? SHMEM_SIGNAL_ADD : -1;
}

/* ---- point-to-point synchronization (host and device) ---- */
#define GSHMEM_NV_P2P(T, N)                                                                              \
  GSHMEM_NV_HD void nvshmem_##N##_wait_until(T *ivar, int cmp, T v) { shmem_##N##_wait_until(ivar, gshmem_nv_cmp(cmp), v); } \
  GSHMEM_NV_HD void nvshmem_##N##_wait_until_all(T *ivars, size_t n, const int *st, int cmp, T v) {      \
    shmem_##N##_wait_until_all(ivars, n, st, gshmem_nv_cmp(cmp), v);                                     \
  }                                                                                                      \
  GSHMEM_NV_HD size_t nvshmem_##N##_wait_until_any(T *ivars, size_t n, const int *st, int cmp, T v) {    \
    return shmem_##N##_wait_until_any(ivars, n, st, gshmem_nv_cmp(cmp), v);                              \
  }                                                                                                      \
  GSHMEM_NV_HD size_t nvshmem_##N##_wait_until_some(T *ivars, size_t n, size_t *idx, const int *st, int cmp, T v) { \
    return shmem_##N##_wait_until_some(ivars, n, idx, st, gshmem_nv_cmp(cmp), v);                        \
  }                                                                                                      \
  GSHMEM_NV_HD void nvshmem_##N##_wait_until_all_vector(T *ivars, size_t n, const int *st, int cmp, T *v) { \
    shmem_##N##_wait_until_all_vector(ivars, n, st, gshmem_nv_cmp(cmp), v);                              \
  }                                                                                                      \
  GSHMEM_NV_HD size_t nvshmem_##N##_wait_until_any_vector(T *ivars, size_t n, const int *st, int cmp, T *v) { \
    return shmem_##N##_wait_until_any_vector(ivars, n, st, gshmem_nv_cmp(cmp), v);                       \
  }                                                                                                      \
  GSHMEM_NV_HD size_t nvshmem_##N##_wait_until_some_vector(T *ivars, size_t n, size_t *idx, const int *st, int cmp, \
                                                          T *v) {                                        \
    return shmem_##N##_wait_until_some_vector(ivars, n, idx, st, gshmem_nv_cmp(cmp), v);                 \
  }                                                                                                      \
  GSHMEM_NV_HD int nvshmem_##N##_test(T *ivar, int cmp, T v) { return shmem_##N##_test(ivar, gshmem_nv_cmp(cmp), v); } \
  GSHMEM_NV_HD int nvshmem_##N##_test_all(T *ivars, size_t n, const int *st, int cmp, T v) {             \
    return shmem_##N##_test_all(ivars, n, st, gshmem_nv_cmp(cmp), v);                                    \
  }                                                                                                      \
  GSHMEM_NV_HD size_t nvshmem_##N##_test_any(T *ivars, size_t n, const int *st, int cmp, T v) {          \
    return shmem_##N##_test_any(ivars, n, st, gshmem_nv_cmp(cmp), v);                                    \
  }                                                                                                      \
  GSHMEM_NV_HD size_t nvshmem_##N##_test_some(T *ivars, size_t n, size_t *idx, const int *st, int cmp, T v) { \
    return shmem_##N##_test_some(ivars, n, idx, st, gshmem_nv_cmp(cmp), v);                              \
  }                                                                                                      \
  GSHMEM_NV_HD int nvshmem_##N##_test_all_vector(T *ivars, size_t n, const int *st, int cmp, T *v) {     \
    return shmem_##N##_test_all_vector(ivars, n, st, gshmem_nv_cmp(cmp), v);                             \
  }                                                                                                      \
  GSHMEM_NV_HD size_t nvshmem_##N##_test_any_vector(T *ivars, size_t n, const int *st, int cmp, T *v) {  \
    return shmem_##N##_test_any_vector(ivars, n, st, gshmem_nv_cmp(cmp), v);                             \
  }                                                                                                      \
  GSHMEM_NV_HD size_t nvshmem_##N##_test_some_vector(T *ivars, size_t n, size_t *idx, const int *st, int cmp, T *v) { \
    return shmem_##N##_test_some_vector(ivars, n, idx, st, gshmem_nv_cmp(cmp), v);                       \
  }
GSHMEM_P2P_TYPES(GSHMEM_NV_P2P)
#undef GSHMEM_NV_P2P

GSHMEM_NV_HD uint64_t nvshmem_signal_wait_until(uint64_t *sig_addr, int cmp, uint64_t v) {
  return shmem_signal_wait_until(sig_addr, gshmem_nv_cmp(cmp), v);
}

/* ---- put with signal (host and device; warp and block scope in device code) ---- */
#define GSHMEM_NV_PUT_SIGNAL(T, N)                                                                       \
  GSHMEM_NV_HD void nvshmem_##N##_put_signal(T *d, const T *s, size_t n, uint64_t *sa, uint64_t sv, int op, int pe) { \
    shmem_##N##_put_signal(d, s, n, sa, sv, gshmem_nv_sig_op(op), pe);                                   \
  }                                                                                                      \
  GSHMEM_NV_HD void nvshmem_##N##_put_signal_nbi(T *d, const T *s, size_t n, uint64_t *sa, uint64_t sv, int op, \
                                                 int pe) {                                               \
    shmem_##N##_put_signal_nbi(d, s, n, sa, sv, gshmem_nv_sig_op(op), pe);                               \
  }
GSHMEM_RMA_TYPES_DEVICE(GSHMEM_NV_PUT_SIGNAL)
#undef GSHMEM_NV_PUT_SIGNAL
#define GSHMEM_NV_PUT_SIGNAL_SIZED(B)                                                                    \
  GSHMEM_NV_HD void nvshmem_put##B##_signal(void *d, const void *s, size_t n, uint64_t *sa, uint64_t sv, int op, \
                                            int pe) {                                                    \
    shmem_put##B##_signal(d, s, n, sa, sv, gshmem_nv_sig_op(op), pe);                                    \
  }                                                                                                      \
  GSHMEM_NV_HD void nvshmem_put##B##_signal_nbi(void *d, const void *s, size_t n, uint64_t *sa, uint64_t sv, int op, \
                                                int pe) {                                                \
    shmem_put##B##_signal_nbi(d, s, n, sa, sv, gshmem_nv_sig_op(op), pe);                                \
  }
GSHMEM_SIZES(GSHMEM_NV_PUT_SIGNAL_SIZED)
#undef GSHMEM_NV_PUT_SIGNAL_SIZED
GSHMEM_NV_HD void nvshmem_putmem_signal(void *d, const void *s, size_t n, uint64_t *sa, uint64_t sv, int op, int pe) {
  shmem_putmem_signal(d, s, n, sa, sv, gshmem_nv_sig_op(op), pe);
}
GSHMEM_NV_HD void nvshmem_putmem_signal_nbi(void *d, const void *s, size_t n, uint64_t *sa, uint64_t sv, int op,
                                            int pe) {
  shmem_putmem_signal_nbi(d, s, n, sa, sv, gshmem_nv_sig_op(op), pe);
}

/* ---- reduce-scatter: NVSHMEM's host and thread-scope names are nvshmem_ (gshmem's shmemx_) ---- */
#define GSHMEM_NV_RS(T, N, OP)                                                                           \
  GSHMEM_NV_HD int nvshmem_##N##_##OP##_reducescatter(nvshmem_team_t t, T *d, const T *s, size_t n) {    \
    return shmemx_##N##_##OP##_reducescatter(t, d, s, n);                                                \
  }
#define GSHMEM_NV_RS_BIT(T, N) GSHMEM_NV_RS(T, N, and) GSHMEM_NV_RS(T, N, or) GSHMEM_NV_RS(T, N, xor)
#define GSHMEM_NV_RS_ARITH(T, N) GSHMEM_NV_RS(T, N, max) GSHMEM_NV_RS(T, N, min) GSHMEM_NV_RS(T, N, sum) GSHMEM_NV_RS(T, N, prod)
GSHMEM_REDUCE_BIT_TYPES(GSHMEM_NV_RS_BIT)
GSHMEM_REDUCE_MINMAX_TYPES_DEVICE(GSHMEM_NV_RS_ARITH)
#undef GSHMEM_NV_RS_BIT
#undef GSHMEM_NV_RS_ARITH
#undef GSHMEM_NV_RS

/* ---- team barrier, team configurations ---- */
GSHMEM_NV_HD int nvshmem_barrier(nvshmem_team_t team) { return shmemx_team_barrier(team); }

GSHMEM_NV_H shmem_team_config_t gshmem_nv_team_config(const nvshmem_team_config_t *c, long mask, long *gmask) {
  shmem_team_config_t g;
  g.num_contexts = c && (mask & NVSHMEM_TEAM_CONFIG_MASK_NUM_CONTEXTS) ? c->num_contexts : 0;
  *gmask = c && (mask & NVSHMEM_TEAM_CONFIG_MASK_NUM_CONTEXTS) ? SHMEM_TEAM_NUM_CONTEXTS : 0;
  return g;
}
GSHMEM_NV_H int nvshmem_team_split_strided(nvshmem_team_t parent, int start, int stride, int size,
                                           const nvshmem_team_config_t *config, long config_mask,
                                           nvshmem_team_t *new_team) {
  long m;
  shmem_team_config_t g = gshmem_nv_team_config(config, config_mask, &m);
  return shmem_team_split_strided(parent, start, stride, size, &g, m, new_team);
}
GSHMEM_NV_H int nvshmem_team_split_2d(nvshmem_team_t parent, int xrange, const nvshmem_team_config_t *xconfig,
                                      long xmask, nvshmem_team_t *xteam, const nvshmem_team_config_t *yconfig,
                                      long ymask, nvshmem_team_t *yteam) {
  long xm, ym;
  shmem_team_config_t x = gshmem_nv_team_config(xconfig, xmask, &xm), y = gshmem_nv_team_config(yconfig, ymask, &ym);
  return shmem_team_split_2d(parent, xrange, &x, xm, xteam, &y, ym, yteam);
}
GSHMEM_NV_H int nvshmemx_team_get_uniqueid(nvshmemx_team_uniqueid_t *uniqueid) {
  return shmemx_team_get_uniqueid(uniqueid);
}
/* The id travels in config (NVSHMEM_TEAM_CONFIG_MASK_UNIQUEID); without it gshmem reports id 0. */
GSHMEM_NV_H int nvshmemx_team_init(nvshmem_team_t *team, nvshmem_team_config_t *config, long config_mask, int npes,
                                   int pe_idx_in_team) {
  long m;
  shmem_team_config_t g = gshmem_nv_team_config(config, config_mask, &m);
  const nvshmemx_team_uniqueid_t uid = config && (config_mask & NVSHMEM_TEAM_CONFIG_MASK_UNIQUEID) ? config->uniqueid : 0;
  return shmemx_team_init(uid, npes, pe_idx_in_team, &g, m, team);
}
/* NVSHMEM 3.4.5's form: the team's configuration (its number of contexts) into *config. */
GSHMEM_NV_H void nvshmem_team_get_config(nvshmem_team_t team, nvshmem_team_config_t *config) {
  shmem_team_config_t g;
  if (config && shmem_team_get_config(team, SHMEM_TEAM_NUM_CONTEXTS, &g) == 0) config->num_contexts = g.num_contexts;
}

/* ---- initialisation ---- */
GSHMEM_NV_H int nvshmemx_get_uniqueid(nvshmemx_uniqueid_t *id) {
  if (!id) return NVSHMEMX_ERROR_INVALID_VALUE;
  id->version = (1 << 16) + (int)sizeof(nvshmemx_uniqueid_t);
  shmemx_uniqueid_t g;
  if (shmemx_get_uniqueid(&g) != 0 || !memchr(g.internal, 0, sizeof id->internal)) return NVSHMEMX_ERROR_INTERNAL;
  memcpy(id->internal, g.internal, sizeof id->internal);
  return NVSHMEMX_SUCCESS;
}
GSHMEM_NV_H int nvshmemx_set_attr_uniqueid_args(const int myrank, const int nranks, const nvshmemx_uniqueid_t *id,
                                                nvshmemx_init_attr_t *attr) {
  if (!id || !attr || nranks < 1 || myrank < 0 || myrank >= nranks) return NVSHMEMX_ERROR_INVALID_VALUE;
  attr->args.uid_args.id = (nvshmemx_uniqueid_t *)id;
  attr->args.uid_args.myrank = myrank;
  attr->args.uid_args.nranks = nranks;
  return NVSHMEMX_SUCCESS;
}
GSHMEM_NV_H int nvshmemx_set_attr_mpi_comm_args(void *mpi_comm, nvshmemx_init_attr_t *attr) {
  if (!mpi_comm || !attr) return NVSHMEMX_ERROR_INVALID_VALUE;
  attr->mpi_comm = mpi_comm;
  return NVSHMEMX_SUCCESS;
}
/* NVSHMEMX_INIT_WITH_UNIQUEID (attr->args.uid_args), NVSHMEMX_INIT_WITH_MPI_COMM (attr->mpi_comm: the
 * address of an MPI_Comm), NVSHMEMX_INIT_WITH_SHMEM (gshmem is the OpenSHMEM library: plain init). */
GSHMEM_NV_H int nvshmemx_init_attr(unsigned int flags, nvshmemx_init_attr_t *attr) {
  shmemx_init_attr_t a;
  memset(&a, 0, sizeof a);
  if (flags & NVSHMEMX_INIT_WITH_UNIQUEID) {
    if (!attr || !attr->args.uid_args.id) return NVSHMEMX_ERROR_INVALID_VALUE;
    shmemx_uniqueid_t g;
    memset(&g, 0, sizeof g);
    memcpy(g.internal, attr->args.uid_args.id->internal, sizeof attr->args.uid_args.id->internal);
    if (shmemx_set_attr_uniqueid_args(attr->args.uid_args.myrank, attr->args.uid_args.nranks, &g, &a) != 0)
      return NVSHMEMX_ERROR_INVALID_VALUE;
    return shmemx_init_attr(SHMEMX_INIT_WITH_UNIQUEID, &a) == 0 ? NVSHMEMX_SUCCESS : NVSHMEMX_ERROR_INTERNAL;
  }
  if (flags & NVSHMEMX_INIT_WITH_MPI_COMM) {
    if (!attr || !attr->mpi_comm) return NVSHMEMX_ERROR_INVALID_VALUE;
    a.mpi_comm = attr->mpi_comm;
    return shmemx_init_attr(SHMEMX_INIT_WITH_MPI_COMM, &a) == 0 ? NVSHMEMX_SUCCESS : NVSHMEMX_ERROR_INTERNAL;
  }
  shmem_init();
  return NVSHMEMX_SUCCESS;
}
GSHMEM_NV_H int nvshmemx_hostlib_init_attr(unsigned int flags, nvshmemx_init_attr_t *attr) {
  return nvshmemx_init_attr(flags, attr);
}
GSHMEM_NV_H void nvshmemx_hostlib_finalize(void) { shmem_finalize(); }

GSHMEM_NV_HD void nvshmemx_vendor_get_version_info(int *major, int *minor, int *patch) {
  if (major) *major = NVSHMEM_VENDOR_MAJOR_VERSION;
  if (minor) *minor = NVSHMEM_VENDOR_MINOR_VERSION;
  if (patch) *patch = NVSHMEM_VENDOR_PATCH_VERSION;
}

/* ---- stream-ordered (host) ---- */
GSHMEM_NV_H void nvshmemx_putmem_signal_on_stream(void *d, const void *s, size_t n, uint64_t *sa, uint64_t sv, int op,
                                                  int pe, cudaStream_t st) {
  shmemx_putmem_signal_on_stream(d, s, n, sa, sv, gshmem_nv_sig_op(op), pe, st);
}
GSHMEM_NV_H void nvshmemx_signal_op_on_stream(uint64_t *sa, uint64_t sv, int op, int pe, cudaStream_t st) {
  shmemx_signal_op_on_stream(sa, sv, gshmem_nv_sig_op(op), pe, st);
}
GSHMEM_NV_H void nvshmemx_signal_wait_until_on_stream(uint64_t *sa, int cmp, uint64_t v, cudaStream_t st) {
  shmemx_signal_wait_until_on_stream(sa, gshmem_nv_cmp(cmp), v, st);
}
GSHMEM_NV_H int nvshmemx_barrier_on_stream(nvshmem_team_t team, cudaStream_t st) {
  shmemx_team_barrier_on_stream(team, st);
  return 0;
}
GSHMEM_NV_H int nvshmemx_team_sync_on_stream(nvshmem_team_t team, cudaStream_t st) {
  shmemx_team_sync_on_stream(team, st);
  return 0;
}
/* A non-blocking on-stream call may complete any time before the stream's next quiet; gshmem's
 * on-stream calls complete in stream order, which satisfies that. */
GSHMEM_NV_H void nvshmemx_putmem_nbi_on_stream(void *d, const void *s, size_t n, int pe, cudaStream_t st) {
  shmemx_putmem_on_stream(d, s, n, pe, st);
}
GSHMEM_NV_H void nvshmemx_getmem_nbi_on_stream(void *d, const void *s, size_t n, int pe, cudaStream_t st) {
  shmemx_getmem_on_stream(d, s, n, pe, st);
}
GSHMEM_NV_H void nvshmemx_putmem_signal_nbi_on_stream(void *d, const void *s, size_t n, uint64_t *sa, uint64_t sv,
                                                      int op, int pe, cudaStream_t st) {
  shmemx_putmem_signal_on_stream(d, s, n, sa, sv, gshmem_nv_sig_op(op), pe, st);
}
#define GSHMEM_NV_STREAM_RMA(NAME, T, SZ)                                                                \
  GSHMEM_NV_H void nvshmemx_##NAME##_on_stream(T *d, const T *s, size_t n, int pe, cudaStream_t st) {   \
    shmemx_putmem_on_stream(d, s, n * (SZ), pe, st);                                                     \
  }                                                                                                      \
  GSHMEM_NV_H void nvshmemx_##NAME##_nbi_on_stream(T *d, const T *s, size_t n, int pe, cudaStream_t st) { \
    shmemx_putmem_on_stream(d, s, n * (SZ), pe, st);                                                     \
  }
#define GSHMEM_NV_STREAM_GET(NAME, T, SZ)                                                                \
  GSHMEM_NV_H void nvshmemx_##NAME##_on_stream(T *d, const T *s, size_t n, int pe, cudaStream_t st) {   \
    shmemx_getmem_on_stream(d, s, n * (SZ), pe, st);                                                     \
  }                                                                                                      \
  GSHMEM_NV_H void nvshmemx_##NAME##_nbi_on_stream(T *d, const T *s, size_t n, int pe, cudaStream_t st) { \
    shmemx_getmem_on_stream(d, s, n * (SZ), pe, st);                                                     \
  }
#define GSHMEM_NV_STREAM_PUT_SIGNAL(NAME, T, SZ)                                                         \
  GSHMEM_NV_H void nvshmemx_##NAME##_on_stream(T *d, const T *s, size_t n, uint64_t *sa, uint64_t sv, int op, int pe, \
                                               cudaStream_t st) {                                        \
    shmemx_putmem_signal_on_stream(d, s, n * (SZ), sa, sv, gshmem_nv_sig_op(op), pe, st);                \
  }                                                                                                      \
  GSHMEM_NV_H void nvshmemx_##NAME##_nbi_on_stream(T *d, const T *s, size_t n, uint64_t *sa, uint64_t sv, int op, \
                                                   int pe, cudaStream_t st) {                            \
    shmemx_putmem_signal_on_stream(d, s, n * (SZ), sa, sv, gshmem_nv_sig_op(op), pe, st);                \
  }
#define GSHMEM_NV_STREAM_TYPED(T, N) \
  GSHMEM_NV_STREAM_RMA(N##_put, T, sizeof(T)) GSHMEM_NV_STREAM_GET(N##_get, T, sizeof(T)) \
  GSHMEM_NV_STREAM_PUT_SIGNAL(N##_put_signal, T, sizeof(T))
#define GSHMEM_NV_STREAM_SIZED(B) \
  GSHMEM_NV_STREAM_RMA(put##B, void, (B) / 8) GSHMEM_NV_STREAM_GET(get##B, void, (B) / 8) \
  GSHMEM_NV_STREAM_PUT_SIGNAL(put##B##_signal, void, (B) / 8)
GSHMEM_RMA_TYPES_DEVICE(GSHMEM_NV_STREAM_TYPED)
GSHMEM_SIZES(GSHMEM_NV_STREAM_SIZED)
#undef GSHMEM_NV_STREAM_TYPED
#undef GSHMEM_NV_STREAM_SIZED
/* GSHMEM_NV_STREAM_RMA/GET/PUT_SIGNAL serve half and bfloat16 below too (#undef there). */

/* ---- queries ---- */
/* gshmem reports -1 from shmem_my_pe outside init..finalize. */
GSHMEM_NV_H int nvshmemx_init_status(void) {
  return shmem_my_pe() >= 0 ? NVSHMEM_STATUS_IS_INITIALIZED : NVSHMEM_STATUS_NOT_INITIALIZED;
}
/* No multicast objects in gshmem (NVLink multicast is not used): NULL, as NVSHMEM returns where
 * multicast is unsupported. */
GSHMEM_NV_HD void *nvshmemx_mc_ptr(nvshmem_team_t team, const void *ptr) {
  (void)team;
  (void)ptr;
  return NULL;
}

/* ---- device code: warp and block scope ---- */
/* ---- half and bfloat16 data movement from the host and in kernels: gshmem's 16-bit routines
 * move the same bits. For nvcc in the device block below; for a C++ compiler wherever
 * cuda_fp16.h / cuda_bf16.h came first (nvshmem.h brings them when CUDA is on the path). ---- */
#define GSHMEM_NV_16_HOST(T, N)                                                                               \
  GSHMEM_NV_HD void nvshmem_##N##_p(T *d, const T v, int pe) {                                           \
    uint16_t b;                                                                                          \
    memcpy(&b, (const void *)&v, 2);                                                                                 \
    shmem_uint16_p((uint16_t *)d, b, pe);                                                                \
  }                                                                                                      \
  GSHMEM_NV_HD T nvshmem_##N##_g(const T *s, int pe) {                                                   \
    const uint16_t b = shmem_uint16_g((const uint16_t *)s, pe);                                          \
    T v;                                                                                                 \
    memcpy((void *)&v, &b, 2);                                                                                 \
    return v;                                                                                            \
  }                                                                                                      \
  GSHMEM_NV_HD void nvshmem_##N##_put(T *d, const T *s, size_t n, int pe) { shmem_putmem(d, s, 2 * n, pe); } \
  GSHMEM_NV_HD void nvshmem_##N##_get(T *d, const T *s, size_t n, int pe) { shmem_getmem(d, s, 2 * n, pe); } \
  GSHMEM_NV_HD void nvshmem_##N##_put_nbi(T *d, const T *s, size_t n, int pe) { shmem_putmem_nbi(d, s, 2 * n, pe); } \
  GSHMEM_NV_HD void nvshmem_##N##_get_nbi(T *d, const T *s, size_t n, int pe) { shmem_getmem_nbi(d, s, 2 * n, pe); } \
  GSHMEM_NV_HD void nvshmem_##N##_iput(T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) { \
    shmem_uint16_iput((uint16_t *)d, (const uint16_t *)s, dst, sst, n, pe);                              \
  }                                                                                                      \
  GSHMEM_NV_HD void nvshmem_##N##_iget(T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) { \
    shmem_uint16_iget((uint16_t *)d, (const uint16_t *)s, dst, sst, n, pe);                              \
  }                                                                                                      \
  GSHMEM_NV_HD void nvshmem_##N##_put_signal(T *d, const T *s, size_t n, uint64_t *sa, uint64_t sv, int op, int pe) { \
    shmem_putmem_signal(d, s, 2 * n, sa, sv, gshmem_nv_sig_op(op), pe);                                  \
  }                                                                                                      \
  GSHMEM_NV_HD void nvshmem_##N##_put_signal_nbi(T *d, const T *s, size_t n, uint64_t *sa, uint64_t sv, int op, \
                                                 int pe) {                                               \
    shmem_putmem_signal_nbi(d, s, 2 * n, sa, sv, gshmem_nv_sig_op(op), pe);                              \
  }                                                                                                      \
  GSHMEM_NV_HD int nvshmem_##N##_broadcast(nvshmem_team_t t, T *d, const T *s, size_t n, int root) {     \
    return shmem_uint16_broadcast(t, (uint16_t *)d, (const uint16_t *)s, n, root);                       \
  }                                                                                                      \
  GSHMEM_NV_HD int nvshmem_##N##_fcollect(nvshmem_team_t t, T *d, const T *s, size_t n) {                \
    return shmem_uint16_fcollect(t, (uint16_t *)d, (const uint16_t *)s, n);                              \
  }                                                                                                      \
  GSHMEM_NV_HD int nvshmem_##N##_alltoall(nvshmem_team_t t, T *d, const T *s, size_t n) {                \
    return shmem_uint16_alltoall(t, (uint16_t *)d, (const uint16_t *)s, n);                              \
  }                                                                                                      \
  GSHMEM_NV_HD int nvshmem_##N##_alltoalls(nvshmem_team_t t, T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n) { \
    return shmem_uint16_alltoalls(t, (uint16_t *)d, (const uint16_t *)s, dst, sst, n);                   \
  }                                                                                                      \
  GSHMEM_NV_H int nvshmemx_##N##_broadcast_on_stream(nvshmem_team_t t, T *d, const T *s, size_t n, int root, \
                                                     cudaStream_t st) {                                  \
    return shmemx_uint16_broadcast_on_stream(t, (uint16_t *)d, (const uint16_t *)s, n, root, st);        \
  }                                                                                                      \
  GSHMEM_NV_H int nvshmemx_##N##_fcollect_on_stream(nvshmem_team_t t, T *d, const T *s, size_t n, cudaStream_t st) { \
    return shmemx_uint16_fcollect_on_stream(t, (uint16_t *)d, (const uint16_t *)s, n, st);               \
  }                                                                                                      \
  GSHMEM_NV_H int nvshmemx_##N##_alltoall_on_stream(nvshmem_team_t t, T *d, const T *s, size_t n, cudaStream_t st) { \
    return shmemx_uint16_alltoall_on_stream(t, (uint16_t *)d, (const uint16_t *)s, n, st);               \
  }

#if defined(__CUDACC__)
#define GSHMEM_NV_SCOPE(SC)                                                                              \
  GSHMEM_NV_D int nvshmemx_barrier_##SC(nvshmem_team_t team) { return shmemx_team_barrier_##SC(team); } \
  GSHMEM_NV_D void nvshmemx_putmem_signal_##SC(void *d, const void *s, size_t n, uint64_t *sa, uint64_t sv, int op, \
                                               int pe) {                                                 \
    shmemx_putmem_signal_##SC(d, s, n, sa, sv, gshmem_nv_sig_op(op), pe);                                \
  }                                                                                                      \
  GSHMEM_NV_D void nvshmemx_putmem_signal_nbi_##SC(void *d, const void *s, size_t n, uint64_t *sa, uint64_t sv, int op, \
                                                   int pe) {                                             \
    shmemx_putmem_signal_nbi_##SC(d, s, n, sa, sv, gshmem_nv_sig_op(op), pe);                            \
  }
GSHMEM_NV_SCOPE(warp)
GSHMEM_NV_SCOPE(block)
#undef GSHMEM_NV_SCOPE
#define GSHMEM_NV_SCOPE_TYPED(T, N, SC)                                                                  \
  GSHMEM_NV_D void nvshmemx_##N##_put_signal_##SC(T *d, const T *s, size_t n, uint64_t *sa, uint64_t sv, int op, int pe) { \
    shmemx_##N##_put_signal_##SC(d, s, n, sa, sv, gshmem_nv_sig_op(op), pe);                             \
  }                                                                                                      \
  GSHMEM_NV_D void nvshmemx_##N##_put_signal_nbi_##SC(T *d, const T *s, size_t n, uint64_t *sa, uint64_t sv, int op, \
                                                      int pe) {                                          \
    shmemx_##N##_put_signal_nbi_##SC(d, s, n, sa, sv, gshmem_nv_sig_op(op), pe);                         \
  }                                                                                                      \
  GSHMEM_NV_D void nvshmemx_##N##_iput_##SC(T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) { \
    gshmem_nv_istride_##SC(d, s, dst, sst, n, sizeof(T), pe, 1);                                         \
  }                                                                                                      \
  GSHMEM_NV_D void nvshmemx_##N##_iget_##SC(T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) { \
    gshmem_nv_istride_##SC(d, s, dst, sst, n, sizeof(T), pe, 0);                                         \
  }
#define GSHMEM_NV_SCOPE_SIZED(B, SC)                                                                     \
  GSHMEM_NV_D void nvshmemx_put##B##_##SC(void *d, const void *s, size_t n, int pe) {                    \
    shmemx_putmem_##SC(d, s, n * ((B) / 8), pe);                                                         \
  }                                                                                                      \
  GSHMEM_NV_D void nvshmemx_put##B##_nbi_##SC(void *d, const void *s, size_t n, int pe) {                \
    shmemx_putmem_nbi_##SC(d, s, n * ((B) / 8), pe);                                                     \
  }                                                                                                      \
  GSHMEM_NV_D void nvshmemx_get##B##_##SC(void *d, const void *s, size_t n, int pe) {                    \
    shmemx_getmem_##SC(d, s, n * ((B) / 8), pe);                                                         \
  }                                                                                                      \
  GSHMEM_NV_D void nvshmemx_get##B##_nbi_##SC(void *d, const void *s, size_t n, int pe) {                \
    shmemx_getmem_nbi_##SC(d, s, n * ((B) / 8), pe);                                                     \
  }                                                                                                      \
  GSHMEM_NV_D void nvshmemx_put##B##_signal_##SC(void *d, const void *s, size_t n, uint64_t *sa, uint64_t sv, int op, \
                                                 int pe) {                                               \
    shmemx_putmem_signal_##SC(d, s, n * ((B) / 8), sa, sv, gshmem_nv_sig_op(op), pe);                    \
  }                                                                                                      \
  GSHMEM_NV_D void nvshmemx_put##B##_signal_nbi_##SC(void *d, const void *s, size_t n, uint64_t *sa, uint64_t sv, \
                                                     int op, int pe) {                                   \
    shmemx_putmem_signal_nbi_##SC(d, s, n * ((B) / 8), sa, sv, gshmem_nv_sig_op(op), pe);                \
  }                                                                                                      \
  GSHMEM_NV_D void nvshmemx_iput##B##_##SC(void *d, const void *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) { \
    gshmem_nv_istride_##SC(d, s, dst, sst, n, (B) / 8, pe, 1);                                           \
  }                                                                                                      \
  GSHMEM_NV_D void nvshmemx_iget##B##_##SC(void *d, const void *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) { \
    gshmem_nv_istride_##SC(d, s, dst, sst, n, (B) / 8, pe, 0);                                           \
  }
/* Strided put (put = 1) or get of n elements of size bytes at warp or block scope: the scope's
 * threads share the elements, each moves its own with a thread-scope put or get (which returns
 * once its source may be reused, or its data arrived), then the scope synchronizes, so every
 * element is done when any thread returns. */
GSHMEM_NV_D void gshmem_nv_istride_one(char *d, const char *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, size_t size,
                                       int pe, int put, unsigned rank, unsigned nthreads) {
  for (size_t i = rank; i < n; i += nthreads) {
    if (put) shmem_putmem(d + (ptrdiff_t)i * dst * (ptrdiff_t)size, s + (ptrdiff_t)i * sst * (ptrdiff_t)size, size, pe);
    else shmem_getmem(d + (ptrdiff_t)i * dst * (ptrdiff_t)size, s + (ptrdiff_t)i * sst * (ptrdiff_t)size, size, pe);
  }
}
GSHMEM_NV_D unsigned gshmem_nv_thread_rank(void) {
  return threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
}
GSHMEM_NV_D void gshmem_nv_istride_warp(void *d, const void *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, size_t size,
                                        int pe, int put) {
  /* the lane: threads of a warp are consecutive in the block's linear order (2-D and 3-D blocks too) */
  gshmem_nv_istride_one((char *)d, (const char *)s, dst, sst, n, size, pe, put, gshmem_nv_thread_rank() % 32u, 32u);
  __syncwarp();
}
GSHMEM_NV_D void gshmem_nv_istride_block(void *d, const void *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, size_t size,
                                         int pe, int put) {
  gshmem_nv_istride_one((char *)d, (const char *)s, dst, sst, n, size, pe, put, gshmem_nv_thread_rank(),
                        blockDim.x * blockDim.y * blockDim.z);
  __syncthreads();
}
#define GSHMEM_NV_SCOPE_TYPED_BOTH(T, N) GSHMEM_NV_SCOPE_TYPED(T, N, warp) GSHMEM_NV_SCOPE_TYPED(T, N, block)
#define GSHMEM_NV_SCOPE_SIZED_BOTH(B) GSHMEM_NV_SCOPE_SIZED(B, warp) GSHMEM_NV_SCOPE_SIZED(B, block)
GSHMEM_RMA_TYPES_DEVICE(GSHMEM_NV_SCOPE_TYPED_BOTH)
GSHMEM_SIZES(GSHMEM_NV_SCOPE_SIZED_BOTH)
#undef GSHMEM_NV_SCOPE_TYPED_BOTH
#undef GSHMEM_NV_SCOPE_SIZED_BOTH
#undef GSHMEM_NV_SCOPE_TYPED
#undef GSHMEM_NV_SCOPE_SIZED

#define GSHMEM_NV_16(T, N)                                                                               \
  GSHMEM_NV_16_HOST(T, N)                                                                                \
  GSHMEM_NV_STREAM_TYPED16(T, N)                                                                         \
  GSHMEM_NV_16_SCOPE(T, N, warp) GSHMEM_NV_16_SCOPE(T, N, block)
#define GSHMEM_NV_16_SCOPE(T, N, SC)                                                                     \
  GSHMEM_NV_D void nvshmemx_##N##_put_##SC(T *d, const T *s, size_t n, int pe) { shmemx_putmem_##SC(d, s, 2 * n, pe); } \
  GSHMEM_NV_D void nvshmemx_##N##_get_##SC(T *d, const T *s, size_t n, int pe) { shmemx_getmem_##SC(d, s, 2 * n, pe); } \
  GSHMEM_NV_D void nvshmemx_##N##_put_nbi_##SC(T *d, const T *s, size_t n, int pe) {                    \
    shmemx_putmem_nbi_##SC(d, s, 2 * n, pe);                                                             \
  }                                                                                                      \
  GSHMEM_NV_D void nvshmemx_##N##_get_nbi_##SC(T *d, const T *s, size_t n, int pe) {                    \
    shmemx_getmem_nbi_##SC(d, s, 2 * n, pe);                                                             \
  }                                                                                                      \
  GSHMEM_NV_D void nvshmemx_##N##_iput_##SC(T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) { \
    gshmem_nv_istride_##SC(d, s, dst, sst, n, 2, pe, 1);                                                 \
  }                                                                                                      \
  GSHMEM_NV_D void nvshmemx_##N##_iget_##SC(T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe) { \
    gshmem_nv_istride_##SC(d, s, dst, sst, n, 2, pe, 0);                                                 \
  }                                                                                                      \
  GSHMEM_NV_D void nvshmemx_##N##_put_signal_##SC(T *d, const T *s, size_t n, uint64_t *sa, uint64_t sv, int op, int pe) { \
    shmemx_putmem_signal_##SC(d, s, 2 * n, sa, sv, gshmem_nv_sig_op(op), pe);                            \
  }                                                                                                      \
  GSHMEM_NV_D void nvshmemx_##N##_put_signal_nbi_##SC(T *d, const T *s, size_t n, uint64_t *sa, uint64_t sv, int op, \
                                                      int pe) {                                          \
    shmemx_putmem_signal_nbi_##SC(d, s, 2 * n, sa, sv, gshmem_nv_sig_op(op), pe);                        \
  }                                                                                                      \
  GSHMEM_NV_D int nvshmemx_##N##_broadcast_##SC(nvshmem_team_t t, T *d, const T *s, size_t n, int root) { \
    return shmemx_uint16_broadcast_##SC(t, (uint16_t *)d, (const uint16_t *)s, n, root);                 \
  }                                                                                                      \
  GSHMEM_NV_D int nvshmemx_##N##_fcollect_##SC(nvshmem_team_t t, T *d, const T *s, size_t n) {           \
    return shmemx_uint16_fcollect_##SC(t, (uint16_t *)d, (const uint16_t *)s, n);                        \
  }                                                                                                      \
  GSHMEM_NV_D int nvshmemx_##N##_alltoall_##SC(nvshmem_team_t t, T *d, const T *s, size_t n) {           \
    return shmemx_uint16_alltoall_##SC(t, (uint16_t *)d, (const uint16_t *)s, n);                        \
  }
#define GSHMEM_NV_STREAM_TYPED16(T, N) \
  GSHMEM_NV_STREAM_RMA(N##_put, T, 2) GSHMEM_NV_STREAM_GET(N##_get, T, 2) GSHMEM_NV_STREAM_PUT_SIGNAL(N##_put_signal, T, 2)
GSHMEM_NV_16(__half, half)
GSHMEM_NV_16(__nv_bfloat16, bfloat16)
#undef GSHMEM_NV_16

/* ---- warpgroup scope (4 warps, 128 threads, aligned in the block's linear thread order): every
 * thread of the warpgroup calls; they meet at a named barrier of their own (id 1 + warpgroup index;
 * 0 is __syncthreads'), one thread runs the team barrier, and they meet again. ---- */
GSHMEM_NV_D int nvshmemx_barrier_warpgroup(nvshmem_team_t team) {
  const unsigned tid = threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z);
  const unsigned nthreads = blockDim.x * blockDim.y * blockDim.z;
  if (nthreads % 128) /* a partial warpgroup would wait at its named barrier forever */
    gshmem::dev::fail_value("nvshmemx_barrier_warpgroup", "the block's thread count is not a multiple of 128; threads",
                            nthreads);
  const unsigned id = 1 + tid / 128;
  asm volatile("bar.sync %0, 128;" ::"r"(id) : "memory");
  int rc = 0;
  if (tid % 128 == 0) rc = shmemx_team_barrier(team);
  asm volatile("bar.sync %0, 128;" ::"r"(id) : "memory");
  return rc;
}

/* ---- typed waits on a stream: one thread of a kernel in the caller's stream waits with gshmem's
 * device waits (the kernel is this file's, compiled into the calling unit: no -rdc). ivars,
 * status and the vector of comparison values are memory the GPU can read. ---- */
static __global__ void gshmem_nv_wait_k(void *iv, size_t n, const int *status, int cmp, unsigned long long v,
                                        const void *vec, int size, int sgn) {
#define GSHMEM_NV_WAIT_CASE(T, N)                                                                        \
  if (vec)                                                                                               \
    shmem_##N##_wait_until_all_vector((T *)iv, n, status, cmp, (T *)vec);                               \
  else                                                                                                   \
    shmem_##N##_wait_until_all((T *)iv, n, status, cmp, (T)v);
  switch (size * 2 + sgn) {
    case 4: GSHMEM_NV_WAIT_CASE(unsigned short, ushort) break;
    case 5: GSHMEM_NV_WAIT_CASE(short, short) break;
    case 8: GSHMEM_NV_WAIT_CASE(unsigned int, uint) break;
    case 9: GSHMEM_NV_WAIT_CASE(int, int) break;
    case 16: GSHMEM_NV_WAIT_CASE(unsigned long long, ulonglong) break;
    default: GSHMEM_NV_WAIT_CASE(long long, longlong) break;
  }
#undef GSHMEM_NV_WAIT_CASE
}
#define GSHMEM_NV_SGN(T) ((T)-1 < (T)0)
#define GSHMEM_NV_WAIT_STREAM(N, T)                                                                      \
  GSHMEM_NV_H void nvshmemx_##N##_wait_until_on_stream(T *ivar, int cmp, T v, cudaStream_t st) {         \
    gshmem_nv_wait_k<<<1, 1, 0, st>>>(ivar, 1, NULL, gshmem_nv_cmp(cmp), (unsigned long long)v, NULL,    \
                                      (int)sizeof(T), GSHMEM_NV_SGN(T));                                 \
  }                                                                                                      \
  GSHMEM_NV_H void nvshmemx_##N##_wait_until_all_on_stream(T *ivars, size_t n, const int *status, int cmp, T v, \
                                                           cudaStream_t st) {                           \
    gshmem_nv_wait_k<<<1, 1, 0, st>>>(ivars, n, status, gshmem_nv_cmp(cmp), (unsigned long long)v, NULL, \
                                      (int)sizeof(T), GSHMEM_NV_SGN(T));                                 \
  }                                                                                                      \
  GSHMEM_NV_H void nvshmemx_##N##_wait_until_all_vector_on_stream(T *ivars, size_t n, const int *status, int cmp, \
                                                                  T *vals, cudaStream_t st) {           \
    gshmem_nv_wait_k<<<1, 1, 0, st>>>(ivars, n, status, gshmem_nv_cmp(cmp), 0ull, vals, (int)sizeof(T),  \
                                      GSHMEM_NV_SGN(T));                                                 \
  }
GSHMEM_NV_WAIT_STREAM(short, short)
GSHMEM_NV_WAIT_STREAM(int, int)
GSHMEM_NV_WAIT_STREAM(long, long)
GSHMEM_NV_WAIT_STREAM(longlong, long long)
GSHMEM_NV_WAIT_STREAM(ushort, unsigned short)
GSHMEM_NV_WAIT_STREAM(uint, unsigned int)
GSHMEM_NV_WAIT_STREAM(ulong, unsigned long)
GSHMEM_NV_WAIT_STREAM(ulonglong, unsigned long long)
GSHMEM_NV_WAIT_STREAM(int32, int32_t)
GSHMEM_NV_WAIT_STREAM(int64, int64_t)
GSHMEM_NV_WAIT_STREAM(uint32, uint32_t)
GSHMEM_NV_WAIT_STREAM(uint64, uint64_t)
GSHMEM_NV_WAIT_STREAM(size, size_t)
GSHMEM_NV_WAIT_STREAM(ptrdiff, ptrdiff_t)
#undef GSHMEM_NV_WAIT_STREAM
#undef GSHMEM_NV_SGN

/* ---- single-element and strided RMA on a stream: one thread of a kernel in the caller's stream
 * does the device operation (any peer: direct or through the proxy). p takes the value when
 * called; g waits for the stream and returns the value (through a pinned slot of this unit). ---- */
static __global__ void gshmem_nv_rma_k(int op, void *d, const void *s, ptrdiff_t dst, ptrdiff_t sst, size_t n,
                                       unsigned long long v, int size, int pe) {
  if (op == 0) {  /* p */
    if (size == 1) shmem_uint8_p((uint8_t *)d, (uint8_t)v, pe);
    else if (size == 2) shmem_uint16_p((uint16_t *)d, (uint16_t)v, pe);
    else if (size == 4) shmem_uint32_p((uint32_t *)d, (uint32_t)v, pe);
    else shmem_uint64_p((uint64_t *)d, (uint64_t)v, pe);
  } else if (op == 1) {  /* g into d (this PE's memory) */
    if (size == 1) *(uint8_t *)d = shmem_uint8_g((const uint8_t *)s, pe);
    else if (size == 2) *(uint16_t *)d = shmem_uint16_g((const uint16_t *)s, pe);
    else if (size == 4) *(uint32_t *)d = shmem_uint32_g((const uint32_t *)s, pe);
    else *(uint64_t *)d = shmem_uint64_g((const uint64_t *)s, pe);
  } else if (op == 2) {  /* iput */
    if (size == 1) shmem_iput8(d, s, dst, sst, n, pe);
    else if (size == 2) shmem_iput16(d, s, dst, sst, n, pe);
    else if (size == 4) shmem_iput32(d, s, dst, sst, n, pe);
    else if (size == 8) shmem_iput64(d, s, dst, sst, n, pe);
    else shmem_iput128(d, s, dst, sst, n, pe);
  } else {  /* iget */
    if (size == 1) shmem_iget8(d, s, dst, sst, n, pe);
    else if (size == 2) shmem_iget16(d, s, dst, sst, n, pe);
    else if (size == 4) shmem_iget32(d, s, dst, sst, n, pe);
    else if (size == 8) shmem_iget64(d, s, dst, sst, n, pe);
    else shmem_iget128(d, s, dst, sst, n, pe);
  }
}
GSHMEM_NV_H void *gshmem_nv_result_slot(void) {
  static thread_local void *slot = NULL;
  if (!slot && cudaMallocHost(&slot, 16) != cudaSuccess) slot = NULL;
  return slot;
}
#define GSHMEM_NV_STREAM_ONE(T, N)                                                                       \
  GSHMEM_NV_H void nvshmemx_##N##_p_on_stream(T *d, const T v, int pe, cudaStream_t st) {                \
    unsigned long long b = 0;                                                                            \
    memcpy(&b, (const void *)&v, sizeof(T));                                                             \
    gshmem_nv_rma_k<<<1, 1, 0, st>>>(0, d, NULL, 0, 0, 1, b, (int)sizeof(T), pe);                        \
  }                                                                                                      \
  GSHMEM_NV_H T nvshmemx_##N##_g_on_stream(const T *s, int pe, cudaStream_t st) {                        \
    void *slot = gshmem_nv_result_slot();                                                                \
    T v;                                                                                                 \
    memset((void *)&v, 0, sizeof(T));                                                                    \
    if (!slot) return v;                                                                                 \
    gshmem_nv_rma_k<<<1, 1, 0, st>>>(1, slot, s, 0, 0, 1, 0ull, (int)sizeof(T), pe);                     \
    cudaStreamSynchronize(st);                                                                           \
    memcpy((void *)&v, slot, sizeof(T));                                                                 \
    return v;                                                                                            \
  }                                                                                                      \
  GSHMEM_NV_H void nvshmemx_##N##_iput_on_stream(T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe, \
                                                 cudaStream_t st) {                                      \
    gshmem_nv_rma_k<<<1, 1, 0, st>>>(2, d, s, dst, sst, n, 0ull, (int)sizeof(T), pe);                    \
  }                                                                                                      \
  GSHMEM_NV_H void nvshmemx_##N##_iget_on_stream(T *d, const T *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, int pe, \
                                                 cudaStream_t st) {                                      \
    gshmem_nv_rma_k<<<1, 1, 0, st>>>(3, d, s, dst, sst, n, 0ull, (int)sizeof(T), pe);                    \
  }
GSHMEM_RMA_TYPES_DEVICE(GSHMEM_NV_STREAM_ONE)
GSHMEM_NV_STREAM_ONE(__half, half)
GSHMEM_NV_STREAM_ONE(__nv_bfloat16, bfloat16)
#undef GSHMEM_NV_STREAM_ONE
#define GSHMEM_NV_STREAM_STRIDED(B)                                                                      \
  GSHMEM_NV_H void nvshmemx_iput##B##_on_stream(void *d, const void *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, \
                                                int pe, cudaStream_t st) {                               \
    gshmem_nv_rma_k<<<1, 1, 0, st>>>(2, d, s, dst, sst, n, 0ull, (B) / 8, pe);                           \
  }                                                                                                      \
  GSHMEM_NV_H void nvshmemx_iget##B##_on_stream(void *d, const void *s, ptrdiff_t dst, ptrdiff_t sst, size_t n, \
                                                int pe, cudaStream_t st) {                               \
    gshmem_nv_rma_k<<<1, 1, 0, st>>>(3, d, s, dst, sst, n, 0ull, (B) / 8, pe);                           \
  }
GSHMEM_SIZES(GSHMEM_NV_STREAM_STRIDED)
#undef GSHMEM_NV_STREAM_STRIDED

/* ---- half and bfloat16 reductions and reduce-scatter under NVSHMEM's host-and-thread names: the
 * host routines (shmemx_half_t is a 16-bit type of the same layout) or the thread-scope kernels'. ---- */
#ifdef __CUDA_ARCH__
#define GSHMEM_NV_CAST16(HT, p) (p)
#else
#define GSHMEM_NV_CAST16(HT, p) ((HT)(p))
#endif
#define GSHMEM_NV_RED16(T, HT, N, OP, FAM)                                                               \
  GSHMEM_NV_HD int nvshmem_##N##_##OP##_##FAM(nvshmem_team_t t, T *d, const T *s, size_t n) {            \
    return shmemx_##N##_##OP##_##FAM(t, GSHMEM_NV_CAST16(HT *, d), GSHMEM_NV_CAST16(const HT *, s), n);  \
  }
#define GSHMEM_NV_RED16_ALL(T, HT, N)                                                                    \
  GSHMEM_NV_RED16(T, HT, N, max, reduce) GSHMEM_NV_RED16(T, HT, N, min, reduce)                          \
  GSHMEM_NV_RED16(T, HT, N, sum, reduce) GSHMEM_NV_RED16(T, HT, N, prod, reduce)                         \
  GSHMEM_NV_RED16(T, HT, N, max, reducescatter) GSHMEM_NV_RED16(T, HT, N, min, reducescatter)            \
  GSHMEM_NV_RED16(T, HT, N, sum, reducescatter) GSHMEM_NV_RED16(T, HT, N, prod, reducescatter)
GSHMEM_NV_RED16_ALL(__half, shmemx_half_t, half)
GSHMEM_NV_RED16_ALL(__nv_bfloat16, shmemx_bfloat16_t, bfloat16)
#undef GSHMEM_NV_RED16_ALL
#undef GSHMEM_NV_RED16
#undef GSHMEM_NV_CAST16
#undef GSHMEM_NV_16_SCOPE
#undef GSHMEM_NV_STREAM_TYPED16
#endif /* __CUDACC__ */
#if !defined(__CUDACC__) && defined(__cplusplus)
#if defined(__CUDA_FP16_TYPES_EXIST__)
GSHMEM_NV_16_HOST(__half, half)
#endif
#if defined(__CUDA_BF16_TYPES_EXIST__)
GSHMEM_NV_16_HOST(__nv_bfloat16, bfloat16)
#endif
#endif
#undef GSHMEM_NV_16_HOST
#undef GSHMEM_NV_STREAM_PUT_SIGNAL
#undef GSHMEM_NV_STREAM_GET
#undef GSHMEM_NV_STREAM_RMA

#endif
