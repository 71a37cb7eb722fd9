/* gshmem extensions (shmemx_*): queries, stream-ordered host operations, unique-id
 * initialisation. The device-side extensions (shmemx_putmem_block, ...) and
 * shmemx_collective_launch come from shmem.h when compiling with nvcc. */
#ifndef SHMEMX_H
#define SHMEMX_H

#include "shmem.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Heap kind of this PE's symmetric heap. */
#define SHMEMX_HEAP_KIND_HOST 0
#define SHMEMX_HEAP_KIND_DEVICE 1
int shmemx_heap_kind(void);
/* Bytes of symmetric heap per PE, and bytes currently allocated on this PE. */
size_t shmemx_heap_size(void);
size_t shmemx_heap_used(void);
/* 1 when shmem_malloc grows the heap past SHMEM_SYMMETRIC_SIZE (device heap over cuMem VMM). */
int shmemx_heap_growable(void);
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
/* cmp: SHMEM_CMP_EQ, SHMEM_CMP_GE or SHMEM_CMP_GT. */
void shmemx_signal_wait_until_on_stream(uint64_t *sig_addr, int cmp, uint64_t cmp_value, cudaStream_t stream);
void shmemx_quiet_on_stream(cudaStream_t stream);
void shmemx_barrier_all_on_stream(cudaStream_t stream);

/* ---- Unique-id initialisation (frameworks that have their own way to share 128 bytes) ---- */
typedef struct {
  char internal[128];
} shmemx_uniqueid_t;
typedef struct {
  int rank;
  int nranks;
  shmemx_uniqueid_t uid;
  char reserved[64];
} shmemx_init_attr_t;
#define SHMEMX_INIT_WITH_UNIQUEID 1u
/* Rank 0 calls this (it starts listening) and sends the id to the other ranks. Returns 0 or an
 * error code with a message. */
int shmemx_get_uniqueid(shmemx_uniqueid_t *id);
int shmemx_set_attr_uniqueid_args(int rank, int nranks, const shmemx_uniqueid_t *id, shmemx_init_attr_t *attr);
/* flags: SHMEMX_INIT_WITH_UNIQUEID. Returns 0 or an error code with a message. */
int shmemx_init_attr(unsigned int flags, shmemx_init_attr_t *attr);

#ifdef __cplusplus
}
#endif

#endif /* SHMEMX_H */
