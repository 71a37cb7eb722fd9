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

namespace gshmem::coll {

// flags_of(pe) returns that PE's flag array for this team (round k at index k).
template <typename FlagsOf>
void dissemination_barrier(FlagsOf&& flags_of, const std::vector<int>& pes, int me_idx, uint64_t epoch) {
  const int n = static_cast<int>(pes.size());
  heap::Flag* mine = flags_of(pes[static_cast<size_t>(me_idx)]);
  Backoff backoff;
  for (int k = 0, d = 1; d < n; ++k, d <<= 1) {
    flags_of(pes[static_cast<size_t>((me_idx + d) % n)])[k].v.store(epoch, std::memory_order_release);
    for (Backoff::State s; mine[k].v.load(std::memory_order_acquire) < epoch;) backoff(s);
  }
}

}  // namespace gshmem::coll
