// The device side of the proxy path: operations on a PE that this PE does not reach by loads and
// stores (another node, or every peer with GSHMEM_FORCE_PROXY) become triggers in the proxy
// FIFO (format: gshmem/device_host/trigger.h; host side: src/proxy/gpu_proxy.cpp).
//
// Push: one atomic add on head (GPU memory) reserves the slots; a producer that finds the ring
// full waits for the proxy's completion count (mirrored in GPU memory); it writes
// every slot but the first trigger's word 0 with plain stores, then that word with a release
// store at system scope, which makes the rest visible to the proxy first (the proxy takes slots in
// index order only). Completion: the proxy copies how many slots have completed into GPU memory;
// a quiet waits until that count reaches head as read at the quiet (every operation this thread
// pushed before).
// Results (g, fetching atomics, small gets): the slot's result cell in GPU memory, taken before
// the push and released after the value is read.
#pragma once
#include "gshmem/device_host/trigger.h"
#include "gshmem/impl/core.cuh"

namespace gshmem::dev {

__device__ __forceinline__ bool proxy_on() { return st().proxy_slots != 0; }

// The one dispatch branch: true when pe is reached through the proxy. The route table is written
// once, in shmem_init, before any kernel can run, so a cached read-only load serves it.
__device__ __forceinline__ bool proxied(int pe) {
  return st().proxy_slots && __ldg(reinterpret_cast<const uint8_t *>(st().proxy_peers) + pe);
}

__device__ __forceinline__ gshmem_proxy_dev_words *proxy_dev() {
  return reinterpret_cast<gshmem_proxy_dev_words *>(st().proxy_dev);
}
__device__ __forceinline__ gshmem_proxy_host_words *proxy_host() {
  return reinterpret_cast<gshmem_proxy_host_words *>(st().proxy_host);
}
// Acquire loads of the proxy's words (GPU memory, or pinned host memory mapped for the device:
// global either way).
__device__ __forceinline__ uint64_t load_sys(const uint64_t *p) { return ld_acquire_sys_u64(p); }

// The proxy's completion count as copied into GPU memory (never read over PCIe).
__device__ __forceinline__ uint64_t proxy_completed() { return load_sys(&proxy_dev()->completed); }

__device__ __forceinline__ uint64_t proxy_reserve(uint64_t n) {
  gshmem_proxy_dev_words *d = proxy_dev();
  const uint64_t cap = 1ull << st().proxy_log2;
  const uint64_t idx = atomicAdd(reinterpret_cast<unsigned long long *>(&d->head), n);
  // Full: wait until the slots cap before ours have completed (completed <= the proxy's tail, so
  // this is the same condition, a little stricter).
  for (unsigned ns = 64; idx + n - proxy_completed() > cap; ns = ns < 4096 ? 2 * ns : ns) __nanosleep(ns);
  return idx;
}

__device__ __forceinline__ void store16(gshmem_trigger *s, uint64_t w0, uint64_t w1) {
  asm volatile("st.volatile.global.v2.u64 [%0], {%1, %2};" ::"l"(s), "l"(w0), "l"(w1) : "memory");
}

// Writes n slots (triggers and their extensions, in order) at reserved index idx; slot 0 must be
// a trigger. Its word 0 goes last, with release order.
__device__ __forceinline__ void proxy_write(uint64_t idx, const gshmem_trigger *slots, int n) {
  gshmem_trigger *ring = reinterpret_cast<gshmem_trigger *>(st().proxy_slots);
  const uint64_t mask = (1ull << st().proxy_log2) - 1;
  for (int i = 1; i < n; ++i) store16(ring + ((idx + i) & mask), slots[i].w0, slots[i].w1);
  gshmem_trigger *first = ring + (idx & mask);
  *reinterpret_cast<volatile uint64_t *>(&first->w1) = slots[0].w1;
  sys_atomic<uint64_t>(first->w0).store(slots[0].w0, cuda::memory_order_release);
}

// Pushes n slots; returns the index after them (what a quiet for them waits for).
__device__ __forceinline__ uint64_t proxy_push(const gshmem_trigger *slots, int n) {
  const uint64_t idx = proxy_reserve(n);
  proxy_write(idx, slots, n);
  return idx + n;
}

__device__ __forceinline__ void proxy_wait(uint64_t upto) {
  for (unsigned ns = 32; proxy_completed() < upto; ns = ns < 1024 ? 2 * ns : ns) __nanosleep(ns);
}

// Waits until every operation pushed before this call (by any thread of this PE) has completed.
__device__ __forceinline__ void proxy_wait_pushed() { proxy_wait(ld_volatile_u64(&proxy_dev()->head)); }
__device__ __forceinline__ void proxy_quiet() {
  if (proxy_on()) proxy_wait_pushed();
}

// Offset of [addr, addr + bytes) in pe's device segment (control block first), with the same
// checks as peer().
__device__ __forceinline__ uint64_t proxy_off(const char *call, const void *addr, size_t bytes, int pe,
                                              uint64_t align_mask = 0) {
  (void)peer(call, addr, bytes, pe, align_mask);
  return reinterpret_cast<uint64_t>(addr) - st().heap_base + GSHMEM_DEV_CTRL_BYTES;
}

__device__ __forceinline__ void load_bytes(uint64_t *w, const void *src, size_t n) {
  w[0] = w[1] = 0;
  const unsigned char *s = static_cast<const unsigned char *>(src);
  unsigned char *d = reinterpret_cast<unsigned char *>(w);
  for (size_t i = 0; i < n; ++i) d[i] = s[i];
}

// A put of at most 16 bytes: the data travels in the trigger, so the source is free on return.
__device__ __forceinline__ uint64_t proxy_put_inline(uint64_t off, const void *src, size_t n, int pe) {
  uint64_t w[2];
  load_bytes(w, src, n);
  gshmem_trigger s[2];
  gshmem_trigger_put_inline(pe, GSHMEM_TRIG_SEG_DEVICE, off, w[0], w[1], n, &s[0], &s[1]);
  return proxy_push(s, 2);
}

// Puts bytes from src (global memory, which the proxy reads by address) to off on pe: in the
// trigger up to GSHMEM_TRIG_INLINE_MAX bytes. Returns the index to wait for before src may be
// reused (0: reusable already).
__device__ __forceinline__ uint64_t proxy_put_global(uint64_t off, const char *src, size_t n, int pe) {
  if (n <= GSHMEM_TRIG_INLINE_MAX) {
    proxy_put_inline(off, src, n, pe);
    return 0;
  }
  gshmem_trigger s[2];
  gshmem_trigger_put(pe, GSHMEM_TRIG_SEG_DEVICE, off, reinterpret_cast<uint64_t>(src), n, &s[0], &s[1]);
  return proxy_push(s, 2);
}

// Puts bytes from src (this PE's memory, any state space) to off on pe; returns as
// proxy_put_global.
__device__ __forceinline__ uint64_t proxy_put_bytes(uint64_t off, const char *src, size_t n, int pe) {
  // A copy engine or NIC cannot read registers, local or shared memory: those go in triggers.
  if (n > GSHMEM_TRIG_INLINE_MAX && !__isGlobal(src)) {
    for (size_t i = 0; i < n; i += GSHMEM_TRIG_INLINE_MAX)
      proxy_put_inline(off + i, src + i, n - i < GSHMEM_TRIG_INLINE_MAX ? n - i : GSHMEM_TRIG_INLINE_MAX, pe);
    return 0;
  }
  return proxy_put_global(off, src, n, pe);
}

__device__ __forceinline__ gshmem_proxy_result *proxy_result(uint64_t idx) {
  return reinterpret_cast<gshmem_proxy_result *>(st().proxy_results) + (idx & ((1ull << st().proxy_log2) - 1));
}
__device__ __forceinline__ void result_take(gshmem_proxy_result *r) {
  while (atomicCAS(&r->busy, 0u, 1u) != 0u) __nanosleep(100);
  *reinterpret_cast<volatile uint64_t *>(&r->value) = 0;
}
__device__ __forceinline__ uint64_t result_read(gshmem_proxy_result *r) {
  const uint64_t v = sys_atomic<uint64_t>(r->value).load(cuda::memory_order_relaxed);
  atomicExch(&r->busy, 0u);
  return v;
}

// Gets at most 8 bytes through the slot's result cell; returns them in the low bytes.
__device__ __forceinline__ uint64_t proxy_get_small(uint64_t off, size_t n, int pe) {
  const uint64_t idx = proxy_reserve(2);
  gshmem_proxy_result *r = proxy_result(idx);
  result_take(r);
  gshmem_trigger s[2];
  gshmem_trigger_get(pe, GSHMEM_TRIG_SEG_DEVICE, off, reinterpret_cast<uint64_t>(&r->value), n, &s[0], &s[1]);
  proxy_write(idx, s, 2);
  proxy_wait(idx + 2);
  return result_read(r);
}

__device__ __forceinline__ void proxy_get_bytes(char *dst, uint64_t off, size_t n, int pe) {
  if (n > 8 && __isGlobal(dst)) {
    gshmem_trigger s[2];
    gshmem_trigger_get(pe, GSHMEM_TRIG_SEG_DEVICE, off, reinterpret_cast<uint64_t>(dst), n, &s[0], &s[1]);
    proxy_wait(proxy_push(s, 2));
    return;
  }
  for (size_t i = 0; i < n; i += 8) {
    const size_t k = n - i < 8 ? n - i : 8;
    const uint64_t v = proxy_get_small(off + i, k, pe);
    for (size_t b = 0; b < k; ++b) dst[i + b] = static_cast<char>(v >> (8 * b));
  }
}

// Orders this PE's proxied operations before the push against those after it, per target PE.
__device__ __forceinline__ void proxy_fence() {
  const gshmem_trigger t = gshmem_trigger_fence();
  proxy_push(&t, 1);
}

__device__ __forceinline__ void proxy_signal(uint64_t off, uint64_t v, int op, int pe) {
  gshmem_trigger s[2];
  gshmem_trigger_signal(pe, GSHMEM_TRIG_SEG_DEVICE, off, v, static_cast<uint32_t>(op), &s[0], &s[1]);
  proxy_push(s, 2);
}

// An atomic on pe through the proxy; fetch: wait for and return the old value.
template <typename T>
__device__ __forceinline__ T proxy_amo(uint64_t off, gshmem_amo_op op, T a, T b, int pe, bool fetch) {
  static_assert(sizeof(T) == 4 || sizeof(T) == 8, "proxied atomics are 4 or 8 bytes");
  uint64_t ua = 0, ub = 0;
  memcpy(&ua, &a, sizeof(T));
  memcpy(&ub, &b, sizeof(T));
  gshmem_trigger s[3];
  if (!fetch) {
    gshmem_trigger_amo(pe, GSHMEM_TRIG_SEG_DEVICE, off, op, sizeof(T), ua, ub, 0, &s[0], &s[1]);
    proxy_push(s, 3);
    return T{};
  }
  const uint64_t idx = proxy_reserve(3);
  gshmem_proxy_result *r = proxy_result(idx);
  result_take(r);
  gshmem_trigger_amo(pe, GSHMEM_TRIG_SEG_DEVICE, off, op, sizeof(T), ua, ub, reinterpret_cast<uint64_t>(&r->value),
                     &s[0], &s[1]);
  proxy_write(idx, s, 3);
  proxy_wait(idx + 3);
  const uint64_t v = result_read(r);
  T out;
  memcpy(&out, &v, sizeof(T));
  return out;
}

}  // namespace gshmem::dev
