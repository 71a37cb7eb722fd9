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

/* Device-side argument checks (docs/gpu.md, "Bad arguments in device code"): NVSHMEM's device calls
 * check no PE or address, and NVSHMEM programs are usually built without NDEBUG (its CMake sets no
 * build type), so a program that comes in through this header gets NVSHMEM's device code: checks
 * off unless it defines GSHMEM_DEVICE_CHECKS=1. A translation unit that includes shmem.h before
 * this header has shmem.h's rule instead (on unless NDEBUG). */
#ifndef GSHMEM_DEVICE_CHECKS
#define GSHMEM_DEVICE_CHECKS 0
#endif

#include "shmem.h"
#include "shmemx.h"
#include "gshmem/nvshmem/error.h"
#include "gshmem/nvshmem/types.h"
#include "gshmem/nvshmem/wrappers.h"
#include "gshmem/nvshmem/names.h"

#endif
