// The route planner (core/route_plan.hpp): how each PE is reached, decided from facts alone.
#include <gtest/gtest.h>

#include "core/route_plan.hpp"

using gshmem::core::kViaLoadStore;
using gshmem::core::kViaSelf;
using gshmem::core::Offer;
using gshmem::core::PlanInput;
using gshmem::core::plan_routes;

namespace {
constexpr int kUcx = 0, kTcp = 1, kCe = 2;  // the table's order in these tests

// ucx, tcp and the copy engine as a job with n PEs found them: usable everywhere unless told.
std::vector<Offer> offers(int n, bool ucx = true, bool tcp = true, bool ce = true) {
  std::vector<Offer> o(3);
  o[kUcx].name = "ucx";
  o[kUcx].caps.off_node = o[kUcx].caps.device_memory = true;
  o[kUcx].usable.assign(static_cast<size_t>(n), ucx);
  o[kTcp].name = "tcp";
  o[kTcp].caps.off_node = o[kTcp].caps.device_memory = true;
  o[kTcp].usable.assign(static_cast<size_t>(n), tcp);
  o[kCe].name = "copy_engine";
  o[kCe].caps.same_node_only = o[kCe].caps.device_memory = o[kCe].caps.device_atomics = o[kCe].caps.marks = true;
  o[kCe].usable.assign(static_cast<size_t>(n), ce);
  return o;
}

PlanInput input(int me, std::vector<bool> mapped, bool gpu, bool force = false, const char* transport = "auto",
                const char* engine = "auto") {
  PlanInput in;
  in.my_pe = me;
  in.npes = static_cast<int>(mapped.size());
  in.mapped = std::move(mapped);
  in.gpu = gpu;
  in.force_proxy = force;
  in.transport = transport;
  in.engine = engine;
  in.offers = offers(in.npes);
  return in;
}
}  // namespace

TEST(RoutePlan, CpuPesMapTheirNodeAndUseUcxForOthers) {
  // pe 1 of 4; pes 0 and 1 on this node, 2 and 3 on another
  const auto p = plan_routes(input(1, {true, true, false, false}, false));
  EXPECT_EQ(p.via, (std::vector<int>{kViaLoadStore, kViaSelf, kUcx, kUcx}));
  EXPECT_EQ(p.peers[kUcx], (std::vector<int>{2, 3}));
  EXPECT_TRUE(p.peers[kTcp].empty());
  EXPECT_FALSE(p.any_proxied);  // CPU PEs push no triggers
  EXPECT_TRUE(p.error.empty());
}

TEST(RoutePlan, WithoutUcxAutoTakesTcp) {
  auto in = input(0, {true, true, false}, false);
  in.offers[kUcx].usable.assign(3, false);
  in.offers[kUcx].why = "UCX (libucp.so.0) cannot be loaded";
  auto p = plan_routes(in);
  EXPECT_EQ(p.via, (std::vector<int>{kViaSelf, kViaLoadStore, kTcp}));
  // ... also when only the peer lacks it
  in = input(0, {true, true, false}, false);
  in.offers[kUcx].usable[2] = false;
  p = plan_routes(in);
  EXPECT_EQ(p.via, (std::vector<int>{kViaSelf, kViaLoadStore, kTcp}));
}

TEST(RoutePlan, AnInstalledUcxThatDoesNotStartIsAnErrorNotAFallback) {
  auto in = input(0, {true, false}, false);
  in.offers[kUcx].usable[0] = false;
  in.offers[kUcx].broken = true;
  in.offers[kUcx].why = "UCX 1.13.1 does not start: UCX_TLS ...";
  const auto p = plan_routes(in);
  EXPECT_NE(p.error.find("ucx is installed but does not start"), std::string::npos) << p.error;
  EXPECT_NE(p.error.find("UCX_TLS"), std::string::npos) << p.error;
}

TEST(RoutePlan, NamedTransportIsUsedOrNamedInTheError) {
  auto p = plan_routes(input(0, {true, true, false}, false, false, "tcp"));
  EXPECT_EQ(p.via, (std::vector<int>{kViaSelf, kViaLoadStore, kTcp}));
  auto in = input(0, {true, false, false}, false, false, "ucx");
  in.offers[kUcx].usable[2] = false;
  p = plan_routes(in);
  EXPECT_NE(p.error.find("GSHMEM_TRANSPORT=ucx cannot reach pe 2: pe 2 cannot use it"), std::string::npos) << p.error;
  in = input(0, {true, false}, false, false, "copy_engine");  // a same-node transport cannot cross nodes
  p = plan_routes(in);
  EXPECT_NE(p.error.find("reaches only PEs on this node"), std::string::npos) << p.error;
}

TEST(RoutePlan, CpuPesForcedThroughTheProxyMapNobody) {
  // GSHMEM_FORCE_PROXY on CPU PEs: the runtime maps only itself, so every peer is off-node
  const auto p = plan_routes(input(0, {true, false, false}, false, true));
  EXPECT_EQ(p.via, (std::vector<int>{kViaSelf, kUcx, kUcx}));
}

TEST(RoutePlan, GpuPesLoadStoreOnTheNodeAndAGpuCapableTransportAcross) {
  auto in = input(0, {true, true, false, false}, true);
  auto p = plan_routes(in);
  EXPECT_EQ(p.via, (std::vector<int>{kViaSelf, kViaLoadStore, kUcx, kUcx}));
  EXPECT_TRUE(p.any_proxied);
  in.offers[kUcx].caps.device_memory = false;  // a UCX without CUDA memory support
  p = plan_routes(in);
  EXPECT_EQ(p.via, (std::vector<int>{kViaSelf, kViaLoadStore, kTcp, kTcp}));
  EXPECT_TRUE(p.error.empty());
}

TEST(RoutePlan, CapabilitiesRankBeforeTheTablesOrder) {
  auto in = input(0, {true, false}, true);
  in.offers[kTcp].caps.marks = true;  // say tcp completed asynchronously: it would rank first
  EXPECT_EQ(plan_routes(in).via[1], kTcp);
}

TEST(RoutePlan, ForcedGpuPesUseTheCopyEngineForMappedPeers) {
  auto p = plan_routes(input(1, {true, true, true, false}, true, true));
  EXPECT_EQ(p.via, (std::vector<int>{kCe, kViaSelf, kCe, kUcx}));
  EXPECT_EQ(p.peers[kCe], (std::vector<int>{0, 2}));
  p = plan_routes(input(1, {true, true, true, false}, true, true, "auto", "tcp"));
  EXPECT_EQ(p.via, (std::vector<int>{kTcp, kViaSelf, kTcp, kTcp}));
  EXPECT_EQ(p.peers[kTcp], (std::vector<int>{0, 2, 3}));
  p = plan_routes(input(1, {true, true, true, false}, true, true, "auto", "ucx"));
  EXPECT_EQ(p.via, (std::vector<int>{kUcx, kViaSelf, kUcx, kUcx}));
}

TEST(RoutePlan, NoTransportAtAllNamesWhatEachLacks) {
  auto in = input(0, {true, false}, false);
  in.offers = offers(2, false, false, false);
  in.offers[kUcx].why = "UCX (libucp.so.0) cannot be loaded";
  const auto p = plan_routes(in);
  EXPECT_NE(p.error.find("no transport reaches pe 1"), std::string::npos) << p.error;
  EXPECT_NE(p.error.find("ucx: UCX (libucp.so.0) cannot be loaded"), std::string::npos) << p.error;
}

TEST(RoutePlan, OnePeJob) {
  const auto p = plan_routes(input(0, {true}, true, true));
  EXPECT_EQ(p.via, (std::vector<int>{kViaSelf}));
  EXPECT_FALSE(p.any_proxied);
}
