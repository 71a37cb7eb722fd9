#include "mem/gpu.hpp"

#include "common/log.hpp"

namespace gshmem::mem {

#if GSHMEM_HAVE_CUDA
Status gpu_probe(const cu::Driver** drv, int* count) {
  GSHMEM_CHECK(cu::load(drv));
  *count = 0;
  if ((*drv)->cuDeviceGetCount(count) != CUDA_SUCCESS || *count == 0) return Status::not_available;
  return Status::ok;
}

Status gpu_bind(const cu::Driver* drv, int count, int ord, int local_rank, int local_size, GpuContext* g) {
  g->drv = drv;
  if (ord < 0) {
    CUcontext cur = nullptr;
    CUdevice d = 0;
    if (drv->cuCtxGetCurrent(&cur) == CUDA_SUCCESS && cur && drv->cuCtxGetDevice(&d) == CUDA_SUCCESS) ord = d;
    else ord = local_rank % count;
  }
  if (ord >= count) {
    GSHMEM_WARN(Subsys::init, "GSHMEM_DEVICE=%d but this node has %d GPUs", ord, count);
    return Status::invalid_argument;
  }
  g->ordinal = ord;
  GSHMEM_CU(*drv, cuDeviceGet, &g->dev, ord);
  drv->cuDeviceGetName(g->name, sizeof g->name, g->dev);
  GSHMEM_CU(*drv, cuDevicePrimaryCtxRetain, &g->ctx, g->dev);
  GSHMEM_CU(*drv, cuCtxSetCurrent, g->ctx);
  GSHMEM_CU(*drv, cuStreamCreate, &g->stream, CU_STREAM_NON_BLOCKING);
  if (local_size > count) GSHMEM_INFO(Subsys::init, "%d PEs share %d GPUs on this node", local_size, count);
  GSHMEM_INFO(Subsys::init, "bound to GPU %d (%s)", ord, g->name);
  return Status::ok;
}

Status gpu_alloc_mode(const GpuContext& g, const std::string& m, bool* ipc) {
  int vmm = 0, fd = 0;
  g.drv->cuDeviceGetAttribute(&vmm, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, g.dev);
  g.drv->cuDeviceGetAttribute(&fd, CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED, g.dev);
  if (m == "ipc") {
    *ipc = true;
  } else if (m == "vmm") {
    if (!vmm || !fd) {
      GSHMEM_WARN(Subsys::init, "GSHMEM_DEVICE_ALLOC=vmm but GPU %d lacks VMM (%d) or POSIX fd handles (%d)", g.ordinal,
                  vmm, fd);
      return Status::not_available;
    }
    *ipc = false;
  } else {  // auto (the config table allows nothing else)
    *ipc = !(vmm && fd);
  }
  if (*ipc) GSHMEM_INFO(Subsys::init, "device heap: cudaMalloc + CUDA IPC (fixed size, no growth)");
  return Status::ok;
}

void gpu_release(GpuContext* g) noexcept {
  if (!g->drv) return;
  if (g->stream) g->drv->cuStreamDestroy(g->stream);
  if (g->ctx) g->drv->cuDevicePrimaryCtxRelease(g->dev);
  g->stream = nullptr;
  g->ctx = nullptr;
}

int gpu_dmabuf_fd(const GpuContext& g, uint64_t base, size_t len) {
  gpu_make_current(g);
  int fd = -1;
  const CUresult r = g.drv->cuMemGetHandleForAddressRange(&fd, static_cast<CUdeviceptr>(base), len,
                                                          CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD, 0);
  if (r != CUDA_SUCCESS) {
    GSHMEM_INFO(Subsys::mem, "no dma-buf for the device segment (%s); the ib transport registers it directly",
                cu::error_string(r));
    return -1;
  }
  return fd;
}
#endif

}  // namespace gshmem::mem
