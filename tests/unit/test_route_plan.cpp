// The route planner (core/route_plan.hpp): how each PE is reached, decided from facts alone.
#include <gtest/gtest.h>

#include "core/route_plan.hpp"

using gshmem::core::PlanInput;
using gshmem::core::plan_routes;
using gshmem::transport::Via;

namespace {
PlanInput input(int me, std::vector<bool> mapped, bool gpu, bool force = false, const char* engine = "auto") {
  PlanInput in;
  in.my_pe = me;
  in.npes = static_cast<int>(mapped.size());
  in.mapped = std::move(mapped);
  in.gpu = gpu;
  in.force_proxy = force;
  in.engine = engine;
  return in;
}
}  // namespace

TEST(RoutePlan, CpuPesMapTheirNodeAndUseTcpForOthers) {
  // pe 1 of 4; pes 0 and 1 on this node, 2 and 3 on another
  const auto p = plan_routes(input(1, {true, true, false, false}, false));
  EXPECT_EQ(p.via, (std::vector<Via>{Via::load_store, Via::self, Via::tcp, Via::tcp}));
  EXPECT_EQ(p.tcp_peers, (std::vector<int>{2, 3}));
  EXPECT_TRUE(p.ib_peers.empty());
  EXPECT_FALSE(p.any_proxied);  // CPU PEs push no triggers
  EXPECT_TRUE(p.error.empty());
}

TEST(RoutePlan, CpuPesForcedThroughTheProxyMapNobody) {
  // GSHMEM_FORCE_PROXY on CPU PEs: the runtime maps only itself, so every peer is tcp
  const auto p = plan_routes(input(0, {true, false, false}, false, true));
  EXPECT_EQ(p.via, (std::vector<Via>{Via::self, Via::tcp, Via::tcp}));
}

TEST(RoutePlan, GpuPesLoadStoreOnTheNodeAndIbOrTcpAcross) {
  auto in = input(0, {true, true, false, false}, true);
  auto p = plan_routes(in);
  EXPECT_EQ(p.via, (std::vector<Via>{Via::self, Via::load_store, Via::ib, Via::ib}));
  EXPECT_EQ(p.ib_peers, (std::vector<int>{2, 3}));
  EXPECT_TRUE(p.tcp_peers.empty());
  EXPECT_TRUE(p.any_proxied);
  in.ib_usable = false;  // the collective ib set-up failed somewhere: tcp instead
  p = plan_routes(in);
  EXPECT_EQ(p.via, (std::vector<Via>{Via::self, Via::load_store, Via::tcp, Via::tcp}));
  EXPECT_EQ(p.tcp_peers, (std::vector<int>{2, 3}));
  EXPECT_TRUE(p.error.empty());
}

TEST(RoutePlan, ForcedGpuPesUseTheCopyEngineForMappedPeers) {
  auto p = plan_routes(input(1, {true, true, true, false}, true, true));
  EXPECT_EQ(p.via, (std::vector<Via>{Via::copy_engine, Via::self, Via::copy_engine, Via::ib}));
  p = plan_routes(input(1, {true, true, true, false}, true, true, "tcp"));
  EXPECT_EQ(p.via, (std::vector<Via>{Via::tcp, Via::self, Via::tcp, Via::tcp}));
  EXPECT_EQ(p.tcp_peers, (std::vector<int>{0, 2, 3}));
  p = plan_routes(input(1, {true, true, true, false}, true, true, "ib"));
  EXPECT_EQ(p.via, (std::vector<Via>{Via::ib, Via::self, Via::ib, Via::ib}));
}

TEST(RoutePlan, IbDemandedButUnusableIsAnError) {
  auto in = input(0, {true, false}, true, false, "ib");
  in.ib_usable = false;
  const auto p = plan_routes(in);
  EXPECT_FALSE(p.error.empty());
  EXPECT_NE(p.error.find("GSHMEM_PROXY_ENGINE=ib"), std::string::npos);
}

TEST(RoutePlan, OnePeJob) {
  const auto p = plan_routes(input(0, {true}, true, true));
  EXPECT_EQ(p.via, (std::vector<Via>{Via::self}));
  EXPECT_FALSE(p.any_proxied);
}
