// Trigger format round trip, and the FIFO under pressure: 8 producer threads push 100,000
// triggers (a third of them with an extension slot) through a 64-slot ring while one proxy
// thread consumes; every trigger must arrive exactly once, intact, in per-producer order, and
// quiet must only return after the producer's triggers were handled.
#include <gtest/gtest.h>

#include <atomic>
#include <random>
#include <thread>
#include <vector>

#include "proxy/fifo.hpp"

TEST(Trigger, RoundTripAndLimits) {
  std::mt19937_64 rng(std::random_device{}());
  for (int i = 0; i < 10000; ++i) {
    const uint32_t op = 1 + rng() % 6, flags = rng() % 2, pe = rng() & GSHMEM_TRIGGER_MAX_PE, seg = rng() % 16;
    const uint64_t size = rng() & GSHMEM_TRIGGER_MAX_SIZE, off = rng() & GSHMEM_TRIGGER_MAX_OFFSET;
    const gshmem_trigger t = gshmem_trigger_encode(op, flags, pe, size, off, seg);
    const gshmem_trigger_fields f = gshmem_trigger_decode(t);
    ASSERT_EQ(f.op, op);
    ASSERT_EQ(f.flags, flags);
    ASSERT_EQ(f.pe, pe);
    ASSERT_EQ(f.size, size);
    ASSERT_EQ(f.dst_off, off);
    ASSERT_EQ(f.segment, seg);
    ASSERT_EQ(f.version, GSHMEM_TRIGGER_VERSION);
    ASSERT_NE(t.w0, 0u);  // a valid trigger never looks like an empty slot
  }
  static_assert(sizeof(gshmem_trigger) == 16);
}

TEST(TriggerFifo, NoTriggerLostUnderBackpressure) {
  gshmem::proxy::Fifo fifo(6);  // 64 slots
  constexpr int kProducers = 8, kPerProducer = 12500;
  std::atomic<bool> done{false};
  std::vector<std::vector<uint32_t>> seen(kProducers);
  std::atomic<uint64_t> bad{0};
  std::thread proxy([&] {
    uint64_t got = 0;
    while (got < uint64_t(kProducers) * kPerProducer) {
      fifo.poll([&](const gshmem_trigger& t, const gshmem_trigger* ext) {
        const gshmem_trigger_fields f = gshmem_trigger_decode(t);
        const int producer = static_cast<int>(f.pe);
        const uint32_t seq = static_cast<uint32_t>(f.dst_off);
        // the payload is a function of (producer, seq); the extension carries it again
        if (f.size != (uint64_t(producer) << 20 | seq) || (ext && (ext->w0 != seq || ext->w1 != ~uint64_t(seq))) ||
            (bool(f.flags & GSHMEM_TRIG_FLAG_EXT) != (ext != nullptr)))
          bad.fetch_add(1);
        seen[static_cast<size_t>(producer)].push_back(seq);
        ++got;
      });
    }
    done = true;
  });
  std::vector<std::thread> producers;
  std::atomic<int> quiet_violations{0};
  for (int p = 0; p < kProducers; ++p)
    producers.emplace_back([&, p] {
      for (uint32_t seq = 0; seq < kPerProducer; ++seq) {
        const bool with_ext = seq % 3 == 0;
        const gshmem_trigger t = gshmem_trigger_encode(GSHMEM_TRIG_PUT, with_ext ? GSHMEM_TRIG_FLAG_EXT : 0,
                                                       static_cast<uint32_t>(p), uint64_t(p) << 20 | seq, seq, 0);
        const gshmem_trigger ext{seq, ~uint64_t(seq)};
        const uint64_t upto = fifo.push(t, with_ext ? &ext : nullptr);
        if (seq % 1000 == 999) {
          fifo.quiet(upto);
          if (fifo.completed() < upto) quiet_violations.fetch_add(1);
        }
      }
    });
  for (auto& t : producers) t.join();
  proxy.join();
  EXPECT_TRUE(done.load());
  EXPECT_EQ(bad.load(), 0u);
  EXPECT_EQ(quiet_violations.load(), 0);
  for (int p = 0; p < kProducers; ++p) {
    ASSERT_EQ(seen[static_cast<size_t>(p)].size(), size_t(kPerProducer)) << "producer " << p;
    for (uint32_t i = 0; i < kPerProducer; ++i)
      ASSERT_EQ(seen[static_cast<size_t>(p)][i], i) << "producer " << p << " out of order or duplicated";
  }
}
