// The runtime object: owns bootstrap, topology and heap; init/finalize order; the error path.
#pragma once
#include <atomic>
#include <cstdint>
#include <memory>
#include <mutex>

#include "bootstrap/bootstrap.hpp"
#include "common/config.hpp"
#include "common/fatal.hpp"
#include "core/gpu.hpp"
#include "heap/heap.hpp"
#include "team/team.hpp"
#include "transport/ib_transport.hpp"
#include "transport/tcp.hpp"
#include "topo/topo.hpp"

namespace gshmem {
namespace proxy {
class GpuProxy;
}

struct Runtime {
  const Config* cfg = nullptr;
  std::unique_ptr<boot::Bootstrap> boot;
  topo::Topology topo;
  heap::SymmetricHeap heap;
  int my_pe = 0;
  int npes = 1;
  int thread_level = 0;
  team::Teams teams;
  std::unique_ptr<transport::Tcp> tcp;  // PEs this PE cannot map (other nodes, or GSHMEM_FORCE_PROXY)
#if GSHMEM_HAVE_IBVERBS
  std::unique_ptr<transport::ib::Transport> ib;  // the GPU proxy's InfiniBand peers
#endif
  uint8_t job_secret[16] = {};
#if GSHMEM_HAVE_CUDA
  std::unique_ptr<GpuContext> gpu;  // set on GPU PEs (device heap kind)
#endif
  proxy::GpuProxy* gproxy = nullptr;  // GPU PEs with peers reached through the proxy
};

enum class RtState : int { uninit = 0, running = 1, finalized = 2 };
extern Runtime* g_rt;
extern std::atomic<int> g_rt_state;

// Initialises once; later calls while running are no-ops. Aborts with a message on failure.
// uid_args: explicit unique-id bootstrap (shmemx_init_attr), else chosen from the environment.
void runtime_init(const char* call, int requested_thread, int* provided, const boot::UidArgs* uid_args = nullptr);
void runtime_finalize();


// Barrier over all PEs without the quiet (shmem_sync_all); barrier_all = quiet + this.
void sync_world();
// Sync of any team (serialised per team).
void sync_team(team::Team& t);
// Cross-checks that every PE passed the same arguments to a collective; reports the first PE
// that differs. Includes a world sync.
void check_collective_args(const char* call, uint64_t op, uint64_t a, uint64_t b);
void check_team_args(const char* call, team::Team& t, uint64_t op, uint64_t a, uint64_t b);

// Sends the device heap geometry to every nvcc-compiled translation unit (init, heap growth).
void republish_device_state();

inline void memory_fence() noexcept { std::atomic_thread_fence(std::memory_order_seq_cst); }

}  // namespace gshmem
