// Which lane (stream) of a target PE each copy-engine operation goes to, and the cross-lane waits
// that keep the order the executor promises (executor.hpp). No CUDA here: the copy engine turns a
// wait into an event record and a stream wait; the unit test runs the plan on simulated queues.
//
// * A PUT of at least spread_min bytes goes to the PE's lanes in turn, so several copies to one
//   PE overlap (one stream runs its copies one after another, with a start-up gap each).
// * Every other operation goes to lane 0: small PUTs (no waits), GET, SIGNAL and AMO (first lane 0
//   waits for every lane that has work since the last such join: they come after everything
//   earlier to their PE).
// * FENCE: the next operation to each PE first joins every lane into lane 0, and each other lane
//   waits for lane 0 before the next operation it takes. Work that came before the fence on any
//   lane is thereby before everything after it.
#pragma once
#include <cstdint>
#include <vector>

namespace gshmem::transport {

class LanePlan {
 public:
  enum class Kind { put_small, put_large, ordered };
  class Waits {
   public:
    virtual ~Waits() = default;
    // Lane `waiter` of pe runs nothing more until everything enqueued on lane `on` so far is done.
    virtual void wait(uint32_t pe, unsigned waiter, unsigned on) = 0;
  };

  static constexpr unsigned kMaxLanes = 16;
  LanePlan(uint32_t npes, unsigned lanes) : lanes_(lanes < 1 ? 1 : lanes > kMaxLanes ? kMaxLanes : lanes), pes_(npes) {}
  unsigned lanes() const { return lanes_; }

  // The lane for the next operation of kind k to pe; the waits it needs first go to w.
  unsigned place(uint32_t pe, Kind k, Waits& w) {
    Pe& p = pes_[pe];
    if (p.epoch != epoch_) {  // a fence since this PE's last operation
      p.epoch = epoch_;
      if (p.since_fence) {
        join(pe, p, w);
        p.behind = all() & ~1u;
        p.since_fence = false;
      }
    }
    p.since_fence = true;
    unsigned lane = 0;
    if (k == Kind::ordered) join(pe, p, w);
    if (k == Kind::put_large) lane = p.next++ % lanes_;
    const uint32_t bit = 1u << lane;
    if (lane) {
      if (p.behind & bit) w.wait(pe, lane, 0);
      p.behind &= ~bit;
      p.dirty |= bit;
    }
    p.used |= bit;
    return lane;
  }
  void fence() { ++epoch_; }
  // The lanes of pe (bit i: lane i) used since the last call.
  uint32_t take_used(uint32_t pe) {
    const uint32_t u = pes_[pe].used;
    pes_[pe].used = 0;
    return u;
  }

 private:
  struct Pe {
    uint32_t dirty = 0;   // lanes > 0 with work lane 0 has not waited for
    uint32_t behind = 0;  // lanes > 0 that must wait for lane 0 (a fence) before their next operation
    uint32_t used = 0;    // since take_used
    uint64_t epoch = 0;   // the fence count at this PE's last operation
    bool since_fence = false;
    unsigned next = 0;  // round robin for large puts
  };
  uint32_t all() const { return (1u << lanes_) - 1; }
  static void join(uint32_t pe, Pe& p, Waits& w) {
    for (unsigned i = 1; p.dirty >> i; ++i)
      if (p.dirty & (1u << i)) w.wait(pe, 0, i);
    p.dirty = 0;
  }
  unsigned lanes_;
  std::vector<Pe> pes_;
  uint64_t epoch_ = 0;
};

}  // namespace gshmem::transport
