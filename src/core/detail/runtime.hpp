// The runtime object: what shmem_init builds and shmem_finalize takes down, in order. Only core's
// own files include this header (src/core/detail/ is a layer of its own that nothing else may
// include: tests/check_layering.py); the API layer goes through core's functions.
#pragma once
#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <memory>
#include <mutex>
#include <thread>

#include "bootstrap/bootstrap.hpp"
#include "coll/env.hpp"
#include "common/config.hpp"
#include "common/fatal.hpp"
#include "heap/heap.hpp"
#include "mem/device_ops.hpp"
#include "mem/gpu.hpp"
#include "proxy/gpu_proxy.hpp"
#include "team/team.hpp"
#include "topo/topo.hpp"
#include "transport/routes.hpp"
#include "transport/transport.hpp"

namespace gshmem::core {

struct Runtime {
  const Config* cfg = nullptr;
  std::unique_ptr<boot::Bootstrap> boot;
  // Health monitor (core/runtime.cpp): checks the bootstrap connections from init to finalize.
  std::thread monitor;
  std::mutex monitor_mu;
  std::condition_variable monitor_cv;
  bool monitor_stop = false;
  topo::Topology topo;
  int my_pe = 0;
  int npes = 1;
  int thread_level = 0;
  uint8_t job_secret[16] = {};
  mem::HostSegment data_segment;  // the remapped data segment until the heap takes it (share_globals)
  heap::SymmetricHeap heap;
  team::Teams teams;
  transport::Routes routes;  // per PE; host calls and the GPU proxy both use it
  // The transports this job made, in the table's order (transport/table.hpp). Off-node ones are
  // made on every PE (collectively) and serve host calls and the proxy; a same-node one (the copy
  // engine) serves only the proxy thread, which quiets it.
  struct Held {
    std::unique_ptr<transport::Transport> t;
    bool collective;
  };
  std::vector<Held> transports;
#if GSHMEM_HAVE_CUDA
  std::unique_ptr<mem::GpuContext> gpu;        // GPU PEs (device heap kind)
  uint64_t error_rec = 0;                      // device address of the device error record (mem/device_errors.hpp)
  std::unique_ptr<mem::DeviceOps> ops;         // host-side operations on GPU memory
  std::unique_ptr<mem::GpuLocalMemory> local;  // the transports' access to this PE's GPU memory
  std::unique_ptr<proxy::GpuProxy> proxy;      // GPU PEs with peers reached through the proxy
#endif
  coll::Env coll_env;  // what the collectives module is handed (coll/env.hpp)
  mem::GpuContext* gpu_context() const {
#if GSHMEM_HAVE_CUDA
    return gpu.get();
#else
    return nullptr;
#endif
  }
  bool has_gpu() const {
#if GSHMEM_HAVE_CUDA
    return gpu != nullptr;
#else
    return false;
#endif
  }
  bool node_runs = false;  // GSHMEM_COLL_NODE_RUNS on every PE (agree_secret_and_topology)
  // The node table the device teams group their members by (coll::dev_team_publish); null when
  // node runs are off.
  const std::vector<int>* node_table() const { return node_runs ? &topo.node_of : nullptr; }
  mem::LocalMemory* local_memory() const {
#if GSHMEM_HAVE_CUDA
    return local.get();
#else
    return nullptr;
#endif
  }
};

enum class State : int { uninit = 0, running = 1, finalized = 2 };
extern Runtime* g_rt;
extern std::atomic<int> g_state;

[[noreturn]] void not_running(const char* call);
// The running runtime; ends the job naming call when shmem_init has not run (or finalize has).
inline Runtime& rt(const char* call) {
  if (__builtin_expect(g_state.load(std::memory_order_relaxed) != static_cast<int>(State::running), 0))
    not_running(call);
  return *g_rt;
}

// Ends the job naming call when a transport call failed, with the transport's message.
inline void check_transport(const char* call, const transport::Result& res) {
  if (__builtin_expect(!res.ok(), 0)) fatal(call, "%s", res.what().c_str());
}

// init with an explicit unique-id bootstrap (uid) or from the environment (nullptr).
void init_runtime(const char* call, int requested_thread, int* provided, const boot::UidArgs* uid);

// Sends the device heap geometry and the proxy FIFO to every nvcc-compiled translation unit.
void republish_device_state(Runtime& r);

// Collective (every PE, after the device heap gained [heap_off, heap_off + len) on every PE: a
// growth or an adopted buffer): every transport learns the new part (transport::Transport::extend),
// so peers on other nodes reach it; ends the job naming call when one cannot.
void transports_extend(const char* call, Runtime& r, size_t heap_off, size_t len);
// Every PE, once no PE targets [heap_off, heap_off + len) any more (it is being unmapped): the
// transports forget that part.
void transports_drop(Runtime& r, size_t heap_off, size_t len);

}  // namespace gshmem::core
