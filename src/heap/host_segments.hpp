// The host side of the symmetric heap, on every PE: one memfd segment holding the control block
// (and, for the host heap kind, the user heap behind it), the program's data segment (global and
// static variables, remapped onto a memfd so peers can map it), and every same-node peer's copies
// of both, mapped from the descriptors the heap exchanges.
#pragma once
#include <cstddef>
#include <vector>

#include "common/status.hpp"
#include "heap/control.hpp"
#include "mem/host_segment.hpp"

namespace gshmem::heap {

class HostSegments {
 public:
  // Creates this PE's segment: the control block + user_bytes of heap (0 for the device kind),
  // placed so that the user heap starts kHeapBaseAlign-aligned; data is the executable's data segment
  // as mem::share_data_segment remapped it (empty when globals are not symmetric).
  Status create(size_t user_bytes, mem::HostSegment&& data, int npes);
  // This PE's descriptors for same-node peers: the segment's, then the data segment's (if any).
  std::vector<int> offer_fds() const;
  // Maps pe's segments from the descriptors it offered (owned by the call); self: closes them.
  Status map(int pe, bool self, const std::vector<int>& fds);
  void release() noexcept;

  ControlBlock* control(int pe) const { return ctrl_[static_cast<size_t>(pe)]; }
  ControlBlock* my_control() const { return static_cast<ControlBlock*>(own_.base()); }
  char* user_base(int pe) const;  // pe's host user heap in this process (null: not mapped)
  char* my_user_base() const { return static_cast<char*>(own_.base()) + kControlBytes; }
  size_t data_size() const { return data_.size(); }
  char* my_data() const { return static_cast<char*>(data_.base()); }
  char* data(int pe) const { return data_of_[static_cast<size_t>(pe)]; }

 private:
  size_t user_bytes_ = 0;
  mem::HostSegment own_, data_;
  std::vector<mem::HostSegment> peer_segs_, peer_data_;
  std::vector<ControlBlock*> ctrl_;
  std::vector<char*> data_of_;
};

}  // namespace gshmem::heap
