/* NVSHMEM 3.x compatibility: an NVSHMEM program built against gshmem unchanged (no -rdc), found with
 * pkg-config gshmem-nvshmem or CMake's gshmem::nvshmem. The NVSHMEM names map onto gshmem's API:
 * plain renames (gshmem/nvshmem/names.h, generated), and wrappers where NVSHMEM's arguments or
 * constants differ (gshmem/nvshmem/wrappers.h). Coverage and what is missing: docs/nvshmem.md. */
#ifndef GSHMEM_NVSHMEM_H
#define GSHMEM_NVSHMEM_H

#if defined(__CUDACC__)
#include <cuda_runtime.h>
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#endif

#include "shmem.h"
#include "shmemx.h"
#include "gshmem/nvshmem/types.h"
#include "gshmem/nvshmem/wrappers.h"
#include "gshmem/nvshmem/names.h"

#endif
