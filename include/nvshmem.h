/* NVSHMEM 3.x compatibility: an NVSHMEM program built against gshmem unchanged (no -rdc), found with
 * pkg-config gshmem-nvshmem or CMake's gshmem::nvshmem. The NVSHMEM names map onto gshmem's API:
 * plain renames (gshmem/nvshmem/names.h, generated), and wrappers where NVSHMEM's arguments or
 * constants differ (gshmem/nvshmem/wrappers.h). Coverage and what is missing: docs/nvshmem.md. */
#ifndef GSHMEM_NVSHMEM_H
#define GSHMEM_NVSHMEM_H

/* What NVSHMEM's nvshmem.h brings, for nvcc and for a plain C or C++ compiler alike (NVSHMEM's
 * CMake compiles a program's .cpp files with the C++ compiler): the CUDA runtime and driver APIs
 * and the 16-bit floating types, wherever the CUDA headers are on the include path. */
#if defined(__CUDACC__) || (defined(__has_include) && __has_include(<cuda_runtime.h>))
#include <cuda.h>
#include <cuda_runtime.h>
#if defined(__cplusplus) || defined(__CUDACC__)
#include <cuda_fp16.h>
#include <cuda_bf16.h>
#endif
#endif

#include "shmem.h"
#include "shmemx.h"
#include "gshmem/nvshmem/error.h"
#include "gshmem/nvshmem/types.h"
#include "gshmem/nvshmem/wrappers.h"
#include "gshmem/nvshmem/names.h"

#endif
