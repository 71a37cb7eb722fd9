// The GPU side of the device heap kind: this PE's segment ([device control block][user heap]) and
// every same-node peer's, mapped in this process. Two backends:
// * VmmSegments (device_vmm.cpp): cuMem VMM chunks exported as POSIX file descriptors (passed with
//   the host segments' descriptors) and mapped, with every peer, into one reserved virtual window
//   at a fixed stride, so a peer address is arithmetic; the heap grows by mapping more chunks.
// * IpcSegments (device_ipc.cpp): cudaMalloc memory shared with CUDA IPC handles (exchanged
//   through the bootstrap): segments land anywhere, so kernels find them through a peer table in
//   GPU memory; fixed size.
#pragma once
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#include "bootstrap/bootstrap.hpp"
#include "common/status.hpp"
#include "mem/cuda_driver.hpp"

namespace gshmem::heap {

#if GSHMEM_HAVE_CUDA
class DeviceSegments {
 public:
  virtual ~DeviceSegments() = default;
  // Creates this PE's segment of GSHMEM_DEV_CTRL_BYTES + *heap_bytes (which the backend may round
  // up, the same way on every PE). npes: PEs in the job (window slots).
  virtual Status create(int npes, int my_pe, size_t* heap_bytes) = 0;
  // A descriptor to pass to same-node PEs with the host segments' (-1: the backend passes none).
  virtual int offer_fd() const { return -1; }
  // Collective, after create: whatever else the PEs must exchange (IPC handles).
  virtual Status exchange(boot::Bootstrap& b, int my_pe) {
    (void)b;
    (void)my_pe;
    return Status::ok;
  }
  // Maps pe's segment (fd: what pe offered, owned by the call; -1 for none).
  virtual Status map(int pe, bool self, int fd) = 0;
  // After every local PE is mapped: zeroes this PE's control block; IPC: the peer table.
  virtual Status finish(int npes, int my_pe) = 0;
  // Collective over the node's PEs through exchange (VMM): adds extra bytes (rounded up) to every
  // segment; *extra gets the amount added.
  virtual bool growable() const { return false; }
  virtual Status grow_create(size_t* extra, int* fd) {
    (void)extra;
    (void)fd;
    return Status::not_available;
  }
  virtual Status grow_map(int pe, bool self, int fd) {
    (void)pe;
    (void)self;
    (void)fd;
    return Status::not_available;
  }
  virtual void grow_cancel() {}
  virtual void grow_done() {}
  // Like grow_create, with this PE's own cuMem allocation starting at ptr (the caller's memory,
  // exportable as a POSIX fd) instead of a new chunk: *extra is rounded up the same way.
  virtual Status grow_adopt(void* ptr, size_t* extra, int* fd) {
    (void)ptr;
    (void)extra;
    (void)fd;
    return Status::not_available;
  }
  // Unmaps [offset, offset + bytes) of pe's segment (a range grow_adopt added).
  virtual Status unmap_range(int pe, size_t offset, size_t bytes) {
    (void)pe;
    (void)offset;
    (void)bytes;
    return Status::not_available;
  }

  uint64_t base(int pe) const { return static_cast<size_t>(pe) < base_.size() ? base_[static_cast<size_t>(pe)] : 0; }
  virtual uint64_t window_base() const { return 0; }
  virtual uint64_t window_stride() const { return 0; }
  virtual uint64_t peer_table() const { return 0; }
  virtual size_t max_alignment() const = 0;
  virtual void release() noexcept = 0;

  static std::unique_ptr<DeviceSegments> make_vmm(const cu::Driver* drv, CUdevice dev, size_t reserve, size_t align);
  static std::unique_ptr<DeviceSegments> make_ipc(const cu::Driver* drv);

 protected:
  std::vector<uint64_t> base_;  // per PE: segment base in this process (0: not mapped)
};
#endif

}  // namespace gshmem::heap
