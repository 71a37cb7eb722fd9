#include "mem/user_memory.hpp"

#include <sys/mman.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "common/log.hpp"

namespace gshmem::mem {

#if GSHMEM_HAVE_CUDA
namespace {
void unmap_device(const cu::Driver* drv, const UserAlloc& a) {
  drv->cuMemUnmap(static_cast<CUdeviceptr>(a.base), a.mapped);
  drv->cuMemAddressFree(static_cast<CUdeviceptr>(a.base), a.mapped);
  drv->cuMemRelease(a.h);
}
}  // namespace
#endif

Status UserAllocations::alloc(const GpuContext* g, size_t bytes, void** out) {
  *out = nullptr;
  UserAlloc a;
  a.bytes = bytes;
#if GSHMEM_HAVE_CUDA
  if (g) {
    gpu_make_current(*g);
    const cu::Driver& d = *g->drv;
    CUmemAllocationProp p = vmm_alloc_prop(d, g->dev);
    size_t gran = 0;
    GSHMEM_CU(d, cuMemGetAllocationGranularity, &gran, &p, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED);
    a.mapped = (bytes + gran - 1) / gran * gran;
    a.device = true;
    CUresult r = d.cuMemCreate(&a.h, a.mapped, &p, 0);
    if (r != CUDA_SUCCESS) {
      GSHMEM_WARN(Subsys::mem, "cuMemCreate(%zu bytes) on GPU %d failed: %s", a.mapped, g->ordinal,
                  cu::error_string(r));
      return Status::out_of_memory;
    }
    CUdeviceptr va = 0;
    r = d.cuMemAddressReserve(&va, a.mapped, gran, 0, 0);
    if (r == CUDA_SUCCESS) {
      r = d.cuMemMap(va, a.mapped, 0, a.h, 0);
      if (r != CUDA_SUCCESS) d.cuMemAddressFree(va, a.mapped);
    }
    if (r == CUDA_SUCCESS) {
      CUmemAccessDesc acc{};
      acc.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
      acc.location.id = g->dev;
      acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
      r = d.cuMemSetAccess(va, a.mapped, &acc, 1);
      if (r != CUDA_SUCCESS) {
        d.cuMemUnmap(va, a.mapped);
        d.cuMemAddressFree(va, a.mapped);
      }
    }
    if (r != CUDA_SUCCESS) {
      GSHMEM_WARN(Subsys::mem, "mapping %zu bytes of GPU memory failed: %s", a.mapped, cu::error_string(r));
      d.cuMemRelease(a.h);
      return Status::system_error;
    }
    a.base = static_cast<uintptr_t>(va);
    std::lock_guard<std::mutex> lock(mu_);
    drv_ = g->drv;
    allocs_.push_back(a);
    *out = reinterpret_cast<void*>(a.base);
    return Status::ok;
  }
#else
  (void)g;
#endif
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  a.mapped = (bytes + page - 1) / page * page;
  const int fd = memfd_create("gshmem-user", MFD_CLOEXEC);
  if (fd < 0 || ftruncate(fd, static_cast<off_t>(a.mapped)) != 0) {
    GSHMEM_WARN(Subsys::mem, "memfd of %zu bytes: %s", a.mapped, strerror(errno));
    if (fd >= 0) close(fd);
    return Status::out_of_memory;
  }
  void* m = mmap(nullptr, a.mapped, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
  close(fd);  // the mapping keeps the memory
  if (m == MAP_FAILED) {
    GSHMEM_WARN(Subsys::mem, "mmap of %zu bytes: %s", a.mapped, strerror(errno));
    return Status::out_of_memory;
  }
  a.base = reinterpret_cast<uintptr_t>(m);
  std::lock_guard<std::mutex> lock(mu_);
  allocs_.push_back(a);
  *out = m;
  return Status::ok;
}

Status UserAllocations::free(void* ptr) {
  std::lock_guard<std::mutex> lock(mu_);
  for (size_t i = 0; i < allocs_.size(); ++i) {
    const UserAlloc a = allocs_[i];
    if (a.base != reinterpret_cast<uintptr_t>(ptr)) continue;
    allocs_.erase(allocs_.begin() + static_cast<std::ptrdiff_t>(i));
#if GSHMEM_HAVE_CUDA
    if (a.device) {
      unmap_device(drv_, a);
      return Status::ok;
    }
#endif
    munmap(ptr, a.mapped);
    return Status::ok;
  }
  return Status::invalid_argument;
}

bool UserAllocations::find(const void* p, size_t n, UserAlloc* out) const {
  const auto lo = reinterpret_cast<uintptr_t>(p);
  std::lock_guard<std::mutex> lock(mu_);
  for (const UserAlloc& a : allocs_)
    if (lo >= a.base && lo - a.base < a.mapped && n <= a.mapped - (lo - a.base)) {
      *out = a;
      return true;
    }
  return false;
}

void UserAllocations::release_all() noexcept {
  std::lock_guard<std::mutex> lock(mu_);
  for (const UserAlloc& a : allocs_) {
#if GSHMEM_HAVE_CUDA
    if (a.device) {
      unmap_device(drv_, a);
      continue;
    }
#endif
    munmap(reinterpret_cast<void*>(a.base), a.mapped);
  }
  allocs_.clear();
}

}  // namespace gshmem::mem
