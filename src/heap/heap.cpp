#include "heap/heap.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstring>

#include "common/log.hpp"
#include "gshmem/device_host/state.h"
#include "gshmem/device_host/trigger.h"
#include "mem/fd_passing.hpp"

namespace gshmem::heap {

namespace {
struct SegInfo {
  uint64_t heap_bytes;
  uint64_t data_bytes;
  uint64_t kind;  // 0 host heap, 1 device heap (VMM), 2 device heap (CUDA IPC)
};
const char* kind_name(uint64_t k) { return k == 0 ? "host" : k == 1 ? "device (vmm)" : "device (ipc)"; }
}  // namespace

Status SymmetricHeap::init(boot::Bootstrap& b, const std::vector<int>& local_pes, size_t heap_bytes,
                           mem::HostSegment&& data, const uint8_t secret[16], const DeviceHeapSpec* device) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  heap_bytes = (heap_bytes + page - 1) / page * page;
  secret_ = secret;
  my_pe_ = b.rank();
  local_pes_ = local_pes;
  const int npes = b.size();
  // The host segment always holds the control block; it holds the user heap only for the host kind.
  Status st = host_.create(device ? 0 : heap_bytes, static_cast<mem::HostSegment&&>(data), npes);
#if GSHMEM_HAVE_CUDA
  if (st == Status::ok && device) {
    dev_ = device->ipc ? DeviceSegments::make_ipc(device->drv)
                       : DeviceSegments::make_vmm(device->drv, device->dev, device->reserve, device->align);
    st = dev_->create(npes, my_pe_, &heap_bytes);
  }
#else
  if (device) st = Status::not_available;
#endif
  // Sizes and kinds must agree on every PE: the same offset must exist everywhere.
  std::vector<SegInfo> info(static_cast<size_t>(npes));
  const uint64_t kind = device ? (device->ipc ? 2u : 1u) : 0u;
  info[static_cast<size_t>(my_pe_)] = {st == Status::ok ? heap_bytes : 0, host_.data_size(), kind};
  GSHMEM_CHECK(b.allgather(info.data(), sizeof(SegInfo)));
  for (int pe = 0; pe < npes; ++pe) {
    const SegInfo& x = info[static_cast<size_t>(pe)];
    if (x.heap_bytes == 0) {
      GSHMEM_WARN(Subsys::heap, "pe %d could not create its symmetric heap of %zu bytes", pe, heap_bytes);
      return Status::out_of_memory;
    }
    if (x.kind != kind) {
      GSHMEM_WARN(Subsys::heap,
                  "heap kinds differ: pe %d has a %s heap, pe %d a %s heap (GSHMEM_HEAP_KIND, GSHMEM_DEVICE_ALLOC)", pe,
                  kind_name(x.kind), my_pe_, kind_name(kind));
      return Status::invalid_argument;
    }
    if ((x.data_bytes == 0) != (host_.data_size() == 0)) {
      const int without = x.data_bytes == 0 ? pe : my_pe_;
      GSHMEM_WARN(Subsys::heap,
                  "pe %d has no symmetric global variables (its data-segment remap failed: see its warning) and "
                  "the other PEs have; GSHMEM_SYMMETRIC_DATA=0 on every PE turns them off everywhere",
                  without);
      return Status::invalid_argument;
    }
    if (x.heap_bytes != heap_bytes || x.data_bytes != host_.data_size()) {
      GSHMEM_WARN(Subsys::heap,
                  "symmetric sizes differ: pe %d has heap %llu, data %llu; pe %d has heap %zu, data %zu "
                  "(same SHMEM_SYMMETRIC_SIZE and the same executable on every PE?)",
                  pe, (unsigned long long)x.heap_bytes, (unsigned long long)x.data_bytes, my_pe_, heap_bytes,
                  host_.data_size());
      return Status::invalid_argument;
    }
  }
  GSHMEM_CHECK(exchange_and_map(b, local_pes));

  const size_t n = static_cast<size_t>(npes);
  heap_.size = heap_bytes;
  heap_.device = device != nullptr;
  heap_.peer.assign(n, nullptr);
  data_.lo = reinterpret_cast<uintptr_t>(host_.my_data());
  data_.size = host_.data_size();
  data_.peer.assign(n, nullptr);
  for (int pe : local_pes) {
    data_.peer[static_cast<size_t>(pe)] = host_.data(pe);
#if GSHMEM_HAVE_CUDA
    if (device) {
      heap_.peer[static_cast<size_t>(pe)] = reinterpret_cast<char*>(dev_->base(pe) + GSHMEM_DEV_CTRL_BYTES);
      continue;
    }
#endif
    heap_.peer[static_cast<size_t>(pe)] = host_.user_base(pe);
  }
  heap_.lo = reinterpret_cast<uintptr_t>(heap_.peer[static_cast<size_t>(my_pe_)]);
  alloc_.reset(heap_bytes);
  GSHMEM_DEBUG(Subsys::heap, "%s heap %p + %zu, data %p + %zu, %zu local peers mapped", kind_name(kind), base(),
               heap_bytes, reinterpret_cast<void*>(data_.lo), data_.size, local_pes.size());
  return Status::ok;
}

// Same-node PEs pass each other their segments' descriptors (mem/fd_passing) and map them; the
// IPC backend exchanges its handles through the bootstrap first.
Status SymmetricHeap::exchange_and_map(boot::Bootstrap& b, const std::vector<int>& local_pes) {
  std::vector<int> offer = host_.offer_fds();
  const size_t host_fds = offer.size();
#if GSHMEM_HAVE_CUDA
  if (dev_) {
    if (dev_->offer_fd() >= 0) offer.push_back(dev_->offer_fd());
    GSHMEM_CHECK(dev_->exchange(b, my_pe_));
  }
#endif
  std::vector<std::vector<int>> got;
  GSHMEM_CHECK(mem::exchange_fds(b, local_pes, secret_, offer, &got));
  for (size_t i = 0; i < local_pes.size(); ++i) {
    const int pe = local_pes[i];
    const bool self = pe == my_pe_;
    std::vector<int>& fds = got[i];
    const int dev_fd = fds.size() > host_fds ? fds.back() : -1;
    if (fds.size() > host_fds) fds.pop_back();
    GSHMEM_CHECK(host_.map(pe, self, fds));
#if GSHMEM_HAVE_CUDA
    if (dev_) GSHMEM_CHECK(dev_->map(pe, self, dev_fd));
#else
    if (dev_fd >= 0) close(dev_fd);
#endif
  }
#if GSHMEM_HAVE_CUDA
  if (dev_) GSHMEM_CHECK(dev_->finish(b.size(), my_pe_));
#endif
  return Status::ok;
}

Target SymmetricHeap::translate(const void* addr, size_t bytes, int pe) const {
  Target t;
  const uintptr_t a = reinterpret_cast<uintptr_t>(addr);
  const Region* reg = &heap_;
  if (a - reg->lo >= reg->size) {
    reg = &data_;
    if (a - reg->lo >= reg->size) {
      t.error = Target::Error::not_symmetric;
      return t;
    }
  }
  const uintptr_t off = a - reg->lo;
  if (bytes > reg->size - off) {
    t.error = Target::Error::past_end;
    return t;
  }
  const bool heap = reg == &heap_;
  t.device = heap && reg->device;
  if (char* base = reg->peer[static_cast<size_t>(pe)]) {
    t.p = base + off;
    return t;
  }
  if (t.device) {  // the device segment: device control block, then the heap
    t.seg = GSHMEM_TRIG_SEG_DEVICE;
    t.off = GSHMEM_DEV_CTRL_BYTES + off;
  } else if (heap) {
    t.seg = GSHMEM_TRIG_SEG_HOST;
    t.off = kControlBytes + off;
  } else {
    t.seg = GSHMEM_TRIG_SEG_DATA;
    t.off = off;
  }
  return t;
}

size_t SymmetricHeap::max_alignment() const noexcept {
#if GSHMEM_HAVE_CUDA
  if (dev_) return dev_->max_alignment();
#endif
  return kHeapBaseAlign;
}

uint64_t SymmetricHeap::window_base() const noexcept {
#if GSHMEM_HAVE_CUDA
  if (dev_) return dev_->window_base();
#endif
  return 0;
}

uint64_t SymmetricHeap::window_stride() const noexcept {
#if GSHMEM_HAVE_CUDA
  if (dev_) return dev_->window_stride();
#endif
  return 0;
}

uint64_t SymmetricHeap::device_segment(int pe) const noexcept {
#if GSHMEM_HAVE_CUDA
  if (dev_) return dev_->base(pe);
#endif
  (void)pe;
  return 0;
}

uint64_t SymmetricHeap::peer_table() const noexcept {
#if GSHMEM_HAVE_CUDA
  if (dev_) return dev_->peer_table();
#endif
  return 0;
}

bool SymmetricHeap::growable() const noexcept {
#if GSHMEM_HAVE_CUDA
  return dev_ && dev_->growable();
#else
  return false;
#endif
}

Status SymmetricHeap::grow(boot::Bootstrap& b, size_t extra) { return extend(b, extra, nullptr, nullptr); }

Status SymmetricHeap::adopt(boot::Bootstrap& b, void* ptr, size_t bytes, size_t* off, size_t* mapped) {
  *off = heap_.size;
  *mapped = bytes;
  return extend(b, bytes, ptr, mapped);
}

Status SymmetricHeap::extend(boot::Bootstrap& b, size_t extra, void* user, size_t* added) {
#if GSHMEM_HAVE_CUDA
  if (!growable()) return Status::not_available;
  int fd = -1;
  Status st = user ? dev_->grow_adopt(user, &extra, &fd) : dev_->grow_create(&extra, &fd);
  // Every PE must succeed, or none grows.
  bool all = false;
  GSHMEM_CHECK(boot::all_ok(b, st == Status::ok, &all));
  if (!all) {
    if (st == Status::ok) {
      close(fd);
      dev_->grow_cancel();
    }
    return st == Status::ok ? Status::peer_failed : st;
  }
  std::vector<std::vector<int>> got;
  st = mem::exchange_fds(b, local_pes_, secret_, {fd}, &got);
  close(fd);
  if (st != Status::ok) {
    dev_->grow_cancel();
    return st;
  }
  // Map every same-node PE's new memory; then every PE must have succeeded, or each unmaps what it
  // mapped (no PE may go on with a heap another PE could not extend).
  const size_t at = GSHMEM_DEV_CTRL_BYTES + heap_.size;  // where the new memory starts in each segment
  std::vector<int> mapped;
  bool self_handled = false;  // the own handle was passed to grow_map (mapped, or released on failure)
  for (size_t i = 0; i < local_pes_.size(); ++i) {
    const int pe = local_pes_[i];
    const int pfd = got[i][0];
    if (st != Status::ok) {
      if (pfd >= 0) close(pfd);
      continue;
    }
    if (pe == my_pe_) self_handled = true;
    st = dev_->grow_map(pe, pe == my_pe_, pfd);
    if (st == Status::ok) mapped.push_back(pe);
  }
  GSHMEM_CHECK(boot::all_ok(b, st == Status::ok, &all));
  if (!all) {
    for (int pe : mapped) (void)dev_->unmap_range(pe, at, extra);
    if (!self_handled) dev_->grow_cancel();
    GSHMEM_WARN(Subsys::heap, "extending the device heap by %zu bytes failed on some PE; nothing was added", extra);
    return st == Status::ok ? Status::peer_failed : st;
  }
  dev_->grow_done();
  const size_t old = heap_.size;
  heap_.size += extra;
  if (added) *added = extra;
  if (user) {
    alloc_.reserve_tail(heap_.size);
    GSHMEM_INFO(Subsys::heap, "device heap: %zu bytes of user memory at %p joined it at offset %zu", extra, user, old);
  } else {
    alloc_.grow(heap_.size);
    GSHMEM_INFO(Subsys::heap, "device heap grew from %zu to %zu bytes", old, heap_.size);
  }
  return Status::ok;
#else
  (void)b;
  (void)extra;
  (void)user;
  (void)added;
  return Status::not_available;
#endif
}

Status SymmetricHeap::unmap_range(size_t off, size_t bytes) {
#if GSHMEM_HAVE_CUDA
  if (!growable()) return Status::not_available;
  Status st = Status::ok;
  for (int pe : local_pes_) {
    const Status s = dev_->unmap_range(pe, GSHMEM_DEV_CTRL_BYTES + off, bytes);
    if (s != Status::ok) st = s;
  }
  return st;
#else
  (void)off;
  (void)bytes;
  return Status::not_available;
#endif
}

void SymmetricHeap::finalize() {
  host_.release();
#if GSHMEM_HAVE_CUDA
  if (dev_) dev_->release();
  dev_.reset();
#endif
  heap_ = Region{};
  data_ = Region{};
}

}  // namespace gshmem::heap
