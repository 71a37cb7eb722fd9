// The proxy executor over the trigger FIFO with an engine that completes asynchronously (it
// performs operations only when flushed, as a copy engine or network would): four producer
// threads push puts with signals, gets, and atomics (including all-ones operands) to three
// simulated PEs' memory; after each quiet the data must be there, the signal counts exact, every
// fetch-add must return a distinct old value, and malformed triggers are rejected, not performed.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "proxy/executor.hpp"

namespace {
using gshmem::proxy::Executor;
using gshmem::proxy::Fifo;

constexpr int kPes = 3, kProducers = 4;
constexpr size_t kSegBytes = 1 << 20;
constexpr uint64_t kInlineOff = 512 * 1024;  // inline puts: 256 bytes per producer

using gshmem::Status;
using gshmem::transport::Caps;
using gshmem::transport::Result;
using gshmem::transport::Seg;
using gshmem::transport::Transport;

// A transport that performs its operations only at quiet (as a copy engine or network would):
// the executor must quiet it after every batch before it publishes completion.
class DeferredTransport : public Transport {
 public:
  explicit DeferredTransport(std::vector<std::vector<unsigned char>>& seg) : seg_(seg) {}
  const char* name() const override { return "deferred"; }
  Caps caps() const override { return {}; }
  bool reaches(int) const override { return true; }
  Result put_nbi(int pe, Seg, uint64_t off, const void* src, size_t n) override {
    check(pe, off, n);
    pending_.push_back([=, this] { memcpy(seg_[pe].data() + off, src, n); });
    return {};
  }
  // The blocking form the executor uses for inline data: copied now, performed later.
  Result put(int pe, Seg, uint64_t off, const void* data, size_t n) override {
    check(pe, off, n);
    std::array<unsigned char, 16> v{};
    memcpy(v.data(), data, n);  // the trigger's slot is reused once this returns
    pending_.push_back([=, this] { memcpy(seg_[pe].data() + off, v.data(), n); });
    return {};
  }
  Result get_nbi(int pe, Seg, uint64_t off, void* dst, size_t n) override {
    check(pe, off, n);
    pending_.push_back([=, this] { memcpy(dst, seg_[pe].data() + off, n); });
    return {};
  }
  Result get(int pe, Seg s, uint64_t off, void* dst, size_t n) override {
    (void)get_nbi(pe, s, off, dst, n);
    return quiet();
  }
  Result signal(int pe, Seg, uint64_t off, uint64_t v, int op) override {
    check(pe, off, 8);
    pending_.push_back([=, this] {
      std::atomic_ref<uint64_t> w(*reinterpret_cast<uint64_t*>(seg_[pe].data() + off));
      if (op == SHMEM_SIGNAL_ADD) w.fetch_add(v);
      else w.store(v);
    });
    return {};
  }
  Result amo_nbi(int pe, Seg, uint64_t off, gshmem_amo_op op, size_t bytes, uint64_t a, uint64_t b,
                 uint64_t* old) override {
    check(pe, off, bytes);
    pending_.push_back([=, this] {
      if (bytes == 8) *write_old(old) = apply<uint64_t>(pe, off, op, a, b);
      else *write_old(old) = apply<uint32_t>(pe, off, op, static_cast<uint32_t>(a), static_cast<uint32_t>(b));
    });
    return {};
  }
  Result amo(int pe, Seg s, uint64_t off, gshmem_amo_op op, size_t bytes, uint64_t a, uint64_t b, uint64_t* old) override {
    (void)amo_nbi(pe, s, off, op, bytes, a, b, old);
    return quiet();
  }
  Result fence() override { return {}; }
  Result quiet() override {
    for (auto& f : pending_) f();
    pending_.clear();
    ++flushes;
    return {};
  }
  uint64_t flushes = 0;

 private:
  static uint64_t* write_old(uint64_t* old) {
    static thread_local uint64_t sink;
    return old ? old : &sink;
  }
  void check(int pe, uint64_t off, uint64_t n) const {
    ASSERT_LT(pe, kPes);
    ASSERT_LE(off + n, kSegBytes);
  }
  template <typename T>
  uint64_t apply(int pe, uint64_t off, gshmem_amo_op op, T a, T b) {
    std::atomic_ref<T> w(*reinterpret_cast<T*>(seg_[pe].data() + off));
    switch (op) {
      case GSHMEM_AMO_FETCH: return w.load();
      case GSHMEM_AMO_SET: return w.exchange(a);
      case GSHMEM_AMO_SWAP: return w.exchange(a);
      case GSHMEM_AMO_CSWAP: {  // (a = expected, b = new value): device_host/ops.h
        T expected = a;
        w.compare_exchange_strong(expected, b);
        return expected;
      }
      case GSHMEM_AMO_ADD: return w.fetch_add(a);
      case GSHMEM_AMO_AND: return w.fetch_and(a);
      case GSHMEM_AMO_OR: return w.fetch_or(a);
      default: return w.fetch_xor(a);
    }
  }
  std::vector<std::vector<unsigned char>>& seg_;
  std::vector<std::function<void()>> pending_;
};

uint64_t push_put(Fifo& f, uint32_t pe, uint64_t off, const void* src, uint64_t n) {
  gshmem_trigger t, e;
  gshmem_trigger_put(pe, 0, off, reinterpret_cast<uintptr_t>(src), n, &t, &e);
  return f.push(t, &e);
}
uint64_t push_put_inline(Fifo& f, uint32_t pe, uint64_t off, const void* src, uint64_t n) {
  gshmem_trigger t, e;
  uint64_t w[2] = {0, 0};
  memcpy(w, src, n);
  gshmem_trigger_put_inline(pe, 0, off, w[0], w[1], n, &t, &e);
  return f.push(t, &e);
}
uint64_t push_get(Fifo& f, uint32_t pe, uint64_t off, void* dst, uint64_t n) {
  gshmem_trigger t, e;
  gshmem_trigger_get(pe, 0, off, reinterpret_cast<uintptr_t>(dst), n, &t, &e);
  return f.push(t, &e);
}
uint64_t push_signal(Fifo& f, uint32_t pe, uint64_t off, uint64_t v, uint32_t op) {
  gshmem_trigger t, e;
  gshmem_trigger_signal(pe, 0, off, v, op, &t, &e);
  return f.push(t, &e);
}
uint64_t push_amo(Fifo& f, uint32_t pe, uint64_t off, gshmem_amo_op op, uint32_t bytes, uint64_t a, uint64_t b, uint64_t* old) {
  gshmem_trigger t, e[2];
  gshmem_trigger_amo(pe, 0, off, op, bytes, a, b, reinterpret_cast<uintptr_t>(old), &t, e);
  return f.push(t, e);
}
}  // namespace

TEST(ProxyExecutor, DeferredCompletionPutsSignalsGetsAtomics) {
  std::vector<std::vector<unsigned char>> seg(kPes, std::vector<unsigned char>(kSegBytes, 0));
  Fifo fifo(7);  // 128 slots: plenty of backpressure
  DeferredTransport engine(seg);
  Executor exec(fifo, {&engine, &engine, &engine});
  std::atomic<bool> stop{false};
  std::thread proxy([&] {
    while (!stop.load(std::memory_order_acquire)) exec.poll();
    exec.poll();
  });
  constexpr int kIters = 400;
  constexpr uint64_t kCounterOff = kSegBytes - 64;  // 8-byte fetch-add counter on PE 0
  std::vector<std::vector<uint64_t>> fetched(kProducers);
  std::atomic<int> failures{0};
  auto fail = [&](const char* what, int p, int i) {
    if (failures.fetch_add(1) < 10) ADD_FAILURE() << what << " (producer " << p << ", iteration " << i << ")";
  };
  std::vector<std::thread> producers;
  for (int p = 0; p < kProducers; ++p)
    producers.emplace_back([&, p] {
      std::mt19937_64 rng(0x5eed + p);
      std::vector<unsigned char> src(16 * 4096), back(4096);
      std::vector<uint64_t> olds(kIters, ~0ull);
      unsigned char inline_want[16 * 16] = {};
      uint64_t inline_len[16] = {};
      const uint32_t target = static_cast<uint32_t>((p + 1) % kPes);
      const uint64_t region = static_cast<uint64_t>(p) * 65536, sig_off = kSegBytes - 128 - 8 * p;
      for (int i = 0; i < kIters; ++i) {
        unsigned char* s = src.data() + (i % 16) * 4096;
        const uint64_t n = 1 + rng() % 4096, off = region + (i % 16) * 4096;
        for (uint64_t k = 0; k < n; ++k) s[k] = static_cast<unsigned char>(rng());
        push_put(fifo, target, off, s, n);
        // inline (<= 16 bytes, data in the trigger) right after the copied part; the source
        // buffer is overwritten at once, which an inline put allows
        const uint64_t ni = 1 + rng() % GSHMEM_TRIG_INLINE_MAX;
        unsigned char inl[16];
        for (uint64_t k = 0; k < ni; ++k) inl[k] = static_cast<unsigned char>(rng());
        push_put_inline(fifo, target, kInlineOff + p * 256 + (i % 16) * 16, inl, ni);
        memcpy(inline_want + (i % 16) * 16, inl, ni);
        inline_len[i % 16] = ni;
        memset(inl, 0xee, sizeof inl);
        push_signal(fifo, target, sig_off, 1, 1);                                           // ADD
        push_amo(fifo, 0, kCounterOff, GSHMEM_AMO_ADD, 8, 1, 0, &olds[static_cast<size_t>(i)]);
        if (i % 8 == 7) {
          const uint64_t upto = push_get(fifo, target, off, back.data(), n);
          fifo.quiet(upto);
          if (memcmp(seg[target].data() + off, s, n) != 0) fail("put data not there after quiet", p, i);
          if (memcmp(back.data(), s, n) != 0) fail("get did not return the put data", p, i);
          for (int k = 0; k <= i % 16 && k <= i; ++k)
            if (memcmp(seg[target].data() + kInlineOff + p * 256 + k * 16, inline_want + k * 16, inline_len[k]) != 0)
              fail("inline put data not there after quiet", p, i);
          const uint64_t sig = std::atomic_ref<uint64_t>(*reinterpret_cast<uint64_t*>(seg[target].data() + sig_off)).load();
          if (sig != static_cast<uint64_t>(i + 1)) fail("signal count", p, i);
          if (olds[static_cast<size_t>(i)] == ~0ull) fail("fetch-add result missing after quiet", p, i);
        }
      }
      fifo.quiet(push_put(fifo, target, region, src.data(), 1));
      fetched[static_cast<size_t>(p)] = olds;
    });
  for (auto& t : producers) t.join();
  // all-ones operands (an extension word of all ones must not look like an empty slot) and cswap
  uint64_t old1 = 0, old2 = 0, old3 = 0;
  push_amo(fifo, 1, 64, GSHMEM_AMO_SET, 8, ~0ull, 0, &old1);
  push_amo(fifo, 1, 64, GSHMEM_AMO_CSWAP, 8, ~0ull, 5, &old2);  // expected ~0, new 5
  fifo.quiet(push_amo(fifo, 1, 64, GSHMEM_AMO_FETCH, 8, 0, 0, &old3));
  EXPECT_EQ(old2, ~0ull);
  EXPECT_EQ(old3, 5u);
  uint32_t o32 = 0;
  uint64_t o32w = 0;
  push_amo(fifo, 2, 128, GSHMEM_AMO_SET, 4, 0xffffffffu, 0, nullptr);
  fifo.quiet(push_amo(fifo, 2, 128, GSHMEM_AMO_XOR, 4, 0x0f0f0f0fu, 0, &o32w));
  memcpy(&o32, seg[2].data() + 128, 4);
  EXPECT_EQ(o32w, 0xffffffffu);
  EXPECT_EQ(o32, 0xf0f0f0f0u);
  // a malformed trigger (unknown operation) is rejected, the FIFO keeps working
  const gshmem_trigger bad = gshmem_trigger_encode(9, GSHMEM_TRIG_FLAG_EXT, 0, 8, 0, 0);
  const gshmem_trigger bad_ext{0, 0};
  fifo.quiet(fifo.push(bad, &bad_ext));
  stop.store(true, std::memory_order_release);
  proxy.join();
  EXPECT_EQ(failures.load(), 0);
  EXPECT_EQ(exec.rejected(), 1u);
  // every fetch-add returned a distinct old value: exactly 0 .. N-1
  std::vector<uint64_t> all;
  for (auto& v : fetched) all.insert(all.end(), v.begin(), v.end());
  std::sort(all.begin(), all.end());
  ASSERT_EQ(all.size(), size_t(kProducers) * kIters);
  for (size_t i = 0; i < all.size(); ++i) ASSERT_EQ(all[i], i) << "fetch-add results are not 0..N-1";
  EXPECT_EQ(*reinterpret_cast<uint64_t*>(seg[0].data() + kCounterOff), all.size());
  EXPECT_GT(engine.flushes, 0u);
}

// A transport that logs what reaches it.
struct Recorder : Transport {
  std::string& log;
  char tag;
  bool marks = false;
  uint64_t done = 0;
  Recorder(std::string& l, char t) : log(l), tag(t) {}
  const char* name() const override { return "recorder"; }
  Result put(int pe, Seg, uint64_t, const void*, size_t) override { return note("I", pe); }
  Result put_nbi(int pe, Seg, uint64_t, const void*, size_t) override { return note("", pe); }
  Result get(int pe, Seg, uint64_t, void*, size_t) override { return note("g", pe); }
  Result get_nbi(int pe, Seg, uint64_t, void*, size_t) override { return note("G", pe); }
  Result signal(int pe, Seg, uint64_t, uint64_t, int) override { return note("S", pe); }
  Result amo(int pe, Seg, uint64_t, gshmem_amo_op, size_t, uint64_t, uint64_t, uint64_t*) override { return note("a", pe); }
  Result amo_nbi(int pe, Seg, uint64_t, gshmem_amo_op, size_t, uint64_t, uint64_t, uint64_t*) override {
    return note("A", pe);
  }
  Result fence() override {
    log += std::string("|") + tag;
    return {};
  }
  Result quiet() override { return {}; }
  Caps caps() const override {
    Caps c;
    c.marks = marks;
    return c;
  }
  bool reaches(int) const override { return true; }
  Result mark(uint64_t token) override {
    log += std::string("m") + tag + std::to_string(token);
    return {};
  }
  uint64_t marked_done() override { return done; }
  Result note(const char* what, int pe) {
    log += tag + std::string(what) + std::to_string(pe);
    return {};
  }
};

// FENCE reaches the transport between the operations it separates; a FENCE carrying extension
// slots is rejected, and so is a trigger for a PE the proxy does not route.
TEST(ProxyExecutor, FenceReachesTheTransportInOrder) {
  std::string log;
  Recorder t(log, 'x');
  Fifo fifo(6);
  Executor exec(fifo, {nullptr, &t, &t});
  char buf[64] = {};
  push_put(fifo, 1, 0, buf, 64);
  fifo.push(gshmem_trigger_fence());
  push_put(fifo, 2, 0, buf, 64);
  push_signal(fifo, 2, 8, 1, SHMEM_SIGNAL_SET);
  const gshmem_trigger bad_fence = gshmem_trigger_encode(GSHMEM_TRIG_FENCE, GSHMEM_TRIG_FLAG_EXT, 0, 0, 0, 0);
  const gshmem_trigger ext{1, 2};
  fifo.push(bad_fence, &ext);
  fifo.push(gshmem_trigger_fence());
  push_get(fifo, 1, 0, buf, 8);
  push_put(fifo, 0, 0, buf, 8);  // pe 0 is not routed through the proxy
  while (exec.poll()) {
  }
  EXPECT_EQ(log, "x1|xx2xS2|xxG1");
  EXPECT_EQ(exec.rejected(), 2u);
  EXPECT_EQ(gshmem_trigger_decode(gshmem_trigger_fence()).op, static_cast<uint32_t>(GSHMEM_TRIG_FENCE));
  EXPECT_EQ(GSHMEM_TRIG_EXT_SLOTS(gshmem_trigger_decode(gshmem_trigger_fence()).flags), 0u);
}

// The route table (what the executor drives in production): every trigger reaches the transport
// of its PE's route, inline data through the blocking put, a FENCE reaches every transport once.
TEST(ProxyExecutor, RoutesAndForwardsFence) {
  std::string log;
  Recorder ce(log, 'c'), tcp(log, 't'), ib(log, 'i');
  Fifo fifo(6);
  Executor exec(fifo, {nullptr, &ce, &tcp, &ib, &tcp});
  char buf[64] = {};
  push_put(fifo, 1, 0, buf, 64);
  push_put(fifo, 2, 0, buf, 64);
  fifo.push(gshmem_trigger_fence());
  push_put(fifo, 3, 0, buf, 64);
  push_put_inline(fifo, 4, 0, buf, 8);
  push_signal(fifo, 1, 8, 1, SHMEM_SIGNAL_SET);
  push_amo(fifo, 3, 16, GSHMEM_AMO_ADD, 8, 1, 0, nullptr);
  while (exec.poll()) {
  }
  EXPECT_EQ(log, "c1t2|c|t|ii3tI4cS1iA3");
  EXPECT_EQ(exec.rejected(), 0u);
}

// Completion with a transport that completes asynchronously (marks) next to a blocking one: after
// a batch the blocking one is quieted, the marking one marked at the batch's end, and the count
// producers wait for never passes the marks that are done.
TEST(ProxyExecutor, CompletionFollowsMarks) {
  std::string log;
  Recorder ce(log, 'c'), tcp(log, 't');
  ce.marks = true;
  Fifo fifo(6);
  Executor exec(fifo, {nullptr, &ce, &tcp});
  char buf[64] = {};
  push_put(fifo, 1, 0, buf, 64);
  const uint64_t end = push_put(fifo, 2, 0, buf, 64);
  EXPECT_EQ(exec.poll(), end);
  EXPECT_EQ(log, "c1t2mc4");
  EXPECT_EQ(fifo.completed(), 0u) << "published before the copy engine's mark was done";
  EXPECT_TRUE(exec.outstanding());
  ce.done = 2;  // the first trigger's mark is done (a transport may report any token it reached)
  EXPECT_EQ(exec.poll(), 0u);
  EXPECT_EQ(fifo.completed(), 2u);
  ce.done = end;
  exec.poll();
  EXPECT_EQ(fifo.completed(), end);
  EXPECT_FALSE(exec.outstanding());
}
