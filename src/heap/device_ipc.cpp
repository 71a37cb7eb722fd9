// The CUDA IPC backend of the device heap (heap/device_segments.hpp): for GPUs without VMM and
// POSIX file-descriptor handles, or GSHMEM_DEVICE_ALLOC=ipc.
#include "heap/device_segments.hpp"

#if GSHMEM_HAVE_CUDA
#include "common/log.hpp"
#include "gshmem/device_host/state.h"

namespace gshmem::heap {
namespace {

struct IpcInfo {
  CUipcMemHandle handle;
};

class IpcSegments final : public DeviceSegments {
 public:
  explicit IpcSegments(const cu::Driver* drv) : drv_(drv) {}
  ~IpcSegments() override { release(); }

  Status create(int npes, int my_pe, size_t* heap_bytes) override {
    base_.assign(static_cast<size_t>(npes), 0);
    const CUresult r = drv_->cuMemAlloc(&own_, GSHMEM_DEV_CTRL_BYTES + *heap_bytes);
    if (r != CUDA_SUCCESS) {
      size_t free_b = 0, total_b = 0;
      drv_->cuMemGetInfo(&free_b, &total_b);
      GSHMEM_WARN(Subsys::heap, "cuMemAlloc(%zu bytes) for the device heap failed: %s (GPU free %zu of %zu bytes)",
                  GSHMEM_DEV_CTRL_BYTES + *heap_bytes, cu::error_string(r), free_b, total_b);
      return Status::out_of_memory;
    }
    (void)my_pe;
    return Status::ok;
  }
  Status exchange(boot::Bootstrap& b, int my_pe) override {
    handles_.resize(base_.size());
    GSHMEM_CU(*drv_, cuIpcGetMemHandle, &handles_[static_cast<size_t>(my_pe)].handle, own_);
    return b.allgather(handles_.data(), sizeof(IpcInfo));
  }
  Status map(int pe, bool self, int fd) override {
    (void)fd;
    CUdeviceptr seg = own_;
    if (!self)
      GSHMEM_CU(*drv_, cuIpcOpenMemHandle, &seg, handles_[static_cast<size_t>(pe)].handle,
                CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS);
    base_[static_cast<size_t>(pe)] = seg;
    return Status::ok;
  }
  Status finish(int npes, int my_pe) override {
    // Segments are wherever cudaMalloc put them: kernels find them through a table.
    const size_t n = static_cast<size_t>(npes);
    GSHMEM_CU(*drv_, cuMemAlloc, &table_, n * sizeof(uint64_t));
    GSHMEM_CU(*drv_, cuMemcpyAsync, table_, reinterpret_cast<CUdeviceptr>(base_.data()), n * sizeof(uint64_t), nullptr);
    GSHMEM_CU(*drv_, cuMemsetD8Async, base_[static_cast<size_t>(my_pe)], 0, GSHMEM_DEV_CTRL_BYTES, nullptr);
    GSHMEM_CU(*drv_, cuCtxSynchronize);
    return Status::ok;
  }
  uint64_t peer_table() const override { return table_; }
  size_t max_alignment() const override { return 256; }  // what cudaMalloc guarantees
  void release() noexcept override {
    for (uint64_t seg : base_)
      if (seg && seg != own_) drv_->cuIpcCloseMemHandle(seg);
    if (own_) drv_->cuMemFree(own_);
    if (table_) drv_->cuMemFree(table_);
    own_ = table_ = 0;
    base_.clear();
  }

 private:
  const cu::Driver* drv_;
  CUdeviceptr own_ = 0, table_ = 0;
  std::vector<IpcInfo> handles_;
};

}  // namespace

std::unique_ptr<DeviceSegments> DeviceSegments::make_ipc(const cu::Driver* drv) {
  return std::make_unique<IpcSegments>(drv);
}

}  // namespace gshmem::heap
#endif
