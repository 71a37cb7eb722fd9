/* gshmem extensions (shmemx_*): queries, stream-ordered host operations, unique-id
 * initialisation. The device-side extensions (shmemx_putmem_block, ...) and
 * shmemx_collective_launch come from shmem.h when compiling with nvcc. */
#ifndef SHMEMX_H
#define SHMEMX_H

#include "shmem.h"

GSHMEM_EXTERN_C_BEGIN

/* Heap kind of this PE's symmetric heap. */
#define SHMEMX_HEAP_KIND_HOST 0
#define SHMEMX_HEAP_KIND_DEVICE 1
int shmemx_heap_kind(void);
/* Bytes of symmetric heap per PE, and bytes currently allocated on this PE. */
size_t shmemx_heap_size(void);
size_t shmemx_heap_used(void);
/* 1 when shmem_malloc grows the heap past SHMEM_SYMMETRIC_SIZE (device heap over cuMem VMM). */
int shmemx_heap_growable(void);
/* ---- User buffer registration (docs/buffers.md) ----
 * Return codes (the values of NVSHMEM's NVSHMEMX_* codes). */
#define SHMEMX_SUCCESS 0
#define SHMEMX_ERROR_INVALID_VALUE 1
#define SHMEMX_ERROR_OUT_OF_MEMORY 2
#define SHMEMX_ERROR_NOT_SUPPORTED 3
#define SHMEMX_ERROR_SYMMETRY 4
#define SHMEMX_ERROR_INTERNAL 7
/* Registrable memory: on a GPU PE cuMem memory of its GPU (exportable, NIC-registrable), on a CPU
 * PE shared host memory. Not symmetric, not collective. NULL with a message on failure; freed by
 * shmemx_mem_free or at shmem_finalize. shmemx_mem_free refuses a registered buffer. */
void *shmemx_mem_alloc(size_t size);
int shmemx_mem_free(void *ptr);
/* A buffer (shmemx_mem_alloc, cudaMalloc, host memory) as the local side of RMA (put source, get
 * destination): registered with the NIC, so the ib transport reads and writes it without staging.
 * Errors: NULL/empty, symmetric memory, overlapping or repeated registration, GPU memory of
 * another GPU or past its allocation. Unregister takes the registered start address. */
int shmemx_buffer_register(void *addr, size_t length);
int shmemx_buffer_unregister(void *addr);
void shmemx_buffer_unregister_all(void);
/* Collective: each PE passes its own buffer of the same size, from shmemx_mem_alloc (a GPU PE with
 * the VMM device heap); returns the symmetric address of the region (the same on every PE, in the
 * symmetric heap: every RMA, atomic and collective call, host or device, may target it), or NULL
 * with a message on every PE. flags: 0. Unregister (collective) takes the returned address. */
void *shmemx_buffer_register_symmetric(void *buf_ptr, size_t size, int flags);
int shmemx_buffer_unregister_symmetric(void *mmap_ptr, size_t size);

/* Name of the bootstrap that started this job: "uid", "pmix", "mpi" or "single". */
const char *shmemx_bootstrap_name(void);
/* Number of PEs on this PE's node, and this PE's index among them. */
int shmemx_local_npes(void);
int shmemx_local_pe(void);
/* CUDA device ordinal this PE is bound to, or -1 on a CPU PE. */
int shmemx_device(void);

/* ---- Stream-ordered operations (GPU PEs). cudaStream_t is the CUDA runtime's stream type. ---- */
#ifndef __DRIVER_TYPES_H__
struct CUstream_st;
typedef struct CUstream_st *cudaStream_t;
#endif
void shmemx_putmem_on_stream(void *dest, const void *source, size_t nelems, int pe, cudaStream_t stream);
void shmemx_getmem_on_stream(void *dest, const void *source, size_t nelems, int pe, cudaStream_t stream);
/* sig_op: SHMEM_SIGNAL_SET or SHMEM_SIGNAL_ADD. */
void shmemx_putmem_signal_on_stream(void *dest, const void *source, size_t nelems, uint64_t *sig_addr,
                                    uint64_t signal, int sig_op, int pe, cudaStream_t stream);
/* A signal alone, in stream order (NVSHMEM's nvshmemx_signal_op_on_stream). */
void shmemx_signal_op_on_stream(uint64_t *sig_addr, uint64_t signal, int sig_op, int pe, cudaStream_t stream);
/* OpenSHMEM 1.6's shmem_signal_add / shmem_signal_set in stream order. */
void shmemx_signal_add_on_stream(uint64_t *sig_addr, uint64_t signal, int pe, cudaStream_t stream);
void shmemx_signal_set_on_stream(uint64_t *sig_addr, uint64_t signal, int pe, cudaStream_t stream);
/* cmp: SHMEM_CMP_EQ, SHMEM_CMP_GE or SHMEM_CMP_GT. */
void shmemx_signal_wait_until_on_stream(uint64_t *sig_addr, int cmp, uint64_t cmp_value, cudaStream_t stream);
void shmemx_quiet_on_stream(cudaStream_t stream);
void shmemx_barrier_all_on_stream(cudaStream_t stream);
/* Team collectives on a stream (GPU PEs; buffers on the device heap). Each member enqueues the
 * same collectives in the same order; they run as kernels and return 0 once enqueued. Reductions:
 * teams of up to 8 PEs; every collective: teams whose PEs are equally strided. */
void shmemx_sync_all_on_stream(cudaStream_t stream);
void shmemx_team_sync_on_stream(shmem_team_t team, cudaStream_t stream);
/* A barrier of one team on a stream: the stream's earlier work (puts included) completes, then the
 * team's members synchronize (what shmemx_barrier_all_on_stream is for the world team). */
void shmemx_team_barrier_on_stream(shmem_team_t team, cudaStream_t stream);
int shmemx_broadcastmem_on_stream(shmem_team_t team, void *dest, const void *source, size_t nelems, int PE_root,
                                  cudaStream_t stream);
int shmemx_fcollectmem_on_stream(shmem_team_t team, void *dest, const void *source, size_t nelems, cudaStream_t stream);
int shmemx_alltoallmem_on_stream(shmem_team_t team, void *dest, const void *source, size_t nelems, cudaStream_t stream);
int shmemx_collectmem_on_stream(shmem_team_t team, void *dest, const void *source, size_t nelems, cudaStream_t stream);
int shmemx_alltoallsmem_on_stream(shmem_team_t team, void *dest, const void *source, ptrdiff_t dst, ptrdiff_t sst,
                                  size_t nelems, cudaStream_t stream);
#define GSHMEMX_DECL_COLL_STREAM(T, N)                                                                 \
  int shmemx_##N##_broadcast_on_stream(shmem_team_t team, T *dest, const T *source, size_t nelems, int PE_root, \
                                       cudaStream_t stream);                                            \
  int shmemx_##N##_fcollect_on_stream(shmem_team_t team, T *dest, const T *source, size_t nelems,       \
                                      cudaStream_t stream);                                             \
  int shmemx_##N##_alltoall_on_stream(shmem_team_t team, T *dest, const T *source, size_t nelems,       \
                                      cudaStream_t stream);                                             \
  int shmemx_##N##_collect_on_stream(shmem_team_t team, T *dest, const T *source, size_t nelems,        \
                                     cudaStream_t stream);                                              \
  int shmemx_##N##_alltoalls_on_stream(shmem_team_t team, T *dest, const T *source, ptrdiff_t dst,      \
                                       ptrdiff_t sst, size_t nelems, cudaStream_t stream);
GSHMEM_RMA_TYPES_DEVICE(GSHMEMX_DECL_COLL_STREAM)
#undef GSHMEMX_DECL_COLL_STREAM
#define GSHMEMX_DECL_REDUCE_STREAM(T, N, OP)                                                           \
  int shmemx_##N##_##OP##_reduce_on_stream(shmem_team_t team, T *dest, const T *source, size_t nreduce, \
                                           cudaStream_t stream);
#define GSHMEMX_DECL_REDUCE_STREAM_BIT(T, N) \
  GSHMEMX_DECL_REDUCE_STREAM(T, N, and) GSHMEMX_DECL_REDUCE_STREAM(T, N, or) GSHMEMX_DECL_REDUCE_STREAM(T, N, xor)
#define GSHMEMX_DECL_REDUCE_STREAM_MINMAX(T, N) GSHMEMX_DECL_REDUCE_STREAM(T, N, max) GSHMEMX_DECL_REDUCE_STREAM(T, N, min)
#define GSHMEMX_DECL_REDUCE_STREAM_ARITH(T, N) GSHMEMX_DECL_REDUCE_STREAM(T, N, sum) GSHMEMX_DECL_REDUCE_STREAM(T, N, prod)
GSHMEM_REDUCE_BIT_TYPES(GSHMEMX_DECL_REDUCE_STREAM_BIT)
GSHMEM_REDUCE_MINMAX_TYPES_DEVICE(GSHMEMX_DECL_REDUCE_STREAM_MINMAX)
GSHMEM_REDUCE_MINMAX_TYPES_DEVICE(GSHMEMX_DECL_REDUCE_STREAM_ARITH)
/* 16-bit floating types (sum, prod, min, max on a stream): CUDA's __half and __nv_bfloat16 where
 * cuda_fp16.h / cuda_bf16.h came first, else 16-bit structs of the same layout. Each step rounds
 * to the type, in team order on every PE (bit-identical results everywhere). */
#if defined(__CUDA_FP16_TYPES_EXIST__)
typedef __half shmemx_half_t;
#else
typedef struct {
  unsigned short x;
} shmemx_half_t;
#endif
#if defined(__CUDA_BF16_TYPES_EXIST__)
typedef __nv_bfloat16 shmemx_bfloat16_t;
#else
typedef struct {
  unsigned short x;
} shmemx_bfloat16_t;
#endif
GSHMEMX_DECL_REDUCE_STREAM_MINMAX(shmemx_half_t, half)
GSHMEMX_DECL_REDUCE_STREAM_ARITH(shmemx_half_t, half)
GSHMEMX_DECL_REDUCE_STREAM_MINMAX(shmemx_bfloat16_t, bfloat16)
GSHMEMX_DECL_REDUCE_STREAM_ARITH(shmemx_bfloat16_t, bfloat16)
/* Reduce-scatter on a stream (see shmemx_TYPE_OP_reducescatter below): the same types, the
 * same kernels' algorithm, one block per row of dest. */
#define GSHMEMX_DECL_RS_STREAM(T, N, OP)                                                               \
  int shmemx_##N##_##OP##_reducescatter_on_stream(shmem_team_t team, T *dest, const T *source, size_t nreduce, \
                                                  cudaStream_t stream);
#define GSHMEMX_DECL_RS_STREAM_BIT(T, N) \
  GSHMEMX_DECL_RS_STREAM(T, N, and) GSHMEMX_DECL_RS_STREAM(T, N, or) GSHMEMX_DECL_RS_STREAM(T, N, xor)
#define GSHMEMX_DECL_RS_STREAM_ARITH(T, N) \
  GSHMEMX_DECL_RS_STREAM(T, N, max) GSHMEMX_DECL_RS_STREAM(T, N, min) GSHMEMX_DECL_RS_STREAM(T, N, sum) GSHMEMX_DECL_RS_STREAM(T, N, prod)
GSHMEM_REDUCE_BIT_TYPES(GSHMEMX_DECL_RS_STREAM_BIT)
GSHMEM_REDUCE_MINMAX_TYPES_DEVICE(GSHMEMX_DECL_RS_STREAM_ARITH)
GSHMEMX_DECL_RS_STREAM_ARITH(shmemx_half_t, half)
GSHMEMX_DECL_RS_STREAM_ARITH(shmemx_bfloat16_t, bfloat16)
/* OpenSHMEM 1.6's scans (shmem_TYPENAME_sum_inscan / _exscan) on a stream, for the SUM types
 * that live on the device; device code has them at thread, warp and block scope. */
#define GSHMEMX_DECL_SCAN_STREAM(T, N)                                                                 \
  int shmemx_##N##_sum_inscan_on_stream(shmem_team_t team, T *dest, const T *source, size_t nelems,    \
                                        cudaStream_t stream);                                          \
  int shmemx_##N##_sum_exscan_on_stream(shmem_team_t team, T *dest, const T *source, size_t nelems,    \
                                        cudaStream_t stream);
GSHMEM_REDUCE_MINMAX_TYPES_DEVICE(GSHMEMX_DECL_SCAN_STREAM)
#undef GSHMEMX_DECL_SCAN_STREAM
#undef GSHMEMX_DECL_RS_STREAM_BIT
#undef GSHMEMX_DECL_RS_STREAM_ARITH
#undef GSHMEMX_DECL_RS_STREAM
#undef GSHMEMX_DECL_REDUCE_STREAM_BIT
#undef GSHMEMX_DECL_REDUCE_STREAM_MINMAX
#undef GSHMEMX_DECL_REDUCE_STREAM_ARITH
#undef GSHMEMX_DECL_REDUCE_STREAM

/* A barrier of one team (NVSHMEM's nvshmem_barrier(team)): shmem_quiet, then shmem_team_sync(team).
 * Returns 0, or -1 for SHMEM_TEAM_INVALID. Device code: shmemx_team_barrier and its _warp and
 * _block forms (gshmem/coll_api.cuh). */
#if !defined(__CUDA_ARCH__)
int shmemx_team_barrier(shmem_team_t team);
#endif

/* Teams from a unique id (NVSHMEM's nvshmemx_team_get_uniqueid / nvshmemx_team_init): one PE
 * makes an id and shares it (a put, a broadcast, an out-of-band channel); each of the npes PEs
 * that will form the team calls shmemx_team_init with it and its own index in the new team
 * (0 .. npes-1, each once). Collective over those PEs only: no parent team, any set and order of
 * PEs (device collectives need equally strided members; others run their collectives on the
 * host). Returns 0 and *new_team, or nonzero with *new_team = SHMEM_TEAM_INVALID (bad arguments,
 * reported naming the PE; no team slot free on every member). Members that disagree on npes or
 * claim one index twice end the job naming them. Destroy with shmem_team_destroy. */
typedef uint64_t shmemx_team_uniqueid_t;
int shmemx_team_get_uniqueid(shmemx_team_uniqueid_t *uniqueid);
int shmemx_team_init(shmemx_team_uniqueid_t uniqueid, int npes, int pe_idx_in_team, const shmem_team_config_t *config,
                     long config_mask, shmem_team_t *new_team);

/* Reduce-scatter over a team (NVSHMEM's nvshmem_TYPE_OP_reducescatter): source holds
 * shmem_team_n_pes(team) * nreduce elements; member i's dest (nreduce elements) receives the
 * reduction over every member's source block i. dest must not overlap source. Returns 0. From the
 * host on CPU PEs and on the device heap (a kernel, waited for); on a stream (above); device code
 * at thread, warp and block scope (gshmem/coll_api.cuh). Types and operators of the reduction
 * tables (and, or, xor for the bitwise types; min, max, sum, prod). */
#if !defined(__CUDA_ARCH__)
#define GSHMEMX_DECL_RS(T, N, OP) int shmemx_##N##_##OP##_reducescatter(shmem_team_t team, T *dest, const T *source, size_t nreduce);
#define GSHMEMX_DECL_RS_BIT(T, N) GSHMEMX_DECL_RS(T, N, and) GSHMEMX_DECL_RS(T, N, or) GSHMEMX_DECL_RS(T, N, xor)
#define GSHMEMX_DECL_RS_ARITH(T, N) \
  GSHMEMX_DECL_RS(T, N, max) GSHMEMX_DECL_RS(T, N, min) GSHMEMX_DECL_RS(T, N, sum) GSHMEMX_DECL_RS(T, N, prod)
GSHMEM_REDUCE_BIT_TYPES(GSHMEMX_DECL_RS_BIT)
GSHMEM_REDUCE_MINMAX_TYPES_DEVICE(GSHMEMX_DECL_RS_ARITH)
/* half and bfloat16 reductions and reduce-scatter from the host (sum, prod, min, max): on the device
 * heap the GPU kernels; on CPU PEs the same arithmetic in software (each step in float, rounded to
 * nearest even to the type, in team order): bit-identical results on every PE. Device code:
 * thread, warp and block scope in gshmem/coll_api.cuh. */
#define GSHMEMX_DECL_RED16(T, N, OP)                                                                 \
  int shmemx_##N##_##OP##_reduce(shmem_team_t team, T *dest, const T *source, size_t nreduce);      \
  GSHMEMX_DECL_RS(T, N, OP)
#define GSHMEMX_DECL_RED16_ALL(T, N) \
  GSHMEMX_DECL_RED16(T, N, max) GSHMEMX_DECL_RED16(T, N, min) GSHMEMX_DECL_RED16(T, N, sum) GSHMEMX_DECL_RED16(T, N, prod)
GSHMEMX_DECL_RED16_ALL(shmemx_half_t, half)
GSHMEMX_DECL_RED16_ALL(shmemx_bfloat16_t, bfloat16)
#undef GSHMEMX_DECL_RED16_ALL
#undef GSHMEMX_DECL_RED16
#undef GSHMEMX_DECL_RS_BIT
#undef GSHMEMX_DECL_RS_ARITH
#undef GSHMEMX_DECL_RS
#endif

/* ---- Unique-id initialisation (frameworks that have their own way to share 128 bytes) ---- */
typedef struct {
  char internal[128];
} shmemx_uniqueid_t;
typedef struct {
  int rank;
  int nranks;
  shmemx_uniqueid_t uid;
  void *mpi_comm; /* SHMEMX_INIT_WITH_MPI_COMM: the address of the program's MPI_Comm */
  char reserved[64 - sizeof(void *)];
} shmemx_init_attr_t;
#define SHMEMX_INIT_WITH_UNIQUEID 1u
/* Over an MPI communicator (MPI initialised by the program): its ranks become the PEs, in order. */
#define SHMEMX_INIT_WITH_MPI_COMM 2u
/* Rank 0 calls this (it starts listening) and sends the id to the other ranks. Returns 0 or an
 * error code with a message. */
int shmemx_get_uniqueid(shmemx_uniqueid_t *id);
int shmemx_set_attr_uniqueid_args(int rank, int nranks, const shmemx_uniqueid_t *id, shmemx_init_attr_t *attr);
/* flags: SHMEMX_INIT_WITH_UNIQUEID (rank, nranks, uid) or SHMEMX_INIT_WITH_MPI_COMM (mpi_comm).
 * Returns 0 or an error code with a message. */
int shmemx_init_attr(unsigned int flags, shmemx_init_attr_t *attr);

/* Kernels the program loads at run time (cuModuleLoad*, cuLibraryLoad*) from code compiled with
 * shmem.h (or nvshmem.h) included: gives the module's or library's device-state copy the current
 * state and keeps it current (heap growth, registered regions) until *_finalize. GPU PEs; returns
 * SHMEMX_SUCCESS or an error code with a message (no device state in it, a CPU PE). */
struct CUmod_st;
struct CUlib_st;
int shmemx_cumodule_init(struct CUmod_st *module);
int shmemx_cumodule_finalize(struct CUmod_st *module);
int shmemx_culibrary_init(struct CUlib_st *library);
int shmemx_culibrary_finalize(struct CUlib_st *library);

GSHMEM_EXTERN_C_END

#endif /* SHMEMX_H */
