// The trigger FIFO between producers (GPU threads: device/gshmem/impl/proxy.cuh; host threads in
// the tests) and one proxy thread per PE. A ring of 2^k 16-byte slots; producers reserve slots
// with one atomic add on `head` (2 slots for a trigger with an extension), wait while the ring is
// full (backpressure: head - tail > capacity), write the extension, then the trigger's word 1 and
// last its word 0 with release order. The proxy reads word 0 with acquire order (non-zero =
// ready), handles the trigger, zeroes the slot(s), advances `tail` and publishes `completed`,
// which quiet waits on: a producer's quiet returns when completed >= the index after its last
// reserved slot. No trigger is lost: a slot is only reused after the proxy zeroed it and moved
// tail past it.
#pragma once
#include <atomic>
#include <cstdint>
#include <vector>

#include "common/wait.hpp"
#include "gshmem/device_host/trigger.h"

namespace gshmem::proxy {

class Fifo {
 public:
  struct alignas(16) Slot {
    std::atomic<uint64_t> w0;
    uint64_t w1;
  };
  static_assert(sizeof(Slot) == sizeof(gshmem_trigger), "a slot is one trigger");

  // A FIFO whose slots and counters live in this object (host producers: the tests).
  explicit Fifo(uint32_t log2_slots)
      : mask_((1u << log2_slots) - 1), own_(size_t(1) << log2_slots), slots_(own_.data()), tail_(&own_tail_),
        completed_(&own_completed_) {
    for (auto& s : own_) {
      s.w0.store(0, std::memory_order_relaxed);
      s.w1 = 0;
    }
  }
  // The proxy's view of a FIFO in memory it does not own (GPU producers: host-pinned slots and
  // counters mapped into the GPU; the producers' head lives on the GPU). slots must be zeroed;
  // push() is not used on such a FIFO.
  Fifo(uint32_t log2_slots, Slot* slots, std::atomic<uint64_t>* tail, std::atomic<uint64_t>* completed)
      : mask_((1u << log2_slots) - 1), slots_(slots), tail_(tail), completed_(completed) {}
  Fifo(const Fifo&) = delete;
  Fifo& operator=(const Fifo&) = delete;
  uint64_t capacity() const { return mask_ + 1; }

  // Pushes t and its extension slots (as many as its flags say: 0, 1 or 2, read from ext);
  // returns the index after the last slot used (for quiet).
  uint64_t push(const gshmem_trigger& t, const gshmem_trigger* ext = nullptr) {
    const uint64_t n_ext = GSHMEM_TRIG_EXT_SLOTS(gshmem_trigger_decode(t).flags);
    const uint64_t n = 1 + n_ext;
    const uint64_t idx = head_.fetch_add(n, std::memory_order_relaxed);
    Backoff b;
    for (Backoff::State s; idx + n - tail_->load(std::memory_order_acquire) > capacity();) b(s);  // full
    for (uint64_t i = 0; i < n_ext; ++i) write(idx + 1 + i, ext[i], true);
    write(idx, t, false);
    return idx + n;
  }

  // Proxy side: handles every ready trigger in order; returns how many slots were consumed.
  // handler(const gshmem_trigger&, const gshmem_trigger* ext) (ext: the extension slots, or null)
  // performs the operation; each trigger counts as completed when its handler returns.
  template <typename Handler>
  uint64_t poll(Handler&& handler) {
    return drain([&](const gshmem_trigger& t, const gshmem_trigger* ext, uint64_t) { handler(t, ext); }, true);
  }

  // Proxy side for engines that complete asynchronously: like poll, but handler(trigger, ext,
  // number of extension slots) only starts the operation; the slots are freed (tail advances: the
  // trigger was copied out) but completion is published later with publish_completed, after the
  // engine has finished everything it started.
  // At most max_slots are taken per call (so a producer that never stops cannot hold completion back).
  template <typename Handler>
  uint64_t poll_deferred(Handler&& handler, uint64_t max_slots = ~0ull) {
    return drain(handler, false, max_slots);
  }
  // Every slot before upto has completed (quiet may return for pushes that ended there).
  void publish_completed(uint64_t upto) { completed_->store(upto, std::memory_order_release); }
  uint64_t tail() const { return tail_->load(std::memory_order_acquire); }

  // Waits until every slot before `upto` (a value push returned) has been handled.
  void quiet(uint64_t upto) const {
    Backoff b;
    for (Backoff::State s; completed_->load(std::memory_order_acquire) < upto;) b(s);
  }
  uint64_t completed() const { return completed_->load(std::memory_order_acquire); }

 private:
  template <typename Handler>
  uint64_t drain(Handler&& handler, bool complete_each, uint64_t max_slots = ~0ull) {
    uint64_t consumed = 0;
    while (consumed < max_slots) {
      const uint64_t t = tail_->load(std::memory_order_relaxed);
      Slot& s = slots_[t & mask_];
      const uint64_t w0 = s.w0.load(std::memory_order_acquire);
      if (!w0) break;
      gshmem_trigger trig{w0, s.w1};
      const uint64_t n_ext = GSHMEM_TRIG_EXT_SLOTS(gshmem_trigger_decode(trig).flags);
      gshmem_trigger ext[2]{};
      for (uint64_t i = 0; i < n_ext; ++i) read_ext(t + i, &ext[i]);
      handler(trig, n_ext ? ext : nullptr, n_ext);
      const uint64_t n = 1 + n_ext;
      for (uint64_t i = 0; i < n; ++i) slots_[(t + i) & mask_].w0.store(0, std::memory_order_relaxed);
      tail_->store(t + n, std::memory_order_release);
      if (complete_each) completed_->store(t + n, std::memory_order_release);
      consumed += n;
    }
    return consumed;
  }
  // A trigger's word 0 is never zero (op != NONE) and is stored last with release order; the
  // extension (any 128 bits: operands may be all ones) is written before it, so the proxy's
  // acquire load of the trigger's word 0 makes the extension visible too.
  void write(uint64_t idx, const gshmem_trigger& t, bool ext) {
    Slot& s = slots_[idx & mask_];
    s.w1 = t.w1;
    s.w0.store(t.w0, ext ? std::memory_order_relaxed : std::memory_order_release);
  }
  void read_ext(uint64_t t, gshmem_trigger* ext) const {
    const Slot& e = slots_[(t + 1) & mask_];
    ext->w0 = e.w0.load(std::memory_order_relaxed);
    ext->w1 = e.w1;
  }
  const uint64_t mask_;
  std::vector<Slot> own_;
  Slot* slots_;
  alignas(64) std::atomic<uint64_t> head_{0};
  alignas(64) std::atomic<uint64_t> own_tail_{0};
  alignas(64) std::atomic<uint64_t> own_completed_{0};
  std::atomic<uint64_t>* tail_;
  std::atomic<uint64_t>* completed_;
};

}  // namespace gshmem::proxy
