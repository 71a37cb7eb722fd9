// The copy-engine proxy's lane plan (src/transport/copy_engine/lanes.hpp) run on simulated streams: each lane is a
// queue whose head runs when a random scheduler picks it (a wait item only once the lane it waits
// for has finished everything enqueued before the wait was). Random operation mixes with random
// fences, 1 to 5 lanes, 3 PEs. Checked on every run: a GET/SIGNAL/AMO ("ordered") ran after every
// earlier operation to its PE; every operation after a fence ran after every operation before
// the fence to its PE; nothing deadlocks; take_used names every lane that ran something. And the
// point of lanes: large PUTs to one PE do run out of issue order (concurrently) when no fence or
// ordered operation separates them.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>
#include <vector>

#include "transport/copy_engine/lanes.hpp"
#include "transport/copy_engine/merge.hpp"

namespace {
using gshmem::transport::LanePlan;
using Kind = LanePlan::Kind;

struct Item {
  bool is_wait;
  int op;            // operation index (is_wait false)
  unsigned on;       // lane waited for
  size_t upto;       // ... until this many of its items have run
};

struct Sim : LanePlan::Waits {
  Sim(uint32_t npes, unsigned lanes) : q(npes, std::vector<std::vector<Item>>(lanes)), done(npes, std::vector<size_t>(lanes, 0)) {}
  void wait(uint32_t pe, unsigned waiter, unsigned on) override {
    q[pe][waiter].push_back(Item{true, -1, on, q[pe][on].size()});
  }
  // Runs everything in a random order the waits allow; returns false on a deadlock.
  bool run(std::mt19937& rng, std::vector<long>& time) {
    long clock = 0;
    for (;;) {
      std::vector<std::pair<uint32_t, unsigned>> ready;
      bool left = false;
      for (uint32_t pe = 0; pe < q.size(); ++pe)
        for (unsigned l = 0; l < q[pe].size(); ++l) {
          if (done[pe][l] == q[pe][l].size()) continue;
          left = true;
          const Item& it = q[pe][l][done[pe][l]];
          if (!it.is_wait || done[pe][it.on] >= it.upto) ready.emplace_back(pe, l);
        }
      if (!left) return true;
      if (ready.empty()) return false;
      const auto [pe, l] = ready[rng() % ready.size()];
      const Item& it = q[pe][l][done[pe][l]++];
      if (!it.is_wait) time[static_cast<size_t>(it.op)] = clock++;
    }
  }
  std::vector<std::vector<std::vector<Item>>> q;
  std::vector<std::vector<size_t>> done;
};

struct Op {
  uint32_t pe;
  Kind kind;
  uint64_t fences_before;  // fences issued before this operation
};

// One random program; returns how many pairs of large puts to one PE with no fence or ordered
// operation between them ran out of issue order.
int run_program(uint32_t seed, unsigned lanes, int nops, int fence_per_mille) {
  constexpr uint32_t kPes = 3;
  std::mt19937 rng(seed);
  LanePlan plan(kPes, lanes);
  Sim sim(kPes, plan.lanes());
  std::vector<Op> ops;
  std::vector<std::vector<uint32_t>> used(kPes, std::vector<uint32_t>(1, 0));
  uint64_t fences = 0;
  for (int i = 0; i < nops; ++i) {
    if (static_cast<int>(rng() % 1000) < fence_per_mille) {
      plan.fence();
      ++fences;
    }
    const uint32_t pe = rng() % kPes;
    const unsigned r = rng() % 10;
    const Kind k = r < 5 ? Kind::put_large : r < 8 ? Kind::put_small : Kind::ordered;
    const unsigned lane = plan.place(pe, k, sim);
    EXPECT_LT(lane, plan.lanes());
    if (k != Kind::put_large) {
      EXPECT_EQ(lane, 0u) << "only large puts leave lane 0";
    }
    sim.q[pe][lane].push_back(Item{false, static_cast<int>(ops.size()), 0, 0});
    ops.push_back(Op{pe, k, fences});
    used[pe][0] |= 1u << lane;
    if (rng() % 50 == 0)  // a completion mark now and then: take_used covers what ran since
      for (uint32_t p = 0; p < kPes; ++p) {
        const uint32_t u = plan.take_used(p);
        EXPECT_EQ(u & used[p][0], used[p][0]) << "take_used misses a lane of pe " << p;
        used[p][0] = 0;
      }
  }
  std::vector<long> time(ops.size(), -1);
  EXPECT_TRUE(sim.run(rng, time)) << "the planned waits deadlock (seed " << seed << ")";
  int overlapped = 0;
  for (size_t b = 0; b < ops.size(); ++b) {
    bool barrier_since = false;  // an ordered op to this PE between a and b (walking back)
    for (size_t a = b; a-- > 0;) {
      if (ops[a].pe != ops[b].pe) continue;
      const bool must = ops[b].kind == Kind::ordered || ops[a].fences_before < ops[b].fences_before;
      if (must && time[a] > time[b]) {
        ADD_FAILURE() << "op " << b << " (kind " << static_cast<int>(ops[b].kind) << ") to pe " << ops[b].pe
                      << " ran before op " << a << " (kind " << static_cast<int>(ops[a].kind) << ") although "
                      << (ops[b].kind == Kind::ordered ? "it is ordered" : "a fence separates them")
                      << "; lanes " << lanes << ", seed " << seed;
        return -1;
      }
      if (!must && !barrier_since && ops[a].kind == Kind::put_large && ops[b].kind == Kind::put_large &&
          time[a] > time[b])
        ++overlapped;
      if (ops[a].kind == Kind::ordered) barrier_since = true;
    }
  }
  return overlapped;
}
}  // namespace

TEST(LanePlan, OrderedOpsAndFencesHoldOnRandomSchedules) {
  for (unsigned lanes = 1; lanes <= 5; ++lanes)
    for (uint32_t seed = 1; seed <= 150; ++seed) {
      const int fence_rate = seed % 3 == 0 ? 0 : seed % 3 == 1 ? 30 : 250;
      ASSERT_GE(run_program(seed * 7919 + lanes, lanes, 300, fence_rate), 0);
    }
}

TEST(LanePlan, LargePutsToOnePeOverlap) {
  int one = 0, four = 0;
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    one += run_program(seed, 1, 200, 0);
    four += run_program(seed, 4, 200, 0);
  }
  EXPECT_EQ(one, 0) << "one lane is one stream: nothing may run out of order";
  EXPECT_GT(four, 100) << "four lanes: large puts to one PE should run concurrently";
}

TEST(LanePlan, RoundRobinAndClamp) {
  struct NoWaits : LanePlan::Waits {
    int n = 0;
    void wait(uint32_t, unsigned, unsigned) override { ++n; }
  } w;
  LanePlan plan(2, 4);
  std::vector<unsigned> got;
  for (int i = 0; i < 8; ++i) got.push_back(plan.place(1, Kind::put_large, w));
  EXPECT_EQ(got, (std::vector<unsigned>{0, 1, 2, 3, 0, 1, 2, 3}));
  EXPECT_EQ(w.n, 0) << "no waits among large puts with no fence";
  EXPECT_EQ(plan.take_used(1), 0xfu);
  EXPECT_EQ(plan.take_used(1), 0u);
  EXPECT_EQ(plan.take_used(0), 0u);
  EXPECT_EQ(plan.place(1, Kind::ordered, w), 0u);
  EXPECT_EQ(w.n, 3) << "an ordered op joins lanes 1..3 into lane 0";
  EXPECT_EQ(LanePlan(1, 0).lanes(), 1u);
  EXPECT_EQ(LanePlan(1, 99).lanes(), LanePlan::kMaxLanes);
}

// merge_copies (src/transport/copy_engine/merge.hpp): every byte of every input copy is copied exactly once by
// the output (as a multiset of (destination, source) byte pairs), outputs are whole ranges, and a
// shuffled block-scoped transfer (adjacent chunks) becomes one copy per repetition.
TEST(MergeCopies, KeepsEveryByteOnceAndJoinsAdjacentChunks) {
  using gshmem::transport::Copy;
  using gshmem::transport::merge_copies;
  auto pairs = [](const std::vector<Copy>& v) {
    std::vector<std::pair<uint64_t, uint64_t>> p;
    for (const Copy& c : v)
      for (uint64_t i = 0; i < c.n; ++i) p.emplace_back(c.dst + i, c.src + i);
    std::sort(p.begin(), p.end());
    return p;
  };
  std::mt19937 rng(7);
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<Copy> q;
    const int n = 1 + static_cast<int>(rng() % 60);
    for (int i = 0; i < n; ++i) {
      const uint64_t d = 1000 + rng() % 200, n_ = 1 + rng() % 40;
      const uint64_t s = rng() % 3 == 0 ? 5000 + rng() % 300 : d + 4000;  // mostly one offset: chains
      q.push_back(Copy{d, s, n_});
      if (rng() % 4 == 0) q.push_back(q.back());                         // a repeated transfer
      if (rng() % 3 == 0) q.push_back(Copy{d + n_, s + n_, 1 + rng() % 30});  // its neighbour
    }
    std::shuffle(q.begin(), q.end(), rng);
    const auto want = pairs(q);
    const size_t before = q.size();
    merge_copies(q);
    ASSERT_LE(q.size(), before);
    ASSERT_EQ(pairs(q), want) << "trial " << trial;
  }
  // 132 blocks x 3 repetitions of the same 132-chunk transfer, shuffled: three copies of it
  std::vector<Copy> q;
  for (int rep = 0; rep < 3; ++rep)
    for (uint64_t b = 0; b < 132; ++b) q.push_back(Copy{1 << 20 | b * 4096, 8 << 20 | b * 4096, 4096});
  std::shuffle(q.begin(), q.end(), rng);
  merge_copies(q);
  ASSERT_EQ(q.size(), 3u);
  for (const Copy& c : q) EXPECT_TRUE(c.dst == 1u << 20 && c.src == 8u << 20 && c.n == 132u * 4096);
}
