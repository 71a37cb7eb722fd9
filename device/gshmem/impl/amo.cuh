// Atomics: native NVLink atomics on the peer's memory through system-scope atomic_ref, relaxed
// order (OpenSHMEM AMOs order nothing by themselves; use fence/quiet).
#pragma once
#include "gshmem/impl/proxy.cuh"

namespace gshmem::dev {

template <typename T>
__device__ __forceinline__ sys_atomic<T> amo(const char *call, const T *dest, int pe) {
  char *p = peer(call, dest, sizeof(T), pe);
#if GSHMEM_DEVICE_CHECKS
  if (reinterpret_cast<uintptr_t>(p) % sizeof(T)) fail(call, "address not aligned for an atomic", dest, pe);
#endif
  return sys_atomic<T>(*reinterpret_cast<T *>(p));
}

constexpr auto relaxed = cuda::memory_order_relaxed;

// A PE reached through the proxy: the owner's side applies the atomic (trigger AMO op codes).
#define GSHMEM_PROXY_AMO(OP, A, B, FETCH) \
  if (proxied(pe)) return static_cast<T>(proxy_amo<T>(proxy_off(c, d, sizeof(T), pe), OP, A, B, pe, FETCH))

template <typename T> __device__ __forceinline__ T fetch(const char *c, const T *d, int pe) {
  GSHMEM_PROXY_AMO(GSHMEM_AMO_FETCH, T{}, T{}, true);
  return amo(c, d, pe).load(relaxed);
}
template <typename T> __device__ __forceinline__ void set(const char *c, T *d, T v, int pe) {
  if (proxied(pe)) {
    proxy_amo<T>(proxy_off(c, d, sizeof(T), pe), GSHMEM_AMO_SET, v, T{}, pe, false);
    return;
  }
  amo(c, d, pe).store(v, relaxed);
}
template <typename T> __device__ __forceinline__ T swap(const char *c, T *d, T v, int pe) {
  GSHMEM_PROXY_AMO(GSHMEM_AMO_SWAP, v, T{}, true);
  return amo(c, d, pe).exchange(v, relaxed);
}
template <typename T> __device__ __forceinline__ T cswap(const char *c, T *d, T cond, T v, int pe) {
  GSHMEM_PROXY_AMO(GSHMEM_AMO_CSWAP, cond, v, true);  // operands (expected, new value): device_host/ops.h
  amo(c, d, pe).compare_exchange_strong(cond, v, relaxed, relaxed);
  return cond;  // the old value either way
}
template <typename T> __device__ __forceinline__ T fadd(const char *c, T *d, T v, int pe) {
  GSHMEM_PROXY_AMO(GSHMEM_AMO_ADD, v, T{}, true);
  return amo(c, d, pe).fetch_add(v, relaxed);
}
template <typename T> __device__ __forceinline__ T fand(const char *c, T *d, T v, int pe) {
  GSHMEM_PROXY_AMO(GSHMEM_AMO_AND, v, T{}, true);
  return amo(c, d, pe).fetch_and(v, relaxed);
}
template <typename T> __device__ __forceinline__ T f_or(const char *c, T *d, T v, int pe) {
  GSHMEM_PROXY_AMO(GSHMEM_AMO_OR, v, T{}, true);
  return amo(c, d, pe).fetch_or(v, relaxed);
}
template <typename T> __device__ __forceinline__ T fxor(const char *c, T *d, T v, int pe) {
  GSHMEM_PROXY_AMO(GSHMEM_AMO_XOR, v, T{}, true);
  return amo(c, d, pe).fetch_xor(v, relaxed);
}
#undef GSHMEM_PROXY_AMO

}  // namespace gshmem::dev
