#include "coll/gpu_coll.hpp"

#include <algorithm>
#include <atomic>
#include <cstring>
#include <mutex>
#include <string>

#include "coll/dev_teams.hpp"
#include "coll/env.hpp"
#include "coll/groups.hpp"
#include "coll/team_coll.hpp"
#include "common/fatal.hpp"
#include "common/log.hpp"
#include "mem/device_state.hpp"

#if GSHMEM_HAVE_CUDA
extern "C" const unsigned char gshmem_dev_coll_fatbin[];

namespace gshmem::coll {
namespace {
std::mutex g_mu;
CUmodule g_mod = nullptr;
CUdeviceptr g_state_ptr = 0;
std::atomic<uint64_t> g_state_gen{0};
// Kernel handles by id: fixed kernels first, then reductions by (operation, element type).
const char* const kOps[] = GSHMEM_REDUCE_OP_NAMES;  // indexed by gshmem_reduce_op
const char* const kTypes[] = {"i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f32", "f64", "f16", "bf16"};
constexpr int kNTypes = sizeof(kTypes) / sizeof(kTypes[0]);
enum : int { k_sync, k_broadcast, k_fcollect, k_alltoall, k_collect, k_alltoalls, k_reduce0 };
constexpr int k_rs0 = k_reduce0 + GSHMEM_REDUCE_NOPS * kNTypes;  // then reduce-scatter, same layout
constexpr int k_scan0 = k_rs0 + GSHMEM_REDUCE_NOPS * kNTypes;    // then inclusive, exclusive scans by type
constexpr int kKernels = k_scan0 + 2 * kNTypes;
std::atomic<CUfunction> g_fn[kKernels];
static_assert(sizeof(kOps) / sizeof(kOps[0]) == GSHMEM_REDUCE_NOPS, "one kernel family per reduction operator");

void cu_check(const char* call, CUresult r, const char* what) {
  if (r != CUDA_SUCCESS) fatal(call, "%s failed: %s", what, cu::error_string(r));
}
mem::GpuContext& gpu_for(const char* call) {
  Env& e = env(call);
  if (!e.ops) fatal(call, "needs a GPU PE (this PE has the host heap kind)");
  mem::gpu_make_current(e.ops->gpu());
  return e.ops->gpu();
}

// Loads the module (g_mu held). A GPU the fatbin has no code for ends the job when required; else
// the call returns false and leaves the module unloaded.
bool load_module(const char* call, mem::GpuContext& g, bool required = true) {
  const CUresult r = g.drv->cuModuleLoadData(&g_mod, gshmem_dev_coll_fatbin);
  if (r != CUDA_SUCCESS && !required) {
    g_mod = nullptr;
    GSHMEM_WARN(Subsys::coll,
                "%s: the collective kernels do not load on this GPU (%s); on-stream and GPU-buffer "
                "collectives will fail",
                call, cu::error_string(r));
    return false;
  }
  cu_check(call, r, "cuModuleLoadData(collective kernels)");
  size_t sz = 0;
  cu_check(call, g.drv->cuModuleGetGlobal(&g_state_ptr, &sz, g_mod, "gshmemi_dstate"),
           "cuModuleGetGlobal(gshmemi_dstate)");
  if (sz != sizeof(gshmem_device_state)) fatal(call, "collective kernels were built for another device-state layout");
  return true;
}

std::string kernel_name(int id) {
  if (id == k_sync) return "gshmem_k_sync";
  if (id == k_broadcast) return "gshmem_k_broadcast";
  if (id == k_fcollect) return "gshmem_k_fcollect";
  if (id == k_alltoall) return "gshmem_k_alltoall";
  if (id == k_collect) return "gshmem_k_collect";
  if (id == k_alltoalls) return "gshmem_k_alltoalls";
  if (id < k_rs0)
    return std::string("gshmem_k_reduce_") + kOps[(id - k_reduce0) / kNTypes] + "_" +
           kTypes[(id - k_reduce0) % kNTypes];
  if (id < k_scan0)
    return std::string("gshmem_k_rs_") + kOps[(id - k_rs0) / kNTypes] + "_" + kTypes[(id - k_rs0) % kNTypes];
  return std::string((id - k_scan0) / kNTypes ? "gshmem_k_exscan_" : "gshmem_k_inscan_") +
         kTypes[(id - k_scan0) % kNTypes];
}

// Kernel id's handle from the module, kept in g_fn (g_mu held). An absent kernel is an error when
// required; else null (not every (operation, type) pair has one: no bitwise operations on floats).
CUfunction fetch(const char* call, mem::GpuContext& g, int id, bool required) {
  CUfunction f = nullptr;
  const std::string name = kernel_name(id);
  const CUresult r = g.drv->cuModuleGetFunction(&f, g_mod, name.c_str());
  if (r == CUDA_ERROR_NOT_FOUND && !required) return nullptr;
  cu_check(call, r, ("cuModuleGetFunction(" + name + ")").c_str());
  g_fn[id].store(f, std::memory_order_release);
  return f;
}

CUfunction kernel(const char* call, mem::GpuContext& g, int id) {
  CUfunction f = g_fn[id].load(std::memory_order_acquire);
  if (__builtin_expect(
          f != nullptr && g_state_gen.load(std::memory_order_acquire) == mem::published_device_generation(), 1))
    return f;
  std::lock_guard<std::mutex> lock(g_mu);
  if (!g_mod) load_module(call, g);
  gshmem_device_state s;
  const uint64_t gen = mem::published_device_state(&s);
  if (gen != g_state_gen.load()) {
    cu_check(call, g.drv->cuMemcpyAsync(g_state_ptr, reinterpret_cast<CUdeviceptr>(&s), sizeof s, g.stream),
             "cuMemcpyAsync(device state)");
    cu_check(call, g.drv->cuStreamSynchronize(g.stream), "cuStreamSynchronize");
    g_state_gen.store(gen, std::memory_order_release);
  }
  if (!(f = g_fn[id].load())) f = fetch(call, g, id, true);
  return f;
}

// Rows (blocks) for a collective moving `bytes` in all: identical on every member for the same
// arguments and configuration.
int rows_for(size_t bytes) {
  const Config& c = *env("gshmem collective").cfg;
  static_assert(GSHMEM_DEV_MAX_ROWS == 64, "GSHMEM_COLL_MAX_BLOCKS allows 1..64 (config_table.def)");
  const long long per = c.GSHMEM_COLL_BLOCK_BYTES, most = c.GSHMEM_COLL_MAX_BLOCKS;  // ranges checked at load
  const long long rows = static_cast<long long>((bytes + static_cast<size_t>(per) - 1) / static_cast<size_t>(per));
  return static_cast<int>(rows < 1 ? 1 : rows > most ? most : rows);
}

// One row: a plain launch (a single block is always scheduled). Several rows wait for each
// other's peers, so they go through a cooperative launch, which guarantees they are co-resident.
// That holds for one PE's grid; PEs sharing a GPU wait for each other's grids too, and a
// cooperative grid starts only when all of it fits: rows beyond what every sharer can keep resident
// beside the others' (mem::resident_blocks, the same on every PE, so every member sees the same
// rows) would leave one PE's grid waiting for SMs that the others' waiting grids hold.
void launch(const char* call, int id, int rows, void** args, void* stream) {
  mem::GpuContext& g = gpu_for(call);
  if (g.job_resident_blocks > 0) rows = std::min(rows, g.job_resident_blocks);
  CUfunction f = kernel(call, g, id);
  // The sync kernel is one phase: a warp stores and polls the flags (a smaller block starts sooner).
  const unsigned threads =
      id == k_sync ? 32u : static_cast<unsigned>(env(call).cfg->GSHMEM_COLL_THREADS);  // 32..1024, multiple of 32
  CUstream s = stream ? static_cast<CUstream>(stream) : g.stream;
  if (rows == 1)
    cu_check(call, g.drv->cuLaunchKernel(f, 1, 1, 1, threads, 1, 1, 0, s, args, nullptr), "cuLaunchKernel");
  else
    cu_check(call, g.drv->cuLaunchCooperativeKernel(f, static_cast<unsigned>(rows), 1, 1, threads, 1, 1, 0, s, args),
             "cuLaunchCooperativeKernel");
  if (!stream) cu_check(call, g.drv->cuStreamSynchronize(g.stream), "cuStreamSynchronize");
}

// The team, checked for device use (strided members).
team::Team& dev_team(const char* call, int handle) {
  team::Team& t = team_for(call, handle);
  int stride = 1;
  if (const int i = dev_team_stride(t, &stride); i >= 0)
    fatal(call, "team %d: its PEs are not equally strided (world PE %d at index %d), which GPU collectives need",
          handle, t.pes[static_cast<size_t>(i)], i);
  return t;
}

// Routed teams' collectives (and the reductions, scans and collect of teams past
// GSHMEM_DEV_MAX_TEAM_PES: `wide`) run in one row (device/gshmem/impl/routed.cuh).
bool one_row(const team::Team& t, bool wide = false) {
  return t.dev_routed || (wide && t.size() > static_cast<int>(GSHMEM_DEV_MAX_TEAM_PES));
}

void dev_range(const char* call, const void* p, size_t bytes, const char* what) {
  if (!bytes) return;
  if (!p) fatal(call, "%s is NULL with %zu bytes", what, bytes);
  Env& e = env(call);
  const heap::Target t = e.heap->translate(p, bytes, e.my_pe);
  if (t.error != heap::Target::Error::none)
    fatal(call, "%s %p (%zu bytes) is not a symmetric address (heap %p + %zu)", what, p, bytes,
          static_cast<void*>(e.heap->base()), e.heap->size());
  if (!t.device) fatal(call, "%s %p is not on the device heap (GPU collectives need GPU memory)", what, p);
}
}  // namespace

bool device_buffers(const char* call, const void* dest, const void* src) {
  if (!gpu_pe()) return false;
  auto on_dev = [&](const void* p, const char* what) {
    const heap::Region& h = env(call).heap->heap_region();
    const uintptr_t a = reinterpret_cast<uintptr_t>(p);
    (void)what;
    return h.device && a - h.lo < h.size;
  };
  const bool d = dest && on_dev(dest, "dest"), s = src && on_dev(src, "source");
  if (dest && src && d != s)
    fatal(call, "dest %p and source %p must both be on the device heap or both in host memory", dest, src);
  return d || s;
}

void dev_broadcast(const char* call, int team, void* dest, const void* src, size_t bytes, int root, void* stream) {
  team::Team& t = dev_team(call, team);
  if (root < 0 || root >= t.size()) fatal(call, "PE_root %d is not in team %d (size %d)", root, team, t.size());
  dev_range(call, dest, bytes, "dest");
  dev_range(call, src, bytes, "source");
  // The root sends the data to size - 1 members: its blocks are sized by that (rows_for). From
  // GSHMEM_COLL_BCAST_SCATTER_BYTES, in teams of 3 to GSHMEM_DEV_MAX_TEAM_PES, it sends each member
  // a piece, which the members pass on (device/gshmem/impl/coll.cuh broadcast_push).
  const size_t others = static_cast<size_t>(t.size() - 1);
  const uint64_t at = env(call).cfg->GSHMEM_COLL_BCAST_SCATTER_BYTES;
  const bool single = one_row(t);
  int scatter = !single && t.size() > 2 && t.size() <= static_cast<int>(GSHMEM_DEV_MAX_TEAM_PES) && at && bytes >= at;
  void* args[] = {&team, &dest, &src, &bytes, &root, &scatter};
  launch(call, k_broadcast, single ? 1 : rows_for(scatter ? bytes : bytes * others), args, stream);
}

void dev_fcollect(const char* call, int team, void* dest, const void* src, size_t bytes, void* stream) {
  team::Team& t = dev_team(call, team);
  dev_range(call, dest, bytes * static_cast<size_t>(t.size()), "dest");
  dev_range(call, src, bytes, "source");
  void* args[] = {&team, &dest, &src, &bytes};
  launch(call, k_fcollect, one_row(t) ? 1 : rows_for(bytes * static_cast<size_t>(t.size())), args, stream);
}

void dev_alltoall(const char* call, int team, void* dest, const void* src, size_t bytes, void* stream) {
  team::Team& t = dev_team(call, team);
  dev_range(call, dest, bytes * static_cast<size_t>(t.size()), "dest");
  dev_range(call, src, bytes * static_cast<size_t>(t.size()), "source");
  void* args[] = {&team, &dest, &src, &bytes};
  launch(call, k_alltoall, one_row(t) ? 1 : rows_for(bytes * static_cast<size_t>(t.size())), args, stream);
}

void dev_collect(const char* call, int team, void* dest, const void* src, size_t bytes, void* stream) {
  dev_team(call, team);
  dev_range(call, src, bytes, "source");
  if (bytes) dev_range(call, dest, bytes, "dest");  // the kernel checks the whole span (total bytes)
  void* args[] = {&team, &dest, &src, &bytes};
  launch(call, k_collect, 1, args, stream);
}

void dev_alltoalls(const char* call, int team, void* dest, const void* src, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
                   size_t elem, void* stream) {
  team::Team& t = dev_team(call, team);
  if (dst < 1 || sst < 1) fatal(call, "strides must be positive (dst %td, sst %td)", dst, sst);
  const size_t n = bytes_of(call, static_cast<size_t>(t.size()), nelems);  // overflow-checked products
  auto span = [&](ptrdiff_t stride) {
    return n ? bytes_of(call, bytes_of(call, n - 1, static_cast<size_t>(stride)) + 1, elem) : 0;
  };
  dev_range(call, dest, span(dst), "dest");
  dev_range(call, src, span(sst), "source");
  void* args[] = {&team, &dest, &src, &dst, &sst, &nelems, &elem};
  launch(call, k_alltoalls, one_row(t) ? 1 : rows_for(n * elem), args, stream);
}

namespace {
// The kernel index of an (operation, element type) pair among a family's kernels.
int reduce_type(const char* call, size_t elem, char kind, gshmem_reduce_op op) {
  if (kind == 'c') fatal(call, "complex reductions are not supported on GPU memory");
  if (static_cast<unsigned>(op) >= GSHMEM_REDUCE_NOPS)
    fatal(call, "unknown reduction operator %d", static_cast<int>(op));
  // sum, prod and the bitwise operations do not depend on signedness
  const bool minmax = op == GSHMEM_REDUCE_MIN || op == GSHMEM_REDUCE_MAX;
  if (kind == 'i' && !minmax) kind = 'u';
  if (kind == 'f' && elem != 4 && elem != 8)
    fatal(call, "GPU reductions support float and double, not %zu-byte floating types", elem);
  if (elem != 1 && elem != 2 && elem != 4 && elem != 8)
    fatal(call, "GPU reductions do not support %zu-byte elements", elem);
  // half ('h') and bfloat16 ('b'): sum, prod, min and max
  if ((kind == 'h' || kind == 'b') && (elem != 2 || op < GSHMEM_REDUCE_MIN))
    fatal(call, "half and bfloat16 reductions are sum, prod, min and max of 2-byte elements");
  const int lg = elem == 1 ? 0 : elem == 2 ? 1 : elem == 4 ? 2 : 3;
  const int ty = kind == 'h' ? 10 : kind == 'b' ? 11 : kind == 'f' ? 8 + (elem == 8) : (kind == 'u' ? 4 : 0) + lg;
  return static_cast<int>(op) * kNTypes + ty;
}
}  // namespace

void dev_reduce(const char* call, int team, void* dest, const void* src, size_t n, size_t elem, char kind,
                gshmem_reduce_op op, void* stream) {
  team::Team& t = dev_team(call, team);
  const size_t bytes = bytes_of(call, n, elem);
  dev_range(call, dest, bytes, "dest");
  dev_range(call, src, bytes, "source");
  const int id = k_reduce0 + reduce_type(call, elem, kind, op);
  void* args[] = {&team, &dest, &src, &n};
  // Small LL reductions (up to 4 KiB) run in one block. Otherwise a reduction row handles its part
  // of the data: reduce-scatter reads its slice from every member and writes it to every member,
  // a large LL round (team WORLD, gshmem_dev_ll_big_fits, which the kernel decides by the rows)
  // sends it to every member as LL words; either way its data is 2 x team size x its bytes (2 PEs,
  // 64 KiB: 4 rows; reduce-scatter took 13.8 us against 15.8 us with one row).
  const bool ll = bytes <= GSHMEM_DEV_LL_BYTES / 2;
  int rows = ll ? 1 : rows_for(2 * bytes * static_cast<size_t>(t.size()));
  // Past one row's large LL limit but within the rows' (3 to 8 members; 2 reach 2 rows there
  // anyway): 2 rows, so the kernel takes the LL round rather than one block of reduce-scatter.
  const uint64_t addr = reinterpret_cast<uintptr_t>(dest) | reinterpret_cast<uintptr_t>(src);
  if (one_row(t, true)) rows = 1;
  else if (rows == 1 && !ll && env(call).cfg->GSHMEM_COLL_MAX_BLOCKS >= 2 &&
           !gshmem_dev_ll_big_fits(t.slot, t.size(), 1, bytes, addr) &&
           gshmem_dev_ll_big_fits(t.slot, t.size(), 2, bytes, addr))
    rows = 2;
  launch(call, id, rows, args, stream);
}

void dev_reducescatter(const char* call, int team, void* dest, const void* src, size_t n, size_t elem, char kind,
                       gshmem_reduce_op op, void* stream) {
  team::Team& t = dev_team(call, team);
  const size_t bytes = bytes_of(call, n, elem), sbytes = bytes_of(call, n * static_cast<size_t>(t.size()), elem);
  dev_range(call, dest, bytes, "dest");
  dev_range(call, src, sbytes, "source");
  check_no_overlap(call, dest, bytes, src, sbytes);
  const int id = k_rs0 + reduce_type(call, elem, kind, op);
  void* args[] = {&team, &dest, &src, &n};
  launch(call, id, one_row(t, true) ? 1 : rows_for(bytes), args, stream);
}

void dev_scan(const char* call, int team, void* dest, const void* src, size_t n, size_t elem, char kind, bool exclusive,
              void* stream) {
  team::Team& t = dev_team(call, team);
  const size_t bytes = bytes_of(call, n, elem);
  dev_range(call, dest, bytes, "dest");
  dev_range(call, src, bytes, "source");
  if (kind == 'f' && elem != 4 && elem != 8)
    fatal(call, "GPU scans support float and double, not %zu-byte floats", elem);
  const int id = k_scan0 + (exclusive ? kNTypes : 0) + reduce_type(call, elem, kind, GSHMEM_REDUCE_SUM) % kNTypes;
  void* args[] = {&team, &dest, &src, &n};
  // As a reduction: one block takes an LL round up to 4 KiB; above, the rows split the owner
  // slices (each reads and writes 2 x team size x its bytes).
  const bool ll = bytes <= GSHMEM_DEV_LL_BYTES / 2;
  launch(call, id, ll || one_row(t, true) ? 1 : rows_for(2 * bytes * static_cast<size_t>(t.size())), args, stream);
}

void dev_team_sync(const char* call, int team, void* stream) {
  dev_team(call, team);
  void* args[] = {&team};
  launch(call, k_sync, 1, args, stream);
}

void dev_forget() {
  std::lock_guard<std::mutex> lock(g_mu);
  g_mod = nullptr;  // unloaded with the GPU context the caller releases next
  g_state_ptr = 0;
  g_state_gen.store(~0ull);  // no generation: the next kernel() copies the state again
  for (auto& f : g_fn) f.store(nullptr);
}

void dev_preload(const char* call) {
  mem::GpuContext& g = gpu_for(call);
  {
    // A GPU the module has no code for is not an init error: only the device collectives need
    // it, and their first call reports it.
    std::lock_guard<std::mutex> lock(g_mu);
    if (!g_mod && !load_module(call, g, false)) return;
  }
  kernel(call, g, k_sync);  // refreshes the module's device state
  // cuModuleGetFunction loads a kernel under lazy loading (CUDA programming guide, Lazy Loading).
  std::lock_guard<std::mutex> lock(g_mu);
  for (int id = 0; id < kKernels; ++id)
    if (!g_fn[id].load()) fetch(call, g, id, false);
}

}  // namespace gshmem::coll

#else
namespace gshmem::coll {
bool device_buffers(const char*, const void*, const void*) { return false; }
void dev_broadcast(const char* call, int, void*, const void*, size_t, int, void*) { fatal(call, "built without CUDA"); }
void dev_fcollect(const char* call, int, void*, const void*, size_t, void*) { fatal(call, "built without CUDA"); }
void dev_alltoall(const char* call, int, void*, const void*, size_t, void*) { fatal(call, "built without CUDA"); }
void dev_reducescatter(const char* call, int, void*, const void*, size_t, size_t, char, gshmem_reduce_op, void*) {
  fatal(call, "built without CUDA");
}
void dev_reduce(const char* call, int, void*, const void*, size_t, size_t, char, gshmem_reduce_op, void*) {
  fatal(call, "built without CUDA");
}
void dev_scan(const char* call, int, void*, const void*, size_t, size_t, char, bool, void*) {
  fatal(call, "built without CUDA");
}
void dev_team_sync(const char* call, int, void*) { fatal(call, "built without CUDA"); }
void dev_preload(const char*) {}
void dev_forget() {}
void dev_collect(const char* call, int, void*, const void*, size_t, void*) { fatal(call, "built without CUDA"); }
void dev_alltoalls(const char* call, int, void*, const void*, ptrdiff_t, ptrdiff_t, size_t, size_t, void*) {
  fatal(call, "built without CUDA");
}
}  // namespace gshmem::coll
#endif
