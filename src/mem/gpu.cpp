#include "mem/gpu.hpp"

#include <algorithm>
#include <map>
#include <utility>

#include "bootstrap/bootstrap.hpp"
#include "common/log.hpp"

namespace gshmem::mem {

int resident_blocks(const std::vector<GpuRecord>& recs) {
  struct Gpu {
    int sharers = 0, most = 0;
  };
  std::map<std::pair<uint64_t, uint64_t>, Gpu> gpus;  // by (host, PCI address)
  for (const GpuRecord& r : recs) {
    if (r.sms <= 0) continue;
    Gpu& g = gpus[{r.host, r.gpu}];
    ++g.sharers;
    g.most = std::max(g.most, static_cast<int>(r.sms));
  }
  int least = 0;
  for (const auto& [key, g] : gpus) {
    const int blocks = std::max(1, g.most / g.sharers);
    least = least ? std::min(least, blocks) : blocks;
  }
  return least;
}

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
  // With the context current: an MPS client's SM count is its share.
  int dom = 0, bus = 0, devn = 0;
  GSHMEM_CU(*drv, cuDeviceGetAttribute, &g->sms, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, g->dev);
  GSHMEM_CU(*drv, cuDeviceGetAttribute, &dom, CU_DEVICE_ATTRIBUTE_PCI_DOMAIN_ID, g->dev);
  GSHMEM_CU(*drv, cuDeviceGetAttribute, &bus, CU_DEVICE_ATTRIBUTE_PCI_BUS_ID, g->dev);
  GSHMEM_CU(*drv, cuDeviceGetAttribute, &devn, CU_DEVICE_ATTRIBUTE_PCI_DEVICE_ID, g->dev);
  g->pci = static_cast<uint64_t>(static_cast<uint32_t>(dom)) << 32 | static_cast<uint64_t>(bus & 0xffff) << 16 |
           static_cast<uint64_t>(devn & 0xffff);
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

Status gpu_survey(boot::Bootstrap& b, int my_pe, int npes, uint64_t host, GpuContext* g) {
  std::vector<GpuRecord> recs(static_cast<size_t>(npes), GpuRecord{});
  if (g) recs[static_cast<size_t>(my_pe)] = {host, g->pci, g->sms, 0};
  GSHMEM_CHECK(b.allgather(recs.data(), sizeof(GpuRecord)));
  if (!g) return Status::ok;
  int sharers = 0;
  for (const GpuRecord& o : recs) sharers += o.sms > 0 && o.host == host && o.gpu == g->pci;
  g->job_resident_blocks = resident_blocks(recs);
  if (sharers > 1)
    GSHMEM_INFO(Subsys::init, "%d PEs use this GPU (%d SMs for this PE): on-stream collectives use at most %d blocks",
                sharers, g->sms, g->job_resident_blocks);
  return Status::ok;
}

void gpu_release(GpuContext* g) noexcept {
  if (!g->drv) return;
  if (g->stream) g->drv->cuStreamDestroy(g->stream);
  if (g->ctx) g->drv->cuDevicePrimaryCtxRelease(g->dev);
  g->stream = nullptr;
  g->ctx = nullptr;
}

CUmemAllocationProp vmm_alloc_prop(const cu::Driver& d, CUdevice dev) {
  CUmemAllocationProp p{};
  p.type = CU_MEM_ALLOCATION_TYPE_PINNED;
  p.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  p.location.id = dev;
  p.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
  int rdma = 0;
  d.cuDeviceGetAttribute(&rdma, CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_WITH_CUDA_VMM_SUPPORTED, dev);
  p.allocFlags.gpuDirectRDMACapable = rdma ? 1 : 0;
  return p;
}

#endif

}  // namespace gshmem::mem
