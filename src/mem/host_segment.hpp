// Host shared-memory segments: memfd-backed (anonymous, 0600, never visible in /dev/shm, gone
// when the last PE that maps it exits, kill -9 included).
#pragma once
#include <cstddef>

#include "common/status.hpp"

namespace gshmem::mem {

class HostSegment {
 public:
  HostSegment() = default;
  HostSegment(const HostSegment&) = delete;
  HostSegment& operator=(const HostSegment&) = delete;
  HostSegment(HostSegment&& o) noexcept { *this = static_cast<HostSegment&&>(o); }
  HostSegment& operator=(HostSegment&& o) noexcept;
  ~HostSegment() { reset(); }

  // Creates a zero-filled segment of bytes (sparse: pages are committed on first touch), mapped
  // so that base() + align_offset is a multiple of align (a power of two, >= the page size).
  Status create(const char* name, size_t bytes, size_t align = 0, size_t align_offset = 0);
  // Maps a segment received from a peer (takes ownership of fd).
  Status map_peer(int fd, size_t bytes);
  // Adopts an existing mapping backed by fd (used by the data-segment remap; never unmapped).
  void adopt(void* base, size_t bytes, int fd, bool unmap_on_reset);
  void reset() noexcept;

  void* base() const noexcept { return base_; }
  size_t size() const noexcept { return size_; }
  int fd() const noexcept { return fd_; }

 private:
  // Maps fd (taking ownership; closed on failure) at fixed_at, or anywhere when null.
  Status map_fd(int fd, size_t bytes, void* fixed_at, const char* what);
  void* base_ = nullptr;
  size_t size_ = 0;
  int fd_ = -1;
  bool unmap_ = true;
};

// Remaps the executable's writable data (.data, .bss, minus RELRO) onto a memfd so that peers can
// map it: global and static variables become symmetric data objects. Contents are preserved.
// The mapping stays for the life of the process. Other threads wait in a signal handler while the
// segment is copied and swapped (mem/pause_threads.hpp); one that blocks the signal must not write
// the segment meanwhile.
Status share_data_segment(HostSegment* out);

}  // namespace gshmem::mem
