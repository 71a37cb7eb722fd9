#include "heap/host_segments.hpp"

#include <unistd.h>

#include <new>

#include "common/log.hpp"

namespace gshmem::heap {

Status HostSegments::create(size_t user_bytes, mem::HostSegment&& data, int npes) {
  user_bytes_ = user_bytes;
  GSHMEM_CHECK(own_.create("gshmem-heap", kControlBytes + user_bytes, kHeapBaseAlign, kControlBytes));
  data_ = static_cast<mem::HostSegment&&>(data);
  ControlBlock* c = new (own_.base()) ControlBlock{};
  c->magic = kControlMagic;
  c->version = kControlVersion;
  const size_t n = static_cast<size_t>(npes);
  peer_segs_.resize(n);
  peer_data_.resize(n);
  ctrl_.assign(n, nullptr);
  data_of_.assign(n, nullptr);
  return Status::ok;
}

std::vector<int> HostSegments::offer_fds() const {
  std::vector<int> fds{own_.fd()};
  if (data_.size()) fds.push_back(data_.fd());
  return fds;
}

Status HostSegments::map(int pe, bool self, const std::vector<int>& fds) {
  const size_t i = static_cast<size_t>(pe);
  if (self) {
    for (int fd : fds) close(fd);
    ctrl_[i] = my_control();
    data_of_[i] = my_data();
    return Status::ok;
  }
  GSHMEM_CHECK(peer_segs_[i].map_peer(fds[0], kControlBytes + user_bytes_));
  ctrl_[i] = static_cast<ControlBlock*>(peer_segs_[i].base());
  if (data_.size()) {
    GSHMEM_CHECK(peer_data_[i].map_peer(fds[1], data_.size()));
    data_of_[i] = static_cast<char*>(peer_data_[i].base());
  }
  return Status::ok;
}

char* HostSegments::user_base(int pe) const {
  ControlBlock* c = ctrl_[static_cast<size_t>(pe)];
  return c && user_bytes_ ? reinterpret_cast<char*>(c) + kControlBytes : nullptr;
}

void HostSegments::release() noexcept {
  peer_segs_.clear();
  peer_data_.clear();
  own_.reset();
  data_.reset();  // keeps the mapping: the program's globals live there
  ctrl_.clear();
  data_of_.clear();
}

}  // namespace gshmem::heap
