// Per-translation-unit device state. Every .cu file that includes shmem.h gets its own
// __constant__ copy (no -rdc, no device link) and registers, from a static initializer, a function
// that copies the runtime's state into it; shmem_init and heap growth call every registered one.
#pragma once
#include <cuda_runtime.h>

#include "gshmem/device_host/state.h"

static __constant__ gshmem_device_state gshmemi_dstate;

#ifndef __CUDA_ARCH__
static void gshmemi_update_dstate(const gshmem_device_state *s) {
  cudaMemcpyToSymbol(gshmemi_dstate, s, sizeof *s);
}
static const int gshmemi_dstate_registered __attribute__((unused)) =
    gshmemi_register_device_state(gshmemi_update_dstate);
#endif

// Device-side argument checks: on unless NDEBUG (or set GSHMEM_DEVICE_CHECKS=0/1 explicitly).
#ifndef GSHMEM_DEVICE_CHECKS
#ifdef NDEBUG
#define GSHMEM_DEVICE_CHECKS 0
#else
#define GSHMEM_DEVICE_CHECKS 1
#endif
#endif
