// shmem_sync_flavors: what a thread-scope team sync between two PEs spends its time on. Two PEs;
// thread 0 of one block on each PE runs -n back-to-back sync steps of one flavour (update the own
// flag word on the peer to the next phase number, by a store or an add of 1, then spin until the
// peer's word here reaches it), as NVSHMEM's sync_latency thread rows do, once per flavour:
//   relaxed      volatile counter load, relaxed system-scope flag store, relaxed polls: the shape
//                of NVSHMEM 3.4.5's thread-scope team sync (no fence);
//   gshmem       shmem_sync_all() itself (the library's phase, device/gshmem/impl/team.cuh);
//   rel_acq      the library's phase written out: counter, st.release.sys, ld.acquire.sys polls;
//   rel_rlx      release store, relaxed polls (what the acquire per poll costs);
//   rlx_acq      relaxed store, acquire polls (what the release costs);
//   gpu_acq      fence.acq_rel.gpu + relaxed system-scope store, acquire polls (gpu-scope membar);
//   rel_reg      rel_acq with the counter in a register (what the counter's L2 round trip costs);
//   rlx_reg      relaxed with the counter in a register;
//   fence_after  rel_acq plus fence.acq_rel.sys right after the flag store (the next step's
//                release then finds the flag store already acknowledged);
//   fence_first  fence.acq_rel.sys before the counter load, then a relaxed flag store;
//   red_rel      red.release.sys.add of 1 on the peer's word instead of a store;
//   frel_red     fence.release.sys (fence_release_sys), then red.relaxed.sys.add of 1; the
//                counter is loaded before the fence and used only by the polls (the library's
//                phase, since session 17, loads it after the update);
//   frel_call    frel_red in a kernel that also holds a printf call (an error path that never
//                runs): ptxas then puts a MEMBAR.CTA before the fence, as in the library's
//                kernels until their error reports stopped printing (session 20);
//   pull         each PE releases its phase number into its own word and polls the peer's word
//                over the link with ld.acquire.sys (no remote store, so the release waits for
//                local stores only).
// CUDA events around one launch of -n steps after a warm-up launch of -w (-t and -e are not
// used); a host barrier before each launch; CSV rows "impl,suite,npes,size,metric,value,unit"
// (size = -n, value = us per step).
// Not a user benchmark: the measurements behind the phase in device/gshmem/impl/team.cuh
// (docs/perf/definitions.md).
#include <cuda_runtime.h>
#include <shmem.h>

#include "flavors_main.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>

enum Flavor { relaxed, lib, rel_acq, rel_rlx, rlx_acq, gpu_acq, rel_reg, rlx_reg, fence_after, fence_first, red_rel, pull, frel_red, frel_call, kFlavors };
static const char* kFlavor[] = {"relaxed", "gshmem", "rel_acq", "rel_rlx", "rlx_acq", "gpu_acq",
                                "rel_reg", "rlx_reg", "fence_after", "fence_first", "red_rel", "pull", "frel_red", "frel_call"};
static_assert(sizeof(kFlavor) / sizeof(kFlavor[0]) == kFlavors, "one name per flavour");

using gshmem::dev::ld_acquire_sys_u64;
using gshmem::dev::ld_relaxed_sys_u64;
__device__ __forceinline__ void st_relaxed(uint64_t* p, uint64_t v) {
  asm volatile("st.relaxed.sys.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
__device__ __forceinline__ void st_release(uint64_t* p, uint64_t v) {
  asm volatile("st.release.sys.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

__device__ __noinline__ void not_reached(int i) {
  printf("shmem_sync_flavors: phase 0 at step %d\n", i);
  __trap();
}

// Words per flavour (one 128-byte line each): [0] the flag the peer writes (or, for pull, the
// own phase word the peer reads), [16] the counter.
template <int F>
__global__ void sync_steps(uint64_t* own, uint64_t* peer, int iters) {
  if (threadIdx.x != 0) return;
  volatile uint64_t* cnt = own + 16;
  uint64_t reg = *cnt;
  for (int i = 0; i < iters; ++i) {
    if constexpr (F == lib) {
      shmem_sync_all();
      continue;
    }
    if constexpr (F == fence_first) asm volatile("fence.acq_rel.sys;" ::: "memory");
    const uint64_t c = (F == rel_reg || F == rlx_reg) ? ++reg : *cnt + 1;
    if constexpr (F == relaxed || F == rlx_acq || F == rlx_reg) st_relaxed(peer, c);
    else if constexpr (F == gpu_acq) {
      asm volatile("fence.acq_rel.gpu;" ::: "memory");
      st_relaxed(peer, c);
    } else if constexpr (F == fence_first) {
      st_relaxed(peer, c);
    } else if constexpr (F == red_rel) {
      asm volatile("red.release.sys.global.add.u64 [%0], %1;" ::"l"(peer), "l"(1ull) : "memory");
    } else if constexpr (F == frel_red || F == frel_call) {
      if (F == frel_call && c == 0) not_reached(i);
      gshmem::dev::fence_release_sys();
      asm volatile("red.relaxed.sys.global.add.u64 [%0], %1;" ::"l"(peer), "l"(1ull) : "memory");
    } else if constexpr (F == pull) {
      st_release(own, c);
    } else {
      st_release(peer, c);
    }
    if constexpr (F == fence_after) asm volatile("fence.acq_rel.sys;" ::: "memory");
    if constexpr (F == relaxed || F == rel_rlx || F == rlx_reg) {
      while (ld_relaxed_sys_u64(own) < c) {
      }
    } else if constexpr (F == pull) {
      while (ld_acquire_sys_u64(peer) < c) {
      }
    } else {
      while (ld_acquire_sys_u64(own) < c) {
      }
    }
    if constexpr (F == rel_reg || F == rlx_reg) continue;
    *cnt = c;
  }
  if constexpr (F == rel_reg || F == rlx_reg) *cnt = reg;
}

using L = void (*)(uint64_t*, uint64_t*, int);
template <int F>
static void launch(uint64_t* own, uint64_t* peer, int it) { sync_steps<F><<<1, 32>>>(own, peer, it); }

int main(int argc, char** argv) {
  FlavorArgs opt{1000, 20, 32, 0};
  const int me = flavors_start("shmem_sync_flavors", argc, argv, &opt);
  if (me < 0) return 1;
  const int iters = opt.iters, warmup = opt.warmup;
  const size_t words = 32 * kFlavors;
  uint64_t* sym = static_cast<uint64_t*>(shmem_malloc(words * sizeof(uint64_t)));
  cudaMemset(sym, 0, words * sizeof(uint64_t));
  cudaDeviceSynchronize();
  shmem_barrier_all();
  uint64_t* remote = static_cast<uint64_t*>(shmem_ptr(sym, 1 - me));
  if (!remote) {
    fprintf(stderr, "shmem_sync_flavors: shmem_ptr gave no peer address (PE %d)\n", me);
    shmem_global_exit(1);
  }
  const L ks[] = {launch<0>, launch<1>, launch<2>, launch<3>, launch<4>, launch<5>,
                  launch<6>, launch<7>, launch<8>, launch<9>, launch<10>, launch<11>, launch<12>, launch<13>};
  static_assert(sizeof(ks) / sizeof(ks[0]) == kFlavors, "one kernel per flavour");
  if (me == 0) printf("impl,suite,npes,size,metric,value,unit\n");
  for (int f = 0; f < kFlavors; ++f) {
    uint64_t* own = sym + 32 * f;
    uint64_t* peer = remote + 32 * f;
    shmem_barrier_all();
    ks[f](own, peer, warmup);
    cudaDeviceSynchronize();
    shmem_barrier_all();
    const float us = flavors_time_us("shmem_sync_flavors", me, iters, [&] { ks[f](own, peer, iters); });
    if (me == 0) printf("gshmem,sync_flavors,2,%d,%s,%.4f,us\n", iters, kFlavor[f], us);
  }
  shmem_barrier_all();
  shmem_free(sym);
  shmem_finalize();
  return 0;
}
