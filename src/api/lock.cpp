// Distributed locks: a FIFO ticket lock in the lock word on PE 0 (high 32 bits: next ticket, low
// 32 bits: now serving). set_lock takes a ticket with one atomic add and polls (backing off) until
// it is served, so waiters are served in arrival order and no wakeup can be lost; clear_lock
// completes the holder's RMA (quiet) before serving the next ticket.
#include <shmem.h>

#include <atomic>

#include "common/fatal.hpp"
#include "common/wait.hpp"
#include "core/rma.hpp"

using namespace gshmem;

namespace {
constexpr unsigned long long kLow = 0xffffffffull;
unsigned long long* word(const char* call, long* lock) {
  if (!lock) fatal(call, "lock is NULL");
  core::check_symmetric(call, lock, sizeof(long), 0, "lock");
  return reinterpret_cast<unsigned long long*>(lock);
}
}  // namespace

extern "C" {

void shmem_set_lock(long* lock) {
  unsigned long long* w = word("shmem_set_lock", lock);
  const unsigned long long ticket = (shmem_ulonglong_atomic_fetch_add(w, 1ull << 32, 0) >> 32) & kLow;
  wait_for([&] { return (shmem_ulonglong_atomic_fetch(w, 0) & kLow) == ticket; });
  std::atomic_thread_fence(std::memory_order_acquire);
}

int shmem_test_lock(long* lock) {
  unsigned long long* w = word("shmem_test_lock", lock);
  const unsigned long long v = shmem_ulonglong_atomic_fetch(w, 0);
  if (((v >> 32) & kLow) != (v & kLow)) return 1;  // held or contended
  if (shmem_ulonglong_atomic_compare_swap(w, v, v + (1ull << 32), 0) != v) return 1;
  std::atomic_thread_fence(std::memory_order_acquire);
  return 0;
}

void shmem_clear_lock(long* lock) {
  unsigned long long* w = word("shmem_clear_lock", lock);
  shmem_quiet();
  for (unsigned long long v = shmem_ulonglong_atomic_fetch(w, 0);;) {
    const unsigned long long next = (v & ~kLow) | ((v + 1) & kLow);  // serving wraps without carry
    const unsigned long long old = shmem_ulonglong_atomic_compare_swap(w, v, next, 0);
    if (old == v) break;
    v = old;
  }
}

}  // extern "C"
