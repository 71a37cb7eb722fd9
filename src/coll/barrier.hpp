// Dissemination barrier over the control-block flags of same-node PEs: ceil(log2 n) rounds, in
// round k PE i signals PE i+2^k and waits for PE i-2^k. Epochs only grow, so a flag that already
// holds a later epoch also satisfies an earlier wait.
// Memory ordering: the release store of each signal and the acquire load of each wait chain into
// happens-before across all rounds, so stores issued before the barrier (after a quiet) are
// visible to every PE after it.
#pragma once
#include <vector>

#include "heap/heap.hpp"

namespace gshmem::coll {

template <typename Backoff>
void dissemination_barrier(const heap::SymmetricHeap& h, const std::vector<int>& pes, int me_idx, uint64_t epoch,
                           Backoff&& backoff) {
  const int n = static_cast<int>(pes.size());
  heap::ControlBlock* mine = h.control(pes[static_cast<size_t>(me_idx)]);
  for (int k = 0, d = 1; d < n; ++k, d <<= 1) {
    heap::ControlBlock* to = h.control(pes[static_cast<size_t>((me_idx + d) % n)]);
    to->barrier[k].v.store(epoch, std::memory_order_release);
    auto& flag = mine->barrier[k].v;
    for (typename std::decay_t<Backoff>::State s; flag.load(std::memory_order_acquire) < epoch;) backoff(s);
  }
}

}  // namespace gshmem::coll
