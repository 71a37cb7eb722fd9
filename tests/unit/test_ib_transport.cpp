// The ib data path without an HCA: a fake NIC behind the verbs table performs RDMA writes, reads
// and atomics between "PEs" that are threads of this process (each with its own queue pairs and
// registrations, wired up through the real TCP bootstrap). Work requests are carried out only
// when the initiator polls its completion queue, so data a test sees before quiet() would be a
// transport bug. Checked: put/get (registered and staged buffers, GPU-segment registration through
// dma-buf and its fallback), the read + fence that orders a signal after its data, every atomic
// at 4 and 8 bytes (NIC and compare-swap emulated), contention from several PEs, bounds and
// completion errors that name the PE, and set-up failures that end every PE's wait.
#include <gtest/gtest.h>

#if GSHMEM_HAVE_IBVERBS
#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <random>
#include <thread>

#include "thread_pes.hpp"
#include "transport/ib_transport.hpp"

using namespace gshmem;
using namespace gshmem::transport;
using namespace gshmem::transport::ib;

namespace {

struct FakeNic {
  std::mutex mu;
  struct Mr {
    ibv_mr mr{};
    uintptr_t base = 0;
    size_t len = 0;
    int access = 0;
  };
  struct Qp {
    ibv_qp qp{};
    uint32_t dest = 0;
    ibv_qp_state state = IBV_QPS_RESET;
    struct Wr {
      ibv_send_wr wr;
      ibv_sge sge;
    };
    std::deque<Wr> pending;
  };
  struct Cq {
    ibv_cq cq{};
    std::deque<ibv_wc> done;
  };
  struct Logged {
    uint32_t qpn;
    int opcode;
    unsigned flags;
  };
  std::vector<std::unique_ptr<Mr>> mrs;
  std::vector<std::unique_ptr<Qp>> qps;
  std::vector<std::unique_ptr<Cq>> cqs;
  std::vector<Logged> log;
  uint32_t next_key = 1, next_qpn = 100;
  int ndev = 1;
  bool dmabuf_works = true;
  int dmabuf_calls = 0, reg_mr_calls = 0;
  uintptr_t refuse_reg_base = 0;  // reg_mr fails for this address
  int fail_opcode = -1;           // the next work request with this opcode completes in error
  ibv_atomic_cap atomic_cap = IBV_ATOMIC_HCA;

  Mr* find_key(uint32_t key) {
    for (auto& m : mrs)
      if (m->mr.lkey == key) return m.get();
    return nullptr;
  }
  Qp* find_qp(ibv_qp* q) {
    for (auto& p : qps)
      if (&p->qp == q) return p.get();
    return nullptr;
  }
  Qp* find_qpn(uint32_t n) {
    for (auto& p : qps)
      if (p->qp.qp_num == n) return p.get();
    return nullptr;
  }
  static bool covers(const Mr* m, uint64_t addr, size_t len) {
    return m && addr >= m->base && addr - m->base <= m->len && len <= m->len - (addr - m->base);
  }
  // Performs one work request; returns the completion status.
  ibv_wc_status execute(Qp& q, const Qp::Wr& w) {
    log.push_back({q.qp.qp_num, w.wr.opcode, w.wr.send_flags});
    if (q.state != IBV_QPS_RTS) return IBV_WC_WR_FLUSH_ERR;
    if (w.wr.opcode == fail_opcode) {
      fail_opcode = -1;
      return IBV_WC_REM_ACCESS_ERR;
    }
    Mr* local = find_key(w.sge.lkey);
    if (!covers(local, w.sge.addr, w.sge.length)) return IBV_WC_LOC_PROT_ERR;
    char* l = reinterpret_cast<char*>(w.sge.addr);
    const bool atomic = w.wr.opcode == IBV_WR_ATOMIC_FETCH_AND_ADD || w.wr.opcode == IBV_WR_ATOMIC_CMP_AND_SWP;
    const uint64_t raddr = atomic ? w.wr.wr.atomic.remote_addr : w.wr.wr.rdma.remote_addr;
    const uint32_t rkey = atomic ? w.wr.wr.atomic.rkey : w.wr.wr.rdma.rkey;
    Mr* remote = find_key(rkey);
    const size_t len = atomic ? 8 : w.sge.length;
    if (!find_qpn(q.dest) || !covers(remote, raddr, len)) return IBV_WC_REM_ACCESS_ERR;
    char* r = reinterpret_cast<char*>(raddr);
    switch (w.wr.opcode) {
      case IBV_WR_RDMA_WRITE:
        if (!(remote->access & IBV_ACCESS_REMOTE_WRITE)) return IBV_WC_REM_ACCESS_ERR;
        memcpy(r, l, len);
        return IBV_WC_SUCCESS;
      case IBV_WR_RDMA_READ:
        if (!(remote->access & IBV_ACCESS_REMOTE_READ)) return IBV_WC_REM_ACCESS_ERR;
        memcpy(l, r, len);
        return IBV_WC_SUCCESS;
      default: {
        if (!(remote->access & IBV_ACCESS_REMOTE_ATOMIC) || (raddr & 7) || w.sge.length != 8)
          return IBV_WC_REM_INV_REQ_ERR;
        auto* word = reinterpret_cast<uint64_t*>(r);
        uint64_t old;
        if (w.wr.opcode == IBV_WR_ATOMIC_FETCH_AND_ADD) {
          old = __atomic_fetch_add(word, w.wr.wr.atomic.compare_add, __ATOMIC_SEQ_CST);
        } else {
          old = w.wr.wr.atomic.compare_add;
          __atomic_compare_exchange_n(word, &old, w.wr.wr.atomic.swap, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
        }
        memcpy(l, &old, 8);
        return IBV_WC_SUCCESS;
      }
    }
  }
};
FakeNic* g_nic = nullptr;

ibv_device* kDev = reinterpret_cast<ibv_device*>(0x1000);

Verbs fake_verbs() {
  Verbs v;
  v.get_device_list = [](int* n) -> ibv_device** {
    *n = g_nic->ndev;
    auto** l = new ibv_device*[2];
    l[0] = g_nic->ndev ? kDev : nullptr;
    l[1] = nullptr;
    return l;
  };
  v.free_device_list = [](ibv_device** l) { delete[] l; };
  v.get_device_name = [](ibv_device*) { return "fake_ib0"; };
  v.open_device = [](ibv_device* d) { return reinterpret_cast<ibv_context*>(d); };
  v.close_device = [](ibv_context*) { return 0; };
  v.query_port = [](ibv_context*, uint8_t port, ibv_port_attr* a) {
    memset(a, 0, sizeof *a);
    if (port != 1) return EINVAL;
    a->state = IBV_PORT_ACTIVE;
    a->lid = 7;
    a->active_mtu = IBV_MTU_4096;
    a->link_layer = IBV_LINK_LAYER_INFINIBAND;
    return 0;
  };
  v.query_gid = [](ibv_context*, uint8_t, int, ibv_gid* g) {
    memset(g, 0, sizeof *g);
    return 0;
  };
  v.query_device = [](ibv_context*, ibv_device_attr* a) {
    memset(a, 0, sizeof *a);
    a->atomic_cap = g_nic->atomic_cap;
    return 0;
  };
  v.alloc_pd = [](ibv_context*) { return new ibv_pd{}; };
  v.dealloc_pd = [](ibv_pd* p) {
    delete p;
    return 0;
  };
  v.reg_mr = [](ibv_pd*, void* addr, size_t len, int access) -> ibv_mr* {
    std::lock_guard<std::mutex> lk(g_nic->mu);
    ++g_nic->reg_mr_calls;
    if (reinterpret_cast<uintptr_t>(addr) == g_nic->refuse_reg_base) {
      errno = EFAULT;
      return nullptr;
    }
    auto m = std::make_unique<FakeNic::Mr>();
    m->base = reinterpret_cast<uintptr_t>(addr);
    m->len = len;
    m->access = access;
    m->mr.addr = addr;
    m->mr.length = len;
    m->mr.lkey = m->mr.rkey = g_nic->next_key++;
    g_nic->mrs.push_back(std::move(m));
    return &g_nic->mrs.back()->mr;
  };
  v.reg_dmabuf_mr = [](ibv_pd*, uint64_t offset, size_t len, uint64_t iova, int fd, int access) -> ibv_mr* {
    std::lock_guard<std::mutex> lk(g_nic->mu);
    ++g_nic->dmabuf_calls;
    if (!g_nic->dmabuf_works || fd < 0 || offset != 0) {
      errno = EOPNOTSUPP;
      return nullptr;
    }
    auto m = std::make_unique<FakeNic::Mr>();
    m->base = iova;
    m->len = len;
    m->access = access;
    m->mr.lkey = m->mr.rkey = g_nic->next_key++;
    g_nic->mrs.push_back(std::move(m));
    return &g_nic->mrs.back()->mr;
  };
  v.dereg_mr = [](ibv_mr* mr) {  // the region is gone: later work requests naming its key fail
    std::lock_guard<std::mutex> lk(g_nic->mu);
    for (auto& m : g_nic->mrs)
      if (&m->mr == mr) {
        m->len = 0;
        m->base = 0;
        m->mr.lkey = m->mr.rkey = 0;
      }
    return 0;
  };
  v.create_cq = [](ibv_context*, int, void*, ibv_comp_channel*, int) -> ibv_cq* {
    std::lock_guard<std::mutex> lk(g_nic->mu);
    g_nic->cqs.push_back(std::make_unique<FakeNic::Cq>());
    return &g_nic->cqs.back()->cq;
  };
  v.destroy_cq = [](ibv_cq*) { return 0; };
  v.create_qp = [](ibv_pd*, ibv_qp_init_attr* ia) -> ibv_qp* {
    std::lock_guard<std::mutex> lk(g_nic->mu);
    auto q = std::make_unique<FakeNic::Qp>();
    q->qp.qp_num = g_nic->next_qpn++;
    q->qp.send_cq = ia->send_cq;
    g_nic->qps.push_back(std::move(q));
    return &g_nic->qps.back()->qp;
  };
  v.modify_qp = [](ibv_qp* qp, ibv_qp_attr* a, int mask) {
    std::lock_guard<std::mutex> lk(g_nic->mu);
    FakeNic::Qp* q = g_nic->find_qp(qp);
    if (mask & IBV_QP_DEST_QPN) q->dest = a->dest_qp_num;
    q->state = a->qp_state;
    return 0;
  };
  v.destroy_qp = [](ibv_qp*) { return 0; };
  v.post_send = [](ibv_qp* qp, ibv_send_wr* wr, ibv_send_wr** bad) {
    std::lock_guard<std::mutex> lk(g_nic->mu);
    FakeNic::Qp* q = g_nic->find_qp(qp);
    if (q->state != IBV_QPS_RTS || wr->num_sge != 1) {
      *bad = wr;
      return EINVAL;
    }
    q->pending.push_back({*wr, *wr->sg_list});
    return 0;
  };
  v.poll_cq = [](ibv_cq* cq, int n, ibv_wc* wc) {
    std::lock_guard<std::mutex> lk(g_nic->mu);
    FakeNic::Cq* c = nullptr;
    for (auto& x : g_nic->cqs)
      if (&x->cq == cq) c = x.get();
    for (auto& q : g_nic->qps) {  // the work is done when its initiator polls
      if (q->qp.send_cq != cq) continue;
      while (!q->pending.empty()) {
        const FakeNic::Qp::Wr w = q->pending.front();
        q->pending.pop_front();
        ibv_wc e{};
        e.wr_id = w.wr.wr_id;
        e.status = g_nic->execute(*q, w);
        if (e.status != IBV_WC_SUCCESS && e.status != IBV_WC_WR_FLUSH_ERR) q->state = IBV_QPS_ERR;
        if (w.wr.send_flags & IBV_SEND_SIGNALED || e.status != IBV_WC_SUCCESS) c->done.push_back(e);
      }
    }
    int k = 0;
    for (; k < n && !c->done.empty(); ++k) {
      wc[k] = c->done.front();
      c->done.pop_front();
    }
    return k;
  };
  return v;
}

uint8_t pay(uint64_t seed, int pe, size_t i) {
  uint64_t x = seed ^ (static_cast<uint64_t>(pe) << 40) ^ (i * 0x9E3779B97F4A7C15ull);
  x ^= x >> 31;
  x *= 0xbf58476d1ce4e5b9ull;
  return static_cast<uint8_t>(x >> 29);
}

// One PE's memory: host, data and device segments (the "device" one registered through dma-buf).
struct Mem {
  size_t host_len = 1 << 20, data_len = 4096, dev_len = 256 << 10;
  char* host = static_cast<char*>(aligned_alloc(4096, 1 << 20));
  char* data = static_cast<char*>(aligned_alloc(4096, 4096));
  char* dev = static_cast<char*>(aligned_alloc(4096, 256 << 10));
  ~Mem() {
    free(host);
    free(data);
    free(dev);
  }
  std::vector<SegmentSpec> specs(int rank) const {
    return {{Seg::host, host, host_len, -1}, {Seg::data, data, data_len, -1}, {Seg::device, dev, dev_len, 1000 + rank}};
  }
};

using test::run_pes;

std::vector<int> others(int me, int n) {
  std::vector<int> v;
  for (int p = 0; p < n; ++p)
    if (p != me) v.push_back(p);
  return v;
}

std::vector<std::unique_ptr<Mem>> mems(int n) {
  std::vector<std::unique_ptr<Mem>> v;
  for (int i = 0; i < n; ++i) v.push_back(std::make_unique<Mem>());
  return v;
}

// A connected transport for PE me (null, with a failure recorded, if create fails).
std::unique_ptr<IbTransport> connect(int me, int n, boot::Bootstrap& b, const Mem& m) {
  std::unique_ptr<IbTransport> t;
  std::string why;
  EXPECT_EQ(IbTransport::create(fake_verbs(), b, others(me, n), m.specs(me), Options{}, nullptr, &t, &why), Status::ok) << why;
  return t;
}

// Every PE's create fails; whys[pe] collects the reasons.
void expect_failed_setup(int n, const std::vector<std::unique_ptr<Mem>>& mem, std::vector<std::string>* whys,
                         Status want) {
  whys->assign(static_cast<size_t>(n), "");
  run_pes(n, [&](int me, boot::Bootstrap& b) {
    std::unique_ptr<IbTransport> t;
    const Status st = IbTransport::create(fake_verbs(), b, others(me, n), mem[me]->specs(me), Options{}, nullptr, &t, &(*whys)[me]);
    EXPECT_NE(st, Status::ok);
    if (want != Status::ok) {
      EXPECT_EQ(st, want);
    }
  });
}


struct NicScope {
  FakeNic nic;
  NicScope() { g_nic = &nic; }
  ~NicScope() { g_nic = nullptr; }
};
}  // namespace

TEST(IbTransport, PutGetSignalAndAtomicsThroughAFakeNic) {
  NicScope scope;
  const int n = 3;
  const uint64_t seed = std::random_device{}();
  std::vector<std::unique_ptr<Mem>> mem = mems(n);
  std::vector<std::unique_ptr<IbTransport>> tr(n);
  run_pes(n, [&](int me, boot::Bootstrap& b) {
    Mem& m = *mem[me];
    for (size_t i = 0; i < m.host_len; ++i) m.host[i] = static_cast<char>(pay(seed, me, i));
    for (size_t i = 0; i < m.dev_len; ++i) m.dev[i] = static_cast<char>(pay(seed ^ 1, me, i));
    memset(m.data, 0, m.data_len);
    // the ranges this PE's left neighbour will write (nobody else touches them)
    memset(m.host + (128 << 10), 0xA5, 64 << 10);
    memset(m.host + (256 << 10), 0xA5, 512);
    memset(m.dev, 0xA5, 5000);
    tr[me] = connect(me, n, b, m);
    ASSERT_TRUE(tr[me]);
    IbTransport& t = *tr[me];
    const int right = (me + 1) % n, left = (me + n - 1) % n;
    Mem& rm = *mem[right];
    ASSERT_EQ(b.barrier(), Status::ok);

    // puts: registered source, a staged (unregistered) one, GPU segment to GPU segment
    std::vector<char> loose(300);
    for (size_t i = 0; i < loose.size(); ++i) loose[i] = static_cast<char>(pay(seed ^ 2, me, i));
    ASSERT_EQ(t.put_nbi(right, Seg::host, 128 << 10, m.host, 64 << 10), Status::ok) << t.error();
    ASSERT_EQ(t.put_nbi(right, Seg::host, 256 << 10, loose.data(), loose.size()), Status::ok) << t.error();
    std::fill(loose.begin(), loose.end(), 0);  // staged at the call: the source is free already
    ASSERT_EQ(t.put_nbi(right, Seg::device, 0, m.dev + 8192, 5000), Status::ok) << t.error();
    EXPECT_EQ(static_cast<unsigned char>(rm.host[128 << 10]), 0xA5u) << "data arrived before the NIC ran";
    ASSERT_EQ(t.quiet(), Status::ok) << t.error();
    size_t bad = 0;
    for (size_t i = 0; i < (64u << 10); ++i) bad += rm.host[(128 << 10) + i] != static_cast<char>(pay(seed, me, i));
    for (size_t i = 0; i < 300; ++i) bad += rm.host[(256 << 10) + i] != static_cast<char>(pay(seed ^ 2, me, i));
    for (size_t i = 0; i < 5000; ++i) bad += rm.dev[i] != static_cast<char>(pay(seed ^ 1, me, 8192 + i));
    EXPECT_EQ(bad, 0u);

    // put + signal SET + signal ADD: the signals wait behind an ordering read
    ASSERT_EQ(t.put_nbi(right, Seg::data, 64, m.host, 1024), Status::ok);
    ASSERT_EQ(t.signal(right, Seg::data, 8 * me, 42 + me, SHMEM_SIGNAL_SET), Status::ok) << t.error();
    ASSERT_EQ(t.signal(right, Seg::data, 2048 + 8 * me, 5, SHMEM_SIGNAL_ADD), Status::ok) << t.error();
    ASSERT_EQ(t.quiet(), Status::ok) << t.error();
    EXPECT_EQ(reinterpret_cast<uint64_t*>(rm.data)[me], 42u + me);
    EXPECT_EQ(memcmp(rm.data + 64, m.host, 1024), 0);

    // gets from left: into a registered range and into loose memory, complete only at quiet
    std::vector<char> got(4000, 0x5A);
    ASSERT_EQ(t.get_nbi(left, Seg::host, 1000, got.data(), got.size()), Status::ok) << t.error();
    ASSERT_EQ(t.get_nbi(left, Seg::device, 100000, m.host + (512 << 10), 2000), Status::ok) << t.error();
    EXPECT_EQ(got[0], 0x5A) << "get data delivered before quiet";
    ASSERT_EQ(t.quiet(), Status::ok) << t.error();
    bad = 0;
    for (size_t i = 0; i < got.size(); ++i) bad += got[i] != static_cast<char>(pay(seed, left, 1000 + i));
    for (size_t i = 0; i < 2000; ++i)
      bad += m.host[(512 << 10) + i] != static_cast<char>(pay(seed ^ 1, left, 100000 + i));
    EXPECT_EQ(bad, 0u);
    ASSERT_EQ(b.barrier(), Status::ok);
    EXPECT_EQ(reinterpret_cast<uint64_t*>(m.data)[left], 42u + left);
    EXPECT_EQ(reinterpret_cast<uint64_t*>(m.data + 2048)[left], 5u);
    ASSERT_EQ(b.barrier(), Status::ok);
  });
  // The order on the wire: each signal is a fenced request right behind an RDMA read.
  int signals = 0;
  const auto& log = scope.nic.log;
  for (size_t i = 1; i < log.size(); ++i)
    if (log[i].flags & IBV_SEND_FENCE) {
      ++signals;
      EXPECT_EQ(log[i - 1].opcode, IBV_WR_RDMA_READ);
      EXPECT_EQ(log[i - 1].qpn, log[i].qpn);
      EXPECT_TRUE(log[i].opcode == IBV_WR_RDMA_WRITE || log[i].opcode == IBV_WR_ATOMIC_FETCH_AND_ADD);
    }
  EXPECT_EQ(signals, 2 * n);
  EXPECT_EQ(scope.nic.dmabuf_calls, n);  // the device segment went through dma-buf

  // Every atomic from PE 0 on PE 1's data segment, 8 and 4 bytes, both halves of a word.
  IbTransport& t0 = *tr[0];
  char* d1 = mem[1]->data;
  memset(d1 + 512, 0, 64);
  uint64_t old = 0;
  auto do_amo = [&](uint64_t off, gshmem_amo_op op, size_t bytes, uint64_t a, uint64_t b2) {
    old = 0xdeadbeefull;
    EXPECT_EQ(t0.amo_nbi(1, Seg::data, off, op, bytes, a, b2, &old), Status::ok) << t0.error();
    EXPECT_EQ(t0.quiet(), Status::ok) << t0.error();
    return old;
  };
  auto w64 = [&](size_t off) { return *reinterpret_cast<uint64_t*>(d1 + off); };
  auto w32 = [&](size_t off) { return *reinterpret_cast<uint32_t*>(d1 + off); };
  EXPECT_EQ(do_amo(512, GSHMEM_AMO_SET, 8, ~0ull, 0), 0u);
  EXPECT_EQ(w64(512), ~0ull);  // all ones stored, not mistaken for anything
  EXPECT_EQ(do_amo(512, GSHMEM_AMO_ADD, 8, 2, 0), ~0ull);
  EXPECT_EQ(w64(512), 1u);
  EXPECT_EQ(do_amo(512, GSHMEM_AMO_CSWAP, 8, 1, 77), 1u);
  EXPECT_EQ(do_amo(512, GSHMEM_AMO_CSWAP, 8, 1, 99), 77u);  // fails: returns the old value, no change
  EXPECT_EQ(w64(512), 77u);
  EXPECT_EQ(do_amo(512, GSHMEM_AMO_SWAP, 8, 1ull << 40, 0), 77u);
  EXPECT_EQ(do_amo(512, GSHMEM_AMO_AND, 8, (1ull << 40) | 6, 0), 1ull << 40);
  EXPECT_EQ(do_amo(512, GSHMEM_AMO_OR, 8, 3, 0), 1ull << 40);
  EXPECT_EQ(do_amo(512, GSHMEM_AMO_XOR, 8, 1, 0), (1ull << 40) | 3);
  EXPECT_EQ(do_amo(512, GSHMEM_AMO_FETCH, 8, 0, 0), (1ull << 40) | 2);
  // 4-byte operations on the two halves of the word at 520: the other half never changes
  *reinterpret_cast<uint64_t*>(d1 + 520) = 0x1111111122222222ull;
  EXPECT_EQ(do_amo(520, GSHMEM_AMO_ADD, 4, 0xF0000000u, 0), 0x22222222u);
  EXPECT_EQ(w32(520), 0x12222222u);  // wrapped at 32 bits
  EXPECT_EQ(w32(524), 0x11111111u);
  EXPECT_EQ(do_amo(524, GSHMEM_AMO_CSWAP, 4, 0x11111111u, 0xFFFFFFFFu), 0x11111111u);
  EXPECT_EQ(w32(524), 0xFFFFFFFFu);
  EXPECT_EQ(w32(520), 0x12222222u);
  EXPECT_EQ(do_amo(524, GSHMEM_AMO_ADD, 4, 1, 0), 0xFFFFFFFFu);
  EXPECT_EQ(w32(524), 0u);           // no carry out of the upper half
  EXPECT_EQ(w32(520), 0x12222222u);  // nor into the lower one
  EXPECT_EQ(do_amo(520, GSHMEM_AMO_XOR, 4, 0xFFFFFFFFu, 0), 0x12222222u);
  EXPECT_EQ(do_amo(520, GSHMEM_AMO_FETCH, 4, 0, 0), 0xEDDDDDDDu);
  EXPECT_EQ(do_amo(524, GSHMEM_AMO_SWAP, 4, 7, 0), 0u);
  EXPECT_EQ(w64(520), (7ull << 32) | 0xEDDDDDDDu);
  // a non-fetching atomic needs no result slot
  EXPECT_EQ(t0.amo_nbi(1, Seg::data, 512, GSHMEM_AMO_ADD, 8, 1, 0, nullptr), Status::ok);
  EXPECT_EQ(t0.quiet(), Status::ok);
  EXPECT_EQ(w64(512), (1ull << 40) | 3);
  for (auto& t : tr) t.reset();
}

// User buffers (shmemx_buffer_register): a registered source is read by the NIC when it runs (zero
// copy), an unregistered one is staged at the call. Two registrations in one page are told apart:
// unregistering one keeps the other.
TEST(IbTransport, RegisteredUserBuffersAreTheRdmaSource) {
  NicScope scope;
  const int n = 2;
  const uint64_t seed = std::random_device{}();
  std::vector<std::unique_ptr<Mem>> mem = mems(n);
  run_pes(n, [&](int me, boot::Bootstrap& b) {
    Mem& m = *mem[me];
    memset(m.host, 0, m.host_len);
    std::unique_ptr<IbTransport> tr = connect(me, n, b, m);
    ASSERT_TRUE(tr);
    IbTransport& t = *tr;
    const int right = (me + 1) % n;
    Mem& rm = *mem[right];
    alignas(4096) static thread_local char page[4096];
    char* a = page;        // [0, 64)
    char* bb = page + 128;  // [128, 192): the same page
    uint32_t ta = 0, tb = 0;
    std::string why;
    ASSERT_EQ(t.register_local(bb, 64, -1, &tb, &why), Status::ok) << why;
    ASSERT_EQ(t.register_local(a, 64, -1, &ta, &why), Status::ok) << why;
    EXPECT_NE(ta, tb);
    t.unregister_local(ta);
    ASSERT_EQ(b.barrier(), Status::ok);
    // registered: the NIC reads bb when it runs, so what bb holds at quiet() arrives
    for (int i = 0; i < 64; ++i) bb[i] = static_cast<char>(pay(seed, me, i));
    ASSERT_EQ(t.put_nbi(right, Seg::host, 4096, bb, 64), Status::ok) << t.error();
    for (int i = 0; i < 64; ++i) bb[i] = static_cast<char>(pay(seed ^ 7, me, i));
    ASSERT_EQ(t.quiet(), Status::ok) << t.error();
    ASSERT_EQ(b.barrier(), Status::ok);
    size_t bad = 0;
    for (int i = 0; i < 64; ++i) bad += mem[me]->host[4096 + i] != static_cast<char>(pay(seed ^ 7, (me + n - 1) % n, i));
    EXPECT_EQ(bad, 0u) << "the put from the registered buffer was staged (its registration was lost)";
    ASSERT_EQ(b.barrier(), Status::ok);
    // unregistered: staged at the call, later changes do not travel
    t.unregister_local(tb);
    for (int i = 0; i < 64; ++i) bb[i] = static_cast<char>(pay(seed ^ 9, me, i));
    ASSERT_EQ(t.put_nbi(right, Seg::host, 8192, bb, 64), Status::ok) << t.error();
    memset(bb, 0, 64);
    ASSERT_EQ(t.quiet(), Status::ok) << t.error();
    ASSERT_EQ(b.barrier(), Status::ok);
    bad = 0;
    for (int i = 0; i < 64; ++i) bad += mem[me]->host[8192 + i] != static_cast<char>(pay(seed ^ 9, (me + n - 1) % n, i));
    EXPECT_EQ(bad, 0u) << "an unregistered source was not staged";
    (void)rm;
    ASSERT_EQ(b.barrier(), Status::ok);
  });
}

// One page-aligned buffer of len bytes per PE: each PE's part of a heap extension.
static std::vector<std::unique_ptr<char, decltype(&free)>> extensions(int n, size_t len) {
  std::vector<std::unique_ptr<char, decltype(&free)>> v;
  for (int i = 0; i < n; ++i) v.emplace_back(static_cast<char*>(aligned_alloc(4096, len)), &free);
  return v;
}

// The device heap grows (or a buffer joins it) after set-up: the new part is a region of its own,
// registered collectively; RMA to offsets in it, and across the boundary between the set-up part
// and it, reaches the peers; dropped, it is unreachable again. The extension lies at another
// address than the segment's end, so a transfer that crosses the boundary must be split.
TEST(IbTransport, HeapExtensionsAreReachedThroughTheirOwnRegions) {
  NicScope scope;
  const int n = 3;
  const size_t ext_len = 64 << 10;
  const uint64_t seed = std::random_device{}();
  std::vector<std::unique_ptr<Mem>> mem = mems(n);
  std::vector<std::unique_ptr<char, decltype(&free)>> ext = extensions(n, ext_len);
  run_pes(n, [&](int me, boot::Bootstrap& b) {
    Mem& m = *mem[me];
    char* x = ext[me].get();
    memset(m.dev, 0xA5, m.dev_len);
    memset(x, 0xA5, ext_len);
    std::unique_ptr<IbTransport> tr = connect(me, n, b, m);
    ASSERT_TRUE(tr);
    IbTransport& t = *tr;
    const int right = (me + 1) % n, left = (me + n - 1) % n;
    const uint64_t end = m.dev_len;  // the extension's offset in the device segment
    std::vector<char> src(300);
    for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<char>(pay(seed, me, i));
    ASSERT_EQ(b.barrier(), Status::ok);
    // before the extension: past the registered end is an error naming the PE
    EXPECT_NE(t.put_nbi(right, Seg::device, end + 16, src.data(), 8), Status::ok);
    EXPECT_NE(t.error().find("outside what pe " + std::to_string(right) + " registered"), std::string::npos)
        << t.error();
    std::string why;
    ASSERT_EQ(t.add_extent(b, Seg::device, end, x, ext_len, -1, &why), Status::ok) << why;
    // a put across the boundary: 100 bytes end the set-up part, 200 start the extension
    ASSERT_EQ(t.put_nbi(right, Seg::device, end - 100, src.data(), 300), Status::ok) << t.error();
    // a put inside the extension from a source inside this PE's extension (its own region)
    for (int i = 0; i < 64; ++i) x[4096 + i] = static_cast<char>(pay(seed ^ 3, me, i));
    ASSERT_EQ(t.put_nbi(right, Seg::device, end + 8192, x + 4096, 64), Status::ok) << t.error();
    uint64_t old = 0;
    ASSERT_EQ(t.amo(right, Seg::device, end + 16384, GSHMEM_AMO_ADD, 8, 5 + me, 0, &old), Status::ok) << t.error();
    ASSERT_EQ(t.quiet(), Status::ok) << t.error();
    ASSERT_EQ(b.barrier(), Status::ok);
    size_t bad = 0;
    for (int i = 0; i < 100; ++i) bad += m.dev[m.dev_len - 100 + i] != static_cast<char>(pay(seed, left, i));
    for (int i = 0; i < 200; ++i) bad += x[i] != static_cast<char>(pay(seed, left, 100 + i));
    for (int i = 0; i < 64; ++i) bad += x[8192 + i] != static_cast<char>(pay(seed ^ 3, left, i));
    EXPECT_EQ(bad, 0u) << "data put across the boundary or into the extension did not arrive";
    EXPECT_EQ(x[200], static_cast<char>(0xA5)) << "a put wrote past its end";
    uint64_t word;
    memcpy(&word, x + 16384, 8);
    EXPECT_EQ(word, 0xA5A5A5A5A5A5A5A5ull + 5 + left);
    EXPECT_EQ(old, 0xA5A5A5A5A5A5A5A5ull);
    // a get across the boundary from the left PE
    std::vector<char> got(300, 0);
    ASSERT_EQ(t.get(left, Seg::device, end - 100, got.data(), 300), Status::ok) << t.error();
    bad = 0;
    const Mem& lm = *mem[left];
    const char* lx = ext[left].get();
    for (int i = 0; i < 100; ++i) bad += got[i] != lm.dev[lm.dev_len - 100 + i];
    for (int i = 0; i < 200; ++i) bad += got[100 + i] != lx[i];
    EXPECT_EQ(bad, 0u) << "a get across the boundary returned other bytes";
    ASSERT_EQ(b.barrier(), Status::ok);
    // dropped everywhere: the extension is unreachable again, the set-up part still reachable
    t.drop_extents(Seg::device, end, ext_len);
    ASSERT_EQ(b.barrier(), Status::ok);
    EXPECT_NE(t.put_nbi(right, Seg::device, end + 16, src.data(), 8), Status::ok);
    EXPECT_NE(t.put_nbi(right, Seg::device, end - 4, src.data(), 8), Status::ok);
    EXPECT_EQ(t.put(right, Seg::device, 0, src.data(), 8), Status::ok) << t.error();
    ASSERT_EQ(b.barrier(), Status::ok);
  });
}

// A PE that cannot register its part of an extension: every PE's add_extent fails naming it.
TEST(IbTransport, AFailedExtensionNamesThePeOnEveryPe) {
  NicScope scope;
  const int n = 3;
  const size_t ext_len = 16 << 10;
  std::vector<std::unique_ptr<Mem>> mem = mems(n);
  std::vector<std::unique_ptr<char, decltype(&free)>> ext = extensions(n, ext_len);
  scope.nic.refuse_reg_base = reinterpret_cast<uintptr_t>(ext[1].get());
  std::vector<std::string> whys(n);
  run_pes(n, [&](int me, boot::Bootstrap& b) {
    std::unique_ptr<IbTransport> t = connect(me, n, b, *mem[me]);
    ASSERT_TRUE(t);
    EXPECT_NE(t->add_extent(b, Seg::device, mem[me]->dev_len, ext[me].get(), ext_len, -1, &whys[me]), Status::ok);
    ASSERT_EQ(b.barrier(), Status::ok);
  });
  for (int pe = 0; pe < n; ++pe) EXPECT_NE(whys[pe].find("pe 1"), std::string::npos) << "pe " << pe << ": " << whys[pe];
}

TEST(IbTransport, ContendedAtomicsFromSeveralPes) {
  NicScope scope;
  const int n = 4, rounds = 150;
  std::vector<std::unique_ptr<Mem>> mem = mems(n);
  memset(mem[0]->data, 0, 64);
  // PEs 1..3 take tickets from PE 0: an 8-byte NIC fetch-add and two 4-byte (emulated) fetch-adds
  // on the two halves of one word; every ticket must be handed out exactly once.
  std::vector<std::vector<uint64_t>> tickets(n);
  run_pes(n, [&](int me, boot::Bootstrap& b) {
    std::unique_ptr<IbTransport> t = connect(me, n, b, *mem[me]);
    ASSERT_TRUE(t);
    ASSERT_EQ(b.barrier(), Status::ok);
    if (me != 0) {
      std::vector<uint64_t> a(rounds), lo(rounds), hi(rounds);
      for (int r = 0; r < rounds; ++r) {
        ASSERT_EQ(t->amo_nbi(0, Seg::data, 0, GSHMEM_AMO_ADD, 8, 1, 0, &a[r]), Status::ok) << t->error();
        ASSERT_EQ(t->amo_nbi(0, Seg::data, 8, GSHMEM_AMO_ADD, 4, 1, 0, &lo[r]), Status::ok) << t->error();
        ASSERT_EQ(t->amo_nbi(0, Seg::data, 12, GSHMEM_AMO_ADD, 4, 1, 0, &hi[r]), Status::ok) << t->error();
      }
      ASSERT_EQ(t->quiet(), Status::ok) << t->error();
      for (int r = 0; r < rounds; ++r) {
        tickets[me].push_back(a[r]);
        tickets[me].push_back((1ull << 32) | lo[r]);
        tickets[me].push_back((2ull << 32) | hi[r]);
      }
    }
    ASSERT_EQ(b.barrier(), Status::ok);
  });
  std::vector<uint64_t> all;
  for (auto& v : tickets) all.insert(all.end(), v.begin(), v.end());
  std::sort(all.begin(), all.end());
  const uint64_t per = static_cast<uint64_t>(rounds) * (n - 1);
  ASSERT_EQ(all.size(), 3 * per);
  for (uint64_t k = 0; k < 3; ++k)
    for (uint64_t i = 0; i < per; ++i) ASSERT_EQ(all[k * per + i], (k << 32) | i) << "kind " << k;
  EXPECT_EQ(*reinterpret_cast<uint64_t*>(mem[0]->data), per);
  EXPECT_EQ(*reinterpret_cast<uint32_t*>(mem[0]->data + 8), per);
  EXPECT_EQ(*reinterpret_cast<uint32_t*>(mem[0]->data + 12), per);
}

// The blocking forms host calls use (transport/transport.hpp): put returns with the source read,
// get and amo with the data or old value delivered, without a separate quiet.
TEST(IbTransport, BlockingFormsCompleteAtReturn) {
  NicScope scope;
  const int n = 2;
  const uint64_t seed = std::random_device{}();
  std::vector<std::unique_ptr<Mem>> mem = mems(n);
  run_pes(n, [&](int me, boot::Bootstrap& b) {
    Mem& m = *mem[me];
    for (size_t i = 0; i < 4096; ++i) m.host[i] = static_cast<char>(pay(seed, me, i));
    memset(m.data, 0, 64);
    std::unique_ptr<IbTransport> t = connect(me, n, b, m);
    ASSERT_TRUE(t);
    ASSERT_EQ(b.barrier(), Status::ok);
    if (me == 0) {
      std::vector<char> src(512);
      for (size_t i = 0; i < src.size(); ++i) src[i] = static_cast<char>(pay(seed ^ 3, 0, i));
      ASSERT_EQ(t->put(1, Seg::host, 8192, src.data(), src.size()), Status::ok) << t->error();
      EXPECT_EQ(memcmp(mem[1]->host + 8192, src.data(), src.size()), 0) << "put returned before the NIC wrote";
      std::vector<char> got(1000, 0x5A);
      ASSERT_EQ(t->get(1, Seg::host, 100, got.data(), got.size()), Status::ok) << t->error();
      size_t bad = 0;
      for (size_t i = 0; i < got.size(); ++i) bad += got[i] != static_cast<char>(pay(seed, 1, 100 + i));
      EXPECT_EQ(bad, 0u) << "get returned before its data";
      uint64_t old = 1;
      ASSERT_EQ(t->amo(1, Seg::data, 16, GSHMEM_AMO_ADD, 8, 5, 0, &old), Status::ok) << t->error();
      EXPECT_EQ(old, 0u);
      ASSERT_EQ(t->amo(1, Seg::data, 16, GSHMEM_AMO_CSWAP, 8, 5, 9, &old), Status::ok) << t->error();
      EXPECT_EQ(old, 5u);
      EXPECT_EQ(*reinterpret_cast<uint64_t*>(mem[1]->data + 16), 9u);
    }
    ASSERT_EQ(b.barrier(), Status::ok);
  });
}

TEST(IbTransport, BadRangesAndFailedCompletionsNameThePe) {
  NicScope scope;
  const int n = 2;
  std::vector<std::unique_ptr<Mem>> mem = mems(n);
  run_pes(n, [&](int me, boot::Bootstrap& b) {
    std::unique_ptr<IbTransport> t = connect(me, n, b, *mem[me]);
    ASSERT_TRUE(t);
    ASSERT_EQ(b.barrier(), Status::ok);
    if (me == 0) {
      EXPECT_NE(t->put_nbi(1, Seg::data, 4000, mem[0]->host, 200), Status::ok);
      EXPECT_NE(t->error().find("pe 1"), std::string::npos) << t->error();
      EXPECT_NE(t->error().find("outside"), std::string::npos) << t->error();
      EXPECT_NE(t->amo_nbi(1, Seg::data, 6, GSHMEM_AMO_ADD, 8, 1, 0, nullptr), Status::ok);
      EXPECT_NE(t->error().find("not 8-byte aligned"), std::string::npos) << t->error();
      EXPECT_NE(t->put_nbi(0, Seg::data, 0, mem[0]->host, 8), Status::ok);  // itself: not an ib peer
      {
        std::lock_guard<std::mutex> lk(g_nic->mu);
        g_nic->fail_opcode = IBV_WR_RDMA_WRITE;
      }
      EXPECT_EQ(t->put_nbi(1, Seg::host, 0, mem[0]->host, 64), Status::ok);  // posted fine, fails remotely
      EXPECT_NE(t->quiet(), Status::ok);
      EXPECT_NE(t->error().find("pe 1"), std::string::npos) << t->error();
      EXPECT_NE(t->error().find("remote access error"), std::string::npos) << t->error();
    }
    ASSERT_EQ(b.barrier(), Status::ok);
  });
}

TEST(IbTransport, GpuSegmentFallsBackToPlainRegistration) {
  NicScope scope;
  scope.nic.dmabuf_works = false;  // e.g. a kernel or driver without dma-buf export
  const int n = 2;
  std::vector<std::unique_ptr<Mem>> mem = mems(n);
  run_pes(n, [&](int me, boot::Bootstrap& b) {
    std::unique_ptr<IbTransport> t = connect(me, n, b, *mem[me]);
    ASSERT_TRUE(t);
    memset(mem[me]->dev, me + 1, 64);
    ASSERT_EQ(b.barrier(), Status::ok);
    if (me == 0) {
      ASSERT_EQ(t->get_nbi(1, Seg::device, 0, mem[0]->host, 64), Status::ok) << t->error();
      ASSERT_EQ(t->quiet(), Status::ok) << t->error();
      EXPECT_EQ(mem[0]->host[63], 2);
    }
    ASSERT_EQ(b.barrier(), Status::ok);
  });
  EXPECT_EQ(scope.nic.dmabuf_calls, n);
  EXPECT_EQ(scope.nic.reg_mr_calls, n * 5);  // host, data, device (fallback), staging, results
}

TEST(IbTransport, AFailedSetUpEndsEveryPesWait) {
  NicScope scope;
  scope.nic.dmabuf_works = false;
  const int n = 3;
  std::vector<std::unique_ptr<Mem>> mem = mems(n);
  scope.nic.refuse_reg_base = reinterpret_cast<uintptr_t>(mem[2]->dev);  // PE 2 cannot register its GPU segment
  std::vector<std::string> whys;
  expect_failed_setup(n, mem, &whys, Status::ok);
  EXPECT_NE(whys[2].find("cannot register the device segment"), std::string::npos) << whys[2];
  EXPECT_NE(whys[2].find("ibv_reg_dmabuf_mr"), std::string::npos) << whys[2];
  EXPECT_NE(whys[0].find("pe 2 could not set up"), std::string::npos) << whys[0];
  EXPECT_NE(whys[1].find("pe 2 could not set up"), std::string::npos) << whys[1];
}

TEST(IbTransport, NoDeviceIsAClearErrorOnEveryPe) {
  NicScope scope;
  scope.nic.ndev = 0;
  const int n = 2;
  std::vector<std::unique_ptr<Mem>> mem = mems(n);
  std::vector<std::string> whys;
  expect_failed_setup(n, mem, &whys, Status::not_available);
  for (const std::string& w : whys) EXPECT_NE(w.find("no InfiniBand device"), std::string::npos) << w;
}
#else
TEST(IbTransport, BuiltWithoutRdmaCoreHeaders) { GTEST_SKIP() << "libibverbs-dev not installed at build time"; }
#endif
