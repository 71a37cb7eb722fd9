// put/get/p/g/iput/iget at thread, warp and block scope. A scope's threads split the bytes; when
// both ends are 16-byte aligned the copy moves 16 bytes per thread per step.
// Ordering contract (docs/memory-model.md): stores to peers are weak st.global over NVLink; they
// are ordered by fence/quiet (fence.sc.sys). A PE reached through the proxy (proxied(pe): the one
// dispatch branch) gets triggers instead (impl/proxy.cuh): one thread of the scope pushes them
// after a scope barrier; those are ordered per target PE by the FIFO and completed by quiet. Blocking and nbi calls
// differ only in that a blocking warp/block call ends with a scope barrier, so any thread may reuse the source
// afterwards.
#pragma once
#include <type_traits>

#include "gshmem/impl/proxy.cuh"

namespace gshmem::dev {

// Copies bytes [done, done + k * sizeof(W)) of [0, n) as W words (k as large as fits); returns
// the new done. dst + done and src + done must be W-aligned.
template <typename W, typename S>
__device__ __forceinline__ size_t copy_words(char *dst, const char *src, size_t done, size_t n) {
  const size_t nw = (n - done) / sizeof(W);
  const W *s = reinterpret_cast<const W *>(src + done);
  W *d = reinterpret_cast<W *>(dst + done);
  for (size_t i = S::rank(); i < nw; i += S::size()) d[i] = s[i];
  return done + nw * sizeof(W);
}

// Words i, i + step, ... (K of them, those below n) of s to d, every load before the first store
// (the compiler may not move a load above a store that may alias it). Nested, so that a word is
// stored only on the path that loaded it: with the loads and the stores in two loops under the
// same tests, a word that is not loaded is an undefined register on the store's path, and ptxas
// keeps such a register live from the kernel's entry, around the caller's loop (16 registers for
// K = 4 16-byte words).
template <typename W, unsigned K, typename I>
__device__ __forceinline__ void copy_batch(W *d, const W *s, I i, I step, I n) {
  if constexpr (K > 0) {
    if (i < n) {
      const W v = s[i];
      copy_batch<W, K - 1>(d, s, i + step, step, n);
      d[i] = v;
    }
  }
}

// The latency cases (a put or get of 8-64 bytes by one thread, up to 2 KiB by a warp, up to
// 64 KiB by a block of 1024): n is a multiple of the word size, both ends are aligned to it, and
// the scope has a thread for every K words. Each thread issues its K loads before its stores, with
// no head, loop or tail logic on the path. A warp or block tries one word per thread first: the
// predicated four-word form is slower for the small sizes (measured: docs/perf/h200.md).
template <typename W, unsigned K, typename S>
__device__ __forceinline__ bool copy_few_words(char *dst, const char *src, size_t n, uintptr_t align) {
  if (((align | n) & (sizeof(W) - 1)) != 0 || n > K * sizeof(W) * static_cast<size_t>(S::size())) return false;
  const unsigned r = static_cast<unsigned>(S::rank()), w = static_cast<unsigned>(S::size());
  const unsigned nw = static_cast<unsigned>(n / sizeof(W));
  copy_batch<W, K>(reinterpret_cast<W *>(dst), reinterpret_cast<const W *>(src), r, w, nw);
  return true;
}

// Any other transfer: the misaligned head bytewise, the bulk as 16-byte words with four loads in
// flight per thread, the tail in the widest words both ends allow. kPlain: the bulk as one
// 16-byte word per thread per step through __restrict__ pointers, the schedule left to the
// compiler; faster for a block's put of a local source (measured: docs/perf/h200x2-perftest.md),
// while gets, whose loads cross NVLink, need the loads in flight.
template <typename S, bool kPlain = false>
__device__ __forceinline__ void copy_bulk(char *dst, const char *src, size_t n) {
  const int r = S::rank(), w = S::size();
  // When both ends share their alignment modulo 16, copy the misaligned head bytewise so the bulk
  // takes the 16-byte path (an odd offset or size must not drop a large copy to bytes).
  const uintptr_t head = (16 - (reinterpret_cast<uintptr_t>(dst) & 15)) & 15;
  if (head && ((reinterpret_cast<uintptr_t>(dst) ^ reinterpret_cast<uintptr_t>(src)) & 15) == 0 && n > head) {
    for (size_t i = r; i < head; i += w) dst[i] = src[i];
    dst += head;
    src += head;
    n -= head;
  }
  size_t done = 0;
  if (((reinterpret_cast<uintptr_t>(dst) | reinterpret_cast<uintptr_t>(src)) & 15) == 0) {
    const size_t nv = n / 16;
    const uint4 *s = reinterpret_cast<const uint4 *>(src);
    uint4 *d = reinterpret_cast<uint4 *>(dst);
    if constexpr (kPlain) {
      const uint4 *__restrict__ rs = s;
      uint4 *__restrict__ rd = d;
      for (size_t i = r; i < nv; i += w) rd[i] = rs[i];
    } else {
      // Four independent 16-byte loads in flight per thread before the stores (latency hiding
      // for large copies over NVLink), then the remainder one vector at a time.
      size_t i = r;
      for (; i + 3 * w < nv; i += 4 * w) {
        const uint4 a = s[i], b = s[i + w], c = s[i + 2 * w], e = s[i + 3 * w];
        d[i] = a;
        d[i + w] = b;
        d[i + 2 * w] = c;
        d[i + 3 * w] = e;
      }
      for (; i < nv; i += w) d[i] = s[i];
    }
    done = nv * 16;
  }
  // The rest (all of it when the ends are not 16-byte aligned) in the widest words both ends
  // allow: an 8-byte put is one store, not eight (done is a multiple of 16, so dst + done and
  // src + done keep the alignment of dst and src).
  const uintptr_t align = reinterpret_cast<uintptr_t>(dst) | reinterpret_cast<uintptr_t>(src);
  if ((align & 7) == 0) done = copy_words<uint64_t, S>(dst, src, done, n);
  if ((align & 3) == 0) done = copy_words<uint32_t, S>(dst, src, done, n);
  for (size_t i = done + r; i < n; i += w) dst[i] = src[i];
}

template <typename S, bool kPlain = false>
__device__ __forceinline__ void copy_any(char *dst, const char *src, size_t n) {
  const uintptr_t a = reinterpret_cast<uintptr_t>(dst) | reinterpret_cast<uintptr_t>(src);
  // 4-byte words last: a put of one int went through copy_bulk's head and tail logic (2 x H200,
  // thread put + quiet: 1.45 us for 4 bytes against 1.26 us for 8).
  if constexpr (std::is_same_v<S, Thread>) {
    if (copy_few_words<uint4, 4, S>(dst, src, n, a) || copy_few_words<uint64_t, 4, S>(dst, src, n, a) ||
        copy_few_words<uint32_t, 4, S>(dst, src, n, a))
      return;
  } else {
    if (copy_few_words<uint4, 1, S>(dst, src, n, a) || copy_few_words<uint4, 4, S>(dst, src, n, a) ||
        copy_few_words<uint64_t, 1, S>(dst, src, n, a) || copy_few_words<uint32_t, 1, S>(dst, src, n, a))
      return;
  }
  copy_bulk<S, kPlain>(dst, src, n);
}

// A block's copy, out of line: inline in a user's loop, its size classes and the bulk loop's
// addresses stay live next to the loop's own values and the proxy call's registers, past a
// 1024-thread block's 64 (tests/nvshmem/check_registers.py). The call costs a few cycles against
// a block-wide copy's barrier and memory latency. Thread and warp copies take fewer registers
// inline, so they stay inline.
template <typename S, bool kPlain>
static __device__ __noinline__ void copy_outlined(char *dst, const char *src, size_t n) {
  copy_any<S, kPlain>(dst, src, n);
}

template <typename S, bool kPlain = false>
__device__ __forceinline__ void copy(char *dst, const char *src, size_t n) {
  if constexpr (std::is_same_v<S, Block>) copy_outlined<S, kPlain>(dst, src, n);
  else copy_any<S, kPlain>(dst, src, n);
}

template <typename S>
static __device__ __noinline__ void proxy_put_scope(const char *call, void *dest, const void *src, size_t bytes, int pe,
                                                    bool nbi) {
  S::sync();  // every thread of the scope has written its part of src
  if (S::rank() == 0 && bytes) {
    const uint64_t w = proxy_put_bytes(proxy_off(call, dest, bytes, pe), static_cast<const char *>(src), bytes, pe);
    if (!nbi && w) proxy_wait(w);
  }
  S::sync();
}

template <typename S>
static __device__ __noinline__ void proxy_get_scope(const char *call, void *dest, const void *src, size_t bytes,
                                                    int pe) {
  S::sync();
  if (S::rank() == 0 && bytes) proxy_get_bytes(static_cast<char *>(dest), proxy_off(call, src, bytes, pe), bytes, pe);
  S::sync();
}

template <typename S>
__device__ __forceinline__ void put(const char *call, void *dest, const void *src, size_t bytes, int pe, bool nbi) {
  if (proxied(pe)) return proxy_put_scope<S>(call, dest, src, bytes, pe, nbi);
  // A block's put takes copy_bulk's plain loop (measured there, for the block put only); thread
  // and warp puts keep four loads in flight.
  if (bytes) copy<S, std::is_same_v<S, Block>>(peer(call, dest, bytes, pe), static_cast<const char *>(src), bytes);
  if (!nbi) S::sync();
}

template <typename S>
__device__ __forceinline__ void get(const char *call, void *dest, const void *src, size_t bytes, int pe, bool nbi) {
  if (proxied(pe)) return proxy_get_scope<S>(call, dest, src, bytes, pe);
  if (bytes) copy<S>(static_cast<char *>(dest), peer(call, src, bytes, pe), bytes);
  // A get is complete when it returns: the scope's threads must all have loaded their part.
  (void)nbi;
  S::sync();
}

// The load of a g: a weak load, issued on every call (asm volatile, so the compiler can neither
// hoist it out of a loop nor merge two calls), that may be served by this SM's L1. That is what
// the memory model asks of a g (docs/memory-model.md): it returns no value older than the last
// wait, fence, quiet or barrier of the thread allows, because each of those is an acquire
// (ld.acquire / fence.sc) and the hardware drops L1's lines there. A g repeated with no such call
// in between may return the same, cached, value. Measured on 2 x H100 (shmem_gp_flavors, NVSHMEM's
// g_latency shape, 512 threads, same addresses every iteration): 0.12 us per round with this load
// against 0.99 us with ld.volatile / ld.relaxed.sys / ld.cg, which go to the peer every time.
template <typename T>
__device__ __forceinline__ T load_weak(const T *p) {
  T v;
  if constexpr (sizeof(T) == 1) {
    uint16_t x;
    asm volatile("ld.b8 %0, [%1];" : "=h"(x) : "l"(p) : "memory");
    const uint8_t b = static_cast<uint8_t>(x);
    memcpy(&v, &b, 1);
  } else if constexpr (sizeof(T) == 2) {
    uint16_t x;
    asm volatile("ld.b16 %0, [%1];" : "=h"(x) : "l"(p) : "memory");
    memcpy(&v, &x, 2);
  } else if constexpr (sizeof(T) == 4) {
    uint32_t x;
    asm volatile("ld.b32 %0, [%1];" : "=r"(x) : "l"(p) : "memory");
    memcpy(&v, &x, 4);
  } else if constexpr (sizeof(T) == 8) {
    uint64_t x;
    asm volatile("ld.b64 %0, [%1];" : "=l"(x) : "l"(p) : "memory");
    memcpy(&v, &x, 8);
  } else {
    v = *reinterpret_cast<const volatile T *>(p);
  }
  return v;
}

// The routed forms of p and g (proxy, or a segment table), out of line: the direct path of a p
// or g in a user's loop stays a few instructions with no further branch (core.cuh, routed()).
// Each is one function for every type (the value passed as its bits): with a callee per type,
// ptxas held a p_bw / g_bw loop to 32 registers and reloaded loop values from the stack on every
// slice (elem_bw: 8-20 bytes of spill stores; none with this form).
static __device__ __noinline__ inline void p_routed_bits(const char *call, void *dest, uint64_t bits, unsigned size,
                                                         int pe) {
  if (proxied(pe)) {
    proxy_put_inline(proxy_off(call, dest, size, pe), &bits, size, pe);
    return;
  }
  char *p = peer(call, dest, size, pe);
  switch (size) {
    case 1:
      *reinterpret_cast<volatile uint8_t *>(p) = static_cast<uint8_t>(bits);
      break;
    case 2:
      *reinterpret_cast<volatile uint16_t *>(p) = static_cast<uint16_t>(bits);
      break;
    case 4:
      *reinterpret_cast<volatile uint32_t *>(p) = static_cast<uint32_t>(bits);
      break;
    default:
      *reinterpret_cast<volatile uint64_t *>(p) = bits;
      break;
  }
}
template <typename T>
__device__ __forceinline__ void p_routed(const char *call, T *dest, T v, int pe) {
  static_assert(sizeof(T) <= 8, "device p of at most 8 bytes");
  uint64_t bits = 0;
  memcpy(&bits, &v, sizeof(T));
  p_routed_bits(call, dest, bits, sizeof(T), pe);
}
static __device__ __noinline__ inline uint64_t g_routed_bits(const char *call, const void *src, unsigned size, int pe) {
  uint64_t bits = 0;
  if (proxied(pe)) {
    proxy_get_bytes(reinterpret_cast<char *>(&bits), proxy_off(call, src, size, pe), size, pe);
    return bits;
  }
  const char *p = peer(call, src, size, pe);
  switch (size) {
    case 1:
      return load_weak(reinterpret_cast<const uint8_t *>(p));
    case 2:
      return load_weak(reinterpret_cast<const uint16_t *>(p));
    case 4:
      return load_weak(reinterpret_cast<const uint32_t *>(p));
    default:
      return load_weak(reinterpret_cast<const uint64_t *>(p));
  }
}
template <typename T>
__device__ __forceinline__ T g_routed(const char *call, const T *src, int pe) {
  static_assert(sizeof(T) <= 8, "device g of at most 8 bytes");
  const uint64_t bits = g_routed_bits(call, src, sizeof(T), pe);
  T v;
  memcpy(&v, &bits, sizeof(T));
  return v;
}

template <typename T>
__device__ __forceinline__ void p(const char *call, T *dest, T v, int pe) {
  if (routed()) return p_routed(call, dest, v, pe);
  *reinterpret_cast<volatile T *>(window_peer(call, dest, sizeof(T), pe)) = v;
}

// The load comes before the routed test: in a user's loop it then issues before the test and its
// branch, whose instructions overlap its latency. When routed, window_peer gives the caller's own
// copy of src, so the load reads mapped memory and its value is dropped.
template <typename T>
__device__ __forceinline__ T g(const char *call, const T *src, int pe) {
  const T v = load_weak(reinterpret_cast<const T *>(window_peer(call, src, sizeof(T), pe)));
  if (routed()) return g_routed(call, src, pe);
  return v;
}

template <typename S, size_t E>
__device__ __forceinline__ void iput(const char *call, void *dest, const void *src, ptrdiff_t dst, ptrdiff_t sst,
                                     size_t n, int pe) {
  if (!n) return;
  if (proxied(pe)) {  // element by element, the data inline in the triggers
    S::sync();
    const uint64_t off = proxy_off(call, dest, ((n - 1) * dst + 1) * E, pe);
    if (S::rank() == 0)
      for (size_t i = 0; i < n; ++i)
        proxy_put_inline(off + i * dst * E, static_cast<const char *>(src) + i * sst * E, E, pe);
    S::sync();
    return;
  }
  char *d = peer(call, dest, ((n - 1) * dst + 1) * E, pe);
  const char *s = static_cast<const char *>(src);
  for (size_t i = S::rank(); i < n; i += S::size())
    for (size_t b = 0; b < E; ++b) d[i * dst * E + b] = s[i * sst * E + b];
  S::sync();
}

template <typename S, size_t E>
__device__ __forceinline__ void iget(const char *call, void *dest, const void *src, ptrdiff_t dst, ptrdiff_t sst,
                                     size_t n, int pe) {
  if (!n) return;
  if (proxied(pe)) {
    S::sync();
    const uint64_t off = proxy_off(call, src, ((n - 1) * sst + 1) * E, pe);
    if (S::rank() == 0)
      for (size_t i = 0; i < n; ++i) proxy_get_bytes(static_cast<char *>(dest) + i * dst * E, off + i * sst * E, E, pe);
    S::sync();
    return;
  }
  const char *s = peer(call, src, ((n - 1) * sst + 1) * E, pe);
  char *d = static_cast<char *>(dest);
  for (size_t i = S::rank(); i < n; i += S::size())
    for (size_t b = 0; b < E; ++b) d[i * dst * E + b] = s[i * sst * E + b];
  S::sync();
}

// The word type of an E-byte element (E is 1, 2, 4, 8 or 16; elements are aligned to their size).
template <size_t E>
using elem_word_t = std::conditional_t<
    E == 1, uint8_t,
    std::conditional_t<E == 2, uint16_t,
                       std::conditional_t<E == 4, uint32_t, std::conditional_t<E == 8, uint64_t, uint4>>>>;

// Blocked strided transfers (OpenSHMEM 1.6 ibput/ibget): nblocks blocks of bsize contiguous
// E-byte elements; block b starts at element b * sst of the source and b * dst of the dest.
// Loads and stores: the scope's threads split the nblocks * bsize elements. Proxied: one trigger
// per block (a block is contiguous at both ends).
template <size_t E>
__device__ __forceinline__ void check_block_strides(const char *call, ptrdiff_t dst, ptrdiff_t sst, size_t bsize) {
#if GSHMEM_DEVICE_CHECKS
  if (dst < static_cast<ptrdiff_t>(bsize) || sst < static_cast<ptrdiff_t>(bsize))
    fail_value(call, "strides must be at least the block size; min(dst, sst)", dst < sst ? dst : sst);
#else
  (void)call, (void)dst, (void)sst, (void)bsize;
#endif
}

template <typename S, size_t E>
__device__ __forceinline__ void block_copy(char *d, const char *s, ptrdiff_t dst, ptrdiff_t sst, size_t bsize,
                                           size_t nblocks) {
  using W = elem_word_t<E>;
  const size_t total = bsize * nblocks;
  for (size_t i = S::rank(); i < total; i += S::size()) {
    const size_t b = i / bsize, k = i - b * bsize;
    reinterpret_cast<W *>(d)[b * dst + k] = reinterpret_cast<const W *>(s)[b * sst + k];
  }
}

template <typename S, size_t E>
__device__ __forceinline__ void ibput(const char *call, void *dest, const void *src, ptrdiff_t dst, ptrdiff_t sst,
                                      size_t bsize, size_t nblocks, int pe) {
  if (!bsize || !nblocks) return;
  check_block_strides<E>(call, dst, sst, bsize);
  const size_t span = ((nblocks - 1) * static_cast<size_t>(dst) + bsize) * E;
  if (proxied(pe)) {
    S::sync();
    if (S::rank() == 0) {
      const uint64_t off = proxy_off(call, dest, span, pe);
      uint64_t w = 0;
      for (size_t b = 0; b < nblocks; ++b) {
        const uint64_t wb =
            proxy_put_bytes(off + b * static_cast<size_t>(dst) * E,
                            static_cast<const char *>(src) + b * static_cast<size_t>(sst) * E, bsize * E, pe);
        w = wb > w ? wb : w;
      }
      if (w) proxy_wait(w);  // blocking: the source is free on return
    }
    S::sync();
    return;
  }
  block_copy<S, E>(peer(call, dest, span, pe), static_cast<const char *>(src), dst, sst, bsize, nblocks);
  S::sync();
}

template <typename S, size_t E>
__device__ __forceinline__ void ibget(const char *call, void *dest, const void *src, ptrdiff_t dst, ptrdiff_t sst,
                                      size_t bsize, size_t nblocks, int pe) {
  if (!bsize || !nblocks) return;
  check_block_strides<E>(call, dst, sst, bsize);
  const size_t span = ((nblocks - 1) * static_cast<size_t>(sst) + bsize) * E;
  if (proxied(pe)) {
    S::sync();
    if (S::rank() == 0) {
      const uint64_t off = proxy_off(call, src, span, pe);
      for (size_t b = 0; b < nblocks; ++b)
        proxy_get_bytes(static_cast<char *>(dest) + b * static_cast<size_t>(dst) * E,
                        off + b * static_cast<size_t>(sst) * E, bsize * E, pe);
    }
    S::sync();
    return;
  }
  block_copy<S, E>(static_cast<char *>(dest), peer(call, src, span, pe), dst, sst, bsize, nblocks);
  S::sync();
}

// fence and quiet: stores to other GPUs are ordered (fence) and performed at system scope (quiet)
// by fence.sc.sys, which waits for the issuing thread's prior memory operations. Proxied
// operations: a fence pushes a FENCE trigger (the proxy may run the puts to one PE between fences
// concurrently, on several copy streams); quiet waits until the proxy has completed everything
// pushed before it.
__device__ __forceinline__ void fence() {
  __threadfence_system();
  if (proxy_on()) proxy_fence();
}
// The quiet waits for the proxy out of line, then fences, so a quiet with no proxy is the test and
// the fence with nothing after it: in NVSHMEM's shmem_p_latency loop slightly faster than the
// fence followed by the test and an inline wait (measured: docs/perf/h200x2-perftest.md). Either
// order is a quiet: the proxy's completion count is read with acquire, and the fence orders the
// stores to peers.
static __device__ __noinline__ inline void quiet_proxied() { proxy_wait_pushed(); }
__device__ __forceinline__ void quiet() {
  if (proxy_on()) quiet_proxied();
  __threadfence_system();
}

// OpenSHMEM 1.6 pe_quiet: completes the scope's operations to the listed PEs only. Stores to PEs
// reached by loads and stores complete with the fence (it covers every peer at the same cost);
// the proxy is waited for only when a listed PE is reached through it, so a pe_quiet to NVLink
// peers never waits for transfers to other nodes.
template <typename S>
__device__ __forceinline__ void pe_quiet(const char *call, const int *pes, size_t npes) {
  S::sync();
  if (S::rank() == 0) {
    bool via_proxy = false;
    for (size_t i = 0; i < npes; ++i) {
#if GSHMEM_DEVICE_CHECKS
      if (static_cast<unsigned>(pes[i]) >= static_cast<unsigned>(st().npes))
        fail_value(call, "target_pes holds a PE out of range; pe", pes[i]);
#endif
      via_proxy = via_proxy || proxied(pes[i]);
    }
    if (via_proxy) quiet_proxied();
  }
  __threadfence_system();
  S::sync();
  (void)call;
}

}  // namespace gshmem::dev
