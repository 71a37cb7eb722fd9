#include "mem/device_errors.hpp"

#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <mutex>

#include "common/fatal.hpp"
#include "common/log.hpp"
#include "gshmem/device_host/state.h"

namespace gshmem::mem {

namespace {
// The record is ordinary host memory, registered with the driver for the device: destroying the
// context (cudaDeviceReset, the last release of the primary context) only removes the mapping,
// so the host can read it from any of the report points at any time. It is never freed.
std::atomic<gshmem_device_error*> g_rec{nullptr};
std::mutex g_print_mu;  // a second reporter waits until the first has written the message
bool g_printed = false;
}  // namespace

#if GSHMEM_HAVE_CUDA
uint64_t device_errors_create(GpuContext& g) {
  gpu_make_current(g);
  const long page = sysconf(_SC_PAGESIZE);  // registration pins whole pages
  const size_t bytes = page > 0 ? static_cast<size_t>(page) : 4096;
  static_assert(sizeof(gshmem_device_error) <= 4096, "the record fits a page");
  auto* rec = static_cast<gshmem_device_error*>(std::aligned_alloc(bytes, bytes));
  if (!rec) return 0;
  *rec = gshmem_device_error{};
  CUdeviceptr dev = 0;
  CUresult r = g.drv->cuMemHostRegister(rec, bytes, CU_MEMHOSTREGISTER_DEVICEMAP);
  if (r == CUDA_SUCCESS) {
    r = g.drv->cuMemHostGetDevicePointer(&dev, rec, 0);
    if (r != CUDA_SUCCESS) g.drv->cuMemHostUnregister(rec);
  }
  if (r != CUDA_SUCCESS) {
    std::free(rec);
    GSHMEM_WARN(Subsys::mem, "no device error record (%s): device checks will trap without a message",
                cu::error_string(r));
    return 0;
  }
  g_rec.store(rec, std::memory_order_release);
  return static_cast<uint64_t>(dev);
}

void device_errors_destroy(GpuContext& g) {
  device_errors_report();
  gshmem_device_error* rec = g_rec.load();
  if (!rec) return;
  gpu_make_current(g);
  g.drv->cuMemHostUnregister(rec);  // fails harmlessly once the context is gone or unusable
}
#endif

bool device_errors_report() noexcept {
  gshmem_device_error* rec = g_rec.load(std::memory_order_acquire);
  if (!rec || *reinterpret_cast<volatile uint32_t*>(&rec->ready) != 1) return false;
  std::atomic_thread_fence(std::memory_order_acquire);
  std::lock_guard<std::mutex> lock(g_print_mu);
  if (g_printed) return false;
  g_printed = true;
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
