// The device state every nvcc-compiled translation unit keeps in __constant__ memory
// (device/gshmem/state.cuh): the registry of their update functions and the state last published
// to them. shmem_init and heap growth publish; a unit loaded later gets the state when it
// registers; modules the library loads itself (the collective kernels) copy it in when the
// generation changed.
#pragma once
#include <cstdint>

#include "gshmem/device_host/state.h"
#include "mem/cuda_driver.hpp"

namespace gshmem::mem {

// True when some nvcc-compiled translation unit of this program included shmem.h (it registered
// a device-state copy before main): the program has GPU code that can use a device heap.
bool device_code_present();
// True when a translation unit registered a device state of another layout (compiled against
// another gshmem's headers; version 0: headers before the registration carried a version), with
// the first such unit's version and size.
bool device_state_mismatch(unsigned* version, unsigned* size);
// Copies the state into every registered translation unit (and keeps it for units loaded later).
void publish_device_state(const gshmem_device_state& s);
// The last published state and its generation (grows with every publication; 0: none yet).
uint64_t published_device_state(gshmem_device_state* out);
uint64_t published_device_generation();

#if GSHMEM_HAVE_CUDA
// A module or library the program loaded through the driver (shmemx_cumodule_init): its copy of
// the state (at dptr, in context ctx) gets the current state now and every later publication.
// key: the module or library handle.
Status add_module_state(const cu::Driver* drv, CUcontext ctx, const void* key, CUdeviceptr dptr);
bool remove_module_state(const void* key);
void forget_module_states();
#endif

}  // namespace gshmem::mem
