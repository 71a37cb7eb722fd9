// Team collectives in device code, at thread, warp and block scope, and (with several "rows") the
// grid-wide kernels behind the shmemx_*_on_stream collectives in libgshmem.
//
// Each PE's device control block holds, per team slot, a matrix of phase flags
// [row][sender index] and a per-row phase counter (device/host layout in device_host/state.h).
// A phase on row r: every member stores its next phase number into flag [r][its index] of every
// other member (release, system scope), then waits until all of its own flags [r][*] have reached
// that number. Teams of up to GSHMEM_DEV_MAX_TEAM_PES PEs do this in one round; larger teams (up to
// 256 PEs) run a dissemination barrier over the same words (flag index = round). Counters only
// grow, so a waiter compares with >=, and a peer one phase ahead never confuses it.
//
// Data moves by push: broadcast (root → all), fcollect (each → all) and alltoall (each → each)
// store straight into the peers' dest over NVLink, then one phase tells every member its dest is
// complete. A reduction of at most 4 KiB uses LL words ({4 data bytes, 4 flag bytes} in one
// 8-byte store) in a double-buffered per-slot area, so it needs no phase at all; a larger one is
// reduce-scatter + all-gather: a phase (sources ready), the owner of each slice reads that slice
// from every member, reduces it and stores the result into every member's dest, a phase (all
// slices delivered). Slice k of any source is read only by slice k's owner before it writes
// slice k anywhere, so dest == source is allowed.
//
// Rows: an on-stream collective runs one block per row; row r moves the r-th part of the data and
// synchronises on row r only, so no grid-wide barrier is needed. In-kernel calls use row 0.
#pragma once
#include "gshmem/impl/sync.cuh"

namespace gshmem::dev {

struct TeamDev {
  int size, me, slot, start, stride;
  __device__ __forceinline__ int pe(int i) const { return start + i * stride; }
};

[[noreturn]] __device__ __noinline__ inline void fail_value(const char *call, const char *what, long long v) {
  printf("gshmem: %s: %s (%lld; pe %d of %d, block %d thread %d)\n", call, what, v, st().my_pe, st().npes,
         static_cast<int>(blockIdx.x), static_cast<int>(threadIdx.x));
  __trap();
  __builtin_unreachable();
}

__device__ __forceinline__ char *ctrl(int pe, uint32_t off) { return segment(pe) + off; }

__device__ __forceinline__ TeamDev team(const char *call, int handle) {
#if GSHMEM_DEVICE_CHECKS
  if (!st().initialized) fail_value(call, "called before shmem_init; team", handle);
#endif
  if (static_cast<unsigned>(handle) >= GSHMEM_DEV_MAX_TEAMS) fail_value(call, "not a valid team handle", handle);
  const gshmem_device_team *d =
      reinterpret_cast<const gshmem_device_team *>(ctrl(st().my_pe, GSHMEM_DEV_CTRL_TEAMS)) + handle;
  const int4 a = *reinterpret_cast<const int4 *>(d);
  const int2 b = *reinterpret_cast<const int2 *>(&d->start);
  if (a.x != 1)
    fail_value(call,
               a.x == 2   ? "the team's PEs are not equally strided, which device collectives need; team"
               : a.x == 3 ? "the team spans PEs on other nodes (reached through the proxy); device collectives "
                            "need every member mapped in this version; team"
                          : "not a valid team handle, or this PE is not a member; team",
               handle);
  return {a.y, a.z, a.w, b.x, b.y};
}

__device__ __forceinline__ uint64_t *phase_flag(int pe, int slot, int row, int idx) {
  return reinterpret_cast<uint64_t *>(ctrl(pe, GSHMEM_DEV_CTRL_PHASE_FLAGS)) +
         (static_cast<size_t>(slot) * GSHMEM_DEV_MAX_ROWS + row) * GSHMEM_DEV_MAX_TEAM_PES + idx;
}

// One phase on row: the scope's threads fan the flag stores and the waits out over the peers.
// The flag store is a release at system scope: after the scope barrier it orders every store the
// scope made before the phase (cumulativity), so pushed data and earlier puts are visible to a
// peer once it sees the flag. The waits are acquire loads; the closing scope barrier passes their
// ordering on to the scope's other threads.
template <typename S>
__device__ __forceinline__ void phase(const char *call, const TeamDev &t, int row) {
  S::sync();
  if (S::rank() == 0) proxy_quiet();  // operations pushed to the proxy before the phase complete first
  if (t.size > 1) {
    volatile uint64_t *cnt =
        reinterpret_cast<volatile uint64_t *>(ctrl(st().my_pe, GSHMEM_DEV_CTRL_PHASE_CNT)) +
        static_cast<size_t>(t.slot) * GSHMEM_DEV_MAX_ROWS + row;
    const uint64_t c = *cnt + 1;
    const int r = S::rank(), w = S::size(), me_w = t.pe(t.me);
    if (t.size <= static_cast<int>(GSHMEM_DEV_MAX_TEAM_PES)) {
      for (int k = r; k < t.size - 1; k += w) {
        const int j = (t.me + 1 + k) % t.size;
        sys_atomic<uint64_t>(*phase_flag(t.pe(j), t.slot, row, t.me)).store(c, cuda::memory_order_release);
      }
      for (int k = r; k < t.size - 1; k += w) {
        const int j = (t.me + 1 + k) % t.size;
        const uint64_t *f = phase_flag(me_w, t.slot, row, j);
        while (load_acquire(f) < c) {
        }
      }
    } else if (r == 0) {
      if (t.size > 256) fail_value(call, "device collectives support teams of up to 256 PEs; team size", t.size);
      for (int k = 0, d = 1; d < t.size; ++k, d <<= 1) {
        sys_atomic<uint64_t>(*phase_flag(t.pe((t.me + d) % t.size), t.slot, row, k)).store(c, cuda::memory_order_release);
        while (load_acquire(phase_flag(me_w, t.slot, row, k)) < c) {
        }
      }
    }
    S::sync();
    if (r == 0) *cnt = c;
  }
}

template <typename S>
__device__ __forceinline__ void team_sync(const char *call, int handle) {
  phase<S>(call, team(call, handle), 0);
}

// A barrier is a sync whose release flag stores also complete (order) every earlier put of the
// scope, which is what the quiet in barrier = quiet + sync provides for NVLink stores.
template <typename S>
__device__ __forceinline__ void team_barrier(const char *call, int handle) {
  phase<S>(call, team(call, handle), 0);
}

// [lo, hi) of row's share of bytes, in 16-byte multiples.
__device__ __forceinline__ void row_range(size_t bytes, int row, int nrows, size_t *lo, size_t *hi) {
  const size_t per = ((bytes + nrows - 1) / nrows + 15) & ~static_cast<size_t>(15);
  *lo = per * row < bytes ? per * row : bytes;
  *hi = *lo + per < bytes ? *lo + per : bytes;
}

__device__ __forceinline__ uint64_t *ll_done(int pe, int slot, int idx) {
  return reinterpret_cast<uint64_t *>(ctrl(pe, GSHMEM_DEV_CTRL_LL_DONE)) + static_cast<size_t>(slot) * GSHMEM_DEV_MAX_TEAM_PES + idx;
}

// An LL reduction has no closing phase: a member can return from it while another is still
// reading its source and writing its dest. Collectives that push into peers' buffers without an
// opening phase (broadcast, fcollect, alltoall, alltoalls) therefore first wait until every
// member has finished the team's last LL reduction (each member publishes how many it finished;
// every member has done the same number). Nothing to wait for when the team never ran one.
template <typename S>
__device__ __forceinline__ void settle_ll(const TeamDev &t) {
  if (t.size < 2 || t.size > static_cast<int>(GSHMEM_DEV_MAX_TEAM_PES)) return;
  S::sync();  // the scope's leader wrote the LL count at the end of the last reduction
  const uint64_t c = *(reinterpret_cast<volatile uint64_t *>(ctrl(st().my_pe, GSHMEM_DEV_CTRL_LL_CNT)) + t.slot);
  if (!c) return;
  const int me_w = t.pe(t.me);
  for (int k = S::rank(); k < t.size - 1; k += S::size()) {
    const int j = (t.me + 1 + k) % t.size;
    while (load_acquire(ll_done(me_w, t.slot, j)) < c) {
    }
  }
  S::sync();
}

template <typename S>
__device__ __forceinline__ void broadcast(const char *call, int handle, void *dest, const void *src, size_t bytes,
                                          int root, int row = 0, int nrows = 1) {
  const TeamDev t = team(call, handle);
  if (static_cast<unsigned>(root) >= static_cast<unsigned>(t.size))
    fail_value(call, "PE_root is not in the team; PE_root", root);
  settle_ll<S>(t);
  if (t.me == root && bytes) {
    size_t lo, hi;
    row_range(bytes, row, nrows, &lo, &hi);
    for (int k = 0; k < t.size; ++k) {
      const int j = (t.me + k) % t.size;
      if (j == t.me && dest == src) continue;
      copy<S>(peer(call, static_cast<char *>(dest) + lo, hi - lo, t.pe(j)), static_cast<const char *>(src) + lo, hi - lo);
    }
  }
  phase<S>(call, t, row);
}

template <typename S>
__device__ __forceinline__ void fcollect(const char *call, int handle, void *dest, const void *src, size_t bytes,
                                         int row = 0, int nrows = 1) {
  const TeamDev t = team(call, handle);
  settle_ll<S>(t);
  if (bytes) {
    size_t lo, hi;
    row_range(bytes, row, nrows, &lo, &hi);
    char *d = static_cast<char *>(dest) + static_cast<size_t>(t.me) * bytes + lo;
    for (int k = 0; k < t.size; ++k) {
      const int j = (t.me + k) % t.size;
      copy<S>(peer(call, d, hi - lo, t.pe(j)), static_cast<const char *>(src) + lo, hi - lo);
    }
  }
  phase<S>(call, t, row);
}

template <typename S>
__device__ __forceinline__ void alltoall(const char *call, int handle, void *dest, const void *src, size_t bytes,
                                         int row = 0, int nrows = 1) {
  const TeamDev t = team(call, handle);
  settle_ll<S>(t);
  if (bytes) {
    size_t lo, hi;
    row_range(bytes, row, nrows, &lo, &hi);
    char *d = static_cast<char *>(dest) + static_cast<size_t>(t.me) * bytes + lo;
    for (int k = 0; k < t.size; ++k) {
      const int j = (t.me + k) % t.size;
      copy<S>(peer(call, d, hi - lo, t.pe(j)), static_cast<const char *>(src) + static_cast<size_t>(j) * bytes + lo,
              hi - lo);
    }
  }
  phase<S>(call, t, row);
}

// collect: members contribute different sizes. Each stores its byte count into every member's
// [slot][its index] word, a phase makes them visible, each computes its offset (sum of the sizes
// of the members before it) and pushes its block there, and a phase completes it. A member
// reaches the next collect's size stores only after this one's last phase, by which time every
// member has read the sizes, so one word per sender suffices. One row; teams of up to 8 PEs.
template <typename S>
__device__ __forceinline__ void collect(const char *call, int handle, void *dest, const void *src, size_t bytes) {
  const TeamDev t = team(call, handle);
  if (t.size > static_cast<int>(GSHMEM_DEV_MAX_TEAM_PES))
    fail_value(call, "device collect supports teams of up to 8 PEs; team size", t.size);
  const int r = S::rank(), w = S::size();
  for (int j = r; j < t.size; j += w)
    sys_atomic<uint64_t>(reinterpret_cast<uint64_t *>(ctrl(t.pe(j), GSHMEM_DEV_CTRL_COLLECT))[t.slot * GSHMEM_DEV_MAX_TEAM_PES + t.me])
        .store(bytes, cuda::memory_order_relaxed);
  phase<S>(call, t, 0);
  const uint64_t *sizes = reinterpret_cast<const uint64_t *>(ctrl(st().my_pe, GSHMEM_DEV_CTRL_COLLECT)) +
                          t.slot * GSHMEM_DEV_MAX_TEAM_PES;
  size_t off = 0, total = 0;
  for (int i = 0; i < t.size; ++i) {
    const size_t b = static_cast<size_t>(sys_atomic<uint64_t>(*const_cast<uint64_t *>(sizes + i)).load(cuda::memory_order_relaxed));
    if (i < t.me) off += b;
    total += b;
  }
  {  // always checked (also with device checks off): the peers write total bytes here
    const uint64_t off0 = reinterpret_cast<uint64_t>(dest) - st().heap_base;
    if (total && (off0 >= st().heap_size || total > st().heap_size - off0))
      fail_value(call, "dest does not hold the collected bytes in the symmetric heap; total bytes", static_cast<long long>(total));
  }
  if (bytes) {
    for (int k = 0; k < t.size; ++k) {
      const int j = (t.me + k) % t.size;
      copy<S>(peer(call, static_cast<char *>(dest) + off, bytes, t.pe(j)), static_cast<const char *>(src), bytes);
    }
  }
  phase<S>(call, t, 0);
}

// alltoalls: element k of the block for member j sits at source[(j*nelems + k)*sst]; it lands
// at dest[(me*nelems + k)*dst] on j. Rows split the elements.
template <typename S>
__device__ __forceinline__ void alltoalls(const char *call, int handle, void *dest, const void *src, ptrdiff_t dst,
                                          ptrdiff_t sst, size_t nelems, size_t elem, int row = 0, int nrows = 1) {
  const TeamDev t = team(call, handle);
  if (dst < 1 || sst < 1) fail_value(call, "strides must be positive; dst * 2^32 + sst", (static_cast<long long>(dst) << 32) + sst);
  settle_ll<S>(t);
  if (nelems) {
    const size_t per = (nelems + nrows - 1) / nrows;
    const size_t klo = per * row < nelems ? per * row : nelems, khi = klo + per < nelems ? klo + per : nelems;
    const size_t span = ((static_cast<size_t>(t.size) * nelems - 1) * static_cast<size_t>(dst) + 1) * elem;
    const char *s = static_cast<const char *>(src);
    const int r = S::rank(), w = S::size();
    for (int kk = 0; kk < t.size; ++kk) {
      const int j = (t.me + kk) % t.size;
      char *d = peer(call, dest, span, t.pe(j));
      for (size_t k = klo + r; k < khi; k += w) {
        char *to = d + ((static_cast<size_t>(t.me) * nelems + k) * static_cast<size_t>(dst)) * elem;
        const char *from = s + ((static_cast<size_t>(j) * nelems + k) * static_cast<size_t>(sst)) * elem;
        if (elem == 8) *reinterpret_cast<uint64_t *>(to) = *reinterpret_cast<const uint64_t *>(from);
        else if (elem == 4) *reinterpret_cast<uint32_t *>(to) = *reinterpret_cast<const uint32_t *>(from);
        else
          for (size_t b = 0; b < elem; ++b) to[b] = from[b];
      }
    }
  }
  phase<S>(call, t, row);
}

// ---- reductions ----
// The operators: gshmem::Reduce<GSHMEM_REDUCE_*> (device_host/ops.h), shared with host reductions.
using gshmem::Reduce;

constexpr size_t kLLPayload = GSHMEM_DEV_LL_BYTES / 2;  // 4 KiB

__device__ __forceinline__ uint64_t *ll_buf(int pe, int slot, int parity, int sender) {
  return reinterpret_cast<uint64_t *>(ctrl(pe, GSHMEM_DEV_CTRL_LL) +
                                      ((static_cast<size_t>(slot) * 2 + parity) * GSHMEM_DEV_MAX_TEAM_PES + sender) *
                                          GSHMEM_DEV_LL_BYTES);
}

__device__ __forceinline__ uint64_t ll_load(const uint64_t *buf, size_t w) {
  return sys_atomic<uint64_t>(*const_cast<uint64_t *>(buf + w)).load(cuda::memory_order_relaxed);
}

// Elements i0, i0 + step, ... (K of them, those below n) of the payload in an LL buffer, once the
// flag of each word they lie in says seq: whole words for 4-, 8- and 16-byte types, bytes of one
// word for 1- and 2-byte types (they never straddle a word). Every word's first load is issued
// before any is waited on, so a thread that combines many elements waits about one round trip per
// K elements instead of one per element (a thread-scope reduction of 256 ints on 2 x H100: 191 us
// with one element at a time, NVSHMEM 36 us).
template <typename T, int K>
__device__ __forceinline__ void ll_elems(const uint64_t *buf, size_t i0, size_t step, size_t n, uint32_t seq,
                                         T (&out)[K]) {
  constexpr int WPE = sizeof(T) % 4 == 0 ? static_cast<int>(sizeof(T) / 4) : 1;  // words per element
  auto word = [](size_t i, int q) -> size_t { return sizeof(T) % 4 == 0 ? i * WPE + q : i * sizeof(T) / 4; };
  uint64_t v[K * WPE];
#pragma unroll
  for (int k = 0; k < K; ++k)
#pragma unroll
    for (int q = 0; q < WPE; ++q)
      if (i0 + k * step < n) v[k * WPE + q] = ll_load(buf, word(i0 + k * step, q));
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const size_t i = i0 + k * step;
    if (i >= n) continue;
    union {
      T v;
      uint32_t w[WPE];
      unsigned char c[sizeof(T)];
    } u;
#pragma unroll
    for (int q = 0; q < WPE; ++q) {
      uint64_t x = v[k * WPE + q];
      while (static_cast<uint32_t>(x >> 32) != seq) x = ll_load(buf, word(i, q));
      if constexpr (sizeof(T) % 4 == 0) {
        u.w[q] = static_cast<uint32_t>(x);
      } else {
        const size_t b0 = i * sizeof(T);
        for (size_t b = 0; b < sizeof(T); ++b) u.c[b] = static_cast<unsigned char>(x >> (8 * ((b0 + b) % 4)));
      }
    }
    out[k] = u.v;
  }
}

template <typename S, typename T, typename Op>
__device__ __forceinline__ void reduce_ll(const TeamDev &t, T *dest, const T *src, size_t n) {
  const size_t bytes = n * sizeof(T), nw = (bytes + 3) / 4;
  const int r = S::rank(), w = S::size();
  volatile uint64_t *cnt = reinterpret_cast<volatile uint64_t *>(ctrl(st().my_pe, GSHMEM_DEV_CTRL_LL_CNT)) + t.slot;
  S::sync();
  const uint64_t c = *cnt + 1;
  const uint32_t seq = static_cast<uint32_t>(c) | 0x80000000u;  // never 0: flags start zeroed
  const int par = static_cast<int>(c & 1);
  const unsigned char *s8 = reinterpret_cast<const unsigned char *>(src);
  const bool aligned = (reinterpret_cast<uintptr_t>(s8) & 3) == 0;
  for (size_t i = r; i < nw; i += w) {
    uint32_t d = 0;
    if (aligned && 4 * i + 4 <= bytes) d = *reinterpret_cast<const uint32_t *>(s8 + 4 * i);
    else
      for (size_t b = 0; b < 4 && 4 * i + b < bytes; ++b) d |= static_cast<uint32_t>(s8[4 * i + b]) << (8 * b);
    const uint64_t word = static_cast<uint64_t>(seq) << 32 | d;
    for (int k = 1; k < t.size; ++k)
      sys_atomic<uint64_t>(ll_buf(t.pe((t.me + k) % t.size), t.slot, par, t.me)[i]).store(word, cuda::memory_order_relaxed);
  }
  // In place, an element may be written by another thread than the one sending its words: every
  // word must be sent before any element is overwritten.
  S::sync();
  const int me_w = t.pe(t.me);
  // Every member combines in team order, so all PEs get bit-identical results. A thread or warp
  // takes K of its elements at a time (ll_elems); a block's threads have few each, and a block of
  // 1024 threads has no registers to spare.
  constexpr int K = std::is_same_v<S, Block> ? 1 : (sizeof(T) > 8 ? 2 : 8);
  const size_t step = static_cast<size_t>(w);
  for (size_t i0 = r; i0 < n; i0 += K * step) {
    T acc[K], v[K];
    for (int j = 0; j < t.size; ++j) {
      if (j == t.me) {
#pragma unroll
        for (int k = 0; k < K; ++k)
          if (i0 + k * step < n) v[k] = src[i0 + k * step];
      } else {
        ll_elems<T, K>(ll_buf(me_w, t.slot, par, j), i0, step, n, seq, v);
      }
#pragma unroll
      for (int k = 0; k < K; ++k) acc[k] = j == 0 ? v[k] : Op()(acc[k], v[k]);
    }
#pragma unroll
    for (int k = 0; k < K; ++k)
      if (i0 + k * step < n) dest[i0 + k * step] = acc[k];
  }
  S::sync();
  if (r == 0) *cnt = c;
  // This member is done with its source and dest: tell the others (see settle_ll).
  for (int k = r; k < t.size - 1; k += w)
    sys_atomic<uint64_t>(*ll_done(t.pe((t.me + 1 + k) % t.size), t.slot, t.me)).store(c, cuda::memory_order_release);
}

// Owner side of reduce-scatter + all-gather for elements [lo, hi).
template <typename S, typename T, typename Op>
__device__ __forceinline__ void reduce_range(const char *call, const TeamDev &t, T *dest, const T *src, size_t n,
                                             size_t lo, size_t hi) {
  const T *srcs[GSHMEM_DEV_MAX_TEAM_PES];
  T *dsts[GSHMEM_DEV_MAX_TEAM_PES];
  for (int j = 0; j < t.size; ++j) {
    srcs[j] = reinterpret_cast<const T *>(peer(call, src, n * sizeof(T), t.pe(j)));
    dsts[j] = reinterpret_cast<T *>(peer(call, dest, n * sizeof(T), t.pe(j)));
  }
  const int r = S::rank(), w = S::size();
  size_t done = lo;
  if constexpr (sizeof(T) <= 16 && 16 % sizeof(T) == 0) {
    constexpr size_t V = 16 / sizeof(T);
    if (((reinterpret_cast<uintptr_t>(src + lo) | reinterpret_cast<uintptr_t>(dest + lo)) & 15) == 0) {
      const size_t nv = (hi - lo) / V;
      union Vec {
        uint4 u;
        T e[V];
      };
      constexpr int U = 2;
      for (size_t base = 0; base < nv; base += static_cast<size_t>(w) * U) {
        Vec acc[U];
        bool live[U];
#pragma unroll
        for (int u = 0; u < U; ++u) {
          const size_t i = base + static_cast<size_t>(r) + static_cast<size_t>(u) * w;
          live[u] = i < nv;
          if (live[u]) acc[u].u = reinterpret_cast<const uint4 *>(srcs[0] + lo)[i];
        }
        for (int j = 1; j < t.size; ++j) {
          Vec x[U];
#pragma unroll
          for (int u = 0; u < U; ++u)
            if (live[u]) x[u].u = reinterpret_cast<const uint4 *>(srcs[j] + lo)[base + r + static_cast<size_t>(u) * w];
#pragma unroll
          for (int u = 0; u < U; ++u)
#pragma unroll
            for (size_t e = 0; e < V; ++e) acc[u].e[e] = Op()(acc[u].e[e], x[u].e[e]);
        }
        for (int j = 0; j < t.size; ++j)
#pragma unroll
          for (int u = 0; u < U; ++u)
            if (live[u]) reinterpret_cast<uint4 *>(dsts[j] + lo)[base + r + static_cast<size_t>(u) * w] = acc[u].u;
      }
      done = lo + nv * V;
    }
  }
  for (size_t i = done + r; i < hi; i += w) {
    T acc = srcs[0][i];
    for (int j = 1; j < t.size; ++j) acc = Op()(acc, srcs[j][i]);
    for (int j = 0; j < t.size; ++j) dsts[j][i] = acc;
  }
}

template <typename S, typename T, typename Op>
__device__ __forceinline__ void reduce(const char *call, int handle, T *dest, const T *src, size_t n, int row = 0,
                                       int nrows = 1) {
  const TeamDev t = team(call, handle);
  if (t.size > static_cast<int>(GSHMEM_DEV_MAX_TEAM_PES))
    fail_value(call, "device reductions support teams of up to 8 PEs; team size", t.size);
  const size_t bytes = n * sizeof(T);
  (void)peer(call, dest, bytes, st().my_pe);
  (void)peer(call, src, bytes, st().my_pe);
  if (!n) return;
  if (t.size == 1) {
    size_t lo, hi;
    row_range(bytes, row, nrows, &lo, &hi);
    if (dest != src) copy<S>(reinterpret_cast<char *>(dest) + lo, reinterpret_cast<const char *>(src) + lo, hi - lo);
    S::sync();
    return;
  }
  if (bytes <= kLLPayload && nrows == 1) {
    reduce_ll<S, T, Op>(t, dest, src, n);
    return;
  }
  phase<S>(call, t, row);  // every member's source is ready
  constexpr size_t V = sizeof(T) <= 16 && 16 % sizeof(T) == 0 ? 16 / sizeof(T) : 1;
  const size_t per = ((n + t.size - 1) / t.size + V - 1) / V * V;
  const size_t slo = per * t.me < n ? per * t.me : n, shi = slo + per < n ? slo + per : n;
  const size_t rper = ((shi - slo + nrows - 1) / nrows + V - 1) / V * V;
  const size_t lo = slo + rper * row < shi ? slo + rper * row : shi, hi = lo + rper < shi ? lo + rper : shi;
  reduce_range<S, T, Op>(call, t, dest, src, n, lo, hi);
  phase<S>(call, t, row);  // every slice has been delivered everywhere
}

// Max with location over (value, location) pairs (NVSHMEM's double2 maxloc): the larger .x; on
// equal values the smaller .y.
struct MaxLoc {
  __device__ __forceinline__ double2 operator()(double2 a, double2 b) const {
    return (b.x > a.x || (b.x == a.x && b.y < a.y)) ? b : a;
  }
};

// Reduce-scatter: member i's dest[0, n) = the reduction over every member's src[i*n, (i+1)*n), in
// member order. An opening phase (sources ready), each member reads its block from every member's
// source through the mappings, and a closing phase (every source read, so it may be reused).
// dest must not overlap src. Teams of up to 8 PEs, like the reductions.
template <typename S, typename T, typename Op>
__device__ __forceinline__ void reducescatter(const char *call, int handle, T *dest, const T *src, size_t n,
                                              int row = 0, int nrows = 1) {
  const TeamDev t = team(call, handle);
  if (t.size > static_cast<int>(GSHMEM_DEV_MAX_TEAM_PES))
    fail_value(call, "device reductions support teams of up to 8 PEs; team size", t.size);
  (void)peer(call, dest, n * sizeof(T), st().my_pe);
  (void)peer(call, src, n * static_cast<size_t>(t.size) * sizeof(T), st().my_pe);
  if (!n) return;
  phase<S>(call, t, row);  // every member's source is ready
  const T *srcs[GSHMEM_DEV_MAX_TEAM_PES];
  for (int j = 0; j < t.size; ++j)
    srcs[j] = reinterpret_cast<const T *>(peer(call, src, n * static_cast<size_t>(t.size) * sizeof(T), t.pe(j))) +
              static_cast<size_t>(t.me) * n;
  const size_t per = (n + static_cast<size_t>(nrows) - 1) / static_cast<size_t>(nrows);
  const size_t lo = per * static_cast<size_t>(row) < n ? per * static_cast<size_t>(row) : n;
  const size_t hi = lo + per < n ? lo + per : n;
  for (size_t i = lo + static_cast<size_t>(S::rank()); i < hi; i += static_cast<size_t>(S::size())) {
    T acc = srcs[0][i];
    for (int j = 1; j < t.size; ++j) acc = Op()(acc, srcs[j][i]);
    dest[i] = acc;
  }
  phase<S>(call, t, row);  // every member has read its block of every source
}

}  // namespace gshmem::dev
