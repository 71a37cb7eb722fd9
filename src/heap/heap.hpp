// The symmetric heap on CPU PEs (host kind): one memfd segment per PE holding the control block
// and the user heap, plus the program's data segment; every same-node peer's segments are
// mapped. Remote address = peer base + (local address - local base).
#pragma once
#include <cstdint>
#include <vector>

#include "bootstrap/bootstrap.hpp"
#include "heap/allocator.hpp"
#include "heap/control.hpp"
#include "mem/device_window.hpp"
#include "mem/host_segment.hpp"
#include "topo/topo.hpp"

namespace gshmem::heap {

struct Region {
  uintptr_t lo = 0;  // local base
  size_t size = 0;
  bool device = false;  // GPU memory: host code must copy through the driver
  std::vector<char*> peer;  // per PE; nullptr when not mapped (other node)
};

// Where the user heap lives: host shared memory, or the GPU this PE is bound to.
struct DeviceHeapSpec {
#if GSHMEM_HAVE_CUDA
  const cu::Driver* drv = nullptr;
  CUdevice dev = 0;
#endif
  size_t reserve = 0;  // virtual bytes per PE (the most the heap can grow to)
  bool ipc = false;    // cudaMalloc + CUDA IPC instead of cuMem VMM (fixed size, no growth)
};

class SymmetricHeap {
 public:
  // device == nullptr: host heap kind.
  Status init(boot::Bootstrap& b, const topo::Topology& t, size_t heap_bytes, bool share_data,
              const uint8_t job_secret[16], const DeviceHeapSpec* device);
  // Collective: adds at least extra bytes to every PE's device heap (same size everywhere).
  Status grow(boot::Bootstrap& b, const topo::Topology& t, size_t extra);
  void finalize();
  bool is_device() const noexcept { return heap_.device; }
  // The largest alignment for which an aligned offset is an aligned address on every PE.
  size_t max_alignment() const noexcept;
  // Device kind: window geometry for the device state (0 in IPC mode), each PE's segment base
  // (control block first), and the device copy of those bases in IPC mode (else 0).
  uint64_t window_base() const noexcept;
  uint64_t window_stride() const noexcept;
  uint64_t device_segment(int pe) const noexcept { return dev_seg_[static_cast<size_t>(pe)]; }
  uint64_t peer_table() const noexcept { return peer_table_; }
  bool growable() const noexcept { return heap_.device && !ipc_; }

  char* base() const noexcept { return reinterpret_cast<char*>(heap_.lo); }
  size_t size() const noexcept { return heap_.size; }
  const Region& heap_region() const noexcept { return heap_; }
  const Region& data_region() const noexcept { return data_; }
  ControlBlock* control(int pe) const noexcept { return ctrl_[static_cast<size_t>(pe)]; }
  ControlBlock* my_control() const noexcept { return my_ctrl_; }
  Allocator& allocator() noexcept { return alloc_; }

 private:
  mem::HostSegment own_, own_data_;
#if GSHMEM_HAVE_CUDA
  mem::DeviceWindow window_;
#endif
  const uint8_t* secret_ = nullptr;
  std::vector<uint64_t> dev_seg_;  // per PE: device segment base (0 when not mapped)
  unsigned long long peer_table_ = 0;  // CUdeviceptr
  bool ipc_ = false;
  unsigned long long ipc_own_ = 0;     // CUdeviceptr
#if GSHMEM_HAVE_CUDA
  const cu::Driver* drv_ = nullptr;
#endif
  size_t dev_mapped_ = 0;  // bytes mapped per PE slot (control + heap)
  std::vector<mem::HostSegment> peer_segs_, peer_data_;
  Region heap_, data_;
  std::vector<ControlBlock*> ctrl_;
  ControlBlock* my_ctrl_ = nullptr;
  Allocator alloc_;
};

}  // namespace gshmem::heap
