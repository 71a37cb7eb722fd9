// The ib verbs layer without an HCA: a fake verbs table for device/port selection and QP state
// transitions, registration bookkeeping, the connection records exchanged through the real TCP
// bootstrap, and the clean "no InfiniBand device" error from the real libibverbs here.
#include <gtest/gtest.h>

#if GSHMEM_HAVE_IBVERBS
#include <unistd.h>

#include <cstring>
#include <map>
#include <thread>

#include "thread_pes.hpp"
#include "transport/ib.hpp"

using namespace gshmem;
using namespace gshmem::transport::ib;

namespace {
// A fake fabric: devices with per-port states; records every modify_qp.
struct Fake {
  std::vector<std::string> names;
  std::map<std::pair<int, int>, ibv_port_state> ports;  // (device, port) -> state
  int ndev = 0;
  struct Mod {
    ibv_qp_attr attr;
    int mask;
  };
  std::vector<Mod> mods;
} g_fake;
ibv_device* dev_ptr(int i) { return reinterpret_cast<ibv_device*>(static_cast<uintptr_t>(0x1000 + 16 * i)); }
int dev_index(const void* p) { return static_cast<int>((reinterpret_cast<uintptr_t>(p) - 0x1000) / 16); }

Verbs fake_verbs() {
  Verbs v;
  v.get_device_list = [](int* n) -> ibv_device** {
    *n = g_fake.ndev;
    auto** l = new ibv_device*[static_cast<size_t>(g_fake.ndev) + 1];
    for (int i = 0; i < g_fake.ndev; ++i) l[i] = dev_ptr(i);
    l[g_fake.ndev] = nullptr;
    return l;
  };
  v.free_device_list = [](ibv_device** l) { delete[] l; };
  v.get_device_name = [](ibv_device* d) { return g_fake.names[static_cast<size_t>(dev_index(d))].c_str(); };
  v.open_device = [](ibv_device* d) { return reinterpret_cast<ibv_context*>(d); };
  v.close_device = [](ibv_context*) { return 0; };
  v.query_port = [](ibv_context* c, uint8_t port, ibv_port_attr* a) {
    auto it = g_fake.ports.find({dev_index(c), port});
    if (it == g_fake.ports.end()) return EINVAL;
    memset(a, 0, sizeof *a);
    a->state = it->second;
    a->lid = static_cast<uint16_t>(100 + dev_index(c));
    a->link_layer = IBV_LINK_LAYER_INFINIBAND;
    return 0;
  };
  v.modify_qp = [](ibv_qp*, ibv_qp_attr* attr, int mask) {
    g_fake.mods.push_back({*attr, mask});
    return 0;
  };
  return v;
}
}  // namespace

TEST(IbVerbs, NoDeviceIsAClearError) {
  g_fake = {};
  Verbs v = fake_verbs();
  Device d;
  std::string why;
  EXPECT_EQ(open_device(v, "", &d, &why), Status::not_available);
  EXPECT_NE(why.find("no InfiniBand device"), std::string::npos) << why;
}

TEST(IbVerbs, RealLibraryWithoutHcaReportsNoDevice) {
  Verbs v;
  std::string why;
  if (load_verbs(&v, &why) != Status::ok) GTEST_SKIP() << why;
  Device d;
  const Status st = open_device(v, "", &d, &why);
  if (st == Status::ok) GTEST_SKIP() << "this machine has an InfiniBand device: " << d.name;
  EXPECT_EQ(st, Status::not_available);
  EXPECT_NE(why.find("no InfiniBand device"), std::string::npos) << why;
}

TEST(IbVerbs, PicksTheFirstActivePortAndHonoursTheRequest) {
  g_fake = {};
  g_fake.ndev = 2;
  g_fake.names = {"mlx5_0", "mlx5_1"};
  g_fake.ports[{0, 1}] = IBV_PORT_DOWN;
  g_fake.ports[{0, 2}] = IBV_PORT_DOWN;
  g_fake.ports[{1, 1}] = IBV_PORT_ACTIVE;
  Verbs v = fake_verbs();
  Device d;
  std::string why;
  ASSERT_EQ(open_device(v, "", &d, &why), Status::ok) << why;
  EXPECT_EQ(d.name, "mlx5_1");
  EXPECT_EQ(d.port, 1);
  EXPECT_EQ(d.port_attr.lid, 101);
  ASSERT_EQ(open_device(v, "mlx5_1:1", &d, &why), Status::ok);
  EXPECT_EQ(open_device(v, "mlx5_0", &d, &why), Status::not_available);
  EXPECT_NE(why.find("mlx5_0:1 down"), std::string::npos) << why;
  EXPECT_NE(why.find("GSHMEM_IB_HCA=mlx5_0"), std::string::npos) << why;
}

TEST(IbVerbs, QueuePairTransitionsCarryTheNeededAttributes) {
  g_fake = {};
  Verbs v = fake_verbs();
  ibv_qp* qp = reinterpret_cast<ibv_qp*>(0x42);
  QpInfo remote{kQpInfoVersion, 0x1234, 777, 9, 1, IBV_MTU_4096, {}, 0, {}};
  ASSERT_EQ(qp_to_init(v, qp, 1), Status::ok);
  ASSERT_EQ(qp_to_rtr(v, qp, remote, 1, 0), Status::ok);
  ASSERT_EQ(qp_to_rts(v, qp, 555), Status::ok);
  ASSERT_EQ(g_fake.mods.size(), 3u);
  const auto& init = g_fake.mods[0];
  EXPECT_EQ(init.attr.qp_state, IBV_QPS_INIT);
  EXPECT_EQ(init.mask, IBV_QP_STATE | IBV_QP_PKEY_INDEX | IBV_QP_PORT | IBV_QP_ACCESS_FLAGS);
  EXPECT_TRUE(init.attr.qp_access_flags & IBV_ACCESS_REMOTE_ATOMIC);
  EXPECT_TRUE(init.attr.qp_access_flags & IBV_ACCESS_REMOTE_READ);
  const auto& rtr = g_fake.mods[1];
  EXPECT_EQ(rtr.attr.qp_state, IBV_QPS_RTR);
  EXPECT_EQ(rtr.attr.dest_qp_num, 0x1234u);
  EXPECT_EQ(rtr.attr.rq_psn, 777u);
  EXPECT_EQ(rtr.attr.ah_attr.dlid, 9);
  EXPECT_EQ(rtr.attr.path_mtu, IBV_MTU_4096);
  EXPECT_EQ(rtr.attr.ah_attr.is_global, 0);
  EXPECT_TRUE(rtr.mask & IBV_QP_AV && rtr.mask & IBV_QP_DEST_QPN && rtr.mask & IBV_QP_MAX_DEST_RD_ATOMIC);
  const auto& rts = g_fake.mods[2];
  EXPECT_EQ(rts.attr.qp_state, IBV_QPS_RTS);
  EXPECT_EQ(rts.attr.sq_psn, 555u);
  EXPECT_TRUE(rts.mask & IBV_QP_MAX_QP_RD_ATOMIC && rts.mask & IBV_QP_SQ_PSN);
  // RoCE peers are routed by GID
  g_fake.mods.clear();
  remote.roce = 1;
  for (int i = 0; i < 16; ++i) remote.gid[i] = static_cast<uint8_t>(i * 3);
  ASSERT_EQ(qp_to_rtr(v, qp, remote, 1, 3), Status::ok);
  EXPECT_EQ(g_fake.mods[0].attr.ah_attr.is_global, 1);
  EXPECT_EQ(g_fake.mods[0].attr.ah_attr.grh.sgid_index, 3);
  EXPECT_EQ(memcmp(g_fake.mods[0].attr.ah_attr.grh.dgid.raw, remote.gid, 16), 0);
  // a record from another protocol version is refused
  remote.version = 99;
  EXPECT_EQ(qp_to_rtr(v, qp, remote, 1, 0), Status::invalid_argument);
}

TEST(IbVerbs, RegistrationBookkeeping) {
  Registry r;
  std::vector<char> heap(1 << 20), data(4096);
  r.add_local(0, heap.data(), heap.size(), 11, 111);
  r.add_local(1, data.data(), data.size(), 22, 222);
  uint32_t lkey = 0;
  EXPECT_TRUE(r.lookup(heap.data() + 100, 1000, &lkey));
  EXPECT_EQ(lkey, 11u);
  EXPECT_TRUE(r.lookup(data.data(), data.size(), &lkey));
  EXPECT_EQ(lkey, 22u);
  EXPECT_FALSE(r.lookup(heap.data() + heap.size() - 10, 20, &lkey));  // runs past the segment
  EXPECT_FALSE(r.lookup(&lkey, 4, &lkey));                            // not registered
  RemoteSeg rec = r.local_record(0);
  EXPECT_EQ(rec.base, reinterpret_cast<uint64_t>(heap.data()));
  EXPECT_EQ(rec.rkey, 111u);
  r.set_remote(3, 0, {0x7f0000000000ull, 1 << 20, 999, 0});
  uint64_t addr = 0;
  uint32_t rkey = 0;
  EXPECT_TRUE(r.remote(3, 0, 4096, 64, &addr, &rkey));
  EXPECT_EQ(addr, 0x7f0000000000ull + 4096);
  EXPECT_EQ(rkey, 999u);
  EXPECT_FALSE(r.remote(3, 0, (1 << 20) - 8, 16, &addr, &rkey));  // past the end
  EXPECT_FALSE(r.remote(3, 1, 0, 8, &addr, &rkey));                // segment not registered
  EXPECT_FALSE(r.remote(2, 0, 0, 8, &addr, &rkey));                // unknown PE
}

TEST(IbVerbs, ConnectionRecordsCrossTheBootstrap) {
  const int n = 3;
  struct Rec {
    QpInfo qp;
    RemoteSeg seg;
  };
  std::vector<int> ok(n, 0);
  test::run_pes(n, [&](int rank, boot::Bootstrap& b) {
    std::vector<Rec> all(n);
    all[static_cast<size_t>(rank)] = {{kQpInfoVersion, 100u + rank, 7u * rank, static_cast<uint16_t>(rank), 1,
                                       IBV_MTU_4096, {static_cast<uint8_t>(rank)}, 0, {}},
                                      {0x1000ull * rank, 4096, 50u + rank, 0}};
    if (b.allgather(all.data(), sizeof(Rec)) != Status::ok) return;
    bool good = true;
    for (int p = 0; p < n; ++p)
      good &= all[static_cast<size_t>(p)].qp.qpn == 100u + p && all[static_cast<size_t>(p)].qp.psn == 7u * p &&
              all[static_cast<size_t>(p)].qp.gid[0] == p && all[static_cast<size_t>(p)].seg.rkey == 50u + p &&
              all[static_cast<size_t>(p)].seg.base == 0x1000ull * p;
    ok[static_cast<size_t>(rank)] = good;
  });
  for (int r = 0; r < n; ++r) EXPECT_TRUE(ok[static_cast<size_t>(r)]) << r;
}
#else
TEST(IbVerbs, BuiltWithoutRdmaCoreHeaders) { GTEST_SKIP() << "libibverbs-dev not installed at build time"; }
#endif
