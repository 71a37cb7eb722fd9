#include "core/runtime.hpp"

#include "core/dev_teams.hpp"

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <unistd.h>

#include "bootstrap/uid.hpp"
#include "coll/barrier.hpp"
#include "common/log.hpp"
#include "core/info.hpp"
#include "proxy/gpu_proxy.hpp"
#include "common/wait.hpp"

namespace gshmem {

Runtime* g_rt = nullptr;
std::atomic<int> g_rt_state{static_cast<int>(RtState::uninit)};

namespace {
std::mutex g_init_mu;

[[noreturn]] void init_failed(const char* call, const char* what, Status st) {
  fatal(call, "%s (%s)%s", what, status_name(st), g_rt && g_rt->boot ? "" : "; set GSHMEM_DEBUG=INFO for details");
}
// Once a bootstrap exists, an error anywhere ends the whole job: every PE and the launcher hear of it.
void abort_job(int status, const char* msg) {
  if (g_rt && g_rt->boot) g_rt->boot->abort(status, msg);
}
}  // namespace

namespace {
void health_hook() {
  if (g_rt && g_rt->boot) g_rt->boot->check_health();
}
}  // namespace

namespace {
// Wall time of shmem_init's phases, printed at INFO (GSHMEM_DEBUG=INFO GSHMEM_DEBUG_SUBSYS=INIT):
// where an init's time goes, for docs/perf.
class InitPhases {
 public:
  void mark(const char* name) {
    const auto now = std::chrono::steady_clock::now();
    if (n_ < kMax) phases_[n_++] = {name, std::chrono::duration<double, std::milli>(now - last_).count()};
    last_ = now;
  }
  void report() const {
    char line[512];
    int len = 0;
    double total = 0;
    for (int i = 0; i < n_ && len < static_cast<int>(sizeof line); ++i) {
      total += phases_[i].ms;
      len += snprintf(line + len, sizeof line - static_cast<size_t>(len), "%s%s %.1f", i ? ", " : "",
                      phases_[i].name, phases_[i].ms);
    }
    GSHMEM_INFO(Subsys::init, "shmem_init phases (ms): %s; total %.1f", line, total);
  }

 private:
  static constexpr int kMax = 12;
  struct Phase {
    const char* name;
    double ms;
  };
  Phase phases_[kMax]{};
  int n_ = 0;
  std::chrono::steady_clock::time_point last_ = std::chrono::steady_clock::now();
};
}  // namespace

void runtime_init(const char* call, int requested_thread, int* provided, const boot::UidArgs* uid_args) {
  InitPhases phases;
  std::lock_guard<std::mutex> lock(g_init_mu);
  const int state = g_rt_state.load();
  if (state == static_cast<int>(RtState::running)) {
    if (provided) *provided = g_rt->thread_level;
    return;
  }
  if (state == static_cast<int>(RtState::finalized)) {
    fatal(call, "called after shmem_finalize; re-initialisation is not supported");
  }
  const Config* cfg = nullptr;
  if (config_load(&cfg) != Status::ok) init_failed(call, "invalid environment (see the messages above)", Status::invalid_argument);
  log_configure(cfg->SHMEM_DEBUG ? "DEBUG" : cfg->GSHMEM_DEBUG.c_str(), cfg->GSHMEM_DEBUG_SUBSYS.c_str());
  g_wait_spin = static_cast<uint32_t>(cfg->GSHMEM_WAIT_SPIN);       // ranges checked at load
  g_health_ms = static_cast<uint32_t>(cfg->GSHMEM_HEALTH_CHECK_MS);
  g_wait_health_hook = health_hook;

  auto* rt = new Runtime;
  rt->cfg = cfg;
  Status st = boot::create(*cfg, uid_args, &rt->boot);
  if (st != Status::ok) init_failed(call, "no bootstrap could start (GSHMEM_BOOTSTRAP)", st);
  g_rt = rt;
  set_job_abort_hook(abort_job);
  rt->my_pe = rt->boot->rank();
  rt->npes = rt->boot->size();
  log_set_pe(rt->my_pe);
  GSHMEM_INFO(Subsys::init, "bootstrap %s: pe %d of %d", rt->boot->name(), rt->my_pe, rt->npes);
  phases.mark("config+bootstrap");

  std::vector<std::array<uint8_t, 16>> secrets(static_cast<size_t>(rt->npes));
  if (rt->my_pe == 0 && boot::random_bytes(secrets[0].data(), 16) != Status::ok)
    init_failed(call, "no randomness for the job secret", Status::system_error);
  st = rt->boot->allgather(secrets.data(), 16);
  if (st != Status::ok) init_failed(call, "bootstrap allgather failed", st);
  memcpy(rt->job_secret, secrets[0].data(), 16);

  st = topo::discover(*rt->boot, &rt->topo);
  if (st != Status::ok) init_failed(call, "topology discovery failed", st);
  phases.mark("secret+topology");
  const std::string& kind = cfg->GSHMEM_HEAP_KIND;  // auto, host or device (checked at load)
  heap::DeviceHeapSpec spec;
  bool use_device = false;
#if GSHMEM_HAVE_CUDA
  // auto: a device heap only for programs that contain GPU code built against shmem.h; a plain C
  // program touches its heap with the CPU, so it gets the host kind even on a GPU machine.
  if (kind == "device" || (kind == "auto" && device_code_present())) {
    const cu::Driver* drv = nullptr;
    int count = 0;
    use_device = gpu_probe(&drv, &count) == Status::ok;
    if (use_device) {
      rt->gpu = std::make_unique<GpuContext>();
      st = gpu_bind(*cfg, rt->topo, drv, count, rt->gpu.get());
      if (st != Status::ok) init_failed(call, "cannot bind this PE to a GPU (GSHMEM_DEVICE)", st);
      spec.drv = drv;
      spec.dev = rt->gpu->dev;
      spec.reserve = cfg->GSHMEM_DEVICE_HEAP_RESERVE;
      st = gpu_alloc_mode(*cfg, *rt->gpu, &spec.ipc);
      if (st != Status::ok) init_failed(call, "GSHMEM_DEVICE_ALLOC: unusable allocation mode", st);
    }
  }
#endif
  if (kind == "device" && !use_device)
    init_failed(call, "GSHMEM_HEAP_KIND=device but this PE has no usable CUDA GPU", Status::not_available);
  phases.mark("gpu probe+bind");
  const std::string& engine = cfg->GSHMEM_PROXY_ENGINE;  // auto, tcp or ib (checked at load)
  // The PEs this PE maps directly. CPU PEs forced through the proxy map nobody else; GPU PEs keep
  // their same-node peers mapped (team collectives, the copy engine) and send device-initiated
  // operations through the proxy instead.
  const bool force = cfg->GSHMEM_FORCE_PROXY;
  std::vector<int> mapped = rt->topo.local_pes;
  if (force && !use_device) mapped = {rt->my_pe};
  topo::Topology heap_topo = rt->topo;
  heap_topo.local_pes = mapped;
  st = rt->heap.init(*rt->boot, heap_topo, cfg->SHMEM_SYMMETRIC_SIZE, cfg->GSHMEM_SYMMETRIC_DATA, rt->job_secret,
                     use_device ? &spec : nullptr);
  if (st != Status::ok)
    init_failed(call, "cannot set up the symmetric heap (SHMEM_SYMMETRIC_SIZE, GPU memory)", st);
  rt->teams.init(&rt->heap, rt->topo, mapped);
  phases.mark("heap+teams");
  // routes[pe]: how device code reaches pe: directly (none), or through the proxy with the copy
  // engine (mapped peers), InfiniBand (the others; auto falls back to tcp below when any PE cannot
  // set it up) or what GSHMEM_PROXY_ENGINE forces. remote: PEs the tcp transport connects to (not
  // mapped, or proxied by a GPU PE whose proxy uses tcp for everything).
  std::vector<proxy::Route> routes(static_cast<size_t>(rt->npes), proxy::Route::none);
  std::vector<int> remote, ib_peers;
  bool any_via = false;
  for (int pe = 0; pe < rt->npes; ++pe) {
    if (pe == rt->my_pe) continue;
    const bool is_mapped = std::find(mapped.begin(), mapped.end(), pe) != mapped.end();
    const bool via = use_device && (force || !is_mapped);
    any_via = any_via || via;
    if (!is_mapped || (via && engine == "tcp")) remote.push_back(pe);
    if (!via) continue;
    proxy::Route& r = routes[static_cast<size_t>(pe)];
    r = engine == "tcp" ? proxy::Route::tcp : engine == "ib" || !is_mapped ? proxy::Route::ib : proxy::Route::copy_engine;
    if (r == proxy::Route::ib) ib_peers.push_back(pe);
  }
  // Every PE takes part in the transport set-ups (they are collective), even one with nothing
  // remote: bit 0, this PE has tcp peers; bit 1, it wants InfiniBand peers.
  bool any_remote = !remote.empty(), any_ib = !ib_peers.empty();
  {
    std::vector<int32_t> flags(static_cast<size_t>(rt->npes), 0);
    flags[static_cast<size_t>(rt->my_pe)] = (any_remote ? 1 : 0) | (any_ib ? 2 : 0);
    st = rt->boot->allgather(flags.data(), sizeof(int32_t));
    if (st != Status::ok) init_failed(call, "bootstrap allgather failed", st);
    any_remote = any_ib = false;
    for (int32_t f : flags) {
      any_remote = any_remote || (f & 1);
      any_ib = any_ib || (f & 2);
    }
  }
  if (any_ib) {
    std::string why;
    st = proxy::ib_start(*rt, ib_peers, &why);
    if (st != Status::ok && engine == "ib") {
      const std::string what = "GSHMEM_PROXY_ENGINE=ib: " + why;
      init_failed(call, what.c_str(), st);
    }
    if (st != Status::ok) {
      GSHMEM_INFO(Subsys::init, "%s; the proxy uses the tcp transport for PEs on other nodes", why.c_str());
      for (proxy::Route& r : routes)
        if (r == proxy::Route::ib) r = proxy::Route::tcp;  // unmapped PEs: already tcp peers
    }
  }
  if (any_remote) {
    std::vector<char*> bases{reinterpret_cast<char*>(rt->heap.control(rt->my_pe)),
                             reinterpret_cast<char*>(rt->heap.data_region().lo)};
    std::vector<size_t> sizes{heap::kControlBytes + rt->heap.size(), rt->heap.data_region().size};
    if (use_device) sizes[0] = heap::kControlBytes;  // the device heap is the device segment
    st = transport::Tcp::create(*rt->boot, remote, bases, sizes, cfg->GSHMEM_BOOTSTRAP_IFNAME, &rt->tcp);
    if (st != Status::ok) init_failed(call, "cannot start the tcp transport to the other nodes", st);
    if (use_device) proxy::gpu_attach_tcp(*rt);
    transport::Tcp* tcp = rt->tcp.get();
    rt->teams.set_remote({[tcp](int pe, uint64_t off, uint64_t v) {
                            tcp->amo(pe, transport::Seg::host, off, transport::AmoOp::set, 8, v, 0);
                          },
                          [tcp](int pe, uint64_t off, void* dst, size_t n) {
                            tcp->get(pe, transport::Seg::host, off, dst, n);
                          }});
    GSHMEM_INFO(Subsys::init, "%zu PEs reached through the tcp transport", remote.size());
  }
  phases.mark("transports");
  if (any_via) {
    st = proxy::gpu_proxy_start(*rt, routes, &rt->gproxy);
    if (st != Status::ok) init_failed(call, "cannot start the GPU proxy (pinned FIFO, proxy thread)", st);
    GSHMEM_INFO(Subsys::init, "device operations to %s other PEs go through the proxy", force ? "all" : "off-node");
  }
  rt->thread_level = requested_thread;
  if (provided) *provided = requested_thread;
  g_rt_state.store(static_cast<int>(RtState::running));
  phases.mark("proxy");
  republish_device_state();
  for (int h : {team::kWorld, team::kShared, team::kNode}) dev_team_publish(call, *rt, *rt->teams.get(h));
  phases.mark("device state");
  st = rt->boot->barrier();
  if (st != Status::ok) init_failed(call, "bootstrap barrier failed", st);
  phases.mark("barrier");
  phases.report();
  if (rt->my_pe == 0) {
    if (cfg->SHMEM_VERSION || cfg->SHMEM_INFO) print_version(stdout);
    if (cfg->SHMEM_INFO) print_env_table(stdout, *cfg, /*markdown=*/false);
    fflush(stdout);
  }
}

void runtime_finalize() {
  std::lock_guard<std::mutex> lock(g_init_mu);
  if (g_rt_state.load() != static_cast<int>(RtState::running)) return;
  memory_fence();
  if (g_rt->gproxy) proxy::gpu_proxy_quiet(*g_rt->gproxy);
  if (g_rt->tcp) g_rt->tcp->quiet();
  // A bootstrap barrier, not a shared-memory one: once it returns every PE has stopped touching
  // peer memory, and no PE closes its bootstrap connection while another still checks health.
  g_rt->boot->barrier();
  proxy::gpu_proxy_stop(g_rt->gproxy);
  g_rt->gproxy = nullptr;
#if GSHMEM_HAVE_IBVERBS
  g_rt->ib.reset();  // after the proxy (its engine) and before the heap it registered
#endif
  if (g_rt->tcp) g_rt->tcp->shutdown();
  g_rt_state.store(static_cast<int>(RtState::finalized));
#if GSHMEM_HAVE_CUDA
  if (g_rt->gpu) g_rt->gpu->drv->cuCtxSynchronize();
#endif
  g_rt->heap.finalize();
#if GSHMEM_HAVE_CUDA
  if (g_rt->gpu) gpu_release(g_rt->gpu.get());
#endif
  g_rt->boot->finalize();
}

void republish_device_state() {
  Runtime& rt = *g_rt;
  gshmem_device_state s{};
  s.version = GSHMEM_DEVICE_STATE_VERSION;
  s.size = sizeof s;
  s.my_pe = rt.my_pe;
  s.npes = rt.npes;
  if (rt.heap.is_device()) {
    s.window_base = rt.heap.window_base();
    s.window_stride = rt.heap.window_stride();
    s.heap_size = rt.heap.size();
    s.heap_base = reinterpret_cast<uint64_t>(rt.heap.base());
    s.peer_table = rt.heap.peer_table();
    if (rt.tcp)
      rt.tcp->set_segment(transport::Seg::device, reinterpret_cast<char*>(rt.heap.device_segment(rt.my_pe)),
                          GSHMEM_DEV_CTRL_BYTES + rt.heap.size());
  }
  if (rt.gproxy) proxy::gpu_proxy_fill(*rt.gproxy, &s);
  s.initialized = 1;
  publish_device_state(s);
}

void sync_team(team::Team& t) {
  std::lock_guard<std::mutex> lock(t.mu);
  g_rt->teams.sync(t);
}

void sync_world() { sync_team(*g_rt->teams.get(team::kWorld)); }

void check_team_args(const char* call, team::Team& t, uint64_t op, uint64_t a, uint64_t b) {
  int bad = -1;
  uint64_t ba = 0, bb = 0;
  bool ok;
  {
    std::lock_guard<std::mutex> lock(t.mu);
    ok = g_rt->teams.check_args(t, op, a, b, &bad, &ba, &bb);
  }
  if (!ok) {
    if (bb == ~0ull)
      fatal(call, "collective calls differ between PEs: pe %d is in another collective (op %llu) than pe %d (op %llu)",
                bad, (unsigned long long)ba, g_rt->my_pe, (unsigned long long)op);
    fatal(call, "arguments differ between PEs (mismatch): pe %d passed (%llu, %llu), pe %d passed (%llu, %llu)", bad,
              (unsigned long long)ba, (unsigned long long)bb, g_rt->my_pe, (unsigned long long)a,
              (unsigned long long)b);
  }
}

void check_collective_args(const char* call, uint64_t op, uint64_t a, uint64_t b) {
  check_team_args(call, *g_rt->teams.get(team::kWorld), op, a, b);
}

}  // namespace gshmem
