// The symmetric heap: every PE's user heap (host memory, or GPU memory for the device kind), its
// control block and the program's data segment, with every same-node peer's copies mapped in this
// process. Remote address = peer base + (local address - local base). The backends: host segments
// (host_segments.hpp) on every PE, GPU segments (device_segments.hpp: VMM or IPC) for the device
// kind.
#pragma once
#include <cstdint>
#include <memory>
#include <vector>

#include "bootstrap/bootstrap.hpp"
#include "heap/allocator.hpp"
#include "heap/control.hpp"
#include "heap/device_segments.hpp"
#include "heap/host_segments.hpp"

namespace gshmem::heap {

struct Region {
  uintptr_t lo = 0;  // local base
  size_t size = 0;
  bool device = false;      // GPU memory: host code must copy through the driver
  std::vector<char*> peer;  // per PE; nullptr when not mapped (other node)
};

// Where a symmetric range is on a PE: its mapping in this process, or (for a PE that is not
// mapped) the transport segment and offset that address it.
struct Target {
  enum class Error : uint8_t { none, not_symmetric, past_end };
  Error error = Error::none;
  char* p = nullptr;    // pe's copy in this process (null: not mapped)
  bool device = false;  // GPU memory
  uint8_t seg = 0;      // GSHMEM_TRIG_SEG_* (transport::Seg)
  uint64_t off = 0;
};

// Where the user heap lives: host shared memory, or the GPU this PE is bound to.
struct DeviceHeapSpec {
#if GSHMEM_HAVE_CUDA
  const cu::Driver* drv = nullptr;
  CUdevice dev = 0;
#endif
  size_t reserve = 0;  // virtual bytes per PE (the most the heap can grow to)
  size_t align = 0;    // alignment of each PE's segment in the window (a power of two)
  bool ipc = false;    // cudaMalloc + CUDA IPC instead of cuMem VMM (fixed size, no growth)
};

class SymmetricHeap {
 public:
  // Collective. local_pes: the PEs this PE maps (itself included); device == nullptr: host kind;
  // data: the executable's remapped data segment (mem::share_data_segment, done by the caller
  // before any thread starts), empty when global variables are not symmetric.
  Status init(boot::Bootstrap& b, const std::vector<int>& local_pes, size_t heap_bytes, mem::HostSegment&& data,
              const uint8_t job_secret[16], const DeviceHeapSpec* device);
  // Collective: adds at least extra bytes to every PE's device heap (same size everywhere).
  Status grow(boot::Bootstrap& b, size_t extra);
  // Collective: maps this PE's cuMem allocation [ptr, ptr + bytes) (the same size on every PE;
  // rounded up to the granularity in *mapped) after the end of every PE's device heap, where it is
  // symmetric at heap offset *off; the allocator never hands it out. invalid_argument when ptr is
  // not the start of exportable cuMem memory; peer_failed when another PE's failed.
  Status adopt(boot::Bootstrap& b, void* ptr, size_t bytes, size_t* off, size_t* mapped);
  // Unmaps [off, off + bytes) (a range adopt added) from every same-node PE's segment in this
  // process; the range stays out of the allocator.
  Status unmap_range(size_t off, size_t bytes);
  void finalize();

  // [addr, addr + bytes) of this PE's symmetric memory (heap or data segment) on pe.
  Target translate(const void* addr, size_t bytes, int pe) const;
  bool is_device() const noexcept { return heap_.device; }
  int my_pe() const noexcept { return my_pe_; }
  bool is_mapped(int pe) const noexcept { return control(pe) != nullptr; }
  // The largest alignment for which an aligned offset is an aligned address on every PE.
  size_t max_alignment() const noexcept;
  // Device kind: window geometry for the device state (0 in IPC mode), each PE's segment base
  // (control block first; 0 when not mapped), the device copy of those bases in IPC mode (else 0).
  uint64_t window_base() const noexcept;
  uint64_t window_stride() const noexcept;
  uint64_t device_segment(int pe) const noexcept;
  uint64_t peer_table() const noexcept;
  bool growable() const noexcept;

  char* base() const noexcept { return reinterpret_cast<char*>(heap_.lo); }
  size_t size() const noexcept { return heap_.size; }
  const Region& heap_region() const noexcept { return heap_; }
  const Region& data_region() const noexcept { return data_; }
  ControlBlock* control(int pe) const noexcept { return host_.control(pe); }
  ControlBlock* my_control() const noexcept { return host_.my_control(); }
  Allocator& allocator() noexcept { return alloc_; }

 private:
  Status exchange_and_map(boot::Bootstrap& b, const std::vector<int>& local_pes);
  Status extend(boot::Bootstrap& b, size_t extra, void* user, size_t* added);
  HostSegments host_;
#if GSHMEM_HAVE_CUDA
  std::unique_ptr<DeviceSegments> dev_;
#endif
  const uint8_t* secret_ = nullptr;
  int my_pe_ = 0;
  std::vector<int> local_pes_;
  Region heap_, data_;
  Allocator alloc_;
};

}  // namespace gshmem::heap
