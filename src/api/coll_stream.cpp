// On-stream team collectives (shmemx_*_on_stream) and host collectives on the device heap. The
// kernels (src/coll/dev_coll.cu, embedded as a fatbin) run the in-kernel collective code with one
// block per row of the data; they are launched cooperatively so every block is resident (blocks
// wait for their peers' blocks). The module's copy of the device state is refreshed whenever the
// runtime publishes a new one (heap growth).
#include <shmem.h>
#include <shmemx.h>

#include <atomic>
#include <cstring>
#include <mutex>
#include <string>
#include <unordered_map>

#include "api/coll_device.hpp"
#include "api/device_ops.hpp"
#include "api/team_group.hpp"
#include "core/dev_teams.hpp"

using namespace gshmem;
using namespace gshmem::api;

#if GSHMEM_HAVE_CUDA
extern "C" const unsigned char gshmem_dev_coll_fatbin[];

namespace gshmem::api {
namespace {
std::mutex g_mu;
CUmodule g_mod = nullptr;
CUdeviceptr g_state_ptr = 0;
std::atomic<uint64_t> g_state_gen{0};
// Kernel handles by id: fixed kernels first, then reductions by (operation, element type).
const char* const kOps[] = {"and", "or", "xor", "min", "max", "sum", "prod"};
const char* const kTypes[] = {"i8", "i16", "i32", "i64", "u8", "u16", "u32", "u64", "f32", "f64"};
enum : int { k_sync, k_broadcast, k_fcollect, k_alltoall, k_collect, k_alltoalls, k_reduce0 };
constexpr int kKernels = k_reduce0 + 7 * 10;
std::atomic<CUfunction> g_fn[kKernels];

void load_module(const char* call, GpuContext& g) {
  cu_check(call, g.drv->cuModuleLoadData(&g_mod, gshmem_dev_coll_fatbin), "cuModuleLoadData(collective kernels)");
  size_t sz = 0;
  cu_check(call, g.drv->cuModuleGetGlobal(&g_state_ptr, &sz, g_mod, "gshmemi_dstate"), "cuModuleGetGlobal(gshmemi_dstate)");
  if (sz != sizeof(gshmem_device_state)) fatal(call, "collective kernels were built for another device-state layout");
}

CUfunction kernel(const char* call, GpuContext& g, int id) {
  CUfunction f = g_fn[id].load(std::memory_order_acquire);
  if (__builtin_expect(f != nullptr && g_state_gen.load(std::memory_order_acquire) == published_device_generation(), 1))
    return f;
  std::lock_guard<std::mutex> lock(g_mu);
  if (!g_mod) load_module(call, g);
  gshmem_device_state s;
  const uint64_t gen = published_device_state(&s);
  if (gen != g_state_gen.load()) {
    cu_check(call, g.drv->cuMemcpyAsync(g_state_ptr, reinterpret_cast<CUdeviceptr>(&s), sizeof s, g.stream),
             "cuMemcpyAsync(device state)");
    cu_check(call, g.drv->cuStreamSynchronize(g.stream), "cuStreamSynchronize");
    g_state_gen.store(gen, std::memory_order_release);
  }
  if (!(f = g_fn[id].load())) {
    std::string name;
    if (id == k_sync) name = "gshmem_k_sync";
    else if (id == k_broadcast) name = "gshmem_k_broadcast";
    else if (id == k_fcollect) name = "gshmem_k_fcollect";
    else if (id == k_alltoall) name = "gshmem_k_alltoall";
    else if (id == k_collect) name = "gshmem_k_collect";
    else if (id == k_alltoalls) name = "gshmem_k_alltoalls";
    else name = std::string("gshmem_k_reduce_") + kOps[(id - k_reduce0) / 10] + "_" + kTypes[(id - k_reduce0) % 10];
    cu_check(call, g.drv->cuModuleGetFunction(&f, g_mod, name.c_str()), ("cuModuleGetFunction(" + name + ")").c_str());
    g_fn[id].store(f, std::memory_order_release);
  }
  return f;
}

// Rows (blocks) for a collective moving `bytes` in all: identical on every member for the same
// arguments and configuration.
int rows_for(size_t bytes) {
  const Config& c = *g_rt->cfg;
  static_assert(GSHMEM_DEV_MAX_ROWS == 64, "GSHMEM_COLL_MAX_BLOCKS allows 1..64 (config_table.def)");
  const long long per = c.GSHMEM_COLL_BLOCK_BYTES, most = c.GSHMEM_COLL_MAX_BLOCKS;  // ranges checked at load
  const long long rows = static_cast<long long>((bytes + static_cast<size_t>(per) - 1) / static_cast<size_t>(per));
  return static_cast<int>(rows < 1 ? 1 : rows > most ? most : rows);
}

// One row: a plain launch (a single block is always scheduled). Several rows wait for each
// other's peers, so they go through a cooperative launch, which guarantees they are co-resident.
void launch(const char* call, int id, int rows, void** args, void* stream) {
  GpuContext& g = gpu_for(call);
  CUfunction f = kernel(call, g, id);
  const unsigned threads = static_cast<unsigned>(g_rt->cfg->GSHMEM_COLL_THREADS);  // 32..1024, multiple of 32
  CUstream s = stream ? static_cast<CUstream>(stream) : g.stream;
  if (rows == 1)
    cu_check(call, g.drv->cuLaunchKernel(f, 1, 1, 1, threads, 1, 1, 0, s, args, nullptr), "cuLaunchKernel");
  else
    cu_check(call, g.drv->cuLaunchCooperativeKernel(f, static_cast<unsigned>(rows), 1, 1, threads, 1, 1, 0, s, args),
             "cuLaunchCooperativeKernel");
  if (!stream) cu_check(call, g.drv->cuStreamSynchronize(g.stream), "cuStreamSynchronize");
}

// The team, checked for device use: strided members, and at most max_pes of them.
team::Team& dev_team(const char* call, int handle, int max_pes) {
  team::Team& t = team_for(call, handle);
  const int n = t.size();
  int stride = 1;
  if (const int i = dev_team_stride(t, &stride); i >= 0)
    fatal(call, "team %d: its PEs are not equally strided (world PE %d at index %d), which GPU collectives need",
              handle, t.pes[static_cast<size_t>(i)], i);
  if (n > max_pes) fatal(call, "team %d has %d PEs; this GPU collective supports at most %d", handle, n, max_pes);
  for (int pe : t.pes)
    if (!g_rt->heap.device_segment(pe))
      fatal(call, "team %d: pe %d is on another node (reached through the proxy); GPU collectives need every "
                      "member's heap mapped in this version", handle, pe);
  return t;
}

void dev_range(const char* call, const void* p, size_t bytes, const char* what) {
  if (!bytes) return;
  if (!p) fatal(call, "%s is NULL with %zu bytes", what, bytes);
  Target t = target(call, p, bytes, g_rt->my_pe, what);
  if (!t.device) fatal(call, "%s %p is not on the device heap (GPU collectives need GPU memory)", what, p);
}
}  // namespace

bool dev_coll_buffers(const char* call, const void* dest, const void* src) {
  if (!dev_active()) return false;
  auto on_dev = [&](const void* p, const char* what) {
    const heap::Region& h = g_rt->heap.heap_region();
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
  team::Team& t = dev_team(call, team, 256);
  if (root < 0 || root >= t.size()) fatal(call, "PE_root %d is not in team %d (size %d)", root, team, t.size());
  dev_range(call, dest, bytes, "dest");
  dev_range(call, src, bytes, "source");
  void* args[] = {&team, &dest, &src, &bytes, &root};
  launch(call, k_broadcast, rows_for(bytes), args, stream);
}

void dev_fcollect(const char* call, int team, void* dest, const void* src, size_t bytes, void* stream) {
  team::Team& t = dev_team(call, team, 256);
  dev_range(call, dest, bytes * static_cast<size_t>(t.size()), "dest");
  dev_range(call, src, bytes, "source");
  void* args[] = {&team, &dest, &src, &bytes};
  launch(call, k_fcollect, rows_for(bytes * static_cast<size_t>(t.size())), args, stream);
}

void dev_alltoall(const char* call, int team, void* dest, const void* src, size_t bytes, void* stream) {
  team::Team& t = dev_team(call, team, 256);
  dev_range(call, dest, bytes * static_cast<size_t>(t.size()), "dest");
  dev_range(call, src, bytes * static_cast<size_t>(t.size()), "source");
  void* args[] = {&team, &dest, &src, &bytes};
  launch(call, k_alltoall, rows_for(bytes * static_cast<size_t>(t.size())), args, stream);
}

void dev_collect(const char* call, int team, void* dest, const void* src, size_t bytes, void* stream) {
  dev_team(call, team, static_cast<int>(GSHMEM_DEV_MAX_TEAM_PES));
  dev_range(call, src, bytes, "source");
  if (bytes) dev_range(call, dest, bytes, "dest");  // the kernel checks the whole span (total bytes)
  void* args[] = {&team, &dest, &src, &bytes};
  launch(call, k_collect, 1, args, stream);
}

void dev_alltoalls(const char* call, int team, void* dest, const void* src, ptrdiff_t dst, ptrdiff_t sst,
                   size_t nelems, size_t elem, void* stream) {
  team::Team& t = dev_team(call, team, 256);
  if (dst < 1 || sst < 1) fatal(call, "strides must be positive (dst %td, sst %td)", dst, sst);
  const size_t n = bytes_of(call, static_cast<size_t>(t.size()), nelems);  // overflow-checked products
  auto span = [&](ptrdiff_t stride) {
    return n ? bytes_of(call, bytes_of(call, n - 1, static_cast<size_t>(stride)) + 1, elem) : 0;
  };
  dev_range(call, dest, span(dst), "dest");
  dev_range(call, src, span(sst), "source");
  void* args[] = {&team, &dest, &src, &dst, &sst, &nelems, &elem};
  launch(call, k_alltoalls, rows_for(n * elem), args, stream);
}

void dev_reduce(const char* call, int team, void* dest, const void* src, size_t n, size_t elem, char kind,
                const char* op, void* stream) {
  dev_team(call, team, static_cast<int>(GSHMEM_DEV_MAX_TEAM_PES));
  const size_t bytes = bytes_of(call, n, elem);
  dev_range(call, dest, bytes, "dest");
  dev_range(call, src, bytes, "source");
  if (kind == 'c') fatal(call, "complex reductions are not supported on GPU memory");
  // sum, prod and the bitwise operations do not depend on signedness
  const bool minmax = !strcmp(op, "min") || !strcmp(op, "max");
  if (kind == 'i' && !minmax) kind = 'u';
  if (kind == 'f' && elem != 4 && elem != 8) fatal(call, "GPU reductions support float and double, not %zu-byte floating types", elem);
  if (elem != 1 && elem != 2 && elem != 4 && elem != 8) fatal(call, "GPU reductions do not support %zu-byte elements", elem);
  int o = 0;
  while (o < 7 && strcmp(kOps[o], op)) ++o;
  if (o == 7) fatal(call, "unknown reduction %s", op);
  const int lg = elem == 1 ? 0 : elem == 2 ? 1 : elem == 4 ? 2 : 3;
  const int ty = kind == 'f' ? 8 + (elem == 8) : (kind == 'u' ? 4 : 0) + lg;
  void* args[] = {&team, &dest, &src, &n};
  launch(call, k_reduce0 + o * 10 + ty, bytes <= GSHMEM_DEV_LL_BYTES / 2 ? 1 : rows_for(bytes), args, stream);
}

void dev_team_sync(const char* call, int team, void* stream) {
  dev_team(call, team, 256);
  void* args[] = {&team};
  launch(call, k_sync, 1, args, stream);
}

}  // namespace gshmem::api

#else
namespace gshmem::api {
bool dev_coll_buffers(const char*, const void*, const void*) { return false; }
void dev_broadcast(const char* call, int, void*, const void*, size_t, int, void*) { fatal(call, "built without CUDA"); }
void dev_fcollect(const char* call, int, void*, const void*, size_t, void*) { fatal(call, "built without CUDA"); }
void dev_alltoall(const char* call, int, void*, const void*, size_t, void*) { fatal(call, "built without CUDA"); }
void dev_reduce(const char* call, int, void*, const void*, size_t, size_t, char, const char*, void*) {
  fatal(call, "built without CUDA");
}
void dev_team_sync(const char* call, int, void*) { fatal(call, "built without CUDA"); }
void dev_collect(const char* call, int, void*, const void*, size_t, void*) { fatal(call, "built without CUDA"); }
void dev_alltoalls(const char* call, int, void*, const void*, ptrdiff_t, ptrdiff_t, size_t, size_t, void*) {
  fatal(call, "built without CUDA");
}
}  // namespace gshmem::api
#endif

namespace {
// A user's stream 0 is the legacy default stream (CU_STREAM_LEGACY = 0x1 in the driver API); a
// null stream inside the library means "the PE's internal stream, then wait".
void* user_stream(cudaStream_t s) { return s ? static_cast<void*>(s) : reinterpret_cast<void*>(uintptr_t{1}); }
}  // namespace

extern "C" {

void shmemx_team_sync_on_stream(shmem_team_t team, cudaStream_t stream) {
  dev_team_sync("shmemx_team_sync_on_stream", team, user_stream(stream));
}
void shmemx_sync_all_on_stream(cudaStream_t stream) { shmemx_team_sync_on_stream(SHMEM_TEAM_WORLD, stream); }

int shmemx_broadcastmem_on_stream(shmem_team_t team, void* d, const void* s, size_t n, int root, cudaStream_t stream) {
  dev_broadcast("shmemx_broadcastmem_on_stream", team, d, s, n, root, user_stream(stream));
  return 0;
}
int shmemx_fcollectmem_on_stream(shmem_team_t team, void* d, const void* s, size_t n, cudaStream_t stream) {
  dev_fcollect("shmemx_fcollectmem_on_stream", team, d, s, n, user_stream(stream));
  return 0;
}
int shmemx_alltoallmem_on_stream(shmem_team_t team, void* d, const void* s, size_t n, cudaStream_t stream) {
  dev_alltoall("shmemx_alltoallmem_on_stream", team, d, s, n, user_stream(stream));
  return 0;
}

int shmemx_collectmem_on_stream(shmem_team_t team, void* d, const void* s, size_t n, cudaStream_t stream) {
  dev_collect("shmemx_collectmem_on_stream", team, d, s, n, user_stream(stream));
  return 0;
}
int shmemx_alltoallsmem_on_stream(shmem_team_t team, void* d, const void* s, ptrdiff_t dst, ptrdiff_t sst, size_t n,
                                  cudaStream_t stream) {
  dev_alltoalls("shmemx_alltoallsmem_on_stream", team, d, s, dst, sst, n, 1, user_stream(stream));
  return 0;
}

#define GSHMEM_DEF_COLL_STREAM(T, N)                                                                    \
  int shmemx_##N##_collect_on_stream(shmem_team_t team, T* d, const T* s, size_t n, cudaStream_t st) {  \
    const char* call = "shmemx_" #N "_collect_on_stream";                                               \
    dev_collect(call, team, d, s, bytes_of(call, n, sizeof(T)), user_stream(st));                                    \
    return 0;                                                                                           \
  }                                                                                                     \
  int shmemx_##N##_alltoalls_on_stream(shmem_team_t team, T* d, const T* s, ptrdiff_t dst, ptrdiff_t sst, size_t n, \
                                       cudaStream_t st) {                                               \
    dev_alltoalls("shmemx_" #N "_alltoalls_on_stream", team, d, s, dst, sst, n, sizeof(T), user_stream(st));         \
    return 0;                                                                                           \
  }                                                                                                     \
  int shmemx_##N##_broadcast_on_stream(shmem_team_t team, T* d, const T* s, size_t n, int root, cudaStream_t st) { \
    const char* call = "shmemx_" #N "_broadcast_on_stream";                                             \
    dev_broadcast(call, team, d, s, bytes_of(call, n, sizeof(T)), root, user_stream(st));                            \
    return 0;                                                                                           \
  }                                                                                                     \
  int shmemx_##N##_fcollect_on_stream(shmem_team_t team, T* d, const T* s, size_t n, cudaStream_t st) { \
    const char* call = "shmemx_" #N "_fcollect_on_stream";                                              \
    dev_fcollect(call, team, d, s, bytes_of(call, n, sizeof(T)), user_stream(st));                                   \
    return 0;                                                                                           \
  }                                                                                                     \
  int shmemx_##N##_alltoall_on_stream(shmem_team_t team, T* d, const T* s, size_t n, cudaStream_t st) { \
    const char* call = "shmemx_" #N "_alltoall_on_stream";                                              \
    dev_alltoall(call, team, d, s, bytes_of(call, n, sizeof(T)), user_stream(st));                                   \
    return 0;                                                                                           \
  }
GSHMEM_RMA_TYPES_DEVICE(GSHMEM_DEF_COLL_STREAM)
#undef GSHMEM_DEF_COLL_STREAM

#define GSHMEM_DEF_REDUCE_STREAM(T, N, OP)                                                              \
  int shmemx_##N##_##OP##_reduce_on_stream(shmem_team_t team, T* d, const T* s, size_t n, cudaStream_t st) { \
    dev_reduce("shmemx_" #N "_" #OP "_reduce_on_stream", team, d, s, n, sizeof(T), reduce_kind<T>(), #OP, user_stream(st)); \
    return 0;                                                                                           \
  }
#define GSHMEM_DEF_REDUCE_STREAM_BIT(T, N) \
  GSHMEM_DEF_REDUCE_STREAM(T, N, and) GSHMEM_DEF_REDUCE_STREAM(T, N, or) GSHMEM_DEF_REDUCE_STREAM(T, N, xor)
#define GSHMEM_DEF_REDUCE_STREAM_MINMAX(T, N) GSHMEM_DEF_REDUCE_STREAM(T, N, max) GSHMEM_DEF_REDUCE_STREAM(T, N, min)
#define GSHMEM_DEF_REDUCE_STREAM_ARITH(T, N) GSHMEM_DEF_REDUCE_STREAM(T, N, sum) GSHMEM_DEF_REDUCE_STREAM(T, N, prod)
GSHMEM_REDUCE_BIT_TYPES(GSHMEM_DEF_REDUCE_STREAM_BIT)
GSHMEM_REDUCE_MINMAX_TYPES_DEVICE(GSHMEM_DEF_REDUCE_STREAM_MINMAX)
GSHMEM_REDUCE_MINMAX_TYPES_DEVICE(GSHMEM_DEF_REDUCE_STREAM_ARITH)

}  // extern "C"
