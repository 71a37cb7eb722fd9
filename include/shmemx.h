/* gshmem extensions (shmemx_*). The device API, stream-ordered operations and unique-id
 * initialisation arrive with GPU PEs; this header already carries the query functions. */
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
/* Name of the bootstrap that started this job: "uid", "pmix", "mpi" or "single". */
const char *shmemx_bootstrap_name(void);
/* Number of PEs on this PE's node, and this PE's index among them. */
int shmemx_local_npes(void);
int shmemx_local_pe(void);

#ifdef __cplusplus
}
#endif

#endif /* SHMEMX_H */
