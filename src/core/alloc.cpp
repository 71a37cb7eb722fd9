#include "core/alloc.hpp"

#include <algorithm>
#include <cstring>
#include <mutex>
#include <vector>

#include "core/detail/access.hpp"
#include "core/rma.hpp"

namespace gshmem::core {

// OpenSHMEM 1.5: the allocation routines end with a barrier (barrier_all), and shmem_free and
// shmem_realloc begin with one (a quiet, then the argument check's sync): earlier puts to the
// memory, queued host nbi puts included, are complete on every PE.
std::mutex& heap_mutex() {
  static std::mutex mu;
  return mu;
}

namespace {

enum : uint64_t { op_malloc = 1, op_calloc, op_align, op_realloc, op_free, op_hints };

void check_collective_args(const char* call, Runtime& r, uint64_t op, uint64_t a, uint64_t b) {
  r.teams.check_args_or_fail(call, *r.teams.get(team::kWorld), op, a, b);
}

void* exhausted(const char* call, Runtime& r, size_t size) {
  heap::Allocator& a = r.heap.allocator();
  // The allocator is deterministic, so every PE fails alike; one PE reports it.
  if (r.my_pe == 0)
    report_error(call,
                 "out of symmetric memory: requested %zu bytes, %zu of %zu bytes in use (largest free block %zu); "
                 "raise SHMEM_SYMMETRIC_SIZE",
                 size, a.used(), a.total(), a.largest_free());
  return nullptr;
}

// Allocates on every PE; a device heap that can grow does so (collectively: the deterministic
// allocator fails on every PE together) and the new geometry goes to every kernel's state.
void* allocate(const char* call, uint64_t op, size_t size, size_t align) {
  Runtime& r = rt(call);
  check_collective_args(call, r, op, size, align);
  if (!size) return nullptr;
  std::lock_guard<std::mutex> lock(heap_mutex());
  size_t off = r.heap.allocator().alloc(size, align);
  if (off == heap::Allocator::kFail && r.heap.growable() && size < r.heap.window_stride()) {
    const size_t want = std::max(size + align, r.heap.size());
    const size_t before = r.heap.size();
    if (r.heap.grow(*r.boot, want) == Status::ok) {
      transports_extend(call, r, before, r.heap.size() - before);
      republish_device_state(r);
      off = r.heap.allocator().alloc(size, align);
    }
  }
  return off == heap::Allocator::kFail ? exhausted(call, r, size) : r.heap.base() + off;
}

size_t offset_of(const char* call, Runtime& r, void* ptr) {
  const uintptr_t a = reinterpret_cast<uintptr_t>(ptr), lo = reinterpret_cast<uintptr_t>(r.heap.base());
  if (a - lo < r.heap.size() && r.heap.allocator().block_size(a - lo) == 0 && r.heap.allocator().was_freed(a - lo))
    fatal(call, "ptr %p was already freed (a second shmem_free or shmem_realloc of it)", ptr);
  if (a - lo >= r.heap.size() || r.heap.allocator().block_size(a - lo) == 0)
    fatal(call, "ptr %p was not returned by shmem_malloc/calloc/align/realloc (heap %p + %zu)", ptr,
          static_cast<void*>(r.heap.base()), r.heap.size());
  return a - lo;
}

}  // namespace

void* malloc(const char* call, size_t size) {
  void* p = allocate(call, op_malloc, size, 0);
  barrier_all(call);
  return p;
}

void* malloc_with_hints(const char* call, size_t size, long hints) {
  (void)hints;  // advice: every placement already serves atomics and signals
  void* p = allocate(call, op_hints, size, 0);
  barrier_all(call);
  return p;
}

void* calloc(const char* call, size_t count, size_t size) {
  size_t bytes = 0;
  const bool overflow = size && count > SIZE_MAX / size;
  if (!overflow) bytes = count * size;
  void* p = allocate(call, op_calloc, overflow ? SIZE_MAX : bytes, 0);
  if (p && g_rt->heap.is_device()) {
    std::vector<char> zeros(bytes < (1u << 20) ? bytes : (1u << 20));
    for (size_t off = 0; off < bytes; off += zeros.size())
      device_copy(call, static_cast<char*>(p) + off, zeros.data(), std::min(zeros.size(), bytes - off), true);
  } else if (p) {
    memset(p, 0, bytes);
  }
  barrier_all(call);
  return p;
}

void* align(const char* call, size_t alignment, size_t size) {
  Runtime& r = rt(call);
  if (alignment == 0 || (alignment & (alignment - 1))) fatal(call, "alignment %zu is not a power of two", alignment);
  if (alignment > r.heap.max_alignment())
    fatal(call, "alignment %zu exceeds the largest supported alignment %zu", alignment, r.heap.max_alignment());
  void* p = allocate(call, op_align, size, alignment);
  barrier_all(call);
  return p;
}

void free(const char* call, void* ptr) {
  Runtime& r = rt(call);
  const uint64_t off = ptr ? offset_of(call, r, ptr) : UINT64_MAX;
  quiet(call);
  check_collective_args(call, r, op_free, off, 0);
  if (ptr) {
    std::lock_guard<std::mutex> lock(heap_mutex());
    r.heap.allocator().free(off);
  }
}

void* realloc(const char* call, void* ptr, size_t size) {
  Runtime& r = rt(call);
  const uint64_t off = ptr ? offset_of(call, r, ptr) : UINT64_MAX;
  quiet(call);
  check_collective_args(call, r, op_realloc, off, size);
  void* out = nullptr;
  {
    std::lock_guard<std::mutex> lock(heap_mutex());
    heap::Allocator& a = r.heap.allocator();
    if (!ptr) {
      size_t o = size ? a.alloc(size, 0) : heap::Allocator::kFail;
      out = o == heap::Allocator::kFail ? (size ? exhausted(call, r, size) : nullptr) : r.heap.base() + o;
    } else if (size == 0) {
      a.free(off);
    } else if (a.resize_in_place(off, size) != heap::Allocator::kFail) {
      out = ptr;
    } else {
      const size_t old = a.block_size(off);
      size_t o = a.alloc(size, 0);
      if (o == heap::Allocator::kFail) {
        out = exhausted(call, r, size);  // the old block stays valid, as with realloc(3)
      } else {
        out = r.heap.base() + o;
        if (r.heap.is_device()) device_copy(call, out, ptr, old < size ? old : size, true);
        else memcpy(out, ptr, old < size ? old : size);
        a.free(off);
      }
    }
  }
  barrier_all(call);
  return out;
}

bool heap_is_device(const char* call) { return rt(call).heap.is_device(); }
bool heap_growable(const char* call) { return rt(call).heap.growable(); }
size_t heap_size(const char* call) { return rt(call).heap.size(); }
size_t heap_used(const char* call) {
  Runtime& r = rt(call);
  std::lock_guard<std::mutex> lock(heap_mutex());
  return r.heap.allocator().used();
}

}  // namespace gshmem::core
