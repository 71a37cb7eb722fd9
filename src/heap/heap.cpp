#include "heap/heap.hpp"

#include <unistd.h>

#include <algorithm>
#include <cstring>
#include <new>

#include "common/log.hpp"
#include "gshmem/device_host/state.h"
#include "transport/fd_passing.hpp"

namespace gshmem::heap {

namespace {
struct SegInfo {
  uint64_t heap_bytes;
  uint64_t data_bytes;
  uint64_t device;  // 0 host heap, 1 device heap (VMM), 2 device heap (CUDA IPC)
};
#if GSHMEM_HAVE_CUDA
struct IpcInfo {
  CUipcMemHandle handle;
};
#endif
}  // namespace

Status SymmetricHeap::init(boot::Bootstrap& b, const topo::Topology& t, size_t heap_bytes, bool share_data,
                           const uint8_t secret[16], const DeviceHeapSpec* device) {
  const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
  heap_bytes = (heap_bytes + page - 1) / page * page;
  secret_ = secret;
  // The host segment always holds the control block; it holds the user heap only for the host kind.
  const size_t host_user = device ? 0 : heap_bytes;
  Status st = own_.create("gshmem-heap", kControlBytes + host_user, kHeapBaseAlign, kControlBytes);
#if GSHMEM_HAVE_CUDA
  CUmemGenericAllocationHandle dev_handle{};
  int dev_fd = -1;
  if (st == Status::ok && device) {
    drv_ = device->drv;
    ipc_ = device->ipc;
  }
  if (st == Status::ok && device && device->ipc) {
    CUresult r = device->drv->cuMemAlloc(&ipc_own_, GSHMEM_DEV_CTRL_BYTES + heap_bytes);
    if (r != CUDA_SUCCESS) {
      size_t free_b = 0, total_b = 0;
      device->drv->cuMemGetInfo(&free_b, &total_b);
      GSHMEM_WARN(Subsys::heap, "cuMemAlloc(%zu bytes) for the device heap failed: %s (GPU free %zu of %zu bytes)",
                  GSHMEM_DEV_CTRL_BYTES + heap_bytes, cu::error_string(r), free_b, total_b);
      st = Status::out_of_memory;
    }
  } else if (st == Status::ok && device) {
    const size_t stride = std::max(device->reserve, GSHMEM_DEV_CTRL_BYTES + heap_bytes);
    st = window_.reserve(device->drv, device->dev, t.npes, stride);
    if (st == Status::ok) {
      heap_bytes = (GSHMEM_DEV_CTRL_BYTES + heap_bytes + window_.granularity() - 1) / window_.granularity() *
                       window_.granularity() - GSHMEM_DEV_CTRL_BYTES;
      st = window_.create_chunk(GSHMEM_DEV_CTRL_BYTES + heap_bytes, &dev_handle, &dev_fd);
    }
  }
#else
  if (device) st = Status::not_available;
#endif
  if (st == Status::ok && share_data) {
    Status ds = mem::share_data_segment(&own_data_);
    if (ds != Status::ok) GSHMEM_WARN(Subsys::heap, "global/static variables are not symmetric on this PE");
  }
  // Sizes must agree on every PE: the same offset must exist everywhere.
  std::vector<SegInfo> info(static_cast<size_t>(t.npes));
  const uint64_t kind = device ? (device->ipc ? 2u : 1u) : 0u;
  info[static_cast<size_t>(t.my_pe)] = {st == Status::ok ? heap_bytes : 0, own_data_.size(), kind};
  GSHMEM_CHECK(b.allgather(info.data(), sizeof(SegInfo)));
  for (int pe = 0; pe < t.npes; ++pe) {
    if (info[pe].heap_bytes == 0) {
      GSHMEM_WARN(Subsys::heap, "pe %d could not create its symmetric heap of %zu bytes", pe, heap_bytes);
      return Status::out_of_memory;
    }
    if (info[pe].device != kind) {
      static const char* names[] = {"host", "device (vmm)", "device (ipc)"};
      GSHMEM_WARN(Subsys::heap,
                  "heap kinds differ: pe %d has a %s heap, pe %d a %s heap (GSHMEM_HEAP_KIND, GSHMEM_DEVICE_ALLOC)", pe,
                  names[info[pe].device % 3], t.my_pe, names[kind]);
      return Status::invalid_argument;
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
#if GSHMEM_HAVE_CUDA
  if (device && !device->ipc) offer.push_back(dev_fd);
  std::vector<IpcInfo> ipc_handles;
  if (device && device->ipc) {
    ipc_handles.resize(static_cast<size_t>(t.npes));
    GSHMEM_CU(*device->drv, cuIpcGetMemHandle, &ipc_handles[static_cast<size_t>(t.my_pe)].handle, ipc_own_);
    GSHMEM_CHECK(b.allgather(ipc_handles.data(), sizeof(IpcInfo)));
  }
#endif
  std::vector<std::vector<int>> got;
  GSHMEM_CHECK(transport::exchange_fds(b, t.local_pes, secret, offer, &got));
#if GSHMEM_HAVE_CUDA
  if (dev_fd >= 0) close(dev_fd);
#endif

  const size_t n = static_cast<size_t>(t.npes);
  peer_segs_.resize(n);
  peer_data_.resize(n);
  heap_.lo = reinterpret_cast<uintptr_t>(own_.base()) + kControlBytes;
  heap_.size = heap_bytes;
  heap_.device = device != nullptr;
  heap_.peer.assign(n, nullptr);
  dev_seg_.assign(n, 0);
  data_.lo = reinterpret_cast<uintptr_t>(own_data_.base());
  data_.size = own_data_.size();
  data_.peer.assign(n, nullptr);
  ctrl_.assign(n, nullptr);
  for (size_t i = 0; i < t.local_pes.size(); ++i) {
    const int pe = t.local_pes[i];
#if GSHMEM_HAVE_CUDA
    if (device && device->ipc) {
      CUdeviceptr seg = ipc_own_;
      if (pe != t.my_pe)
        GSHMEM_CU(*device->drv, cuIpcOpenMemHandle, &seg, ipc_handles[static_cast<size_t>(pe)].handle,
                  CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS);
      dev_seg_[pe] = seg;
      heap_.peer[pe] = reinterpret_cast<char*>(seg + GSHMEM_DEV_CTRL_BYTES);
    } else if (device) {
      const size_t dev_bytes = GSHMEM_DEV_CTRL_BYTES + heap_bytes;
      if (pe == t.my_pe) {
        close(got[i].back());
        GSHMEM_CHECK(window_.map_own(pe, 0, dev_handle, dev_bytes));
      } else {
        GSHMEM_CHECK(window_.map_imported(pe, 0, got[i].back(), dev_bytes));
      }
      got[i].pop_back();
      heap_.peer[pe] = reinterpret_cast<char*>(window_.slot_base(pe) + GSHMEM_DEV_CTRL_BYTES);
      dev_seg_[pe] = window_.slot_base(pe);
      dev_mapped_ = dev_bytes;
    }
#endif
    if (pe == t.my_pe) {
      for (int fd : got[i]) close(fd);
      if (!device) heap_.peer[pe] = reinterpret_cast<char*>(heap_.lo);
      data_.peer[pe] = reinterpret_cast<char*>(data_.lo);
      ctrl_[pe] = my_ctrl_;
      continue;
    }
    GSHMEM_CHECK(peer_segs_[pe].map_peer(got[i][0], kControlBytes + host_user));
    if (!device) heap_.peer[pe] = static_cast<char*>(peer_segs_[pe].base()) + kControlBytes;
    ctrl_[pe] = static_cast<ControlBlock*>(peer_segs_[pe].base());
    if (data_.size) {
      GSHMEM_CHECK(peer_data_[pe].map_peer(got[i][1], data_.size));
      data_.peer[pe] = static_cast<char*>(peer_data_[pe].base());
    }
  }
#if GSHMEM_HAVE_CUDA
  if (device) {
    heap_.lo = dev_seg_[static_cast<size_t>(t.my_pe)] + GSHMEM_DEV_CTRL_BYTES;
    if (device->ipc) {
      // Segments are wherever cudaMalloc put them: kernels find them through a table.
      GSHMEM_CU(*device->drv, cuMemAlloc, &peer_table_, n * sizeof(uint64_t));
      GSHMEM_CU(*device->drv, cuMemcpyAsync, peer_table_, reinterpret_cast<CUdeviceptr>(dev_seg_.data()),
                n * sizeof(uint64_t), nullptr);
    }
    // Zero the device control block (barrier flags and epochs start at 0): new device memory is
    // not guaranteed zeroed.
    CUdeviceptr ctrl = dev_seg_[static_cast<size_t>(t.my_pe)];
    GSHMEM_CU(*device->drv, cuMemsetD8Async, ctrl, 0, GSHMEM_DEV_CTRL_BYTES, nullptr);
    GSHMEM_CU(*device->drv, cuCtxSynchronize);
  }
#endif
  alloc_.reset(heap_bytes);
  GSHMEM_DEBUG(Subsys::heap, "host heap %p + %zu, data %p + %zu, %d local peers mapped", base(), heap_bytes,
               reinterpret_cast<void*>(data_.lo), data_.size, t.local_size);
  return Status::ok;
}

size_t SymmetricHeap::max_alignment() const noexcept {
  if (!heap_.device) return kHeapBaseAlign;
  return ipc_ ? 256 : GSHMEM_DEV_CTRL_BYTES;  // cudaMalloc guarantees 256-byte alignment
}

uint64_t SymmetricHeap::window_base() const noexcept {
#if GSHMEM_HAVE_CUDA
  return window_.base();
#else
  return 0;
#endif
}

uint64_t SymmetricHeap::window_stride() const noexcept {
#if GSHMEM_HAVE_CUDA
  return window_.stride();
#else
  return 0;
#endif
}

Status SymmetricHeap::grow(boot::Bootstrap& b, const topo::Topology& t, size_t extra) {
#if GSHMEM_HAVE_CUDA
  if (!heap_.device || ipc_) return Status::not_available;
  CUmemGenericAllocationHandle h{};
  int fd = -1;
  extra = (extra + window_.granularity() - 1) / window_.granularity() * window_.granularity();
  Status st = dev_mapped_ + extra > window_.stride() ? Status::out_of_memory : window_.create_chunk(extra, &h, &fd);
  // Every PE must succeed, or none grows.
  std::vector<int32_t> ok(static_cast<size_t>(t.npes), 0);
  ok[static_cast<size_t>(t.my_pe)] = st == Status::ok;
  GSHMEM_CHECK(b.allgather(ok.data(), sizeof(int32_t)));
  bool all = true;
  for (int v : ok) all = all && v;
  if (!all) {
    if (st == Status::ok) {
      close(fd);
      window_.drop_chunk(h);
    }
    return Status::out_of_memory;
  }
  std::vector<std::vector<int>> got;
  GSHMEM_CHECK(transport::exchange_fds(b, t.local_pes, secret_, {fd}, &got));
  close(fd);
  for (size_t i = 0; i < t.local_pes.size(); ++i) {
    const int pe = t.local_pes[i];
    if (pe == t.my_pe) {
      close(got[i][0]);
      GSHMEM_CHECK(window_.map_own(pe, dev_mapped_, h, extra));
    } else {
      GSHMEM_CHECK(window_.map_imported(pe, dev_mapped_, got[i][0], extra));
    }
  }
  dev_mapped_ += extra;
  const size_t old = heap_.size;
  heap_.size += extra;
  alloc_.grow(heap_.size);
  GSHMEM_INFO(Subsys::heap, "device heap grew from %zu to %zu bytes", old, heap_.size);
  return Status::ok;
#else
  (void)b;
  (void)t;
  (void)extra;
  return Status::not_available;
#endif
}

void SymmetricHeap::finalize() {
  peer_segs_.clear();
  peer_data_.clear();
  own_.reset();
  own_data_.reset();  // keeps the mapping: the program's globals live there
#if GSHMEM_HAVE_CUDA
  window_.release();
  if (drv_ && ipc_) {
    for (size_t pe = 0; pe < dev_seg_.size(); ++pe)
      if (dev_seg_[pe] && dev_seg_[pe] != ipc_own_) drv_->cuIpcCloseMemHandle(dev_seg_[pe]);
    if (ipc_own_) drv_->cuMemFree(ipc_own_);
    if (peer_table_) drv_->cuMemFree(peer_table_);
  }
  ipc_own_ = peer_table_ = 0;
  dev_seg_.clear();
#endif
  heap_ = Region{};
  data_ = Region{};
  ctrl_.clear();
  my_ctrl_ = nullptr;
}

}  // namespace gshmem::heap
