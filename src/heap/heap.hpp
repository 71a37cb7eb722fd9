// The symmetric heap on CPU PEs (host kind): one memfd segment per PE holding the control block
// and the user heap, plus the program's data segment; every same-node peer's segments are
// mapped. Remote address = peer base + (local address - local base).
#pragma once
#include <cstdint>
#include <vector>

#include "bootstrap/bootstrap.hpp"
#include "heap/allocator.hpp"
#include "heap/control.hpp"
#include "mem/host_segment.hpp"
#include "topo/topo.hpp"

namespace gshmem::heap {

struct Region {
  uintptr_t lo = 0;  // local base
  size_t size = 0;
  std::vector<char*> peer;  // per PE; nullptr when not mapped (other node)
};

class SymmetricHeap {
 public:
  Status init(boot::Bootstrap& b, const topo::Topology& t, size_t heap_bytes, bool share_data,
              const uint8_t job_secret[16]);
  void finalize();

  char* base() const noexcept { return reinterpret_cast<char*>(heap_.lo); }
  size_t size() const noexcept { return heap_.size; }
  const Region& heap_region() const noexcept { return heap_; }
  const Region& data_region() const noexcept { return data_; }
  ControlBlock* control(int pe) const noexcept { return ctrl_[static_cast<size_t>(pe)]; }
  ControlBlock* my_control() const noexcept { return my_ctrl_; }
  Allocator& allocator() noexcept { return alloc_; }

 private:
  mem::HostSegment own_, own_data_;
  std::vector<mem::HostSegment> peer_segs_, peer_data_;
  Region heap_, data_;
  std::vector<ControlBlock*> ctrl_;
  ControlBlock* my_ctrl_ = nullptr;
  Allocator alloc_;
};

}  // namespace gshmem::heap
