// Offset allocator for the symmetric heap. Deterministic: the same sequence of calls yields the
// same offsets on every PE, which is what makes shmem_malloc'd addresses symmetric.
#pragma once
#include <cstddef>
#include <cstdint>
#include <map>
#include <set>

namespace gshmem::heap {

class Allocator {
 public:
  static constexpr size_t kFail = SIZE_MAX;
  static constexpr size_t kGranule = 64;  // every block is a multiple of a cache line
  // Blocks of kBulk bytes or more (after rounding to granules) start on a kBulk boundary, whatever
  // alignment was asked: a GPU's 16-byte block copies are slower from and into a buffer that starts
  // between two 512-byte boundaries (docs/gpu.md, "Where shmem_malloc puts a buffer"). Small blocks
  // (signal words, counters) stay packed at kGranule.
  static constexpr size_t kBulk = 512;

  explicit Allocator(size_t total = 0) { reset(total); }
  void reset(size_t total);
  // Extends the managed range to new_total (> total()); the new space joins the free list.
  void grow(size_t new_total);
  // Extends the managed range to new_total with the new space neither free nor allocated: memory
  // that is symmetric but not the allocator's (a registered user buffer); never handed out.
  void reserve_tail(size_t new_total);
  size_t alloc(size_t bytes, size_t align);  // offset or kFail
  // Returns the freed block's size, 0 if off is not the start of an allocated block.
  size_t free(size_t off);
  // Grows or shrinks in place when possible (returns off), else kFail: the caller then allocates,
  // copies and frees. The block is unchanged on kFail.
  size_t resize_in_place(size_t off, size_t bytes);
  size_t block_size(size_t off) const;  // 0 if not allocated
  // off started a block that was freed and has not been handed out again since (a second free
  // of it is a double free, not a pointer the allocator never returned).
  bool was_freed(size_t off) const { return freed_.count(off) != 0; }
  size_t used() const noexcept { return used_bytes_; }
  size_t total() const noexcept { return total_; }
  size_t largest_free() const;

 private:
  void insert_free(size_t off, size_t size);  // coalesces with neighbours
  void taken(size_t off, size_t bytes) { freed_.erase(freed_.lower_bound(off), freed_.lower_bound(off + bytes)); }
  std::map<size_t, size_t> free_;  // offset -> size
  std::map<size_t, size_t> used_;  // offset -> size
  size_t total_ = 0;
  size_t used_bytes_ = 0;
  std::set<size_t> freed_;  // starts of freed blocks whose bytes no allocation has taken since
};

}  // namespace gshmem::heap
