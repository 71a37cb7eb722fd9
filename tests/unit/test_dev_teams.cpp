// Node runs of device teams (coll/dev_teams.hpp dev_team_node_run): which layouts the hierarchical
// routed collectives take (device/gshmem/impl/routed.cuh), and that every other layout stays flat.
#include <gtest/gtest.h>

#include <vector>

#include "coll/dev_teams.hpp"

using gshmem::coll::dev_team_node_run;

namespace {
std::vector<int> iota(int n, int start = 0, int stride = 1) {
  std::vector<int> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<size_t>(i)] = start + i * stride;
  return v;
}
}  // namespace

TEST(NodeRuns, EqualConsecutiveNodes) {
  EXPECT_EQ(dev_team_node_run(iota(4), {0, 0, 1, 1}), 2);
  EXPECT_EQ(dev_team_node_run(iota(6), {0, 0, 1, 1, 2, 2}), 2);
  EXPECT_EQ(dev_team_node_run(iota(8), {3, 3, 3, 3, 1, 1, 1, 1}), 4);  // node ids need not be ordered
  EXPECT_EQ(dev_team_node_run(iota(16), std::vector<int>{0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3}), 4);
}

TEST(NodeRuns, StridedTeamOverNodes) {
  // team of the even PEs of 8 on nodes of 4: {0, 2} on node 0, {4, 6} on node 1
  EXPECT_EQ(dev_team_node_run(iota(4, 0, 2), {0, 0, 0, 0, 1, 1, 1, 1}), 2);
  // odd PEs of 4 on nodes of 2: one member per node, nothing to combine within a node
  EXPECT_EQ(dev_team_node_run(iota(2, 1, 2), {0, 0, 1, 1}), 0);
}

TEST(NodeRuns, OtherLayoutsStayFlat) {
  EXPECT_EQ(dev_team_node_run(iota(4), {0, 1, 2, 3}), 0);           // one member per node
  EXPECT_EQ(dev_team_node_run(iota(4, 0, 2), {0, 0, 1, 1, 2, 2, 3, 3}), 0);  // strided: one per node
  EXPECT_EQ(dev_team_node_run(iota(4), {0, 0, 0, 0}), 0);           // one node
  EXPECT_EQ(dev_team_node_run(iota(5), {0, 0, 1, 1, 1}), 0);        // unequal nodes
  EXPECT_EQ(dev_team_node_run(iota(6), {0, 0, 1, 1, 1, 1}), 0);     // 2 then 4: node 1 would hold two runs
  EXPECT_EQ(dev_team_node_run(iota(6), {0, 0, 0, 0, 1, 1}), 0);     // 4 then 2: 4 does not divide 6
  EXPECT_EQ(dev_team_node_run(iota(6), {0, 0, 0, 1, 1, 2}), 0);     // 3 divides 6 but the runs differ
  EXPECT_EQ(dev_team_node_run(iota(4), {0, 1, 0, 1}), 0);           // round-robin placement
  EXPECT_EQ(dev_team_node_run(iota(6), {0, 0, 1, 1, 0, 0}), 0);     // node 0 holds two runs
  EXPECT_EQ(dev_team_node_run(iota(3), {0, 0, 1}), 0);              // fewer than 4 members
  EXPECT_EQ(dev_team_node_run(iota(2), {0, 0}), 0);
}
