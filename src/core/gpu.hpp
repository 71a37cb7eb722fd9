// GPU PE: binding a PE to a GPU, its primary context and the stream host-side RMA uses; and the
// registry of per-translation-unit device-state copies (gshmemi_register_device_state).
#pragma once
#include "common/config.hpp"
#include "gshmem/device_host/state.h"
#include "mem/cuda_driver.hpp"
#include "topo/topo.hpp"

namespace gshmem {

#if GSHMEM_HAVE_CUDA
struct GpuContext {
  const cu::Driver* drv = nullptr;
  int ordinal = -1;
  CUdevice dev = 0;
  CUcontext ctx = nullptr;
  CUstream stream = nullptr;  // non-blocking: host RMA never waits for user kernels
  char name[128] = {};
};

// Returns not_available when there is no usable GPU (the caller then uses the host heap kind).
Status gpu_probe(const cu::Driver** drv, int* count);
Status gpu_bind(const Config& cfg, const topo::Topology& t, const cu::Driver* drv, int count, GpuContext* g);
void gpu_release(GpuContext* g) noexcept;
// GSHMEM_DEVICE_ALLOC: *ipc = true for cudaMalloc + CUDA IPC (auto: when the GPU lacks VMM with
// POSIX file-descriptor handles).
Status gpu_alloc_mode(const Config& cfg, const GpuContext& g, bool* ipc);
// Makes the PE's context current on the calling thread (host calls from user threads).
inline void gpu_make_current(const GpuContext& g) {
  CUcontext cur = nullptr;
  g.drv->cuCtxGetCurrent(&cur);
  if (cur != g.ctx) g.drv->cuCtxSetCurrent(g.ctx);
}
#endif

// True when some nvcc-compiled translation unit of this program included shmem.h (it registered
// a device-state copy before main): the program has GPU code that can use a device heap.
bool device_code_present();

// Copies the state into every registered translation unit (and remembers it for units loaded later).
void publish_device_state(const gshmem_device_state& s);
// The last published state and its generation (grows with every publication; 0: none yet).
uint64_t published_device_state(gshmem_device_state* out);
uint64_t published_device_generation();

}  // namespace gshmem
