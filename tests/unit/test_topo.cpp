// Topology (topo/topo.hpp): nodes from the PEs' records, and emulated nodes (GSHMEM_EMULATE_NODES).
#include <gtest/gtest.h>

#include <sched.h>

#include <cstdio>

#include "topo/topo.hpp"

using gshmem::Status;
using namespace gshmem::topo;

namespace {
std::vector<NodeRecord> records(const std::vector<const char*>& hosts) {
  std::vector<NodeRecord> r(hosts.size());
  for (size_t i = 0; i < hosts.size(); ++i) {
    snprintf(r[i].id, sizeof r[i].id, "%s", hosts[i]);
    r[i].pid = static_cast<int32_t>(1000 + i);
  }
  return r;
}
}  // namespace

TEST(Topology, NodesAreTheMachines) {
  const auto rec = records({"a", "b", "a", "b"});
  Topology t;
  ASSERT_EQ(build(2, rec, 1, &t), Status::ok);
  EXPECT_EQ(t.n_nodes, 2);
  EXPECT_EQ(t.local_pes, (std::vector<int>{0, 2}));
  EXPECT_EQ(t.local_rank, 1);
  EXPECT_EQ(t.machine_rank, 1);
  EXPECT_EQ(t.machine_size, 2);
  EXPECT_EQ(t.pid_of[3], 1003);
}

TEST(Topology, EmulatedNodesSplitEachMachineByLocalRank) {
  // 2 machines x 4 PEs, each split in 2: nodes {0,1} {2,3} on a, {4,5} {6,7} on b
  const auto rec = records({"a", "a", "a", "a", "b", "b", "b", "b"});
  for (int me = 0; me < 8; ++me) {
    Topology t;
    ASSERT_EQ(build(me, rec, 2, &t), Status::ok);
    EXPECT_EQ(t.n_nodes, 4);
    const int first = me / 2 * 2;
    EXPECT_EQ(t.local_pes, (std::vector<int>{first, first + 1})) << me;
    EXPECT_EQ(t.local_rank, me % 2);
    EXPECT_EQ(t.local_size, 2);
    EXPECT_EQ(t.machine_rank, me % 4);  // the GPU binding still sees the whole machine
    EXPECT_EQ(t.machine_size, 4);
  }
}

TEST(Topology, UnevenSplits) {
  // 3 PEs in 2 emulated nodes: {0,1} and {2}; more nodes than PEs leaves each PE alone
  const auto rec = records({"a", "a", "a"});
  Topology t;
  ASSERT_EQ(build(2, rec, 2, &t), Status::ok);
  EXPECT_EQ(t.local_pes, (std::vector<int>{2}));
  ASSERT_EQ(build(0, rec, 2, &t), Status::ok);
  EXPECT_EQ(t.local_pes, (std::vector<int>{0, 1}));
  ASSERT_EQ(build(1, rec, 8, &t), Status::ok);
  EXPECT_EQ(t.n_nodes, 3);
  EXPECT_EQ(t.local_pes, (std::vector<int>{1}));
  EXPECT_EQ(build(0, rec, 0, &t), Status::invalid_argument);
}

TEST(Topology, HostCpusAreTheUnionOfTheHostsMasks) {
  // a:netns1 and a:netns2 share host a; b is another host. Masks: PE 0 on CPU 0, PE 1 on CPUs
  // 0-1 and 70, PE 2 on CPUs 0-3, PE 3 on nothing published.
  auto rec = records({"a:netns1", "a:netns2", "b", "a:netns1"});
  rec[0].cpus[0] = 0x1;
  rec[1].cpus[0] = 0x3;
  rec[1].cpus[1] = uint64_t{1} << 6;
  rec[2].cpus[0] = 0xf;
  Topology t;
  ASSERT_EQ(build(0, rec, 1, &t), Status::ok);
  EXPECT_EQ(t.machine_size, 2);  // the namespace's PEs: 0 and 3
  EXPECT_EQ(t.host_size, 3);     // every namespace of host a: 0, 1, 3
  EXPECT_EQ(t.host_cpus, 3);     // CPUs 0, 1 and 70
  EXPECT_EQ(t.my_host, 0);       // hosts numbered by first appearance: a, then b
  ASSERT_EQ(build(2, rec, 1, &t), Status::ok);
  EXPECT_EQ(t.host_size, 1);
  EXPECT_EQ(t.host_cpus, 4);
  EXPECT_EQ(t.my_host, 1);
  ASSERT_EQ(build(1, rec, 2, &t), Status::ok);  // another namespace, emulated nodes: the same host
  EXPECT_EQ(t.my_host, 0);
}

TEST(Topology, SelfRecordPublishesThisProcessAffinity) {
  const NodeRecord r = self_record();
  int n = 0;
  for (uint64_t w : r.cpus) n += __builtin_popcountll(w);
  cpu_set_t set;
  ASSERT_EQ(sched_getaffinity(0, sizeof set, &set), 0);
  EXPECT_EQ(n, CPU_COUNT(&set));
}
