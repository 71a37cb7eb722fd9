// Merging the PUTs a proxy holds for one PE into fewer, larger copies (no CUDA here; unit-tested).
// A block-scoped transfer arrives as one PUT per block, in any order; when one copy's source and
// destination both end where another's begin, the two are one copy. Every input copy is used
// exactly once: repeated transfers of the same range (the same bytes again) stay separate copies,
// so the work done is the work asked for.
#pragma once
#include <algorithm>
#include <cstdint>
#include <vector>

namespace gshmem::transport {

struct Copy {
  uint64_t dst, src, n;
};

// Replaces q by its merged chains (in ascending order of destination within each source-to-
// destination offset).
inline void merge_copies(std::vector<Copy>& q) {
  if (q.size() < 2) return;
  // Copies that can chain have the same offset dst - src; sort by it, then by destination, then
  // by arrival (stable), so duplicates keep their order.
  std::stable_sort(q.begin(), q.end(), [](const Copy& a, const Copy& b) {
    const uint64_t da = a.dst - a.src, db = b.dst - b.src;
    return da != db ? da < db : a.dst < b.dst;
  });
  std::vector<uint8_t> used(q.size(), 0);
  std::vector<Copy> out;
  for (size_t i = 0; i < q.size(); ++i) {
    if (used[i]) continue;
    used[i] = 1;
    Copy c = q[i];
    const uint64_t delta = c.dst - c.src;
    size_t p = i + 1;
    for (;;) {
      const uint64_t end = c.dst + c.n;
      while (p < q.size() && q[p].dst - q[p].src == delta && q[p].dst < end) ++p;
      size_t k = p;
      while (k < q.size() && q[k].dst - q[k].src == delta && q[k].dst == end && used[k]) ++k;
      if (k == q.size() || q[k].dst - q[k].src != delta || q[k].dst != end || q[k].n == 0) break;
      used[k] = 1;
      c.n += q[k].n;
    }
    out.push_back(c);
  }
  q.swap(out);
}

}  // namespace gshmem::transport
