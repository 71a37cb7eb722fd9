// shmem_gp_flavors: which load/store instruction a p or g to a peer's heap should be, and what
// each part of the library's p and g costs. Two PEs; PE 0 runs NVSHMEM's shmem_g_latency and
// shmem_p_latency loop shapes (one block of -t threads, thread j moves elements j, j+T, ... of the
// first size/4 ints of the peer's buffer, the same addresses every iteration; p: syncthreads,
// thread 0 fence.sc.sys, syncthreads; g: syncthreads), once per access flavour: raw accesses on
// the peer address that shmem_ptr gives; gshmem's own shmem_int_g / shmem_int_p (and once more
// with p's rounds closed by shmem_quiet); peer()'s translation (segment base + control block +
// heap offset) with and without a weak access; window_peer's translation alone (gshmem_window:
// the fast path's address arithmetic, no routed test) and with the routed test in front of a
// never-taken straight-line callee (gshmem_routed_leaf: the test without the out-of-line route's
// loops); and the raw access with one change each in how the round's branches are laid out. CUDA
// events around one launch of -n iterations after a warm-up launch; CSV rows
// "impl,suite,npes,size,metric,value,unit" (metric = shape_flavour).
// Not a user benchmark: the measurements behind the choices in device/gshmem/impl/rma.cuh and
// core.cuh (docs/perf/definitions.md, docs/perf/nvshmem-perftest.md).
#include <cuda_runtime.h>
#include <shmem.h>

#include "flavors_main.h"

#include <array>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <utility>

// lib_weak: peer()'s address translation with a weak access; lib_quiet: gshmem's p/g with p's
// round closed by shmem_quiet (as shmem_p_latency does) instead of __threadfence_system;
// raw_quiet: the weak access on shmem_ptr's address with shmem_quiet closing p's round (the
// quiet's cost alone); raw_quiet_post: the same with the quiet's earlier form (the fence, then the
// proxy test and the proxied wait inline after it); raw_call: the weak access, the round closed by
// the bare fence with a never-taken call of an out-of-line function beside it in thread 0's branch
// (a straight-line callee: ptxas keeps BSSY/BSYNC); raw_call_loop: the same with a callee that
// holds a loop (ptxas then reconverges with WARPSYNC.ALL before the barrier, as in the library's
// quiet); raw_loop_first: the never-taken loop callee beside each access instead (WARPSYNC.ALL
// before the first barrier, as in the library's p); raw_generic: the weak access as a generic
// st/ld (NVSHMEM's p is a generic ST); raw_state: the weak access with one word of gshmem's device
// state (the routed word) added to its index. ptxas reads that constant-bank word once per round
// of the loop (its SASS), not once per access; the flavour runs only where the word is 0 (every
// peer mapped, no proxy), so the access stays on the element.
enum Flavor {
  weak_cxx,
  volatile_cxx,
  relaxed_sys,
  weak_asm,
  cg_asm,
  lib,
  lib_noproxy,
  lib_weak,
  lib_quiet,
  raw_quiet,
  raw_state,
  raw_quiet_post,
  raw_call,
  raw_generic,
  raw_call_loop,
  raw_loop_first,
  lib_window,
  lib_routed_leaf,
  kFlavors
};
static const char* kFlavor[] = {"weak_cxx",
                                "volatile",
                                "relaxed_sys",
                                "weak_asm",
                                "cg_asm",
                                "gshmem",
                                "gshmem_noproxycheck",
                                "gshmem_addr_weak",
                                "gshmem_quiet",
                                "raw_quiet",
                                "raw_state",
                                "raw_quiet_post",
                                "raw_call",
                                "raw_generic",
                                "raw_call_loop",
                                "raw_loop_first",
                                "gshmem_window",
                                "gshmem_routed_leaf"};
static_assert(sizeof(kFlavor) / sizeof(kFlavor[0]) == kFlavors, "one name per flavour");

// The callees of raw_call, raw_call_loop and raw_loop_first: never run (n is never SIZE_MAX, no
// peer address is 1), only present.
static __device__ __noinline__ void never_called(int* buf) { buf[0] = clock(); }
static __device__ __noinline__ int never_leaf(const int* buf) { return buf[0] + static_cast<int>(clock()); }
static __device__ __noinline__ int never_loop(int* buf) {
  while (*reinterpret_cast<volatile int*>(buf) != 0) {
  }
  return 0;
}

// The flavours whose access is the plain weak one (they differ elsewhere in the round).
template <int F>
constexpr bool plain_access =
    F == weak_cxx || F == raw_quiet || F == raw_quiet_post || F == raw_call || F == raw_call_loop;

template <int F>
__device__ __forceinline__ int load(const int* p, const int* sym) {
  int v = 0;
  if constexpr (plain_access<F>) v = *p;
  else if constexpr (F == raw_loop_first)
    v = reinterpret_cast<uintptr_t>(p) == 1 ? never_loop(const_cast<int*>(p)) : *p;
  else if constexpr (F == raw_generic) asm volatile("ld.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  else if constexpr (F == raw_state) v = p[gshmem::dev::st().routed];
  else if constexpr (F == volatile_cxx) v = *reinterpret_cast<const volatile int*>(p);
  else if constexpr (F == relaxed_sys)
    asm volatile("ld.relaxed.sys.global.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  else if constexpr (F == weak_asm) asm volatile("ld.global.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  else if constexpr (F == cg_asm) asm volatile("ld.global.cg.b32 %0, [%1];" : "=r"(v) : "l"(p) : "memory");
  else if constexpr (F == lib || F == lib_quiet) v = shmem_int_g(sym, 1);
  else if constexpr (F == lib_weak) v = *reinterpret_cast<const int*>(gshmem::dev::peer("g", sym, 4, 1));
  else if constexpr (F == lib_window)
    v = gshmem::dev::load_weak(reinterpret_cast<const int*>(gshmem::dev::window_peer("g", sym, 4, 1)));
  else if constexpr (F == lib_routed_leaf)
    v = gshmem::dev::routed()
            ? never_leaf(sym)
            : gshmem::dev::load_weak(reinterpret_cast<const int*>(gshmem::dev::window_peer("g", sym, 4, 1)));
  else v = gshmem::dev::load_weak(reinterpret_cast<const int*>(gshmem::dev::peer("g", sym, 4, 1)));
  return v;
}
template <int F>
__device__ __forceinline__ void store(int* p, int* sym, int v) {
  if constexpr (plain_access<F>) *p = v;
  else if constexpr (F == raw_loop_first) {
    if (reinterpret_cast<uintptr_t>(p) == 1) never_loop(p);
    *p = v;
  } else if constexpr (F == raw_generic) asm volatile("st.b32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
  else if constexpr (F == raw_state) p[gshmem::dev::st().routed] = v;
  else if constexpr (F == volatile_cxx) *reinterpret_cast<volatile int*>(p) = v;
  else if constexpr (F == relaxed_sys) asm volatile("st.relaxed.sys.global.b32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
  else if constexpr (F == weak_asm) asm volatile("st.global.b32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
  else if constexpr (F == cg_asm) asm volatile("st.global.cg.b32 [%0], %1;" ::"l"(p), "r"(v) : "memory");
  else if constexpr (F == lib || F == lib_quiet) shmem_int_p(sym, v, 1);
  else if constexpr (F == lib_weak) *reinterpret_cast<int*>(gshmem::dev::peer("p", sym, 4, 1)) = v;
  else if constexpr (F == lib_window) *reinterpret_cast<volatile int*>(gshmem::dev::window_peer("p", sym, 4, 1)) = v;
  else if constexpr (F == lib_routed_leaf) {
    if (gshmem::dev::routed()) never_called(sym);
    else *reinterpret_cast<volatile int*>(gshmem::dev::window_peer("p", sym, 4, 1)) = v;
  } else *reinterpret_cast<volatile int*>(gshmem::dev::peer("p", sym, 4, 1)) = v;
}

template <int F>
__global__ void __launch_bounds__(1024) g_shape(int* buf, const int* remote, size_t n, int iters) {
  for (int i = 0; i < iters; ++i) {
    for (size_t j = threadIdx.x; j < n; j += blockDim.x) buf[j] = load<F>(remote + j, buf + j);
    __syncthreads();
  }
}
template <int F>
__global__ void __launch_bounds__(1024) p_shape(int* buf, int* remote, size_t n, int iters) {
  for (int i = 0; i < iters; ++i) {
    for (size_t j = threadIdx.x; j < n; j += blockDim.x) store<F>(remote + j, buf + j, buf[j]);
    __syncthreads();
    if (threadIdx.x == 0) {
      if constexpr (F == lib_quiet || F == raw_quiet) shmem_quiet();
      else if constexpr (F == raw_call) {
        if (n == ~size_t(0)) never_called(buf);
        __threadfence_system();
      } else if constexpr (F == raw_call_loop) {
        if (n == ~size_t(0)) never_loop(buf);
        __threadfence_system();
      } else if constexpr (F == raw_quiet_post) {
        __threadfence_system();
        gshmem::dev::proxy_quiet();
      } else __threadfence_system();
    }
    __syncthreads();
  }
}

template <int F>
static void gk(int* b, int* r, size_t n, int it, int t) {
  g_shape<F><<<1, t>>>(b, r, n, it);
}
template <int F>
static void pk(int* b, int* r, size_t n, int it, int t) {
  p_shape<F><<<1, t>>>(b, r, n, it);
}
using L = void (*)(int*, int*, size_t, int, int);
// One launcher per flavour and shape, indexed by the flavour.
template <size_t... F>
constexpr std::array<L, kFlavors> g_kernels(std::index_sequence<F...>) {
  return {gk<F>...};
}
template <size_t... F>
constexpr std::array<L, kFlavors> p_kernels(std::index_sequence<F...>) {
  return {pk<F>...};
}

int main(int argc, char** argv) {
  FlavorArgs a{200, 20, 512, 64 << 10};
  const int me = flavors_start("shmem_gp_flavors", argc, argv, &a);
  if (me < 0) return 1;
  const int iters = a.iters, warmup = a.warmup, threads = a.threads;
  const size_t max = a.max;
  int* buf = static_cast<int*>(shmem_malloc(max));
  cudaMemset(buf, 0, max);
  cudaDeviceSynchronize();
  shmem_barrier_all();
  if (me == 0) {
    int* remote = static_cast<int*>(shmem_ptr(buf, 1));
    if (!remote) {
      fprintf(stderr, "shmem_gp_flavors: shmem_ptr gave no peer address\n");
      shmem_global_exit(1);
    }
    printf("impl,suite,npes,size,metric,value,unit\n");
    const auto gl = g_kernels(std::make_index_sequence<kFlavors>{});
    const auto pl = p_kernels(std::make_index_sequence<kFlavors>{});
    gshmem_device_state ds{};
    const bool state_zero = cudaMemcpyFromSymbol(&ds, gshmemi_dstate, sizeof ds) == cudaSuccess && ds.routed == 0;
    if (!state_zero) fprintf(stderr, "shmem_gp_flavors: the device state's routed word is not 0: raw_state skipped\n");
    for (int shape = 0; shape < 2; ++shape)
      for (int f = 0; f < kFlavors; ++f)
        for (size_t size = 4; size <= max && (f != raw_state || state_zero); size *= 4) {
          const L k = shape ? pl[f] : gl[f];
          k(buf, remote, size / 4, warmup, threads);
          const float us =
              flavors_time_us("shmem_gp_flavors", me, iters, [&] { k(buf, remote, size / 4, iters, threads); });
          printf("gshmem,gp_flavors,2,%zu,%s_%s,%.4f,us\n", size, shape ? "p" : "g", kFlavor[f], us);
        }
  }
  shmem_barrier_all();
  shmem_free(buf);
  shmem_finalize();
  return 0;
}
