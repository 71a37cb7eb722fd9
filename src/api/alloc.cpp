// Symmetric memory management. Collective: every PE makes the same calls in the same order, so
// the deterministic allocator hands out the same offsets everywhere. Arguments are cross-checked
// between PEs (a mismatch is reported, never silently corrupts), and the spec's barriers are
// kept: on exit for malloc/calloc/align, on entry for free, on entry and exit for realloc.
#include <shmem.h>
#include <shmemx.h>

#include <algorithm>
#include <vector>

#include "api/access.hpp"
#include "api/device_ops.hpp"
#include "common/log.hpp"

namespace gshmem::api {
namespace {

enum : uint64_t { op_malloc = 1, op_calloc, op_align, op_realloc, op_free, op_hints };

std::mutex g_alloc_mu;

void* exhausted(const char* call, size_t size) {
  Runtime& r = *g_rt;
  heap::Allocator& a = r.heap.allocator();
  // The allocator is deterministic, so every PE fails alike; one PE reports it.
  if (r.my_pe == 0)
    fprintf(stderr,
            "gshmem: %s: out of symmetric memory: requested %zu bytes, %zu of %zu bytes in use (largest free "
            "block %zu); raise SHMEM_SYMMETRIC_SIZE (pe %d)\n",
            call, size, a.used(), a.total(), a.largest_free(), r.my_pe);
  return nullptr;
}

void* allocate(const char* call, uint64_t op, size_t size, size_t align) {
  Runtime& r = rt(call);
  check_collective_args(call, op, size, align);
  void* p = nullptr;
  if (size) {
    std::lock_guard<std::mutex> lock(g_alloc_mu);
    size_t off = r.heap.allocator().alloc(size, align);
    if (off == heap::Allocator::kFail && r.heap.growable() && size < r.heap.window_stride()) {
      // Deterministic allocator: every PE fails here together, so growing is collective.
      const size_t want = std::max(size + align, r.heap.size());
      if (r.heap.grow(*r.boot, r.topo, want) == Status::ok) {
        republish_device_state();
        off = r.heap.allocator().alloc(size, align);
      }
    }
    p = off == heap::Allocator::kFail ? exhausted(call, size) : r.heap.base() + off;
  }
  return p;
}

size_t offset_of(const char* call, void* ptr) {
  Runtime& r = *g_rt;
  const uintptr_t a = reinterpret_cast<uintptr_t>(ptr), lo = reinterpret_cast<uintptr_t>(r.heap.base());
  if (a - lo >= r.heap.size() || r.heap.allocator().block_size(a - lo) == 0)
    fatal(call, "ptr %p was not returned by shmem_malloc/calloc/align/realloc (heap %p + %zu)", ptr,
              static_cast<void*>(r.heap.base()), r.heap.size());
  return a - lo;
}

}  // namespace
}  // namespace gshmem::api

using namespace gshmem;
using namespace gshmem::api;

extern "C" {

void* shmem_malloc(size_t size) {
  void* p = allocate("shmem_malloc", op_malloc, size, 0);
  sync_world();
  return p;
}

void* shmem_malloc_with_hints(size_t size, long hints) {
  // Hints are advisory; on CPU PEs every placement already serves atomics and signals.
  const long known = SHMEM_MALLOC_ATOMICS_REMOTE | SHMEM_MALLOC_SIGNAL_REMOTE;
  if (hints & ~known) fatal("shmem_malloc_with_hints", "unknown hints 0x%lx", hints);
  void* p = allocate("shmem_malloc_with_hints", op_hints, size, 0);
  sync_world();
  return p;
}

void* shmem_calloc(size_t count, size_t size) {
  size_t bytes = 0;
  const bool overflow = size && count > SIZE_MAX / size;
  if (!overflow) bytes = count * size;
  void* p = allocate("shmem_calloc", op_calloc, overflow ? SIZE_MAX : bytes, 0);
  if (p && g_rt->heap.is_device()) {
    std::vector<char> zeros(bytes < (1u << 20) ? bytes : (1u << 20));
    for (size_t off = 0; off < bytes; off += zeros.size())
      dev_copy("shmem_calloc", static_cast<char*>(p) + off, zeros.data(), std::min(zeros.size(), bytes - off), true);
  } else if (p) {
    memset(p, 0, bytes);
  }
  sync_world();
  return p;
}

void* shmem_align(size_t alignment, size_t size) {
  if (alignment == 0 || (alignment & (alignment - 1)))
    fatal("shmem_align", "alignment %zu is not a power of two", alignment);
  if (alignment > rt("shmem_align").heap.max_alignment())
    fatal("shmem_align", "alignment %zu exceeds the largest supported alignment %zu", alignment,
              g_rt->heap.max_alignment());
  void* p = allocate("shmem_align", op_align, size, alignment);
  sync_world();
  return p;
}

void shmem_free(void* ptr) {
  const char* call = "shmem_free";
  Runtime& r = rt(call);
  const uint64_t off = ptr ? offset_of(call, ptr) : UINT64_MAX;
  check_collective_args(call, op_free, off, 0);
  if (ptr) {
    std::lock_guard<std::mutex> lock(g_alloc_mu);
    r.heap.allocator().free(off);
  }
}

void* shmem_realloc(void* ptr, size_t size) {
  const char* call = "shmem_realloc";
  Runtime& r = rt(call);
  const uint64_t off = ptr ? offset_of(call, ptr) : UINT64_MAX;
  check_collective_args(call, op_realloc, off, size);
  void* out = nullptr;
  {
    std::lock_guard<std::mutex> lock(g_alloc_mu);
    heap::Allocator& a = r.heap.allocator();
    if (!ptr) {
      size_t o = size ? a.alloc(size, 0) : heap::Allocator::kFail;
      out = o == heap::Allocator::kFail ? (size ? exhausted(call, size) : nullptr) : r.heap.base() + o;
    } else if (size == 0) {
      a.free(off);
    } else if (a.resize_in_place(off, size) != heap::Allocator::kFail) {
      out = ptr;
    } else {
      const size_t old = a.block_size(off);
      size_t o = a.alloc(size, 0);
      if (o == heap::Allocator::kFail) {
        out = exhausted(call, size);  // the old block stays valid, as with realloc(3)
      } else {
        out = r.heap.base() + o;
        memcpy(out, ptr, old < size ? old : size);
        a.free(off);
      }
    }
  }
  sync_world();
  return out;
}

int shmemx_heap_kind(void) {
  return rt("shmemx_heap_kind").heap.is_device() ? SHMEMX_HEAP_KIND_DEVICE : SHMEMX_HEAP_KIND_HOST;
}
int shmemx_heap_growable(void) { return rt("shmemx_heap_growable").heap.growable() ? 1 : 0; }
size_t shmemx_heap_size(void) { return rt("shmemx_heap_size").heap.size(); }
size_t shmemx_heap_used(void) {
  std::lock_guard<std::mutex> lock(g_alloc_mu);
  return rt("shmemx_heap_used").heap.allocator().used();
}

}  // extern "C"
