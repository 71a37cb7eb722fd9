#include "coll/dev_teams.hpp"

#include "common/fatal.hpp"
#include "common/log.hpp"
#include "gshmem/device_host/state.h"

namespace gshmem::coll {

int dev_team_stride(const team::Team& t, int* stride) {
  const int n = t.size();
  *stride = n > 1 ? t.pes[1] - t.pes[0] : 1;
  for (int i = 0; i < n; ++i)
    if (t.pes[static_cast<size_t>(i)] != t.pes[0] + i * *stride) return i;
  return -1;
}

int dev_team_node_run(const std::vector<int>& pes, const std::vector<int>& node_of) {
  const int n = static_cast<int>(pes.size());
  if (n < 4) return 0;
  auto node = [&](int i) { return node_of[static_cast<size_t>(pes[static_cast<size_t>(i)])]; };
  int k = 1;
  while (k < n && node(k) == node(0)) ++k;
  if (k < 2 || k == n || n % k) return 0;
  std::vector<bool> seen(node_of.size());  // node ids are below the PE count
  for (int r = 0; r < n; r += k) {
    for (int i = r + 1; i < r + k; ++i)
      if (node(i) != node(r)) return 0;
    if (seen[static_cast<size_t>(node(r))]) return 0;  // a node with two runs
    seen[static_cast<size_t>(node(r))] = true;
  }
  return k;
}

#if GSHMEM_HAVE_CUDA
namespace {
void check(const char* call, CUresult res, const char* what) {
  if (res != CUDA_SUCCESS) fatal(call, "%s failed: %s", what, cu::error_string(res));
}

// Whether the team's device collectives take the routed paths (device/gshmem/impl/routed.cuh): a
// member's segment is not mapped here (another node), or the team has more members than the
// dissemination phase serves. Routed on-stream collectives run in one row.
bool dev_team_routed(const heap::SymmetricHeap& h, const team::Team& t) {
  if (t.size() > GSHMEM_DEV_DISSEM_MAX_PES) return true;
  for (int pe : t.pes)
    if (!h.device_segment(pe)) return true;
  return false;
}
}  // namespace

void dev_team_publish(const char* call, mem::DeviceOps& ops, const heap::SymmetricHeap& h, team::Team& t,
                      const std::vector<int>* node_of) {
  mem::GpuContext& g = ops.gpu();
  if (t.handle < 0 || t.handle >= static_cast<int>(GSHMEM_DEV_MAX_TEAMS)) return;
  gshmem_device_team d{};
  const int n = t.size();
  int stride = 1;
  const bool strided = n >= 1 && dev_team_stride(t, &stride) < 0;
  t.dev_routed = dev_team_routed(h, t);
  d.valid = t.my_index < 0 ? 0 : !strided ? 2 : t.dev_routed ? 3 : 1;
  d.size = n;
  d.my_index = t.my_index;
  d.slot = t.slot;
  d.start = n ? t.pes[0] : 0;
  d.stride = stride;
  d.node_run = d.valid == 3 && node_of ? dev_team_node_run(t.pes, *node_of) : 0;
  if (d.node_run)
    GSHMEM_INFO(Subsys::coll, "team %d: %d nodes of %d members; its device collectives go through one leader per node",
                t.handle, n / d.node_run, d.node_run);
  if (d.valid == 2)
    GSHMEM_INFO(Subsys::coll, "team %d: members are not equally strided; its collectives run on the host only",
                t.handle);
  mem::gpu_make_current(g);
  const CUdeviceptr ctrl = static_cast<CUdeviceptr>(h.device_segment(h.my_pe()));
  const CUdeviceptr dst = ctrl + GSHMEM_DEV_CTRL_TEAMS + static_cast<CUdeviceptr>(t.handle) * sizeof d;
  check(call, g.drv->cuMemcpyAsync(dst, reinterpret_cast<CUdeviceptr>(&d), sizeof d, g.stream), "cuMemcpyAsync");
  check(call, g.drv->cuStreamSynchronize(g.stream), "cuStreamSynchronize");
}

void dev_idle(const char* call, mem::DeviceOps& ops) {
  mem::gpu_make_current(ops.gpu());
  check(call, ops.gpu().drv->cuCtxSynchronize(), "cuCtxSynchronize");
}

// Flags and counters of the slot are cleared together: a phase's waiters compare their flags
// (phases counted per sender) with their own phase counter (device/gshmem/impl/team.cuh).
void dev_team_clear(const char* call, mem::DeviceOps& ops, const heap::SymmetricHeap& h, const team::Team& t) {
  mem::GpuContext& g = ops.gpu();
  mem::gpu_make_current(g);
  const CUdeviceptr c = static_cast<CUdeviceptr>(h.device_segment(h.my_pe()));
  const size_t slot = static_cast<size_t>(t.slot);
  struct Range {
    CUdeviceptr at;
    size_t bytes;
  } ranges[] = {
      {c + GSHMEM_DEV_CTRL_PHASE_CNT + slot * GSHMEM_DEV_MAX_ROWS * 8, GSHMEM_DEV_MAX_ROWS * 8},
      {c + GSHMEM_DEV_CTRL_LL_CNT + slot * 8, 8},
      {c + GSHMEM_DEV_CTRL_LL_PUB + slot * 8, 8},
      {c + GSHMEM_DEV_CTRL_RAW_FLAGS + slot * GSHMEM_DEV_MAX_TEAM_PES * 8, GSHMEM_DEV_MAX_TEAM_PES * 8},
      {c + GSHMEM_DEV_CTRL_PHASE_FLAGS + slot * GSHMEM_DEV_MAX_ROWS * GSHMEM_DEV_MAX_TEAM_PES * 8,
       GSHMEM_DEV_MAX_ROWS * GSHMEM_DEV_MAX_TEAM_PES * 8},
      {c + GSHMEM_DEV_CTRL_LL + slot * 2 * GSHMEM_DEV_MAX_TEAM_PES * GSHMEM_DEV_LL_BYTES,
       2 * GSHMEM_DEV_MAX_TEAM_PES * GSHMEM_DEV_LL_BYTES},
      {c + GSHMEM_DEV_CTRL_LL_DONE + slot * GSHMEM_DEV_MAX_TEAM_PES * 8, GSHMEM_DEV_MAX_TEAM_PES * 8},
      {c + GSHMEM_DEV_CTRL_COLLECT + slot * GSHMEM_DEV_MAX_TEAM_PES * 8, GSHMEM_DEV_MAX_TEAM_PES * 8},
      {c + GSHMEM_DEV_CTRL_ROUTED_FLAGS + slot * GSHMEM_DEV_ROUTED_WORDS * 8, GSHMEM_DEV_ROUTED_WORDS * 8},
      {c + GSHMEM_DEV_CTRL_ROUTED_CNT + slot * 64, 64},
      {c + GSHMEM_DEV_CTRL_TEAMS + static_cast<CUdeviceptr>(t.handle) * sizeof(gshmem_device_team),
       t.handle >= 0 && t.handle < static_cast<int>(GSHMEM_DEV_MAX_TEAMS) ? sizeof(gshmem_device_team) : 0},
  };
  for (const Range& x : ranges)
    if (x.bytes) check(call, g.drv->cuMemsetD8Async(x.at, 0, x.bytes, g.stream), "cuMemsetD8Async");
  check(call, g.drv->cuStreamSynchronize(g.stream), "cuStreamSynchronize");
}
#endif

}  // namespace gshmem::coll
