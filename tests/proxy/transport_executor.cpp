// The proxy executor over the job's real off-node transport (ucx or tcp, GSHMEM_TRANSPORT) between
// PEs (run with GSHMEM_FORCE_PROXY=1, or on two "nodes"): every PE runs a FIFO + executor, and host threads push triggers
// that put fresh payloads into the heap of the PE n/2 away (behind the transport in both set-ups)
// with a SIGNAL ADD after each, fetch-add a counter on PE 0 (directly where PE 0 is mapped), and
// get data back. Checks after quiets and barriers: the neighbour's data,
// the exact signal count, distinct fetch-add results across all PEs (0 .. N-1). Exits 77 when
// no PE is reached through a transport.
#include <shmem.h>

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstring>
#include <thread>
#include <vector>

#include "core/detail/access.hpp"
#include "proxy/executor.hpp"

namespace {
uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  return x;
}
unsigned char byte_of(int pe, int iter, size_t i) { return static_cast<unsigned char>(mix((uint64_t(pe) << 40) ^ (uint64_t(iter) << 20) ^ i)); }
int g_fail = 0;
#define CHECK(c, ...)                                   \
  do {                                                  \
    if (!(c)) {                                         \
      fprintf(stderr, "FAIL pe %d: ", shmem_my_pe());   \
      fprintf(stderr, __VA_ARGS__);                     \
      fprintf(stderr, "\n");                            \
      ++g_fail;                                         \
    }                                                   \
  } while (0)
}  // namespace

int main() {
  shmem_init();
  const int me = shmem_my_pe(), n = shmem_n_pes(), right = (me + n / 2) % n, left = (me + n - n / 2) % n;
  bool any = false;
  for (const auto& x : gshmem::core::g_rt->routes) any = any || x.transport != nullptr;
  if (!any || n < 2) {
    if (me == 0) printf("no PE is reached through a transport in this job (set GSHMEM_FORCE_PROXY=1); skipping\n");
    shmem_finalize();
    return 77;
  }
  constexpr int kIters = 200, kSlot = 4096, kSlots = 8;
  unsigned char* buf = static_cast<unsigned char*>(shmem_malloc(kSlot * kSlots));
  uint64_t* sig = static_cast<uint64_t*>(shmem_calloc(1, 8));
  uint64_t* cnt = static_cast<uint64_t*>(shmem_calloc(1, 8));
  uint64_t* all = static_cast<uint64_t*>(shmem_malloc(sizeof(uint64_t) * kIters * n));
  auto where = [](const void* p, int pe) { return gshmem::core::target("tcp_executor", p, 1, pe); };
  CHECK(where(buf, right).via != nullptr, "pe %d is mapped, not behind the transport", right);
  gshmem::proxy::Fifo fifo(5);  // 32 slots: the producer waits for room often
  // the route table's transports (tcp for every PE that is not mapped here)
  std::vector<gshmem::transport::Transport*> via(static_cast<size_t>(n), nullptr);
  for (int pe = 0; pe < n; ++pe) via[static_cast<size_t>(pe)] = gshmem::core::g_rt->routes[static_cast<size_t>(pe)].transport;
  gshmem::proxy::Executor exec(fifo, via);
  std::atomic<bool> stop{false};
  std::thread proxy([&] {
    while (!stop.load(std::memory_order_acquire)) exec.poll();
    exec.poll();
  });
  std::vector<unsigned char> src(kSlot * kSlots), back(kSlot);
  std::vector<uint64_t> olds(kIters, ~0ull);
  const gshmem::core::Target tb = where(buf, right), ts = where(sig, right), tc = where(cnt, 0);
  for (int i = 0; i < kIters; ++i) {
    unsigned char* s = src.data() + (i % kSlots) * kSlot;
    for (size_t k = 0; k < kSlot; ++k) s[k] = byte_of(me, i, k);
    gshmem_trigger t, e[2];
    gshmem_trigger_put(right, static_cast<uint32_t>(tb.seg), tb.off + (i % kSlots) * kSlot,
                       reinterpret_cast<uintptr_t>(s), kSlot, &t, e);
    fifo.push(t, e);
    gshmem_trigger_signal(right, static_cast<uint32_t>(ts.seg), ts.off, 1, 1, &t, e);
    fifo.push(t, e);
    uint64_t upto;
    if (!tc.via) {  // PE 0's counter is mapped here: a CPU atomic, atomic with the proxy's
      olds[static_cast<size_t>(i)] = __atomic_fetch_add(reinterpret_cast<uint64_t*>(tc.p), 1, __ATOMIC_SEQ_CST);
      upto = fifo.push(gshmem_trigger_encode(GSHMEM_TRIG_FLUSH, 0, 0, 0, 0, 0));
    } else {
      gshmem_trigger_amo(0, static_cast<uint32_t>(tc.seg), tc.off, GSHMEM_AMO_ADD, 8, 1, 0,
                         reinterpret_cast<uintptr_t>(&olds[static_cast<size_t>(i)]), &t, e);
      upto = fifo.push(t, e);
    }
    if (i % kSlots == kSlots - 1) {
      fifo.quiet(upto);
      CHECK(olds[static_cast<size_t>(i)] != ~0ull, "fetch-add result missing after quiet (iteration %d)", i);
    }
  }
  shmem_barrier_all();  // every PE's puts to its right neighbour were quieted
  for (int s = 0; s < kSlots; ++s) {
    const int last = kIters - kSlots + s;  // the last iteration that wrote slot s
    int bad = 0;
    for (size_t k = 0; k < kSlot; ++k) bad += buf[s * kSlot + k] != byte_of(left, last, k);
    CHECK(bad == 0, "slot %d from pe %d: %d bytes wrong", s, left, bad);
  }
  CHECK(*sig == kIters, "signal count %llu, want %d", (unsigned long long)*sig, kIters);
  // get the right neighbour's slot 0 back through the executor: it holds my last write to it
  gshmem_trigger t, e[2];
  gshmem_trigger_get(right, static_cast<uint32_t>(tb.seg), tb.off, reinterpret_cast<uintptr_t>(back.data()), kSlot, &t, e);
  fifo.quiet(fifo.push(t, e));
  int bad = 0;
  for (size_t k = 0; k < kSlot; ++k) bad += back[k] != byte_of(me, kIters - kSlots, k);
  CHECK(bad == 0, "get through the executor: %d bytes wrong", bad);
  stop.store(true, std::memory_order_release);
  proxy.join();
  CHECK(exec.rejected() == 0, "%llu triggers rejected", (unsigned long long)exec.rejected());
  memcpy(all + static_cast<size_t>(me) * kIters, olds.data(), sizeof(uint64_t) * kIters);
  shmem_barrier_all();
  if (me == 0) {
    std::vector<uint64_t> v(static_cast<size_t>(kIters) * n);
    for (int pe = 0; pe < n; ++pe) shmem_getmem(v.data() + static_cast<size_t>(pe) * kIters, all + static_cast<size_t>(pe) * kIters, sizeof(uint64_t) * kIters, pe);
    std::sort(v.begin(), v.end());
    bool ok = true;
    for (size_t i = 0; i < v.size(); ++i) ok = ok && v[i] == i;
    CHECK(ok, "fetch-add results are not exactly 0 .. %zu", v.size() - 1);
    CHECK(*cnt == v.size(), "counter %llu, want %zu", (unsigned long long)*cnt, v.size());
  }
  static int fails;
  fails = g_fail;
  shmem_barrier_all();
  int total = 0;
  for (int pe = 0; pe < n; ++pe) total += shmem_int_g(&fails, pe);
  if (me == 0) printf("tcp_executor: %d PEs, %s\n", n, total ? "FAILED" : "all triggers verified");
  shmem_finalize();
  return total ? 1 : 0;
}
