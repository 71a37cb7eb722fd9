// Cooperation scopes, address translation and device-side checks.
#pragma once
#include <cuda/atomic>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

namespace gshmem::dev {

struct Thread {
  static __device__ __forceinline__ int rank() { return 0; }
  static __device__ __forceinline__ int size() { return 1; }
  static __device__ __forceinline__ void sync() {}
};
struct Warp {
  static __device__ __forceinline__ int rank() {
    unsigned lane;
    asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
    return static_cast<int>(lane);
  }
  static __device__ __forceinline__ int size() { return 32; }
  static __device__ __forceinline__ void sync() { __syncwarp(); }
};
struct Block {
  static __device__ __forceinline__ int rank() {
    return static_cast<int>(threadIdx.x + blockDim.x * (threadIdx.y + blockDim.y * threadIdx.z));
  }
  static __device__ __forceinline__ int size() { return static_cast<int>(blockDim.x * blockDim.y * blockDim.z); }
  static __device__ __forceinline__ void sync() { __syncthreads(); }
};

template <typename T>
using sys_atomic = cuda::atomic_ref<T, cuda::thread_scope_system>;

__device__ __forceinline__ const gshmem_device_state &st() { return gshmemi_dstate; }

[[noreturn]] __device__ __noinline__ inline void fail(const char *call, const char *what, const void *addr, int pe) {
  printf("gshmem: %s: %s (addr %p, target pe %d, pe %d of %d, heap %p + %llu, block %d thread %d)\n", call, what, addr,
         pe, st().my_pe, st().npes, reinterpret_cast<void *>(st().heap_base),
         static_cast<unsigned long long>(st().heap_size), static_cast<int>(blockIdx.x), static_cast<int>(threadIdx.x));
  __trap();
  __builtin_unreachable();
}

// Base of pe's device segment (control block first, user heap after GSHMEM_DEV_CTRL_BYTES).
__device__ __forceinline__ char *segment(int pe) {
  if (st().peer_table) return reinterpret_cast<char *>(reinterpret_cast<const uint64_t *>(st().peer_table)[pe]);
  return reinterpret_cast<char *>(st().window_base + static_cast<uint64_t>(pe) * st().window_stride);
}

// pe's copy of the symmetric range [addr, addr + bytes).
__device__ __forceinline__ char *peer(const char *call, const void *addr, size_t bytes, int pe) {
  const uint64_t off = reinterpret_cast<uint64_t>(addr) - st().heap_base;
#if GSHMEM_DEVICE_CHECKS
  if (!st().initialized) fail(call, "called before shmem_init", addr, pe);
  if (static_cast<unsigned>(pe) >= static_cast<unsigned>(st().npes)) fail(call, "pe out of range", addr, pe);
  if (off >= st().heap_size || bytes > st().heap_size - off) fail(call, "address is not in the symmetric heap", addr, pe);
#else
  (void)call;
  (void)bytes;
#endif
  return segment(pe) + GSHMEM_DEV_CTRL_BYTES + off;
}

template <typename T>
__device__ __forceinline__ bool compare(T v, int cmp, T x) {
  switch (cmp) {
    case 0: return v == x;  // SHMEM_CMP_EQ
    case 1: return v != x;  // NE
    case 2: return v > x;   // GT
    case 3: return v >= x;  // GE
    case 4: return v < x;   // LT
    default: return v <= x; // LE
  }
}

}  // namespace gshmem::dev
