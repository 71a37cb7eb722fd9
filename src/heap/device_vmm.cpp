// The VMM backend of the device heap (heap/device_segments.hpp).
#include "heap/device_segments.hpp"

#if GSHMEM_HAVE_CUDA
#include <unistd.h>

#include <algorithm>

#include "common/log.hpp"
#include "gshmem/device_host/state.h"
#include "mem/device_window.hpp"

namespace gshmem::heap {
namespace {

class VmmSegments final : public DeviceSegments {
 public:
  VmmSegments(const cu::Driver* drv, CUdevice dev, size_t reserve, size_t align)
      : drv_(drv), dev_(dev), reserve_(reserve), align_(align) {}
  ~VmmSegments() override { release(); }

  Status create(int npes, int my_pe, size_t* heap_bytes) override {
    const size_t stride = std::max(reserve_, GSHMEM_DEV_CTRL_BYTES + *heap_bytes);
    GSHMEM_CHECK(window_.reserve(drv_, dev_, npes, stride, align_));
    const size_t g = window_.granularity();
    *heap_bytes = (GSHMEM_DEV_CTRL_BYTES + *heap_bytes + g - 1) / g * g - GSHMEM_DEV_CTRL_BYTES;
    mapped_ = GSHMEM_DEV_CTRL_BYTES + *heap_bytes;
    base_.assign(static_cast<size_t>(npes), 0);
    my_pe_ = my_pe;
    return window_.create_chunk(mapped_, &own_, &fd_);
  }
  int offer_fd() const override { return fd_; }
  Status map(int pe, bool self, int fd) override {
    if (self) {
      if (fd >= 0) close(fd);
      GSHMEM_CHECK(window_.map_own(pe, 0, own_, mapped_));
      close(fd_);
      fd_ = -1;
    } else {
      GSHMEM_CHECK(window_.map_imported(pe, 0, fd, mapped_));
    }
    base_[static_cast<size_t>(pe)] = window_.slot_base(pe);
    return Status::ok;
  }
  Status finish(int, int my_pe) override {
    // New device memory is not guaranteed zeroed; flags and counters start at 0.
    GSHMEM_CU(*drv_, cuMemsetD8Async, base_[static_cast<size_t>(my_pe)], 0, GSHMEM_DEV_CTRL_BYTES, nullptr);
    GSHMEM_CU(*drv_, cuCtxSynchronize);
    return Status::ok;
  }

  bool growable() const override { return true; }
  Status grow_create(size_t* extra, int* fd) override {
    const size_t g = window_.granularity();
    *extra = (*extra + g - 1) / g * g;
    if (mapped_ + *extra > window_.stride()) return Status::out_of_memory;
    grow_bytes_ = *extra;
    GSHMEM_CHECK(window_.create_chunk(grow_bytes_, &grow_h_, fd));
    return Status::ok;
  }
  Status grow_map(int pe, bool self, int fd) override {
    if (self) {
      if (fd >= 0) close(fd);
      return window_.map_own(pe, mapped_, grow_h_, grow_bytes_);
    }
    return window_.map_imported(pe, mapped_, fd, grow_bytes_);
  }
  Status grow_adopt(void* ptr, size_t* extra, int* fd) override {
    const size_t g = window_.granularity();
    *extra = (*extra + g - 1) / g * g;
    if (mapped_ + *extra > window_.stride()) return Status::out_of_memory;
    CUresult r = drv_->cuMemRetainAllocationHandle(&grow_h_, ptr);
    if (r != CUDA_SUCCESS) {
      GSHMEM_WARN(Subsys::mem,
                  "%p is not cuMem VMM memory (cuMemRetainAllocationHandle: %s): allocate it with "
                  "shmemx_mem_alloc",
                  ptr, cu::error_string(r));
      return Status::invalid_argument;
    }
    CUdeviceptr start = 0;
    size_t len = 0;
    r = drv_->cuMemGetAddressRange(&start, &len, reinterpret_cast<CUdeviceptr>(ptr));
    if (r != CUDA_SUCCESS || start != reinterpret_cast<CUdeviceptr>(ptr) || len < *extra) {
      GSHMEM_WARN(Subsys::mem, "%p is not the start of a cuMem mapping of %zu bytes (its mapping: %#llx + %zu)", ptr,
                  *extra, (unsigned long long)start, len);
      drv_->cuMemRelease(grow_h_);
      return Status::invalid_argument;
    }
    r = drv_->cuMemExportToShareableHandle(fd, grow_h_, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0);
    if (r != CUDA_SUCCESS) {
      GSHMEM_WARN(Subsys::mem,
                  "the memory at %p cannot be exported as a POSIX fd (%s): allocate it with shmemx_mem_alloc", ptr,
                  cu::error_string(r));
      drv_->cuMemRelease(grow_h_);
      return Status::invalid_argument;
    }
    grow_bytes_ = *extra;
    return Status::ok;
  }
  Status unmap_range(int pe, size_t offset, size_t bytes) override { return window_.unmap(pe, offset, bytes); }
  void grow_cancel() override { window_.drop_chunk(grow_h_); }
  void grow_done() override { mapped_ += grow_bytes_; }

  uint64_t window_base() const override { return window_.base(); }
  uint64_t window_stride() const override { return window_.stride(); }
  // Any alignment up to the control block's size is the same on every PE (segments start on a
  // GSHMEM_DEVICE_HEAP_ALIGN boundary, the user heap GSHMEM_DEV_CTRL_BYTES after).
  size_t max_alignment() const override { return GSHMEM_DEV_CTRL_BYTES; }
  void release() noexcept override {
    if (fd_ >= 0) close(fd_);
    fd_ = -1;
    window_.release();
    base_.clear();
  }

 private:
  const cu::Driver* drv_;
  CUdevice dev_;
  size_t reserve_;
  size_t align_;
  mem::DeviceWindow window_;
  CUmemGenericAllocationHandle own_{}, grow_h_{};
  int fd_ = -1;
  int my_pe_ = 0;
  size_t mapped_ = 0;      // bytes mapped per PE slot (control block + heap)
  size_t grow_bytes_ = 0;  // the growth under way
};

}  // namespace

std::unique_ptr<DeviceSegments> DeviceSegments::make_vmm(const cu::Driver* drv, CUdevice dev, size_t reserve,
                                                         size_t align) {
  return std::make_unique<VmmSegments>(drv, dev, reserve, align);
}

}  // namespace gshmem::heap
#endif
