// Cooperation scopes, address translation and device-side checks; the macros every device header
// uses (GSHMEM_D: the linkage of an inline device API function).
// Every out-of-line (__noinline__) helper of these headers is static too: built with -rdc (as
// NVSHMEM programs' build lines are), a helper with external linkage is compiled to its own
// register count, and ptxas rejects a __launch_bounds__(1024) kernel that calls it (a 64-register
// budget); with internal linkage ptxas fits the helper to its callers, as without -rdc.
#pragma once
#include <cuda/atomic>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "gshmem/device_host/ops.h"
#include "gshmem/state.cuh"

#define GSHMEM_D static __device__ __forceinline__
#define GSHMEM_DEV gshmem::dev

namespace gshmem::dev {

struct Thread {
  static __device__ __forceinline__ int rank() { return 0; }
  static __device__ __forceinline__ int size() { return 1; }
  static __device__ __forceinline__ void sync() {}
  static __device__ __forceinline__ bool any(bool p) { return p; }
};
struct Warp {
  static __device__ __forceinline__ int rank() {
    unsigned lane;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    return static_cast<int>(lane);
  }
  static __device__ __forceinline__ int size() { return 32; }
  static __device__ __forceinline__ void sync() { __syncwarp(); }
  // Whether p holds on any lane, the same answer on every lane (a warp barrier).
  static __device__ __forceinline__ bool any(bool p) { return __any_sync(0xffffffffu, p); }
};
struct Block {
  static __device__ __forceinline__ int rank() {
    return static_cast<int>(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z));
  }
  static __device__ __forceinline__ int size() { return static_cast<int>(blockDim.x * blockDim.y * blockDim.z); }
  static __device__ __forceinline__ void sync() { __syncthreads(); }
  // Whether p holds on any thread, the same answer on every thread (a block barrier).
  static __device__ __forceinline__ bool any(bool p) { return __syncthreads_or(p) != 0; }
};

template <typename T>
using sys_atomic = cuda::atomic_ref<T, cuda::thread_scope_system>;

__device__ __forceinline__ const gshmem_device_state &st() { return gshmemi_dstate; }

// 8-byte accesses to global memory by name (LDG/STG/REDG, not generic accesses that resolve the
// state space first), for the control words the phase and the proxy poll and update.
__device__ __forceinline__ uint64_t ld_acquire_sys_u64(const uint64_t *p) {
  uint64_t v;
  asm volatile("ld.acquire.sys.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ uint64_t ld_relaxed_sys_u64(const uint64_t *p) {
  uint64_t v;
  asm volatile("ld.relaxed.sys.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ uint64_t ld_volatile_u64(const uint64_t *p) {
  uint64_t v;
  asm volatile("ld.volatile.global.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
  return v;
}
__device__ __forceinline__ void st_volatile_u64(uint64_t *p, uint64_t v) {
  asm volatile("st.volatile.global.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}
__device__ __forceinline__ void red_add_relaxed_sys_u64(uint64_t *p, uint64_t v) {
  asm volatile("red.relaxed.sys.global.add.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

// A release fence at system scope: with the relaxed system-scope stores or reductions after it, a
// release pattern (PTX memory model), as strong as st.release.sys for each. fence.release (PTX ISA
// 8.6, sm_90) is MEMBAR.SYS alone; fence.acq_rel adds an L1 invalidate (and a CTA membar) that a
// release does not need.
__device__ __forceinline__ void fence_release_sys() {
#if defined(__CUDA_ARCH__) && defined(__CUDACC_VER_MAJOR__) && __CUDA_ARCH__ >= 900 && \
    (__CUDACC_VER_MAJOR__ > 12 || (__CUDACC_VER_MAJOR__ == 12 && __CUDACC_VER_MINOR__ >= 8))
  asm volatile("fence.release.sys;" ::: "memory");
#else
  asm volatile("fence.acq_rel.sys;" ::: "memory");
#endif
}

// Base of pe's device segment (control block first, user heap after GSHMEM_DEV_CTRL_BYTES).
__device__ __forceinline__ char *window_segment(int pe) {
  return reinterpret_cast<char *>(st().window_base + static_cast<uint64_t>(pe) * st().window_stride);
}
__device__ __forceinline__ char *segment(int pe) {
  if (st().peer_table) return reinterpret_cast<char *>(reinterpret_cast<const uint64_t *>(st().peer_table)[pe]);
  return window_segment(pe);
}

// Device errors. A failing check writes this PE's error record (host memory registered for the
// device, which the device state points to; the host prints it: src/mem/device_errors.cpp) and
// traps. No printf: CUDA sets up its printf buffer in the launch of the first kernel that holds a
// printf call (3-4 ms inside that launch; measured: docs/perf/h200x2-perftest.md), and ptxas
// puts a MEMBAR.CTA in front of every fence of such a kernel. The first failing thread of the PE
// takes the claim word in its control block (0 -> 1), writes the record and sets the word to 2;
// the others wait for the 2 (at most a second), so that no trap cuts the record short. Block and
// thread are linear indices. Before shmem_init there is no record, and the trap alone ends the
// kernel.
static __device__ __noinline__ void write_error_record(int kind, const char *call, const char *what, long long value,
                                                       const void *addr, int pe) {
  gshmem_device_error *r = reinterpret_cast<gshmem_device_error *>(st().error_rec);
  if (!r) return;
  unsigned *claim = reinterpret_cast<unsigned *>(segment(st().my_pe) + GSHMEM_DEV_CTRL_ERROR_CLAIM);
  if (atomicCAS(claim, 0u, 1u) == 0u) {
    r->kind = kind;
    r->pe = st().my_pe;
    r->npes = st().npes;
    r->target_pe = pe;
    r->block = static_cast<int>(blockIdx.x + gridDim.x * (blockIdx.y + gridDim.y * blockIdx.z));
    r->thread = static_cast<int>(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z));
    r->value = value;
    r->addr = reinterpret_cast<uint64_t>(addr);
    r->heap_base = st().heap_base;
    r->heap_size = st().heap_size;
    int i = 0;
    for (; call && i < static_cast<int>(sizeof r->call) - 1 && call[i]; ++i) r->call[i] = call[i];
    r->call[i] = 0;
    for (i = 0; what && i < static_cast<int>(sizeof r->what) - 1 && what[i]; ++i) r->what[i] = what[i];
    r->what[i] = 0;
    __threadfence_system();
    *reinterpret_cast<volatile uint32_t *>(&r->ready) = 1;
    __threadfence_system();
    atomicExch(claim, 2u);
    return;
  }
  uint64_t t0, t;
  asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t0));
  do {
    asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
  } while (*reinterpret_cast<volatile unsigned *>(claim) != 2u && t - t0 < 1000000000ull);
}

[[noreturn]] static __device__ __noinline__ inline void fail(const char *call, const char *what, const void *addr,
                                                             int pe) {
  write_error_record(GSHMEM_DEV_ERROR_ADDR, call, what, 0, addr, pe);
  __trap();
  __builtin_unreachable();
}

// A bad argument value (v) of call.
[[noreturn]] static __device__ __noinline__ inline void fail_value(const char *call, const char *what, long long v) {
  write_error_record(GSHMEM_DEV_ERROR_VALUE, call, what, v, nullptr, -1);
  __trap();
  __builtin_unreachable();
}

// The device checks of a call that names a peer fail here: the state tells which one failed
// (alignment, when none of the others did).
[[noreturn]] static __device__ __noinline__ void fail_peer(const char *call, const void *addr, size_t bytes, int pe) {
  const uint64_t off = reinterpret_cast<uint64_t>(addr) - st().heap_base;
  if (!st().initialized) fail(call, "called before shmem_init", addr, pe);
  if (static_cast<unsigned>(pe) >= static_cast<unsigned>(st().npes)) fail(call, "pe out of range", addr, pe);
  if (off >= st().heap_size || bytes > st().heap_size - off)
    fail(call, "address is not in the symmetric heap", addr, pe);
  fail(call, "address not aligned for an atomic", addr, pe);
}

// Offset of addr in the user heap, with the device checks of every call that names a peer: pe in
// [0, npes), [addr, addr + bytes) inside the heap, and (align_mask) the address's alignment. They
// are one branch to fail_peer, because they sit inside users' loops: npes is 0 until shmem_init
// publishes the state (a __constant__ is zero), so the PE test also catches a call before
// shmem_init; with bytes a constant, bytes > heap_size and heap_size - bytes are uniform and leave
// the loop, so a p, g or atomic pays one 64-bit compare on top of the PE test.
__device__ __forceinline__ uint64_t heap_off(const char *call, const void *addr, size_t bytes, int pe,
                                             uint64_t align_mask = 0) {
  const uint64_t off = reinterpret_cast<uint64_t>(addr) - st().heap_base;
#if GSHMEM_DEVICE_CHECKS
  const uint64_t size = st().heap_size;
  const bool bad = (static_cast<unsigned>(pe) >= static_cast<unsigned>(st().npes)) | (bytes > size) |
                   (off > size - bytes) | ((off & align_mask) != 0);
  if (__builtin_expect(bad, 0)) fail_peer(call, addr, bytes, pe);
#else
  (void)call;
  (void)bytes;
  (void)pe;
  (void)align_mask;
#endif
  return off;
}

// pe's copy of the symmetric range [addr, addr + bytes).
__device__ __forceinline__ char *peer(const char *call, const void *addr, size_t bytes, int pe,
                                      uint64_t align_mask = 0) {
  const uint64_t off = heap_off(call, addr, bytes, pe, align_mask);
  return segment(pe) + GSHMEM_DEV_CTRL_BYTES + off;
}

// False in the common case, where every PE is reached by loads and stores through the VMM window
// (no proxy, no segment table; the host's republish_device_state sets the word): then a peer
// address is the local address plus (pe - my_pe) * window_mib MiB: two 32-bit constant-bank
// words (and pe) whose product the compiler computes once outside a loop, and no load. The calls a
// user repeats in a loop (p, g, atomics) test this once, as one uniform branch, and keep their
// other routes out of line: each further branch, table load or constant-bank word in such a loop
// adds to the time of every call (docs/perf/nvshmem-perftest.md: NVSHMEM's g_latency loop is
// served from L1, so its time is mostly the instruction path).
__device__ __forceinline__ bool routed() { return __builtin_expect(st().routed != 0, 0); }

// pe's copy of [addr, addr + bytes) when !routed(); addr itself when routed() (window_mib is 0
// then), which is the caller's own copy, mapped.
__device__ __forceinline__ char *window_peer(const char *call, const void *addr, size_t bytes, int pe,
                                             uint64_t align_mask = 0) {
  (void)heap_off(call, addr, bytes, pe, align_mask);  // the checks, when compiled in
  const int64_t mib = static_cast<int64_t>(pe - st().my_pe) * static_cast<int64_t>(st().window_mib);
  return const_cast<char *>(static_cast<const char *>(addr)) + mib * (int64_t{1} << 20);
}

template <typename T>
__device__ __forceinline__ bool compare(T v, int cmp, T x) {
  switch (cmp) {
    case SHMEM_CMP_EQ:
      return v == x;
    case SHMEM_CMP_NE:
      return v != x;
    case SHMEM_CMP_GT:
      return v > x;
    case SHMEM_CMP_GE:
      return v >= x;
    case SHMEM_CMP_LT:
      return v < x;
    default:
      return v <= x;  // SHMEM_CMP_LE (device checks reject other values)
  }
}

}  // namespace gshmem::dev
