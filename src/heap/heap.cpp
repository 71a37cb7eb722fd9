#include "heap/heap.hpp"

#include <unistd.h>

#include <cstring>
#include <new>

#include "common/log.hpp"
#include "transport/fd_passing.hpp"

namespace gshmem::heap {

namespace {
struct SegInfo {
  uint64_t heap_bytes;
  uint64_t data_bytes;
};
}  // namespace

Status SymmetricHeap::init(boot::Bootstrap& b, const topo::Topology& t, size_t heap_bytes, bool share_data,
                           const uint8_t secret[16]) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  heap_bytes = (heap_bytes + page - 1) / page * page;
  Status st = own_.create("gshmem-heap", kControlBytes + heap_bytes, kHeapBaseAlign, kControlBytes);
  if (st == Status::ok && share_data) {
    Status ds = mem::share_data_segment(&own_data_);
    if (ds != Status::ok) GSHMEM_WARN(Subsys::heap, "global/static variables are not symmetric on this PE");
  }
  // Sizes must agree on every PE: the same offset must exist everywhere.
  std::vector<SegInfo> info(static_cast<size_t>(t.npes));
  info[static_cast<size_t>(t.my_pe)] = {st == Status::ok ? heap_bytes : 0, own_data_.size()};
  GSHMEM_CHECK(b.allgather(info.data(), sizeof(SegInfo)));
  for (int pe = 0; pe < t.npes; ++pe) {
    if (info[pe].heap_bytes == 0) {
      GSHMEM_WARN(Subsys::heap, "pe %d could not create its symmetric heap of %zu bytes", pe, heap_bytes);
      return Status::out_of_memory;
    }
    if (info[pe].heap_bytes != heap_bytes || info[pe].data_bytes != own_data_.size()) {
      GSHMEM_WARN(Subsys::heap,
                  "symmetric sizes differ: pe %d has heap %llu, data %llu; pe %d has heap %zu, data %zu "
                  "(same SHMEM_SYMMETRIC_SIZE and the same executable on every PE?)",
                  pe, (unsigned long long)info[pe].heap_bytes, (unsigned long long)info[pe].data_bytes, t.my_pe,
                  heap_bytes, own_data_.size());
      return Status::invalid_argument;
    }
  }
  my_ctrl_ = new (own_.base()) ControlBlock{};
  my_ctrl_->magic = kControlMagic;
  my_ctrl_->version = kControlVersion;

  std::vector<int> offer{own_.fd()};
  if (own_data_.size()) offer.push_back(own_data_.fd());
  std::vector<std::vector<int>> got;
  GSHMEM_CHECK(transport::exchange_fds(b, t.local_pes, secret, offer, &got));

  const size_t n = static_cast<size_t>(t.npes);
  peer_segs_.resize(n);
  peer_data_.resize(n);
  heap_.lo = reinterpret_cast<uintptr_t>(own_.base()) + kControlBytes;
  heap_.size = heap_bytes;
  heap_.peer.assign(n, nullptr);
  data_.lo = reinterpret_cast<uintptr_t>(own_data_.base());
  data_.size = own_data_.size();
  data_.peer.assign(n, nullptr);
  ctrl_.assign(n, nullptr);
  for (size_t i = 0; i < t.local_pes.size(); ++i) {
    const int pe = t.local_pes[i];
    if (pe == t.my_pe) {
      for (int fd : got[i]) close(fd);
      heap_.peer[pe] = reinterpret_cast<char*>(heap_.lo);
      data_.peer[pe] = reinterpret_cast<char*>(data_.lo);
      ctrl_[pe] = my_ctrl_;
      continue;
    }
    GSHMEM_CHECK(peer_segs_[pe].map_peer(got[i][0], kControlBytes + heap_bytes));
    heap_.peer[pe] = static_cast<char*>(peer_segs_[pe].base()) + kControlBytes;
    ctrl_[pe] = static_cast<ControlBlock*>(peer_segs_[pe].base());
    if (data_.size) {
      GSHMEM_CHECK(peer_data_[pe].map_peer(got[i][1], data_.size));
      data_.peer[pe] = static_cast<char*>(peer_data_[pe].base());
    }
  }
  alloc_.reset(heap_bytes);
  GSHMEM_DEBUG(Subsys::heap, "host heap %p + %zu, data %p + %zu, %d local peers mapped", base(), heap_bytes,
               reinterpret_cast<void*>(data_.lo), data_.size, t.local_size);
  return Status::ok;
}

void SymmetricHeap::finalize() {
  peer_segs_.clear();
  peer_data_.clear();
  own_.reset();
  own_data_.reset();  // keeps the mapping: the program's globals live there
  heap_ = Region{};
  data_ = Region{};
  ctrl_.clear();
  my_ctrl_ = nullptr;
}

}  // namespace gshmem::heap
