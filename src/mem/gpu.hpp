// A GPU PE's GPU: binding the PE to a device, its primary context, and the stream the runtime's
// own host-side operations use. The driver is reached through mem/cuda_driver (dlopen), so none
// of this needs a GPU to load.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "mem/cuda_driver.hpp"

namespace gshmem::boot {
class Bootstrap;
}

namespace gshmem::mem {

struct GpuContext;  // a GPU PE's GPU (CUDA builds define it; others only pass null pointers)

// What each PE reports about its GPU at init (gpu_survey): which host, which GPU of it, and how many
// SMs its context may use (less than the GPU's for an MPS client limited by
// CUDA_MPS_ACTIVE_THREAD_PERCENTAGE). A PE without a GPU reports sms 0.
struct GpuRecord {
  uint64_t host;
  uint64_t gpu;  // PCI domain, bus and device
  int32_t sms;
  int32_t pad;
};
static_assert(sizeof(GpuRecord) == 24, "GpuRecord is a wire format");
// Blocks that every GPU PE can keep resident at once while the other PEs on its GPU keep as many
// resident, counting one block per SM (any kernel that launches at all fits one block on an SM):
// the GPU's SMs for a PE alone on it; for n PEs sharing a GPU, the most SMs any of them may use
// divided by n (at least 1). MPS does not keep its clients' SMs apart, so their shares may overlap:
// four clients of 25% each cannot keep four grids of their full share resident at once (measured:
// docs/gpu.md). The job's value is the least over its GPU PEs (0: none has a GPU), the same on
// every PE.
int resident_blocks(const std::vector<GpuRecord>& recs);

#if GSHMEM_HAVE_CUDA
struct GpuContext {
  const cu::Driver* drv = nullptr;
  int ordinal = -1;
  CUdevice dev = 0;
  CUcontext ctx = nullptr;
  CUstream stream = nullptr;  // non-blocking: host RMA never waits for user kernels
  char name[128] = {};
  int sms = 0;                  // SMs this PE's context may use
  uint64_t pci = 0;             // PCI domain, bus and device
  int job_resident_blocks = 0;  // resident_blocks of the job (gpu_survey)
};

// not_available when there is no usable GPU (the caller then uses the host heap kind).
Status gpu_probe(const cu::Driver** drv, int* count);
// ordinal >= 0: that GPU (invalid_argument past count); -1: the device of the CUDA context
// current on this thread, else local_rank modulo count.
Status gpu_bind(const cu::Driver* drv, int count, int ordinal, int local_rank, int local_size, GpuContext* g);
void gpu_release(GpuContext* g) noexcept;
// Every PE calls it once at init (g null on a PE without a GPU): exchanges GpuRecords and fills
// g->job_resident_blocks. host: this PE's host (topo's numbering, not a network namespace or an
// emulated node).
Status gpu_survey(boot::Bootstrap& b, int my_pe, int npes, uint64_t host, GpuContext* g);
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
