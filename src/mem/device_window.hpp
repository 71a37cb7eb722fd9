// GPU memory for the device heap: cuMem VMM physical chunks exported as POSIX file descriptors,
// and one reserved virtual window holding every same-node PE's segment at a fixed stride. A
// segment grows by mapping further chunks after its end, so addresses never move.
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "common/status.hpp"
#include "mem/cuda_driver.hpp"

namespace gshmem::mem {

#if GSHMEM_HAVE_CUDA
class DeviceWindow {
 public:
  DeviceWindow() = default;
  DeviceWindow(const DeviceWindow&) = delete;
  DeviceWindow& operator=(const DeviceWindow&) = delete;
  ~DeviceWindow() { release(); }

  // Reserves nslots slots of device virtual address space for device dev: each slot at least
  // stride bytes, every slot base aligned to align (a power of two; at least the granularity).
  Status reserve(const cu::Driver* drv, CUdevice dev, int nslots, size_t stride, size_t align);
  size_t granularity() const noexcept { return gran_; }
  // Creates a physical chunk on this PE's GPU (bytes rounded up to the granularity) and exports
  // it; *fd is owned by the caller.
  Status create_chunk(size_t bytes, CUmemGenericAllocationHandle* h, int* fd);
  // Maps a chunk (own handle, or imported from fd, which is then closed) at slot + offset and
  // gives this GPU read/write access.
  Status map_own(int slot, size_t offset, CUmemGenericAllocationHandle h, size_t bytes);
  Status map_imported(int slot, size_t offset, int fd, size_t bytes);
  void drop_chunk(CUmemGenericAllocationHandle h) noexcept { drv_->cuMemRelease(h); }
  // Unmaps what map_own/map_imported mapped at slot + offset (bytes must match) and releases it.
  Status unmap(int slot, size_t offset, size_t bytes);
  void release() noexcept;

  CUdeviceptr slot_base(int slot) const noexcept { return base_ + static_cast<CUdeviceptr>(slot) * stride_; }
  CUdeviceptr base() const noexcept { return base_; }
  size_t stride() const noexcept { return stride_; }

 private:
  struct Mapping {
    CUdeviceptr va;
    size_t bytes;
    CUmemGenericAllocationHandle h;
  };
  const cu::Driver* drv_ = nullptr;
  CUdevice dev_ = 0;
  CUdeviceptr base_ = 0;
  size_t stride_ = 0;
  size_t total_ = 0;
  size_t gran_ = 0;
  std::vector<Mapping> maps_;
};
#endif

}  // namespace gshmem::mem
