/* NVSHMEM 3.x compatibility: the nvshmemx_ names come with nvshmem.h (docs/nvshmem.md). */
#ifndef GSHMEM_NVSHMEMX_H
#define GSHMEM_NVSHMEMX_H
#include "nvshmem.h"
#endif
