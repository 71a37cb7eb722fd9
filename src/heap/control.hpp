// Per-PE control block at the start of every PE's heap segment, written by peers. Versioned and
// size-checked because every PE of a node maps every other PE's block.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>

namespace gshmem::heap {

constexpr size_t kControlBytes = 64 * 1024;  // reserved in front of the user heap
// The user heap starts on this boundary on every PE, so an offset aligned to any power of two up
// to it is an equally aligned address everywhere (shmem_align).
constexpr size_t kHeapBaseAlign = size_t(256) << 20;
constexpr uint64_t kControlMagic = 0x67736873686d656dull;  // "gshshmem"
constexpr uint32_t kControlVersion = 1;
constexpr int kMaxBarrierRounds = 32;  // dissemination: ceil(log2(npes)) rounds

struct alignas(64) Flag {
  std::atomic<uint64_t> v;
  char pad[56];
};
static_assert(sizeof(Flag) == 64);

// Arguments of a collective call published for cross-checking (double-buffered by sequence).
struct alignas(64) CollCheck {
  std::atomic<uint64_t> seq;
  uint64_t op;
  uint64_t a;
  uint64_t b;
  char pad[32];
};
static_assert(sizeof(CollCheck) == 64);

struct ControlBlock {
  uint64_t magic;
  uint32_t version;
  uint32_t reserved;
  char pad[48];
  Flag barrier[kMaxBarrierRounds];  // round k is written by the round-k partner with its epoch
  CollCheck check[2];
};
static_assert(sizeof(ControlBlock) <= kControlBytes);
static_assert(std::atomic<uint64_t>::is_always_lock_free, "cross-process atomics need lock-free 64-bit");

}  // namespace gshmem::heap
