#include "mem/device_window.hpp"

#if GSHMEM_HAVE_CUDA
#include <unistd.h>

#include "common/log.hpp"
#include "mem/gpu.hpp"

namespace gshmem::mem {

Status DeviceWindow::reserve(const cu::Driver* drv, CUdevice dev, int nslots, size_t stride, size_t align) {
  drv_ = drv;
  dev_ = dev;
  CUmemAllocationProp p = vmm_alloc_prop(*drv_, dev);
  GSHMEM_CU(*drv_, cuMemGetAllocationGranularity, &gran_, &p, CU_MEM_ALLOC_GRANULARITY_RECOMMENDED);
  // Every slot starts on an align boundary (NVSHMEM aligns its heap to 512 MiB as well), so the
  // layout does not depend on where the driver puts the reservation. align is a power of two
  // (shmem_init checks GSHMEM_DEVICE_HEAP_ALIGN).
  if (align < gran_) align = gran_;
  size_t up = 0;
  if (__builtin_add_overflow(stride, align - 1, &up) ||
      __builtin_mul_overflow(up / align * align, static_cast<size_t>(nslots), &total_)) {
    GSHMEM_WARN(Subsys::mem,
                "device window of %d slots of %zu bytes (GSHMEM_DEVICE_HEAP_RESERVE, aligned to %zu) does not fit the "
                "address space",
                nslots, stride, align);
    return Status::invalid_argument;
  }
  stride_ = up / align * align;
  GSHMEM_CU(*drv_, cuMemAddressReserve, &base_, total_, align, 0, 0);
  GSHMEM_DEBUG(Subsys::mem, "device window %#llx + %zu (%d slots of %zu, alignment %zu, granularity %zu)",
               (unsigned long long)base_, total_, nslots, stride_, align, gran_);
  return Status::ok;
}

Status DeviceWindow::create_chunk(size_t bytes, CUmemGenericAllocationHandle* h, int* fd) {
  CUmemAllocationProp p = vmm_alloc_prop(*drv_, dev_);
  bytes = (bytes + gran_ - 1) / gran_ * gran_;
  CUresult r = drv_->cuMemCreate(h, bytes, &p, 0);
  if (r != CUDA_SUCCESS) {
    size_t free_b = 0, total_b = 0;
    drv_->cuMemGetInfo(&free_b, &total_b);
    GSHMEM_WARN(Subsys::mem, "cuMemCreate(%zu bytes) on GPU %d failed: %s (GPU free %zu of %zu bytes)", bytes,
                static_cast<int>(dev_), cu::error_string(r), free_b, total_b);
    return Status::out_of_memory;
  }
  r = drv_->cuMemExportToShareableHandle(fd, *h, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0);
  if (r != CUDA_SUCCESS) {
    GSHMEM_WARN(Subsys::mem, "cuMemExportToShareableHandle(POSIX fd) failed: %s", cu::error_string(r));
    drv_->cuMemRelease(*h);
    return Status::not_available;
  }
  return Status::ok;
}

Status DeviceWindow::map_own(int slot, size_t offset, CUmemGenericAllocationHandle h, size_t bytes) {
  bytes = (bytes + gran_ - 1) / gran_ * gran_;
  if (offset + bytes > stride_) {
    GSHMEM_WARN(Subsys::mem, "device heap would grow past its reserved %zu bytes per PE (GSHMEM_DEVICE_HEAP_RESERVE)",
                stride_);
    drv_->cuMemRelease(h);
    return Status::out_of_memory;
  }
  const CUdeviceptr va = slot_base(slot) + offset;
  CUresult r = drv_->cuMemMap(va, bytes, 0, h, 0);
  if (r != CUDA_SUCCESS) {
    GSHMEM_WARN(Subsys::mem, "cuMemMap failed: %s", cu::error_string(r));
    drv_->cuMemRelease(h);
    return Status::system_error;
  }
  maps_.push_back({va, bytes, h});
  CUmemAccessDesc a{};
  a.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
  a.location.id = dev_;
  a.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
  GSHMEM_CU(*drv_, cuMemSetAccess, va, bytes, &a, 1);
  return Status::ok;
}

Status DeviceWindow::map_imported(int slot, size_t offset, int fd, size_t bytes) {
  CUmemGenericAllocationHandle h{};
  CUresult r = drv_->cuMemImportFromShareableHandle(&h, reinterpret_cast<void*>(static_cast<uintptr_t>(fd)),
                                                    CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
  close(fd);
  if (r != CUDA_SUCCESS) {
    GSHMEM_WARN(Subsys::mem, "cuMemImportFromShareableHandle failed: %s (is P2P access between these GPUs possible?)",
                cu::error_string(r));
    return Status::system_error;
  }
  return map_own(slot, offset, h, bytes);
}

Status DeviceWindow::unmap(int slot, size_t offset, size_t bytes) {
  bytes = (bytes + gran_ - 1) / gran_ * gran_;
  const CUdeviceptr va = slot_base(slot) + offset;
  for (size_t i = 0; i < maps_.size(); ++i) {
    if (maps_[i].va != va || maps_[i].bytes != bytes) continue;
    const Mapping m = maps_[i];
    maps_.erase(maps_.begin() + static_cast<std::ptrdiff_t>(i));
    GSHMEM_CU(*drv_, cuMemUnmap, m.va, m.bytes);
    GSHMEM_CU(*drv_, cuMemRelease, m.h);
    return Status::ok;
  }
  GSHMEM_WARN(Subsys::mem, "no mapping of %zu bytes at slot %d + %zu", bytes, slot, offset);
  return Status::invalid_argument;
}

void DeviceWindow::release() noexcept {
  if (!drv_) return;
  for (const Mapping& m : maps_) {
    drv_->cuMemUnmap(m.va, m.bytes);
    drv_->cuMemRelease(m.h);
  }
  maps_.clear();
  if (base_) drv_->cuMemAddressFree(base_, total_);
  base_ = 0;
  drv_ = nullptr;
}

}  // namespace gshmem::mem
#endif
