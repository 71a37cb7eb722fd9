#include "mem/device_errors.hpp"

#include <atomic>

#include "common/fatal.hpp"
#include "common/log.hpp"
#include "gshmem/device_host/state.h"

namespace gshmem::mem {

namespace {
std::atomic<gshmem_device_error*> g_rec{nullptr};
std::atomic<bool> g_printed{false};
}  // namespace

#if GSHMEM_HAVE_CUDA
uint64_t device_errors_create(GpuContext& g) {
  gpu_make_current(g);
  void* host = nullptr;
  CUdeviceptr dev = 0;
  CUresult r = g.drv->cuMemHostAlloc(&host, sizeof(gshmem_device_error), CU_MEMHOSTALLOC_DEVICEMAP);
  if (r == CUDA_SUCCESS) {
    r = g.drv->cuMemHostGetDevicePointer(&dev, host, 0);
    if (r != CUDA_SUCCESS) g.drv->cuMemFreeHost(host);
  }
  if (r != CUDA_SUCCESS) {
    GSHMEM_WARN(Subsys::mem, "no device error record (%s): device checks will trap without a message",
                cu::error_string(r));
    return 0;
  }
  auto* rec = static_cast<gshmem_device_error*>(host);
  *rec = gshmem_device_error{};
  g_printed.store(false);
  g_rec.store(rec, std::memory_order_release);
  return static_cast<uint64_t>(dev);
}

void device_errors_destroy(GpuContext& g) {
  device_errors_report();
  gshmem_device_error* rec = g_rec.exchange(nullptr);
  if (!rec) return;
  gpu_make_current(g);
  g.drv->cuMemFreeHost(rec);  // may fail once a kernel trapped (the context is unusable); the memory then stays
}
#endif

bool device_errors_report() noexcept {
  gshmem_device_error* rec = g_rec.load(std::memory_order_acquire);
  if (!rec || *reinterpret_cast<volatile uint32_t*>(&rec->ready) != 1) return false;
  std::atomic_thread_fence(std::memory_order_acquire);
  if (g_printed.exchange(true)) return false;
  gshmem_device_error e = *rec;
  e.call[sizeof e.call - 1] = 0;
  e.what[sizeof e.what - 1] = 0;
  if (e.kind == GSHMEM_DEV_ERROR_ADDR)
    report_error(e.call, "%s (addr %p, target pe %d, pe %d of %d, heap %p + %llu, block %d thread %d)", e.what,
                 reinterpret_cast<void*>(e.addr), e.target_pe, e.pe, e.npes, reinterpret_cast<void*>(e.heap_base),
                 static_cast<unsigned long long>(e.heap_size), e.block, e.thread);
  else
    report_error(e.call, "%s (%lld; pe %d of %d, block %d thread %d)", e.what, static_cast<long long>(e.value), e.pe,
                 e.npes, e.block, e.thread);
  return true;
}

}  // namespace gshmem::mem
