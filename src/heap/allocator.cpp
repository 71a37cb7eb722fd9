#include "heap/allocator.hpp"

#include <algorithm>

namespace gshmem::heap {
namespace {
size_t round_up(size_t v, size_t a) { return (v + a - 1) / a * a; }
}  // namespace

void Allocator::reset(size_t total) {
  free_.clear();
  used_.clear();
  freed_.clear();
  total_ = total / kGranule * kGranule;
  used_bytes_ = 0;
  if (total_) free_[0] = total_;
}

void Allocator::insert_free(size_t off, size_t size) {
  auto next = free_.lower_bound(off);
  if (next != free_.end() && off + size == next->first) {
    size += next->second;
    next = free_.erase(next);
  }
  if (next != free_.begin()) {
    auto prev = std::prev(next);
    if (prev->first + prev->second == off) {
      prev->second += size;
      return;
    }
  }
  free_.emplace(off, size);
}

void Allocator::grow(size_t new_total) {
  new_total = new_total / kGranule * kGranule;
  if (new_total <= total_) return;
  insert_free(total_, new_total - total_);
  total_ = new_total;
}

void Allocator::reserve_tail(size_t new_total) {
  new_total = round_up(new_total, kGranule);
  if (new_total > total_) total_ = new_total;
}

size_t Allocator::alloc(size_t bytes, size_t align) {
  if (bytes == 0 || bytes > total_) return kFail;
  if (align & (align - 1)) return kFail;
  bytes = round_up(bytes, kGranule);
  align = std::max(align, bytes >= kBulk ? kBulk : kGranule);
  for (auto it = free_.begin(); it != free_.end(); ++it) {
    const size_t off = it->first, size = it->second;
    const size_t start = round_up(off, align);
    if (start < off || start - off > size || size - (start - off) < bytes) continue;
    free_.erase(it);
    if (start > off) free_.emplace(off, start - off);
    if (start + bytes < off + size) free_.emplace(start + bytes, off + size - start - bytes);
    used_.emplace(start, bytes);
    used_bytes_ += bytes;
    taken(start, bytes);
    return start;
  }
  return kFail;
}

size_t Allocator::free(size_t off) {
  auto it = used_.find(off);
  if (it == used_.end()) return 0;
  const size_t size = it->second;
  used_.erase(it);
  used_bytes_ -= size;
  insert_free(off, size);
  freed_.insert(off);
  return size;
}

size_t Allocator::resize_in_place(size_t off, size_t bytes) {
  auto it = used_.find(off);
  if (it == used_.end() || bytes == 0) return kFail;
  bytes = round_up(bytes, kGranule);
  const size_t old = it->second;
  if (bytes == old) return off;
  // A block grown to kBulk bytes must start on a kBulk boundary: else it moves.
  if (bytes > old && bytes >= kBulk && off % kBulk != 0) return kFail;
  if (bytes < old) {
    it->second = bytes;
    used_bytes_ -= old - bytes;
    insert_free(off + bytes, old - bytes);
    return off;
  }
  auto nxt = free_.find(off + old);
  if (nxt == free_.end() || nxt->second < bytes - old) return kFail;
  const size_t extra = bytes - old;
  const size_t rest = nxt->second - extra;
  free_.erase(nxt);
  if (rest) free_.emplace(off + bytes, rest);
  it->second = bytes;
  used_bytes_ += extra;
  taken(off + old, extra);
  return off;
}

size_t Allocator::block_size(size_t off) const {
  auto it = used_.find(off);
  return it == used_.end() ? 0 : it->second;
}

size_t Allocator::largest_free() const {
  size_t m = 0;
  for (const auto& [o, s] : free_) m = s > m ? s : m;
  return m;
}

}  // namespace gshmem::heap
