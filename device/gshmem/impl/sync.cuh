// Signals and point-to-point waits (barriers and team collectives: impl/coll.cuh).
// A signal update after data: the scope syncs, then one thread does a release store (SET) or
// release fetch_add (ADD) of the 64-bit signal at system scope; a waiter's acquire load of the
// signal then makes the data visible. Waits spin on acquire loads of this PE's own memory.
#pragma once
#include "gshmem/impl/rma.cuh"

namespace gshmem::dev {

// order: release after data (put_signal); relaxed for a bare shmemx_signal_op, which like every
// AMO orders nothing by itself (shmem_fence before it orders earlier puts).
__device__ __forceinline__ void signal_op(const char *call, uint64_t *sig, uint64_t v, int op, int pe,
                                          cuda::memory_order order = cuda::memory_order_release) {
  if (proxied(pe)) return proxy_signal(proxy_off(call, sig, sizeof(uint64_t), pe), v, op, pe);
  sys_atomic<uint64_t> a(*reinterpret_cast<uint64_t *>(peer(call, sig, sizeof(uint64_t), pe)));
  if (op == SHMEM_SIGNAL_ADD) a.fetch_add(v, order);
  else a.store(v, order);  // SHMEM_SIGNAL_SET (device checks reject other values)
}

// A signal update with no data (OpenSHMEM 1.6 signal_add / signal_set, shmemx_signal_op): one
// thread of the scope, relaxed like any AMO.
template <typename S>
__device__ __forceinline__ void signal_scope(const char *call, uint64_t *sig, uint64_t v, int op, int pe) {
  S::sync();
  if (S::rank() == 0) signal_op(call, sig, v, op, pe, cuda::memory_order_relaxed);
  S::sync();
}

// PUT then SIGNAL through the proxy, which performs the signal after the data. Out of line, like
// proxy_put_scope: inline, the trigger writes of both pushes sat in the user's loop next to the copy
// and raised its register count.
template <typename S>
static __device__ __noinline__ void proxy_put_signal_scope(const char *call, void *dest, const void *src, size_t bytes,
                                                           uint64_t *sig, uint64_t v, int op, int pe, bool nbi) {
  S::sync();
  if (S::rank() == 0) {
    const uint64_t w =
        bytes ? proxy_put_bytes(proxy_off(call, dest, bytes, pe), static_cast<const char *>(src), bytes, pe) : 0;
    proxy_signal(proxy_off(call, sig, sizeof(uint64_t), pe), v, op, pe);
    if (!nbi && w) proxy_wait(w);
  }
  S::sync();
}

template <typename S>
__device__ __forceinline__ void put_signal(const char *call, void *dest, const void *src, size_t bytes, uint64_t *sig,
                                           uint64_t v, int op, int pe, bool nbi = false) {
  if (proxied(pe)) return proxy_put_signal_scope<S>(call, dest, src, bytes, sig, v, op, pe, nbi);
  if (bytes) copy<S>(peer(call, dest, bytes, pe), static_cast<const char *>(src), bytes);
  S::sync();
  // The signal is a release operation at system scope: it orders this thread's data stores, and
  // (cumulativity) the scope's other threads' stores ordered before it by the scope barrier,
  // before the signal value; no separate fence.sc.sys is needed.
  if (S::rank() == 0) signal_op(call, sig, v, op, pe);
  S::sync();
}

template <typename T>
__device__ __forceinline__ T load_acquire(const T *p) {
  return sys_atomic<T>(*const_cast<T *>(p)).load(cuda::memory_order_acquire);
}

// ivars are this PE's own symmetric objects.
template <typename T>
__device__ __forceinline__ const T *own(const char *call, const T *ivars, size_t n) {
#if GSHMEM_DEVICE_CHECKS
  (void)peer(call, ivars, n * sizeof(T), st().my_pe);
#else
  (void)call;
  (void)n;
#endif
  return ivars;
}

template <typename T>
__device__ __forceinline__ T wait_until(const char *call, const T *ivar, int cmp, T x) {
  own(call, ivar, 1);
  T v;
  while (!compare(v = load_acquire(ivar), cmp, x)) {
  }
  return v;
}

template <typename T>
__device__ __forceinline__ bool test_i(const T *v, size_t i, int cmp, T x, const T *xs) {
  return compare(load_acquire(v + i), cmp, xs ? xs[i] : x);
}
template <typename T>
__device__ __forceinline__ int test_all(const T *v, size_t n, const int *st_, int cmp, T x, const T *xs) {
  for (size_t i = 0; i < n; ++i)
    if (!(st_ && st_[i]) && !test_i(v, i, cmp, x, xs)) return 0;
  return 1;
}
// The search starts at an index taken from the SM clock, so with status NULL repeated calls
// return every satisfied index eventually (OpenSHMEM 1.5, shmem_test_any), not always the lowest.
template <typename T>
__device__ __forceinline__ size_t test_any(const T *v, size_t n, const int *st_, int cmp, T x, const T *xs) {
  if (n == 0) return SIZE_MAX;
  const size_t start = static_cast<size_t>(clock64()) % n;
  for (size_t j = 0; j < n; ++j) {
    const size_t i = start + j < n ? start + j : start + j - n;
    if (!(st_ && st_[i]) && test_i(v, i, cmp, x, xs)) return i;
  }
  return SIZE_MAX;
}
template <typename T>
__device__ __forceinline__ size_t test_some(const T *v, size_t n, size_t *idx, const int *st_, int cmp, T x,
                                            const T *xs) {
  size_t k = 0;
  for (size_t i = 0; i < n; ++i)
    if (!(st_ && st_[i]) && test_i(v, i, cmp, x, xs)) idx[k++] = i;
  return k;
}
__device__ __forceinline__ bool all_excluded(size_t n, const int *st_) {
  if (!st_) return n == 0;
  for (size_t i = 0; i < n; ++i)
    if (!st_[i]) return false;
  return true;
}
template <typename T>
__device__ __forceinline__ void wait_all(const char *c, const T *v, size_t n, const int *s, int cmp, T x, const T *xs) {
  own(c, v, n);
  while (!test_all(v, n, s, cmp, x, xs)) {
  }
}
template <typename T>
__device__ __forceinline__ size_t wait_any(const char *c, const T *v, size_t n, const int *s, int cmp, T x,
                                           const T *xs) {
  own(c, v, n);
  if (all_excluded(n, s)) return SIZE_MAX;
  size_t r;
  while ((r = test_any(v, n, s, cmp, x, xs)) == SIZE_MAX) {
  }
  return r;
}
template <typename T>
__device__ __forceinline__ size_t wait_some(const char *c, const T *v, size_t n, size_t *idx, const int *s, int cmp,
                                            T x, const T *xs) {
  own(c, v, n);
  if (all_excluded(n, s)) return 0;
  size_t k;
  while ((k = test_some(v, n, idx, s, cmp, x, xs)) == 0) {
  }
  return k;
}

}  // namespace gshmem::dev
