// Per-translation-unit device state. Every .cu file that includes shmem.h gets its own
// __constant__ copy (no -rdc, no device link) and registers, from a static initializer, a function
// that copies the runtime's state into it; shmem_init and heap growth call every registered one.
// A module the library loads itself through the driver (the collective kernels' fatbin,
// src/coll/dev_coll.cu) defines GSHMEM_DEVICE_STATE_MODULE first: its copy is then an external
// symbol, which the library finds with cuModuleGetGlobal and fills.
#pragma once
#include <cuda_runtime.h>

#include "gshmem/device_host/state.h"

#ifdef GSHMEM_DEVICE_STATE_MODULE
extern "C" {
__constant__ gshmem_device_state gshmemi_dstate;
}
#else
static __constant__ gshmem_device_state gshmemi_dstate;

#ifndef __CUDA_ARCH__
static void gshmemi_update_dstate(const gshmem_device_state *s) { cudaMemcpyToSymbol(gshmemi_dstate, s, sizeof *s); }
static const int gshmemi_dstate_registered __attribute__((unused)) =
    gshmemi_register_device_state2(gshmemi_update_dstate, GSHMEM_DEVICE_STATE_VERSION, sizeof(gshmem_device_state));
#endif
#endif

// Device-side argument checks: on unless NDEBUG (or set GSHMEM_DEVICE_CHECKS=0/1 explicitly).
#ifndef GSHMEM_DEVICE_CHECKS
#ifdef NDEBUG
#define GSHMEM_DEVICE_CHECKS 0
#else
#define GSHMEM_DEVICE_CHECKS 1
#endif
#endif
