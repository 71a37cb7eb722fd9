#include "core/gpu.hpp"

#include <atomic>
#include <mutex>
#include <vector>

#include "common/log.hpp"

namespace gshmem {

namespace {
using Updater = void (*)(const gshmem_device_state*);
std::mutex g_reg_mu;
std::vector<Updater>& registry() {
  static std::vector<Updater> r;
  return r;
}
gshmem_device_state g_state{};
bool g_published = false;
std::atomic<uint64_t> g_generation{0};
}  // namespace

uint64_t published_device_state(gshmem_device_state* out) {
  std::lock_guard<std::mutex> lock(g_reg_mu);
  *out = g_state;
  return g_generation.load();
}

uint64_t published_device_generation() { return g_generation.load(std::memory_order_acquire); }

bool device_code_present() {
  std::lock_guard<std::mutex> lock(g_reg_mu);
  return !registry().empty();
}

void publish_device_state(const gshmem_device_state& s) {
  std::lock_guard<std::mutex> lock(g_reg_mu);
  g_state = s;
  g_published = true;
  ++g_generation;
  for (Updater u : registry()) u(&g_state);
}

#if GSHMEM_HAVE_CUDA
Status gpu_probe(const cu::Driver** drv, int* count) {
  GSHMEM_CHECK(cu::load(drv));
  *count = 0;
  if ((*drv)->cuDeviceGetCount(count) != CUDA_SUCCESS || *count == 0) return Status::not_available;
  return Status::ok;
}

Status gpu_bind(const Config& cfg, const topo::Topology& t, const cu::Driver* drv, int count, GpuContext* g) {
  g->drv = drv;
  int ord = static_cast<int>(cfg.GSHMEM_DEVICE);
  if (ord < 0) {
    CUcontext cur = nullptr;
    CUdevice d = 0;
    if (drv->cuCtxGetCurrent(&cur) == CUDA_SUCCESS && cur && drv->cuCtxGetDevice(&d) == CUDA_SUCCESS) ord = d;
    else ord = t.local_rank % count;
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
  if (t.local_size > count)
    GSHMEM_INFO(Subsys::init, "%d PEs share %d GPUs on this node", t.local_size, count);
  GSHMEM_INFO(Subsys::init, "pe %d bound to GPU %d (%s)", t.my_pe, ord, g->name);
  return Status::ok;
}

Status gpu_alloc_mode(const Config& cfg, const GpuContext& g, bool* ipc) {
  int vmm = 0, fd = 0;
  g.drv->cuDeviceGetAttribute(&vmm, CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED, g.dev);
  g.drv->cuDeviceGetAttribute(&fd, CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED, g.dev);
  const std::string& m = cfg.GSHMEM_DEVICE_ALLOC;
  if (m == "ipc") *ipc = true;
  else if (m == "vmm") {
    if (!vmm || !fd) {
      GSHMEM_WARN(Subsys::init, "GSHMEM_DEVICE_ALLOC=vmm but GPU %d lacks VMM (%d) or POSIX fd handles (%d)", g.ordinal,
                  vmm, fd);
      return Status::not_available;
    }
    *ipc = false;
  } else {  // auto (the table allows nothing else)
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
#endif

}  // namespace gshmem

extern "C" int gshmemi_register_device_state(void (*update)(const gshmem_device_state*)) {
  std::lock_guard<std::mutex> lock(gshmem::g_reg_mu);
  gshmem::registry().push_back(update);
  if (gshmem::g_published) update(&gshmem::g_state);
  return 0;
}
