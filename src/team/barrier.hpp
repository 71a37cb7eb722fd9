// Dissemination barrier: ceil(log2 n) rounds, in round k member i signals member i+2^k and waits
// for member i-2^k. Epochs only grow, so a flag that already holds a later epoch also satisfies
// an earlier wait.
// Memory ordering: the release store of each signal and the acquire load of each wait chain into
// happens-before across all rounds, so stores issued before the barrier (after a quiet) are
// visible to every member after it.
#pragma once
#include <vector>

#include "common/wait.hpp"
#include "heap/control.hpp"

namespace gshmem::team {

// mine: this PE's flag array for the team (round k at index k); signal(pe, k, epoch) sets round k's
// flag on pe (a release store into a mapped block, or a remote store through the transport).
template <typename Signal>
void dissemination_barrier(heap::Flag* mine, Signal&& signal, const std::vector<int>& pes, int me_idx, uint64_t epoch) {
  const int n = static_cast<int>(pes.size());
  Backoff backoff;
  for (int k = 0, d = 1; d < n; ++k, d <<= 1) {
    signal(pes[static_cast<size_t>((me_idx + d) % n)], k, epoch);
    for (Backoff::State s; mine[k].v.load(std::memory_order_acquire) < epoch;) backoff(s);
  }
}

}  // namespace gshmem::team
