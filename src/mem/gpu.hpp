// A GPU PE's GPU: binding the PE to a device, its primary context, and the stream the runtime's
// own host-side operations use. The driver is reached through mem/cuda_driver (dlopen), so none
// of this needs a GPU to load.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "common/status.hpp"
#include "mem/cuda_driver.hpp"

namespace gshmem::mem {

struct GpuContext;  // a GPU PE's GPU (CUDA builds define it; others only pass null pointers)

#if GSHMEM_HAVE_CUDA
struct GpuContext {
  const cu::Driver* drv = nullptr;
  int ordinal = -1;
  CUdevice dev = 0;
  CUcontext ctx = nullptr;
  CUstream stream = nullptr;  // non-blocking: host RMA never waits for user kernels
  char name[128] = {};
};

// not_available when there is no usable GPU (the caller then uses the host heap kind).
Status gpu_probe(const cu::Driver** drv, int* count);
// ordinal >= 0: that GPU (invalid_argument past count); -1: the device of the CUDA context
// current on this thread, else local_rank modulo count.
Status gpu_bind(const cu::Driver* drv, int count, int ordinal, int local_rank, int local_size, GpuContext* g);
void gpu_release(GpuContext* g) noexcept;
// want: "auto", "vmm" or "ipc" (GSHMEM_DEVICE_ALLOC). *ipc = true for cudaMalloc + CUDA IPC (auto:
// when the GPU lacks VMM with POSIX file-descriptor handles).
Status gpu_alloc_mode(const GpuContext& g, const std::string& want, bool* ipc);
// Makes the PE's context current on the calling thread (host calls from user threads).
inline void gpu_make_current(const GpuContext& g) {
  CUcontext cur = nullptr;
  g.drv->cuCtxGetCurrent(&cur);
  if (cur != g.ctx) g.drv->cuCtxSetCurrent(g.ctx);
}
// The properties of every cuMem allocation gshmem makes (the heap's chunks, shmemx_mem_alloc):
// pinned memory of dev, exportable as a POSIX file descriptor (same-node peers map it), and
// GPUDirect-RDMA capable where the GPU supports that with VMM (a NIC can then register it).
CUmemAllocationProp vmm_alloc_prop(const cu::Driver& d, CUdevice dev);
#endif

}  // namespace gshmem::mem
