// shmem_init in phases, and shmem_finalize in the reverse order. Each phase either succeeds or
// ends the job with a message naming what failed (common/fatal); the collective ones are reached
// by every PE.
#include "core/detail/runtime.hpp"

#include <poll.h>
#include <sched.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>

#include "bootstrap/uid.hpp"
#include "coll/dev_teams.hpp"
#include "coll/gpu_coll.hpp"
#include "common/log.hpp"
#include "common/wait.hpp"
#include "core/info.hpp"
#include "core/rma.hpp"
#include "core/route_plan.hpp"
#include "transport/table.hpp"
#include "core/runtime.hpp"
#include "core/buffers.hpp"
#include "gshmem/constants.h"
#include "mem/device_errors.hpp"
#include "mem/device_state.hpp"

namespace gshmem::core {

Runtime* g_rt = nullptr;
std::atomic<int> g_state{static_cast<int>(State::uninit)};

namespace {
std::mutex g_init_mu;
// CUDA's default number of hardware work queues per context (CUDA_DEVICE_MAX_CONNECTIONS).
constexpr int kProxyMinConnections = 8;
// CPUs a GPU PE with off-node peers wants: its program's thread, the proxy and the transport thread.
constexpr int kProxyMinCpus = 3;
// Matching shmem_init / shmem_finalize calls (OpenSHMEM 1.6): the first init starts the library,
// the others count; every finalize but the last is a barrier_all.
int g_init_count = 0;
// What outlives the last shmem_finalize, so that a later shmem_init can start the library again
// (OpenSHMEM 1.6): the bootstrap (a process joins its launcher's job once: PMIx and oshrun give
// one connection per process), finalized at exit; and the data segment's mapping (globals stay
// remapped onto shared memory for the life of the process) with a descriptor peers can map again.
struct Kept {
  std::unique_ptr<boot::Bootstrap> boot;
  bool data_tried = false;
  void* data_base = nullptr;
  size_t data_len = 0;
  int data_fd = -1;
};
Kept g_kept;

[[noreturn]] void init_failed(const char* call, const char* what, Status st) {
  fatal(call, "%s (%s)%s", what, status_name(st), g_rt && g_rt->boot ? "" : "; set GSHMEM_DEBUG=INFO for details");
}
// Once a bootstrap exists, an error anywhere ends the whole job: every PE and the launcher hear of it.
void abort_job(int status, const char* msg) {
  mem::device_errors_report();  // a kernel's failed check, usually what made the CUDA call fail
  if (g_rt && g_rt->boot) g_rt->boot->abort(status, msg);
}
void health_hook() {
  if (g_rt && g_rt->boot) g_rt->boot->check_health();
}

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
    if (!log_on(LogLevel::info, Subsys::init)) return;
    char line[512];
    int len = 0;
    double total = 0;
    line[0] = 0;
    for (int i = 0; i < n_; ++i) {
      total += phases_[i].ms;
      if (len < static_cast<int>(sizeof line))
        len += snprintf(line + len, sizeof line - static_cast<size_t>(len), "%s%s %.1f", i ? ", " : "", phases_[i].name,
                        phases_[i].ms);
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

// ---- phases ----

// The CPUs this process may run on.
int own_cpus() {
  cpu_set_t set;
  return sched_getaffinity(0, sizeof set, &set) == 0 ? CPU_COUNT(&set) : 1;
}
// Every PE on this host has the CPUs its threads keep busy, `per` each: the host's PEs together
// may run on at least per CPUs a PE (bound by mpirun --bind-to core or unbound, alike). A CPU PE
// keeps one busy (its transport thread defers to its waits); a GPU PE with off-node peers three
// (kProxyMinCpus: the program's thread, the proxy, and the transport thread that applies
// atomics on its GPU memory, which must not wait for time slices).
bool core_each(const Runtime& r, int per = 1) {
  const int cpus = r.topo.host_cpus > 0 ? r.topo.host_cpus : own_cpus();  // none published: this PE's own
  return r.topo.host_size * per <= cpus;
}

const Config& load_config(const char* call) {
  const Config* cfg = nullptr;
  if (config_load(&cfg) != Status::ok)
    init_failed(call, "invalid environment (see the messages above)", Status::invalid_argument);
  log_configure(cfg->SHMEM_DEBUG ? "DEBUG" : cfg->GSHMEM_DEBUG.c_str(), cfg->GSHMEM_DEBUG_SUBSYS.c_str());
  g_wait_spin = static_cast<uint32_t>(cfg->GSHMEM_WAIT_SPIN);  // ranges checked at load
  g_wait_yield_us = static_cast<uint32_t>(cfg->GSHMEM_WAIT_YIELD_US);
  g_health_ms = static_cast<uint32_t>(cfg->GSHMEM_HEALTH_CHECK_MS);
  g_wait_health_hook = health_hook;
  return *cfg;
}

// A PE blocked where no wait polls (a host thread in cudaStreamSynchronize while its kernel waits
// on a dead peer, or in the program's own code) still ends when a peer dies or the job is aborted:
// this thread checks the bootstrap connections every GSHMEM_HEALTH_CHECK_MS and the bootstrap
// ends the process with a message naming the dead PE (check_health is safe from any thread).
// The launcher's pipe (GSHMEM_LAUNCHER_FD, set by oshrun): nobody writes to it, so readable or hung
// up means oshrun is gone. Watched only while the descriptor is still that pipe (the program may
// close it and reuse the number).
struct LauncherWatch {
  int fd = -1;
  ino_t ino = 0;
  void init(int64_t cfg_fd) {
    struct stat st {};
    if (cfg_fd < 0 || fstat(static_cast<int>(cfg_fd), &st) != 0 || !S_ISFIFO(st.st_mode)) return;
    fd = static_cast<int>(cfg_fd);
    ino = st.st_ino;
  }
  bool launcher_gone() {
    if (fd < 0) return false;
    struct stat st {};
    if (fstat(fd, &st) != 0 || st.st_ino != ino) {
      fd = -1;  // not the pipe any more
      return false;
    }
    pollfd p{fd, POLLIN, 0};
    return poll(&p, 1, 0) > 0 && (p.revents & (POLLIN | POLLHUP | POLLERR));
  }
};

void start_health_monitor(Runtime& r) {
  auto watch = std::make_shared<LauncherWatch>();
  watch->init(r.cfg->GSHMEM_LAUNCHER_FD);
  if ((r.npes < 2 && watch->fd < 0) || !r.cfg->GSHMEM_HEALTH_MONITOR) return;
  const auto period = std::chrono::milliseconds(r.cfg->GSHMEM_HEALTH_CHECK_MS);
  r.monitor = std::thread([&r, period, watch] {
    std::unique_lock<std::mutex> lk(r.monitor_mu);
    while (!r.monitor_stop) {
      r.monitor_cv.wait_for(lk, period);
      mem::device_errors_report();
      if (r.monitor_stop) break;
      if (watch->launcher_gone()) fatal("oshrun", "the launcher that started this PE is gone; ending the PE");
      if (r.npes > 1) r.boot->check_health();
    }
  });
}
void stop_health_monitor(Runtime& r) {
  if (!r.monitor.joinable()) return;
  {
    std::lock_guard<std::mutex> lk(r.monitor_mu);
    r.monitor_stop = true;
  }
  r.monitor_cv.notify_all();
  r.monitor.join();
}

// Global and static variables become symmetric: the executable's data segment is remapped onto
// shared memory. The remap copies the segment and then swaps it in, so a write another thread makes
// in between would be lost; it runs first, before the bootstrap starts its threads (PMIx's
// progress thread, and with ThreadSanitizer the sanitizer's own thread, whose state lives in the
// executable's data segment). Threads the program started itself must not write globals while
// shmem_init runs (docs/host-heap.md).
// A later init (after the last finalize) adopts the mapping the first one made.
void share_globals(Runtime& r) {
  if (!r.cfg->GSHMEM_SYMMETRIC_DATA) return;
  if (g_kept.data_tried) {
    const int fd = g_kept.data_fd >= 0 ? dup(g_kept.data_fd) : -1;
    if (fd >= 0) r.data_segment.adopt(g_kept.data_base, g_kept.data_len, fd, /*unmap_on_reset=*/false);
    else GSHMEM_WARN(Subsys::init, "global/static variables are not symmetric on this PE");
    return;
  }
  g_kept.data_tried = true;
  if (mem::share_data_segment(&r.data_segment) != Status::ok) {
    GSHMEM_WARN(Subsys::init, "global/static variables are not symmetric on this PE");
    return;
  }
  g_kept.data_base = r.data_segment.base();
  g_kept.data_len = r.data_segment.size();
  g_kept.data_fd = dup(r.data_segment.fd());
}

void start_bootstrap(const char* call, Runtime& r, const boot::UidArgs* uid) {
  Status st = Status::ok;
  if (g_kept.boot) r.boot = std::move(g_kept.boot);  // a later init: the process's one bootstrap
  else st = boot::create(*r.cfg, uid, &r.boot);
  if (st != Status::ok) init_failed(call, "no bootstrap could start (GSHMEM_BOOTSTRAP)", st);
  set_job_abort_hook(abort_job);
  r.my_pe = r.boot->rank();
  r.npes = r.boot->size();
  log_set_pe(r.my_pe);
  GSHMEM_INFO(Subsys::init, "bootstrap %s: pe %d of %d", r.boot->name(), r.my_pe, r.npes);
  start_health_monitor(r);
}

// PE 0's random job secret (fd passing, tcp transport) and which PEs share a node.
void agree_secret_and_topology(const char* call, Runtime& r) {
  std::vector<std::array<uint8_t, 16>> secrets(static_cast<size_t>(r.npes));
  if (r.my_pe == 0 && boot::random_bytes(secrets[0].data(), 16) != Status::ok)
    init_failed(call, "no randomness for the job secret", Status::system_error);
  Status st = r.boot->allgather(secrets.data(), 16);
  if (st != Status::ok) init_failed(call, "bootstrap allgather failed", st);
  memcpy(r.job_secret, secrets[0].data(), 16);
  std::vector<topo::NodeRecord> records(static_cast<size_t>(r.npes));
  records[static_cast<size_t>(r.my_pe)] = topo::self_record();
  records[static_cast<size_t>(r.my_pe)].flags = r.cfg->GSHMEM_COLL_NODE_RUNS ? 1 : 0;  // bit 0
  st = r.boot->allgather(records.data(), sizeof(topo::NodeRecord));
  if (st == Status::ok) st = topo::build(r.my_pe, records, static_cast<int>(r.cfg->GSHMEM_EMULATE_NODES), &r.topo);
  if (st != Status::ok) init_failed(call, "topology discovery failed", st);
  // The device teams' node runs must be the same on every member (the paths differ): on only
  // where every PE has GSHMEM_COLL_NODE_RUNS on.
  int on = 0;
  for (const topo::NodeRecord& rec : records) on += rec.flags & 1;
  r.node_runs = on == r.npes;
  if (on != 0 && on != r.npes && r.my_pe == 0)
    GSHMEM_WARN(Subsys::init, "GSHMEM_COLL_NODE_RUNS is on in %d of %d PEs: off in all (set it alike everywhere)", on,
                r.npes);
  // More PEs on this host than the CPUs they may run on: a waiter that spins keeps the core from
  // the PE it waits for, so waits yield after a few polls (unless GSHMEM_WAIT_SPIN says otherwise).
  if (!core_each(r) && !config_was_set(*r.cfg, cfg_row::GSHMEM_WAIT_SPIN))
    g_wait_spin = std::min<uint32_t>(g_wait_spin, kOversubscribedSpin);
}

// The device heap kind: GSHMEM_HEAP_KIND=device, or auto and the program has GPU code built against
// shmem.h (a plain C program touches its heap with the CPU, so it gets the host kind even on a GPU
// machine). Binds the GPU and fills spec; false for the host kind.
bool bind_gpu(const char* call, Runtime& r, heap::DeviceHeapSpec* spec) {
  const std::string& kind = r.cfg->GSHMEM_HEAP_KIND;
  bool use_device = false;
#if GSHMEM_HAVE_CUDA
  if (kind == "device" || (kind == "auto" && mem::device_code_present())) {
    const cu::Driver* drv = nullptr;
    int count = 0;
    use_device = mem::gpu_probe(&drv, &count) == Status::ok;
    if (use_device) {
      r.gpu = std::make_unique<mem::GpuContext>();
      Status st = mem::gpu_bind(drv, count, static_cast<int>(r.cfg->GSHMEM_DEVICE), r.topo.machine_rank,
                                r.topo.machine_size, r.gpu.get());
      if (st != Status::ok) init_failed(call, "cannot bind this PE to a GPU (GSHMEM_DEVICE)", st);
      spec->drv = drv;
      spec->dev = r.gpu->dev;
      spec->reserve = r.cfg->GSHMEM_DEVICE_HEAP_RESERVE;
      spec->align = r.cfg->GSHMEM_DEVICE_HEAP_ALIGN;
      if ((spec->align & (spec->align - 1)) != 0)
        init_failed(call, "GSHMEM_DEVICE_HEAP_ALIGN must be a power of two (2M, 4M, ..., 512M, 1G, ...)",
                    Status::invalid_argument);
      st = mem::gpu_alloc_mode(*r.gpu, r.cfg->GSHMEM_DEVICE_ALLOC, &spec->ipc);
      if (st != Status::ok) init_failed(call, "GSHMEM_DEVICE_ALLOC: unusable allocation mode", st);
      r.ops = std::make_unique<mem::DeviceOps>(*r.gpu, static_cast<size_t>(r.cfg->GSHMEM_HOST_NBI_BATCH),
                                               static_cast<size_t>(r.cfg->GSHMEM_HOST_NBI_BATCH_BYTES));
      r.local = std::make_unique<mem::GpuLocalMemory>(*r.ops);
      r.error_rec = mem::device_errors_create(*r.gpu);
    }
  }
#else
  (void)spec;
#endif
  if (kind == "device" && !use_device)
    init_failed(call, "GSHMEM_HEAP_KIND=device but this PE has no usable CUDA GPU", Status::not_available);
  return use_device;
}

// Which PEs share a GPU, and how many blocks of an on-stream collective fit beside theirs
// (mem::gpu_survey). Every PE takes part, GPU or not. GPUs are shared per host, whatever network
// namespace or emulated node a PE is in.
void survey_gpus(const char* call, Runtime& r) {
#if GSHMEM_HAVE_CUDA
  const Status st = mem::gpu_survey(*r.boot, r.my_pe, r.npes, static_cast<uint64_t>(r.topo.my_host), r.gpu.get());
  if (st != Status::ok) init_failed(call, "bootstrap allgather failed", st);
#else
  (void)call;
  (void)r;
#endif
}

// The PEs this PE maps: its node's. CPU PEs forced through the proxy map nobody else; GPU PEs keep
// their same-node peers mapped (team collectives, the copy engine) and send device-initiated
// operations through the proxy instead.
std::vector<int> mapped_pes(const Runtime& r, bool gpu) {
  if (r.cfg->GSHMEM_FORCE_PROXY && !gpu) return {r.my_pe};
  return r.topo.local_pes;
}

void setup_heap(const char* call, Runtime& r, bool gpu, const heap::DeviceHeapSpec& spec) {
  const std::vector<int> mapped = mapped_pes(r, gpu);
  Status st = r.heap.init(*r.boot, mapped, r.cfg->SHMEM_SYMMETRIC_SIZE, std::move(r.data_segment), r.job_secret,
                          gpu ? &spec : nullptr);
  if (st != Status::ok) init_failed(call, "cannot set up the symmetric heap (SHMEM_SYMMETRIC_SIZE, GPU memory)", st);
#if GSHMEM_HAVE_CUDA
  if (gpu) r.ops->set_scratch(reinterpret_cast<void*>(r.heap.device_segment(r.my_pe) + GSHMEM_DEV_CTRL_SCRATCH));
#endif
  r.teams.init(&r.heap, r.my_pe, r.npes, mapped, r.topo.local_pes);
}

// This PE's memory that peers address by (segment, offset): the control block (with the host heap
// on a CPU PE), the globals, and the GPU segment (device control block + device heap).
std::vector<transport::Segment> my_segments(const Runtime& r) {
  std::vector<transport::Segment> segs;
  segs.push_back({transport::Seg::host, r.heap.my_control(),
                  heap::kControlBytes + (r.heap.is_device() ? 0 : r.heap.size()), false});
  const heap::Region& d = r.heap.data_region();
  if (d.size) segs.push_back({transport::Seg::data, reinterpret_cast<void*>(d.lo), d.size, false});
  if (const uint64_t base = r.heap.device_segment(r.my_pe))
    segs.push_back(
        {transport::Seg::device, reinterpret_cast<void*>(base), GSHMEM_DEV_CTRL_BYTES + r.heap.size(), true});
  return segs;
}

transport::Env transport_env(Runtime& r) {
  transport::Env e;
  e.boot = r.boot.get();
  e.cfg = r.cfg;
  e.my_pe = r.my_pe;
  e.npes = r.npes;
  e.segments = my_segments(r);
  e.mem = r.local_memory();
  e.core_each = core_each(r);
#if GSHMEM_HAVE_CUDA
  if (r.gpu) e.core_each = core_each(r, kProxyMinCpus);
  e.ops = r.ops.get();
  // A transport thread applies operations on this PE's GPU memory (owner-side atomics, flags,
  // copies) on a stream of its own: on the PE's stream they would queue behind a host-launched
  // collective kernel that waits for them.
  if (mem::DeviceOps* ops = e.ops)
    e.thread_setup = [ops] { mem::DeviceOps::set_thread_stream(ops->stream_create("transport thread")); };
  const heap::SymmetricHeap* h = &r.heap;
  e.mapped_device_segment = [h](int pe) { return h->device_segment(pe); };
  e.device_segment_bytes = [h] { return GSHMEM_DEV_CTRL_BYTES + h->size(); };
  if (r.proxy) e.completion_word = r.proxy->completion_word();
#endif
  return e;
}

// Every PE probes the transports it may need and learns which PE can use which.
std::vector<Offer> gather_offers(const char* call, Runtime& r, bool gpu, bool need) {
  const auto tbl = transport::table();
  const std::string& named = r.cfg->GSHMEM_TRANSPORT;
  const std::string& engine = r.cfg->GSHMEM_PROXY_ENGINE;
  std::vector<Offer> offers(tbl.size());
  uint32_t mine = 0;
  for (size_t i = 0; i < tbl.size(); ++i) {
    Offer& o = offers[i];
    o.name = tbl[i].name;
    const bool wanted = named == "auto" || named == o.name || engine == "auto" || engine == o.name;
    if (!need || !wanted) {
      o.why = need ? "not selected (GSHMEM_TRANSPORT, GSHMEM_PROXY_ENGINE)" : "not needed";
      continue;
    }
    const transport::Probe p = tbl[i].probe(*r.cfg, gpu);
    o.caps = p.caps;
    o.broken = p.state == transport::Probe::State::broken;
    o.why = p.why;
    if (p.state == transport::Probe::State::usable) mine |= 1u << i;
    else GSHMEM_INFO(Subsys::init, "transport %s: %s", o.name.c_str(), p.why.c_str());
  }
  std::vector<uint32_t> masks(static_cast<size_t>(r.npes), 0);
  masks[static_cast<size_t>(r.my_pe)] = mine;
  const Status st = r.boot->allgather(masks.data(), sizeof(uint32_t));
  if (st != Status::ok) init_failed(call, "bootstrap allgather failed", st);
  for (size_t i = 0; i < tbl.size(); ++i)
    for (int pe = 0; pe < r.npes; ++pe) offers[i].usable.push_back((masks[static_cast<size_t>(pe)] >> i) & 1u);
  return offers;
}

// CPU-side waits serve the transports' peers meanwhile (common/wait.hpp).
void progress_transports() {
  if (Runtime* r = g_rt)
    for (Runtime::Held& h : r->transports)
      if (h.collective) h.t->progress();
}

// Collective: every off-node transport some PE routes to is made on every PE.
void create_transports(const char* call, Runtime& r, const std::vector<Offer>& offers, const RoutePlan& plan) {
  const auto tbl = transport::table();
  std::vector<uint32_t> wants(static_cast<size_t>(r.npes), 0);
  for (size_t i = 0; i < offers.size(); ++i)
    if (!plan.peers[i].empty() && !offers[i].caps.same_node_only) wants[static_cast<size_t>(r.my_pe)] |= 1u << i;
  const Status st = r.boot->allgather(wants.data(), sizeof(uint32_t));
  if (st != Status::ok) init_failed(call, "bootstrap allgather failed", st);
  uint32_t any = 0;
  for (uint32_t w : wants) any |= w;
  transport::Env env = transport_env(r);
  for (size_t i = 0; i < offers.size(); ++i) {
    if (!((any >> i) & 1u)) continue;
    std::unique_ptr<transport::Transport> t;
    const transport::Result res = tbl[i].create(env, plan.peers[i], &t);
    if (!res.ok()) {
      const std::string what = std::string("cannot start the ") + tbl[i].name + " transport: " + res.what();
      init_failed(call, what.c_str(), res.status());
    }
    if (!plan.peers[i].empty())
      GSHMEM_INFO(Subsys::init, "%zu PEs reached through the %s transport", plan.peers[i].size(), tbl[i].name);
    r.transports.push_back({std::move(t), true});
  }
  // With a core of its own, a waiting PE answers its peers itself, and keeps waiting busy (unless
  // GSHMEM_WAIT_YIELD_US says otherwise): a software-emulated RMA (UCX over TCP) needs the target's
  // progress, and a sleeping waiter leaves it to a thread wake-up per request (tens of
  // microseconds, more where the transport thread shares the waiter's core). With more PEs than
  // cores the transport thread answers (waits that progress too contend with it for the core and
  // the worker, and keep the core from the PEs they wait for).
  if (any && env.core_each) {
    g_wait_progress_hook = progress_transports;
    if (!config_was_set(*r.cfg, cfg_row::GSHMEM_WAIT_YIELD_US) && r.cfg->GSHMEM_HEALTH_MONITOR)
      g_wait_yield_us = kWaitYieldForever;  // the monitor thread ends a wait on a dead PE
  }
#if GSHMEM_HAVE_CUDA
  if (r.gpu && any) {
    // owner-side atomics arrive while this PE's kernels run: load the atomic kernels now
    r.ops->preload("shmem_init (transports)",
                   reinterpret_cast<void*>(r.heap.device_segment(r.my_pe) + GSHMEM_DEV_CTRL_SCRATCH));
  }
#endif
}

transport::Transport* held(Runtime& r, const char* name) {
  for (Runtime::Held& h : r.transports)
    if (!strcmp(h.t->name(), name)) return h.t.get();
  return nullptr;
}

// The route table and the transports it names; the GPU proxy for device code's proxied PEs.
void setup_routes(const char* call, Runtime& r, bool gpu) {
  PlanInput in;
  in.my_pe = r.my_pe;
  in.npes = r.npes;
  in.mapped.assign(static_cast<size_t>(r.npes), false);
  bool need = false;
  for (int pe = 0; pe < r.npes; ++pe) {
    in.mapped[static_cast<size_t>(pe)] = r.heap.is_mapped(pe);
    need = need || (pe != r.my_pe && (!in.mapped[static_cast<size_t>(pe)] || (gpu && r.cfg->GSHMEM_FORCE_PROXY)));
  }
  in.gpu = gpu;
  in.force_proxy = r.cfg->GSHMEM_FORCE_PROXY;
  in.transport = r.cfg->GSHMEM_TRANSPORT;
  in.engine = r.cfg->GSHMEM_PROXY_ENGINE;
  in.offers = gather_offers(call, r, gpu, need);
  const RoutePlan plan = plan_routes(in);
  if (!plan.error.empty()) init_failed(call, plan.error.c_str(), Status::not_available);
  create_transports(call, r, in.offers, plan);

  r.routes.assign(static_cast<size_t>(r.npes), transport::Route{});
  for (int pe = 0; pe < r.npes; ++pe) {
    transport::Route& x = r.routes[static_cast<size_t>(pe)];
    const int v = plan.via[static_cast<size_t>(pe)];
    x.mapped = r.heap.is_mapped(pe);
    x.kind = v == kViaSelf        ? transport::Route::Kind::self
             : v == kViaLoadStore ? transport::Route::Kind::load_store
                                  : transport::Route::Kind::transport;
    if (v >= 0) x.transport = held(r, in.offers[static_cast<size_t>(v)].name.c_str());
  }
#if GSHMEM_HAVE_CUDA
  if (gpu && plan.any_proxied) {
    Status st = proxy::GpuProxy::create(*r.ops, r.npes, r.cfg->GSHMEM_PROXY_FIFO_SLOTS, &r.proxy);
    if (st != Status::ok) init_failed(call, "cannot start the GPU proxy (pinned FIFO, proxy thread)", st);
    // Same-node transports (the copy engine) serve only the proxy: made here, on this PE alone.
    const auto tbl = transport::table();
    for (size_t i = 0; i < in.offers.size(); ++i) {
      if (!in.offers[i].caps.same_node_only || plan.peers[i].empty()) continue;
      transport::Env env = transport_env(r);
      std::unique_ptr<transport::Transport> t;
      const transport::Result res = tbl[i].create(env, plan.peers[i], &t);
      if (!res.ok()) init_failed(call, res.what().c_str(), res.status());
      for (int pe : plan.peers[i]) r.routes[static_cast<size_t>(pe)].transport = t.get();
      r.transports.push_back({std::move(t), false});
    }
    std::vector<transport::Transport*> via(static_cast<size_t>(r.npes), nullptr);
    for (int pe = 0; pe < r.npes; ++pe)
      if (r.routes[static_cast<size_t>(pe)].proxied())
        via[static_cast<size_t>(pe)] = r.routes[static_cast<size_t>(pe)].transport;
    if ((st = r.proxy->start(std::move(via))) != Status::ok) init_failed(call, "cannot start the GPU proxy thread", st);
    // The main thread, the proxy thread and the transport's progress thread each want a CPU when
    // off-node operations run; on fewer they take turns by the scheduler's time slices.
    if (r.topo.n_nodes > 1 && own_cpus() < kProxyMinCpus && r.topo.machine_rank == 0)
      GSHMEM_WARN(Subsys::init,
                  "this GPU PE may run on %d CPU(s): its proxy and transport threads share them with the "
                  "program, and operations on PEs of other nodes take 2-3 times as long; give each GPU PE "
                  "%d or more CPUs (oshrun --cpus-per-pe %d, mpirun --bind-to none or --map-by ppr:N:node:pe=%d; "
                  "docs/gpu.md)",
                  own_cpus(), kProxyMinCpus, kProxyMinCpus, kProxyMinCpus);
    GSHMEM_INFO(Subsys::init, "device operations to %s other PEs go through the proxy",
                r.cfg->GSHMEM_FORCE_PROXY ? "all" : "off-node");
    // Streams beyond the context's hardware work queues share a queue; work at a queue's head that
    // waits for its own stream's kernel holds back every later entry. The proxy's and the transport
    // thread's copies and atomics on this PE's GPU memory then wait behind a kernel that waits for
    // them. CUDA's default of 8 queues leaves room for gshmem's streams and a few of the program's.
    // CUDA's variable, read as CUDA reads it (a leading number); anything else is CUDA's business.
    if (const std::string& v = r.cfg->CUDA_DEVICE_MAX_CONNECTIONS; !v.empty()) {
      const long c = std::strtol(v.c_str(), nullptr, 10);
      if (c >= 1 && c < kProxyMinConnections)
        GSHMEM_WARN(Subsys::init,
                    "CUDA_DEVICE_MAX_CONNECTIONS=%ld: this PE's streams share %ld hardware work queue(s), so "
                    "operations the proxy performs on its GPU memory (for off-node PEs) can queue behind a kernel "
                    "of the program that waits for them, and the job stops; leave it unset or set it to %d or "
                    "more (docs/gpu.md)",
                    c, c, kProxyMinConnections);
    }
  }
#endif
  for (const transport::Route& x : r.routes)
    if (x.kind == transport::Route::Kind::transport && !x.transport)
      init_failed(call, "internal: a PE routed to a transport has none", Status::internal_error);
  // Team synchronisation reaches unmapped PEs' control blocks through their transport.
  Runtime* rp = &r;
  r.teams.set_remote({[rp](int pe, uint64_t off, uint64_t v) {
                        transport::Transport& t = *rp->routes[static_cast<size_t>(pe)].transport;
                        check_transport("team synchronisation", t.raise_flag(pe, transport::Seg::host, off, v));
                      },
                      [rp](int pe, uint64_t off, void* dst, size_t n) {
                        transport::Transport& t = *rp->routes[static_cast<size_t>(pe)].transport;
                        check_transport("team synchronisation", t.get(pe, transport::Seg::host, off, dst, n));
                      },
                      [rp](int pe, uint64_t off, const void* head, size_t nh, const void* src, size_t n,
                           uint64_t flag_off, uint64_t v) {
                        transport::Transport& t = *rp->routes[static_cast<size_t>(pe)].transport;
                        check_transport("team collective",
                                        t.put_flag(pe, transport::Seg::host, off, head, nh, src, n, flag_off, v));
                      }});
}

// What the collectives module uses of the runtime (coll/env.hpp).
void attach_collectives(Runtime& r) {
  coll::Env& e = r.coll_env;
  e.my_pe = r.my_pe;
  e.npes = r.npes;
  e.cfg = r.cfg;
  e.heap = &r.heap;
  e.teams = &r.teams;
  e.routes = &r.routes;
#if GSHMEM_HAVE_CUDA
  e.ops = r.ops.get();
#endif
  e.transport_quiet = [] { transport_quiet(); };
  e.quiet = [] { quiet("shmem_barrier"); };
  coll::set_env(&e);
}
}  // namespace

void not_running(const char* call) {
  fatal(call, "called %s",
        g_state.load() == static_cast<int>(State::finalized) ? "after shmem_finalize" : "before shmem_init");
}

void init_runtime(const char* call, int requested_thread, int* provided, const boot::UidArgs* uid) {
  InitPhases phases;
  std::lock_guard<std::mutex> lock(g_init_mu);
  const int state = g_state.load();
  if (state == static_cast<int>(State::running)) {
    ++g_init_count;
    if (provided) *provided = g_rt->thread_level;
    return;
  }
  // After the last finalize the previous Runtime stays allocated (released of everything but a
  // few words): module-level pointers may still name it until the new one is published.
  auto* r = new Runtime;
  r->cfg = &load_config(call);
  g_rt = r;
  share_globals(*r);
  start_bootstrap(call, *r, uid);
  phases.mark("config+bootstrap");
  agree_secret_and_topology(call, *r);
  phases.mark("secret+topology");
  heap::DeviceHeapSpec spec;
  const bool gpu = bind_gpu(call, *r, &spec);
  survey_gpus(call, *r);
  phases.mark("gpu probe+bind");
  setup_heap(call, *r, gpu, spec);
  phases.mark("heap+teams");
  setup_routes(call, *r, gpu);
  attach_collectives(*r);
  phases.mark("transports+proxy");
  r->thread_level = requested_thread;
  if (provided) *provided = requested_thread;
  unsigned version = 0, size = 0;
  if (mem::device_state_mismatch(&version, &size)) {
    char what[320];
    std::snprintf(what, sizeof what,
                  "a CUDA translation unit of this program was compiled against other gshmem headers (device "
                  "state version %u, %u bytes; 0: before version 7); this library's is version %u, %zu bytes: "
                  "rebuild it against this gshmem",
                  version, size, GSHMEM_DEVICE_STATE_VERSION, sizeof(gshmem_device_state));
    init_failed(call, what, Status::invalid_argument);
  }
  g_state.store(static_cast<int>(State::running));
  g_init_count = 1;
  republish_device_state(*r);
#if GSHMEM_HAVE_CUDA
  if (r->ops)
    for (int h : {team::kWorld, team::kShared, team::kNode})
      coll::dev_team_publish(call, *r->ops, r->heap, *r->teams.get(h), r->node_table());
  if (r->ops && r->proxy) coll::dev_preload(call);
  if (r->error_rec) {
    static const int registered = std::atexit([] { mem::device_errors_report(); });
    (void)registered;
  }
#endif
  phases.mark("device state");
  const Status st = r->boot->barrier();
  if (st != Status::ok) init_failed(call, "bootstrap barrier failed", st);
  phases.mark("barrier");
  phases.report();
  if (r->my_pe == 0) {
    if (r->cfg->SHMEM_VERSION || r->cfg->SHMEM_INFO) print_version(stdout);
    if (r->cfg->SHMEM_INFO) print_env_table(stdout, *r->cfg, /*markdown=*/false);
    fflush(stdout);
  }
}

void init(const char* call, int requested_thread, int* provided) {
  init_runtime(call, requested_thread, provided, nullptr);
}

void finalize() {
  std::lock_guard<std::mutex> lock(g_init_mu);
  if (g_state.load() != static_cast<int>(State::running)) return;
  if (g_init_count > 1) {  // not the last: "semantically equivalent to shmem_barrier_all"
    --g_init_count;
    barrier_all("shmem_finalize");
    return;
  }
  g_init_count = 0;
  Runtime& r = *g_rt;
  memory_fence();
#if GSHMEM_HAVE_CUDA
  // Pending host puts (queued nbi puts, copies on the PE's and the contexts' streams) complete
  // before the barrier: finalize completes outstanding communication.
  if (r.ops) {
    r.ops->quiet("shmem_finalize");
    r.gpu->drv->cuCtxSynchronize();
  }
  if (r.proxy) r.proxy->quiet();
#endif
  for (Runtime::Held& h : r.transports)
    if (h.collective) check_transport("shmem_finalize", h.t->quiet());
  // A bootstrap barrier, not a shared-memory one: once it returns every PE has stopped touching
  // peer memory, and no PE closes its bootstrap connection while another still checks health.
  r.boot->barrier();
  stop_health_monitor(r);
#if GSHMEM_HAVE_CUDA
  r.proxy.reset();  // before the transports it uses
#endif
  g_wait_progress_hook = nullptr;
  g_wait_yield_us = static_cast<uint32_t>(r.cfg->GSHMEM_WAIT_YIELD_US);
  for (Runtime::Held& h : r.transports)
    if (h.collective) check_transport("shmem_finalize", h.t->finalize());
  r.transports.clear();  // before the heap they registered
  coll::set_env(nullptr);
  r.routes.clear();
  g_state.store(static_cast<int>(State::finalized));
#if GSHMEM_HAVE_CUDA
  if (r.gpu) r.gpu->drv->cuCtxSynchronize();
#endif
  r.heap.finalize();
  release_buffers();  // shmemx_mem_alloc'd memory, before the GPU context goes
#if GSHMEM_HAVE_CUDA
  mem::forget_module_states();
  coll::dev_forget();  // its module lives in the GPU context released below
  r.local.reset();
  r.ops.reset();
  if (r.error_rec) mem::device_errors_destroy(*r.gpu);
  if (r.gpu) mem::gpu_release(r.gpu.get());
#endif
  // The bootstrap stays for a later init; it ends at exit unless the library is running then
  // (a program that exits without shmem_finalize ends as it did before: no finalize).
  g_kept.boot = std::move(r.boot);
  static const int at_exit = std::atexit([] {
    if (g_state.load() != static_cast<int>(State::running) && g_kept.boot) g_kept.boot->finalize();
  });
  (void)at_exit;
}

bool running() noexcept { return g_state.load(std::memory_order_relaxed) == static_cast<int>(State::running); }
int my_pe() noexcept { return running() ? g_rt->my_pe : -1; }
int n_pes() noexcept { return running() ? g_rt->npes : -1; }
int thread_level(const char* call) { return rt(call).thread_level; }
const char* bootstrap_name(const char* call) { return rt(call).boot->name(); }
int local_npes(const char* call) { return rt(call).topo.local_size; }
int local_pe(const char* call) { return rt(call).topo.local_rank; }
int device_ordinal(const char* call) {
#if GSHMEM_HAVE_CUDA
  Runtime& r = rt(call);
  return r.gpu ? r.gpu->ordinal : -1;
#else
  (void)rt(call);
  return -1;
#endif
}
const Config& config(const char* call) { return *rt(call).cfg; }

void global_exit(int status) {
  mem::device_errors_report();
  fflush(nullptr);
  if (running()) g_rt->boot->global_exit(status);
  terminate(status);
}

void transports_extend(const char* call, Runtime& r, size_t heap_off, size_t len) {
  if (!len) return;
  const uint64_t seg = r.heap.device_segment(r.my_pe);
  char* at = r.heap.base() + heap_off;
  const uint64_t off = reinterpret_cast<uint64_t>(at) - seg;
  for (Runtime::Held& h : r.transports) {
    if (!h.collective) continue;
    const transport::Result res = h.t->extend(transport::Seg::device, off, at, len);
    if (!res.ok())
      fatal(call, "the device heap's new %zu bytes cannot be reached through the %s transport: %s", len, h.t->name(),
            res.what().c_str());
  }
}

void transports_drop(Runtime& r, size_t heap_off, size_t len) {
  if (!len) return;
  const uint64_t seg = r.heap.device_segment(r.my_pe);
  const uint64_t off = reinterpret_cast<uint64_t>(r.heap.base() + heap_off) - seg;
  for (Runtime::Held& h : r.transports)
    if (h.collective) h.t->drop(transport::Seg::device, off, len);
}

void republish_device_state(Runtime& r) {
  gshmem_device_state s{};
  s.version = GSHMEM_DEVICE_STATE_VERSION;
  s.size = sizeof s;
  s.my_pe = r.my_pe;
  s.npes = r.npes;
  if (r.heap.is_device()) {
    s.window_base = r.heap.window_base();
    s.window_stride = r.heap.window_stride();
    s.heap_size = r.heap.size();
    s.heap_base = reinterpret_cast<uint64_t>(r.heap.base());
    s.peer_table = r.heap.peer_table();
    s.world_mapped = r.npes <= GSHMEM_DEV_DISSEM_MAX_PES;  // else routed (device/gshmem/impl/team.cuh)
    for (int pe = 0; pe < r.npes; ++pe) s.world_mapped &= r.heap.device_segment(pe) != 0;
#if GSHMEM_HAVE_CUDA
    s.error_rec = r.error_rec;  // its claim word is in the device control block
#endif
  }
#if GSHMEM_HAVE_CUDA
  if (r.proxy) r.proxy->fill(&s);
#endif
  // The device's fast path (impl/core.cuh window_peer) offsets an address by (pe - my_pe) *
  // window_mib MiB; anything else (a proxy, a peer table, a heap not where the window puts it, a
  // stride that is not a whole number of MiB below 4 PiB) routes p, g and atomics out of line.
  constexpr uint64_t mib = uint64_t{1} << 20;
  s.routed = s.proxy_slots != 0 || s.peer_table != 0 || !s.window_stride || s.window_stride % mib != 0 ||
             s.window_stride / mib > UINT32_MAX ||
             s.heap_base != s.window_base + static_cast<uint64_t>(r.my_pe) * s.window_stride + GSHMEM_DEV_CTRL_BYTES;
  s.window_mib = s.routed ? 0u : static_cast<uint32_t>(s.window_stride / mib);
  s.initialized = 1;
  mem::publish_device_state(s);
}

}  // namespace gshmem::core
