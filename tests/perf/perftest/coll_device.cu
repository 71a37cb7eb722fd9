// barrier_latency, sync_latency, bcast_latency, fcollect_latency, alltoall_latency,
// reduction_latency (PERFTEST_PROGRAM; NVSHMEM's perftest/device/coll programs): NVSHMEM 3.4.5
// definitions (docs/perf/definitions.md), on any number of PEs, team WORLD. One collective launch
// of one block of -t threads (default 256) per measurement on a non-blocking stream; the scope
// decides who calls: thread (thread 0, the plain API), warp (the first warp, _warp), block (every
// thread, _block); -n calls back to back in the kernel, nothing between them, the same buffers.
// A warm-up launch of -w, a stream sync and a barrier come first; CUDA events around the timed
// launch; PE 0's ms * 1000 / iters in us per call.
//   barrier / sync: barrier(WORLD) and barrier_all / team_sync(WORLD) and sync_all, each at the
//     three scopes; the size column holds -t, as NVSHMEM's does.
//   bcast (root 0), fcollect, alltoall, reduction (sum, prod, and, or, xor, min, max): int32 then
//     int64, element counts from -b/-e stepping by -f (bcast, reduction: size / type; fcollect,
//     alltoall: size / (npes x type), reported size x npes); thread scope below 512 elements, warp
//     below 4096. The int64 block broadcast reports the mean over PEs, as NVSHMEM's program does.
#include "perftest.cuh"

#include "../program_name.h"
static const std::string kProg = GSHMEM_PERF_STR(PERFTEST_PROGRAM);  // one compile per program (PT_<program>)

enum Scope { s_thread, s_warp, s_block };
enum Coll { c_barrier, c_barrier_all, c_sync, c_sync_all, c_bcast, c_fcollect, c_alltoall, c_reduce };
enum RedOp { r_sum, r_prod, r_and, r_or, r_xor, r_min, r_max };
[[maybe_unused]] static const char* kRedNames[] = {"sum", "prod", "and", "or", "xor", "min", "max"};

template <typename T>
struct Calls;
#define SCOPED(S, PLAIN, WARP, BLOCK) \
  if constexpr (S == s_thread) PLAIN; \
  else if constexpr (S == s_warp) WARP; \
  else BLOCK
#define CALLS_TYPE(NAME, T)                                                                                         \
  template <>                                                                                                       \
  struct Calls<T> {                                                                                                 \
    template <int S>                                                                                                \
    static __device__ void bcast(nvshmem_team_t t, T* d, const T* s, size_t n) {                                    \
      SCOPED(S, nvshmem_##NAME##_broadcast(t, d, s, n, 0), nvshmemx_##NAME##_broadcast_warp(t, d, s, n, 0),         \
             nvshmemx_##NAME##_broadcast_block(t, d, s, n, 0));                                                     \
    }                                                                                                               \
    template <int S>                                                                                                \
    static __device__ void fcollect(nvshmem_team_t t, T* d, const T* s, size_t n) {                                 \
      SCOPED(S, nvshmem_##NAME##_fcollect(t, d, s, n), nvshmemx_##NAME##_fcollect_warp(t, d, s, n),                 \
             nvshmemx_##NAME##_fcollect_block(t, d, s, n));                                                         \
    }                                                                                                               \
    template <int S>                                                                                                \
    static __device__ void alltoall(nvshmem_team_t t, T* d, const T* s, size_t n) {                                 \
      SCOPED(S, nvshmem_##NAME##_alltoall(t, d, s, n), nvshmemx_##NAME##_alltoall_warp(t, d, s, n),                 \
             nvshmemx_##NAME##_alltoall_block(t, d, s, n));                                                         \
    }                                                                                                               \
    template <int S, int OP>                                                                                        \
    static __device__ void reduce(nvshmem_team_t t, T* d, const T* s, size_t n) {                                   \
      if constexpr (OP == r_sum) { SCOPED(S, nvshmem_##NAME##_sum_reduce(t, d, s, n), nvshmemx_##NAME##_sum_reduce_warp(t, d, s, n), nvshmemx_##NAME##_sum_reduce_block(t, d, s, n)); } \
      else if constexpr (OP == r_prod) { SCOPED(S, nvshmem_##NAME##_prod_reduce(t, d, s, n), nvshmemx_##NAME##_prod_reduce_warp(t, d, s, n), nvshmemx_##NAME##_prod_reduce_block(t, d, s, n)); } \
      else if constexpr (OP == r_and) { SCOPED(S, nvshmem_##NAME##_and_reduce(t, d, s, n), nvshmemx_##NAME##_and_reduce_warp(t, d, s, n), nvshmemx_##NAME##_and_reduce_block(t, d, s, n)); } \
      else if constexpr (OP == r_or) { SCOPED(S, nvshmem_##NAME##_or_reduce(t, d, s, n), nvshmemx_##NAME##_or_reduce_warp(t, d, s, n), nvshmemx_##NAME##_or_reduce_block(t, d, s, n)); } \
      else if constexpr (OP == r_xor) { SCOPED(S, nvshmem_##NAME##_xor_reduce(t, d, s, n), nvshmemx_##NAME##_xor_reduce_warp(t, d, s, n), nvshmemx_##NAME##_xor_reduce_block(t, d, s, n)); } \
      else if constexpr (OP == r_min) { SCOPED(S, nvshmem_##NAME##_min_reduce(t, d, s, n), nvshmemx_##NAME##_min_reduce_warp(t, d, s, n), nvshmemx_##NAME##_min_reduce_block(t, d, s, n)); } \
      else { SCOPED(S, nvshmem_##NAME##_max_reduce(t, d, s, n), nvshmemx_##NAME##_max_reduce_warp(t, d, s, n), nvshmemx_##NAME##_max_reduce_block(t, d, s, n)); } \
    }                                                                                                               \
  };
CALLS_TYPE(int32, int32_t)
CALLS_TYPE(int64, int64_t)

template <int S>
__device__ __forceinline__ bool in_scope() {
  return S == s_block || (S == s_warp ? threadIdx.x < warpSize : threadIdx.x == 0);
}

template <int S, int C>
__global__ void __launch_bounds__(1024) sync_kernel(int iters) {
  if (!in_scope<S>()) return;
  for (int i = 0; i < iters; ++i) {
    if constexpr (C == c_barrier) { SCOPED(S, nvshmem_barrier(NVSHMEM_TEAM_WORLD), nvshmemx_barrier_warp(NVSHMEM_TEAM_WORLD), nvshmemx_barrier_block(NVSHMEM_TEAM_WORLD)); }
    else if constexpr (C == c_barrier_all) { SCOPED(S, nvshmem_barrier_all(), nvshmemx_barrier_all_warp(), nvshmemx_barrier_all_block()); }
    else if constexpr (C == c_sync) { SCOPED(S, nvshmem_team_sync(NVSHMEM_TEAM_WORLD), nvshmemx_team_sync_warp(NVSHMEM_TEAM_WORLD), nvshmemx_team_sync_block(NVSHMEM_TEAM_WORLD)); }
    else { SCOPED(S, nvshmem_sync_all(), nvshmemx_sync_all_warp(), nvshmemx_sync_all_block()); }
  }
}

template <int S, int C, int OP, typename T>
__global__ void __launch_bounds__(1024) data_kernel(T* dest, const T* src, size_t n, int iters) {
  if (!in_scope<S>()) return;
  for (int i = 0; i < iters; ++i) {
    if constexpr (C == c_bcast) Calls<T>::template bcast<S>(NVSHMEM_TEAM_WORLD, dest, src, n);
    else if constexpr (C == c_fcollect) Calls<T>::template fcollect<S>(NVSHMEM_TEAM_WORLD, dest, src, n);
    else if constexpr (C == c_alltoall) Calls<T>::template alltoall<S>(NVSHMEM_TEAM_WORLD, dest, src, n);
    else Calls<T>::template reduce<S, OP>(NVSHMEM_TEAM_WORLD, dest, src, n);
  }
}

struct Bench {
  const pt::Args& a;
  cudaStream_t st;
  int me;
  pt::Timer timer;
  // Warm-up launch, stream sync, barrier, the timed launch between events; PE 0's us per call.
  float measure(const void* kernel, void** warm, void** timed) {
    auto launch = [&](void** args) {
      if (nvshmemx_collective_launch(kernel, dim3(1), dim3(a.threads), args, 0, st) != 0) {
        fprintf(stderr, "%s: nvshmemx_collective_launch failed (PE %d, %d threads)\n", kProg.c_str(), me, a.threads);
        exit(1);
      }
    };
    launch(warm);
    pt::check(cudaStreamSynchronize(st), "warm-up kernel");
    nvshmem_barrier_all();
    const float ms = timer.time(st, [&] { launch(timed); });
    return ms * 1000.0f / a.iters;
  }
};

template <int S, int C>
static void run_sync(Bench& b, const char* job, const char* scope) {
  int w = b.a.warmup, it = b.a.iters;
  void* warm[] = {&w};
  void* timed[] = {&it};
  nvshmem_barrier_all();
  const float us = b.measure((const void*)sync_kernel<S, C>, warm, timed);
  nvshmem_barrier_all();
  if (b.me == 0) {
    pt::Table t{job, scope, "latency", "us", '-', {}, {}};
    t.add(static_cast<size_t>(b.a.threads), us);
    t.print(b.a, kProg.c_str());
  }
}

template <int S, int C, int OP, typename T>
static void run_data(Bench& b, T* dest, T* src, const char* job, const std::string& subjob) {
  const int npes = nvshmem_n_pes();
  const bool per_pe = C == c_fcollect || C == c_alltoall;
  const size_t div = sizeof(T) * (per_pe ? npes : 1);
  const size_t min_e = std::max<size_t>(1, b.a.min_size / div), max_e = std::max<size_t>(1, b.a.max_size / div);
  const size_t cap = S == s_thread ? 512 : S == s_warp ? 4096 : SIZE_MAX;
  pt::Table t{job, subjob, "latency", "us", '-', {}, {}};
  float* avg = nullptr;
  for (size_t n = min_e; n <= max_e && n < cap; n *= b.a.step) {
    int w = b.a.warmup, it = b.a.iters;
    T* d = dest;
    const T* s = src;
    void* warm[] = {&d, &s, &n, &w};
    void* timed[] = {&d, &s, &n, &it};
    float us = b.measure((const void*)data_kernel<S, C, OP, T>, warm, timed);
    if (C == c_bcast && S == s_block && sizeof(T) == 8) {  // NVSHMEM's program: the mean over PEs
      if (!avg) avg = static_cast<float*>(nvshmem_malloc(2 * sizeof(float)));
      pt::check(cudaMemcpy(avg, &us, sizeof us, cudaMemcpyHostToDevice), "cudaMemcpy");
      nvshmem_float_sum_reduce(NVSHMEM_TEAM_WORLD, avg + 1, avg, 1);
      pt::check(cudaMemcpy(&us, avg + 1, sizeof us, cudaMemcpyDeviceToHost), "cudaMemcpy");
      us /= npes;
    }
    nvshmem_barrier_all();
    t.add(n * div, us);
  }
  if (avg) nvshmem_free(avg);
  if (b.me == 0) t.print(b.a, kProg.c_str());
}

template <int C, int OP, typename T>
static void run_scopes(Bench& b, T* dest, T* src, const char* job, const char* type) {
  const bool red = C == c_reduce;
  auto sub = [&](const char* scope, const char* abbrev) {
    return red ? std::string(type) + "-" + kRedNames[OP] + "-" + abbrev : std::string(type) + "-" + scope;
  };
  run_data<s_thread, C, OP, T>(b, dest, src, job, sub("thread", "t"));
  run_data<s_warp, C, OP, T>(b, dest, src, job, sub("warp", "w"));
  run_data<s_block, C, OP, T>(b, dest, src, job, sub("block", "b"));
}

template <int OP>
static void run_reduce_op(Bench& b, void* dest, void* src) {
  run_scopes<c_reduce, OP, int32_t>(b, static_cast<int32_t*>(dest), static_cast<int32_t*>(src), "device_reduction", "int32");
  run_scopes<c_reduce, OP, int64_t>(b, static_cast<int64_t*>(dest), static_cast<int64_t*>(src), "device_reduction", "int64");
}

int main(int argc, char** argv) {
  const pt::Args a = pt::parse(argc, argv, kProg.c_str());
  pt::init(kProg.c_str());
  cudaStream_t st;
  pt::check(cudaStreamCreateWithFlags(&st, cudaStreamNonBlocking), "cudaStreamCreate");
  Bench b{a, st, nvshmem_my_pe(), {}};
  // Each program instantiates only its own kernels (PT_<program>, set by meson.build).
#if defined(PT_barrier_latency)
  run_sync<s_thread, c_barrier>(b, "barrier_device", "thread");
  run_sync<s_warp, c_barrier>(b, "barrier_device", "warp");
  run_sync<s_block, c_barrier>(b, "barrier_device", "block");
  run_sync<s_thread, c_barrier_all>(b, "barrier_all_device", "thread");
  run_sync<s_warp, c_barrier_all>(b, "barrier_all_device", "warp");
  run_sync<s_block, c_barrier_all>(b, "barrier_all_device", "block");
#elif defined(PT_sync_latency)
  run_sync<s_thread, c_sync>(b, "sync_device", "thread");
  run_sync<s_warp, c_sync>(b, "sync_device", "warp");
  run_sync<s_block, c_sync>(b, "sync_device", "block");
  run_sync<s_thread, c_sync_all>(b, "sync_all_device", "thread");
  run_sync<s_warp, c_sync_all>(b, "sync_all_device", "warp");
  run_sync<s_block, c_sync_all>(b, "sync_all_device", "block");
#else
  {
    // source: the first max_size bytes, dest: the next max_size (NVSHMEM's layout); the source
    // holds 0, 1, 2, ... as int64.
    char* buf = static_cast<char*>(nvshmem_malloc(2 * a.max_size));
    {
      std::vector<int64_t> init(a.max_size / 8);
      for (size_t i = 0; i < init.size(); ++i) init[i] = static_cast<int64_t>(i);
      pt::check(cudaMemcpy(buf, init.data(), init.size() * 8, cudaMemcpyHostToDevice), "cudaMemcpy");
      pt::check(cudaMemset(buf + a.max_size, 0, a.max_size), "cudaMemset");
    }
    void* src = buf;
    void* dst = buf + a.max_size;
    nvshmem_barrier_all();
#if defined(PT_reduction_latency)
    // NVSHMEM's order: every op at thread scope (int32, int64), then warp, then block; ours runs
    // each op's three scopes together (the same measurements, grouped by operation).
    run_reduce_op<r_sum>(b, dst, src);
    run_reduce_op<r_prod>(b, dst, src);
    run_reduce_op<r_and>(b, dst, src);
    run_reduce_op<r_or>(b, dst, src);
    run_reduce_op<r_xor>(b, dst, src);
    run_reduce_op<r_min>(b, dst, src);
    run_reduce_op<r_max>(b, dst, src);
#else
#if defined(PT_bcast_latency)
    constexpr int C = c_bcast;
    const char* job = "bcast_device";
#elif defined(PT_fcollect_latency)
    constexpr int C = c_fcollect;
    const char* job = "fcollect_device";
#else
    constexpr int C = c_alltoall;
    const char* job = "alltoall_device";
#endif
    run_scopes<C, 0, int32_t>(b, static_cast<int32_t*>(dst), static_cast<int32_t*>(src), job, "32-bit");
    run_scopes<C, 0, int64_t>(b, static_cast<int64_t*>(dst), static_cast<int64_t*>(src), job, "64-bit");
#endif
    nvshmem_free(buf);
  }
#endif
  cudaStreamDestroy(st);
  nvshmem_finalize();
  return 0;
}
