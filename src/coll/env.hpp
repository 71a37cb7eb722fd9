// What the collectives use of the runtime, handed to this module by core at shmem_init (set_env)
// and taken back at shmem_finalize: the heap (symmetric translation, control blocks), the teams,
// the route table (PEs that are not mapped), the configuration and, on GPU PEs, the host-side
// GPU operations.
#pragma once
#include <functional>

#include "common/config.hpp"
#include "heap/heap.hpp"
#include "mem/device_ops.hpp"
#include "team/team.hpp"
#include "transport/routes.hpp"

namespace gshmem::coll {

struct Env {
  int my_pe = 0;
  int npes = 1;
  const Config* cfg = nullptr;
  heap::SymmetricHeap* heap = nullptr;
  team::Teams* teams = nullptr;
  const transport::Routes* routes = nullptr;
#if GSHMEM_HAVE_CUDA
  mem::DeviceOps* ops = nullptr;  // null on CPU PEs
#endif
  // Completes every put this PE sent through a transport (before a collective's members are
  // released) and everything of the PE (the quiet of a barrier).
  std::function<void()> transport_quiet;
  std::function<void()> quiet;
};

void set_env(Env* e);  // null: not running
// The environment; ends the job naming call when the runtime is not running.
Env& env(const char* call);
bool gpu_pe();  // this PE has the device heap kind

}  // namespace gshmem::coll
