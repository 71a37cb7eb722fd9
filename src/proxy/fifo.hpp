// The trigger FIFO between producers (GPU threads; host threads in tests and host-side paths) and
// one proxy thread per PE. A ring of 2^k 16-byte slots; producers reserve slots with one atomic
// add on `head` (2 slots for a trigger with an extension), wait while the ring is full
// (backpressure: head - tail > capacity), write the slot's word 1 and then word 0 with release
// order. The proxy reads word 0 with acquire order (non-zero = ready), handles the trigger, zeroes
// the slot(s), advances `tail` and publishes `completed`, which quiet waits on: a producer's quiet
// returns when completed >= the index after its last reserved slot. No trigger is lost: a slot is
// only reused after the proxy zeroed it and moved tail past it.
#pragma once
#include <atomic>
#include <cstdint>
#include <vector>

#include "common/wait.hpp"
#include "gshmem/device_host/trigger.h"

namespace gshmem::proxy {

class Fifo {
 public:
  explicit Fifo(uint32_t log2_slots) : mask_((1u << log2_slots) - 1), slots_(size_t(1) << log2_slots) {
    for (auto& s : slots_) {
      s.w0.store(0, std::memory_order_relaxed);
      s.w1 = 0;
    }
  }
  uint64_t capacity() const { return mask_ + 1; }

  // Pushes t (and ext when given); returns the index after the last slot used (for quiet).
  uint64_t push(const gshmem_trigger& t, const gshmem_trigger* ext = nullptr) {
    const uint64_t n = ext ? 2 : 1;
    const uint64_t idx = head_.fetch_add(n, std::memory_order_relaxed);
    Backoff b;
    for (Backoff::State s; idx + n - tail_.load(std::memory_order_acquire) > capacity();) b(s);  // full
    if (ext) write(idx + 1, *ext, true);
    write(idx, t, false);
    return idx + n;
  }

  // Proxy side: handles every ready trigger in order; returns how many slots were consumed.
  // handler(const gshmem_trigger&, const gshmem_trigger* ext).
  template <typename Handler>
  uint64_t poll(Handler&& handler) {
    uint64_t consumed = 0;
    for (;;) {
      const uint64_t t = tail_.load(std::memory_order_relaxed);
      Slot& s = slots_[t & mask_];
      const uint64_t w0 = s.w0.load(std::memory_order_acquire);
      if (!w0) break;
      gshmem_trigger trig{w0, s.w1};
      const bool has_ext = gshmem_trigger_decode(trig).flags & GSHMEM_TRIG_FLAG_EXT;
      gshmem_trigger ext{};
      if (has_ext) {
        Slot& e = slots_[(t + 1) & mask_];
        Backoff b;  // the producer writes the extension first, but wait for it to be visible
        for (Backoff::State st; !(ext.w0 = e.w0.load(std::memory_order_acquire));) b(st);
        ext.w0 -= 1;  // stored +1 so that a zero source offset still marks the slot ready
        ext.w1 = e.w1;
      }
      handler(trig, has_ext ? &ext : nullptr);
      const uint64_t n = has_ext ? 2 : 1;
      for (uint64_t i = 0; i < n; ++i) slots_[(t + i) & mask_].w0.store(0, std::memory_order_relaxed);
      tail_.store(t + n, std::memory_order_release);
      completed_.store(t + n, std::memory_order_release);
      consumed += n;
    }
    return consumed;
  }

  // Waits until every slot before `upto` (a value push returned) has been handled.
  void quiet(uint64_t upto) const {
    Backoff b;
    for (Backoff::State s; completed_.load(std::memory_order_acquire) < upto;) b(s);
  }
  uint64_t completed() const { return completed_.load(std::memory_order_acquire); }

 private:
  struct alignas(16) Slot {
    std::atomic<uint64_t> w0;
    uint64_t w1;
  };
  // A trigger's word 0 is never zero (op != NONE); an extension's word 0 is an offset (< 2^48)
  // and is stored + 1, so a non-zero word 0 always means "ready".
  void write(uint64_t idx, const gshmem_trigger& t, bool ext) {
    Slot& s = slots_[idx & mask_];
    s.w1 = t.w1;
    s.w0.store(ext ? t.w0 + 1 : t.w0, std::memory_order_release);
  }
  const uint64_t mask_;
  std::vector<Slot> slots_;
  alignas(64) std::atomic<uint64_t> head_{0};
  alignas(64) std::atomic<uint64_t> tail_{0};
  alignas(64) std::atomic<uint64_t> completed_{0};
};

}  // namespace gshmem::proxy
