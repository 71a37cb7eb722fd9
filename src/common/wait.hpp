// CPU-side waiting. Waits must make progress when PEs outnumber cores (CI runs 4 PEs on 2 cores):
// spin briefly, then yield for a while (GSHMEM_WAIT_YIELD_US: a yield returns at once when no
// other thread wants the core, so a waiter woken by its flag reacts within a microsecond; a
// sleeping one only after its sleep), then sleep with a growing interval; while sleeping,
// periodically check that every PE is alive so a wait on a dead PE ends with a message instead
// of hanging.
#pragma once
#include <sched.h>
#include <time.h>

#include <atomic>
#include <cstdint>

namespace gshmem {

// Set by the runtime: checks that every PE is alive (bootstrap), may end the process with a message.
extern void (*g_wait_health_hook)();
// Set by the runtime while transports run: work a waiting thread does for them (serving peers'
// requests that need this PE, as a software-emulated RMA over TCP does), so a PE that waits
// answers its peers without waking another thread.
extern void (*g_wait_progress_hook)();
// Moved by busy (spinning or yielding) wait rounds that call g_wait_progress_hook (a lost update
// between two threads still moves it): while it keeps changing, some thread progresses the transports
// within microseconds, and a transport's progress thread stays off them (it would take the core
// and the engine's lock from that thread).
extern std::atomic<uint64_t> g_wait_driven;
// Raises a flag word whose values only grow to v unless it holds more already (release: what was
// written before is seen by whoever sees the flag): team boxes, transports' raised flags.
// Word: std::atomic<uint64_t>& or std::atomic_ref<uint64_t> (a plain word in shared memory).
template <typename Word>
inline void raise_to(Word&& w, uint64_t v) {
  uint64_t cur = w.load(std::memory_order_relaxed);
  while (cur < v && !w.compare_exchange_weak(cur, v, std::memory_order_release, std::memory_order_relaxed)) {
  }
}
// Set while a context gathers small puts (an OpenSHMEM 1.6 batch session, api/ctx.cpp): sends
// them when a thread starts to wait, so a wait for a peer's answer to them cannot stall on puts
// this PE holds back.
extern std::atomic<void (*)()> g_wait_flush_hook;
extern uint32_t g_wait_spin;
extern uint32_t g_wait_yield_us;
// g_wait_yield_us for waits that never sleep (a core for every PE, and transports that need
// this PE's progress: its peers' requests are answered by the waiting thread at once). The health
// monitor thread still ends a wait on a dead PE.
constexpr uint32_t kWaitYieldForever = ~uint32_t{0};
// g_wait_spin where a host has more PEs than cores (measured with 4 CPU PEs on 2 cores: a
// barrier takes 5-7 us with 0-64 polls before yielding, 12 us with 200, 150 us with 2000).
constexpr uint32_t kOversubscribedSpin = 64;
extern uint32_t g_health_ms;
inline void wait_health_check() {
  if (g_wait_health_hook) g_wait_health_hook();
}

struct Backoff {
  struct State {
    uint32_t iter = 0;
    uint32_t sleep_us = 1;
    uint32_t slept_us = 0;
    uint64_t yield_end_ns = 0;  // 0: the yield phase has not started; ~0: it is over
  };
  static uint64_t now_ns() {
    timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return static_cast<uint64_t>(t.tv_sec) * 1000000000u + static_cast<uint64_t>(t.tv_nsec);
  }
  void operator()(State& s) const {
    if (s.iter == 0) {
      if (void (*flush)() = g_wait_flush_hook.load(std::memory_order_relaxed)) flush();
    }
    ++s.iter;
    if (g_wait_progress_hook) {
      // every 16th busy round: readers look every 100 us or more, and a store every round would
      // bounce the line between waiting threads
      if ((s.iter & 15) == 1 && s.yield_end_ns != ~uint64_t{0})
        g_wait_driven.store(g_wait_driven.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);
      g_wait_progress_hook();
    }
    if (s.iter < g_wait_spin) {
#if defined(__x86_64__) || defined(__i386__)
      __builtin_ia32_pause();
#elif defined(__aarch64__)
      asm volatile("yield" ::: "memory");
#endif
      return;
    }
    if (s.yield_end_ns != ~uint64_t{0}) {
      // at least 64 yields, then until GSHMEM_WAIT_YIELD_US have passed (the clock read every 64)
      const uint32_t k = s.iter - g_wait_spin;
      if (s.yield_end_ns == 0)
        s.yield_end_ns =
            g_wait_yield_us == kWaitYieldForever ? ~uint64_t{1} : now_ns() + uint64_t{g_wait_yield_us} * 1000u;
      if (k < 64 || (k % 64 != 0) || now_ns() < s.yield_end_ns) {
        sched_yield();
        return;
      }
      s.yield_end_ns = ~uint64_t{0};
    }
    timespec ts{0, static_cast<long>(s.sleep_us) * 1000};
    nanosleep(&ts, nullptr);
    s.slept_us += s.sleep_us;
    if (s.sleep_us < 256) s.sleep_us *= 2;
    if (s.slept_us >= g_health_ms * 1000u) {
      s.slept_us = 0;
      wait_health_check();
    }
  }
};

// Spins until pred() holds.
template <typename Pred>
inline void wait_for(Pred&& pred) {
  Backoff b;
  for (Backoff::State s; !pred();) b(s);
}

}  // namespace gshmem
