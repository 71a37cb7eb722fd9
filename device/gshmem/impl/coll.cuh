// Team collectives in device code, at thread, warp and block scope, and (with several "rows") the
// grid-wide kernels behind the shmemx_*_on_stream collectives in libgshmem.
//
// The phase (impl/team.cuh) and the LL collectives (impl/ll.cuh) come from below.
//
// Data moves by push: broadcast (root → all), fcollect (each → all) and alltoall (each → each)
// store straight into the peers' dest over NVLink, then one phase tells every member its dest is
// complete. Small broadcasts and fcollects use LL words, reductions of at most 4 KiB LL words or
// (at thread scope, above 32 bytes) raw rounds (impl/ll.cuh), and need no phase; so do a block's
// reductions of team WORLD up to 16 KiB sent, and on-stream ones of several rows up to a parity's
// 1 MiB of LL words (2 PEs: 512 KiB; large LL rounds, impl/ll.cuh); a larger one is
// reduce-scatter + all-gather: a phase (sources ready), the owner of each slice reads that slice
// from every member, reduces it and stores the result into every member's dest, a phase (all
// slices delivered). Slice k of any source is read only by slice k's owner before it writes
// slice k anywhere, so dest == source is allowed.
//
// Rows: an on-stream collective runs one block per row; row r moves the r-th part of the data and
// synchronises on row r only, so no grid-wide barrier is needed (a large LL round's rows count
// themselves done, impl/ll.cuh). In-kernel calls use row 0.
#pragma once
#include "gshmem/impl/routed.cuh"

namespace gshmem::dev {

// The push path of broadcast, out of line: inlined next to the LL path it costs registers, and a
// kernel of 1024 threads has 64 a thread.
//
// scatter (teams of 3 to GSHMEM_DEV_MAX_TEAM_PES): the root sends each other member one piece of
// the data (piece i, in 16-byte units, to the i-th member after the root) and signals it, each
// member sends its piece on to the other non-roots as soon as its signal comes, then a phase. The
// root's NVLink egress carries the data once instead of size - 1 times; the signal is the first
// of two split phases (team.cuh), whose flags only the root adds to, and the non-roots add 2 in the
// closing one. Every row moves its row_range share of each piece and signals on its own row, so
// a row's forwarding waits only for the same row of the root. The on-stream host path asks for it
// from GSHMEM_COLL_BCAST_SCATTER_BYTES.
template <typename S>
static __device__ __noinline__ void broadcast_push(const char *call, const TeamDev &t, void *dest, const void *src,
                                                   size_t bytes, int root, int row, int nrows, bool scatter) {
  settle_ll<S>(t);
  char *d = static_cast<char *>(dest);
  if (scatter && t.size > 2 && t.size <= static_cast<int>(GSHMEM_DEV_MAX_TEAM_PES) && bytes) {
    const int pieces = t.size - 1;
    // [lo, hi) of this row's share of piece i.
    auto share = [&](int i, size_t *lo, size_t *hi) {
      size_t plo, phi, rlo, rhi;
      row_range(bytes, i, pieces, &plo, &phi);
      row_range(phi - plo, row, nrows, &rlo, &rhi);
      *lo = plo + rlo;
      *hi = plo + rhi;
    };
    size_t lo, hi;
    if (t.me == root) {
      for (int i = 0; i < pieces; ++i) {
        share(i, &lo, &hi);
        copy<S>(peer(call, d + lo, hi - lo, t.pe((root + 1 + i) % t.size)), static_cast<const char *>(src) + lo,
                hi - lo);
      }
      if (dest != src) {
        row_range(bytes, row, nrows, &lo, &hi);
        copy<S>(d + lo, static_cast<const char *>(src) + lo, hi - lo);
      }
    }
    const bool is_root = t.me == root;
    phase<S>(call, t, row, is_root ? t.size : root, is_root ? 1u : 0u);
    if (!is_root) {
      const int i = (t.me - root + t.size) % t.size - 1;
      share(i, &lo, &hi);
      for (int k = 1; k < t.size; ++k) {
        const int j = (t.me + k) % t.size;
        if (j != root) copy<S>(peer(call, d + lo, hi - lo, t.pe(j)), d + lo, hi - lo);
      }
    }
    phase<S>(call, t, row, -1, is_root ? 1u : 2u);
    return;
  }
  if (t.me == root && bytes) {
    size_t lo, hi;
    row_range(bytes, row, nrows, &lo, &hi);
    for (int k = 0; k < t.size; ++k) {
      const int j = (t.me + k) % t.size;
      if (j == t.me && dest == src) continue;
      copy<S>(peer(call, d + lo, hi - lo, t.pe(j)), static_cast<const char *>(src) + lo, hi - lo);
    }
  }
  phase<S>(call, t, row);
}

template <typename S>
__device__ __forceinline__ void broadcast(const char *call, int handle, void *dest, const void *src, size_t bytes,
                                          int root, int row = 0, int nrows = 1, bool scatter = false) {
  const TeamDev t = team(call, handle);
  if (static_cast<unsigned>(root) >= static_cast<unsigned>(t.size))
    fail_value(call, "PE_root is not in the team; PE_root", root);
  if (t.routed) return row ? void() : broadcast_routed<S>(call, t, dest, src, bytes, root);
  if (ll_fits<S>(t, bytes, nrows, 1)) {
    (void)peer(call, dest, bytes, st().my_pe);  // the device checks of the push path
    if (t.me == root) (void)peer(call, src, bytes, st().my_pe);
    return broadcast_ll<S>(t, dest, src, bytes, root);
  }
  broadcast_push<S>(call, t, dest, src, bytes, root, row, nrows, scatter);
}

// The push path of fcollect, out of line (see broadcast_push).
template <typename S>
static __device__ __noinline__ void fcollect_push(const char *call, const TeamDev &t, void *dest, const void *src,
                                                  size_t bytes, int row, int nrows) {
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
__device__ __forceinline__ void fcollect(const char *call, int handle, void *dest, const void *src, size_t bytes,
                                         int row = 0, int nrows = 1) {
  const TeamDev t = team(call, handle);
  if (t.routed) return row ? void() : fcollect_routed<S>(call, t, dest, src, bytes);
  if (ll_fits<S>(t, bytes, nrows, 2)) {
    (void)peer(call, dest, bytes * static_cast<size_t>(t.size), st().my_pe);  // the device checks of the push path
    (void)peer(call, src, bytes, st().my_pe);
    return fcollect_ll<S>(t, dest, src, bytes);
  }
  fcollect_push<S>(call, t, dest, src, bytes, row, nrows);
}

template <typename S>
__device__ __forceinline__ void alltoall(const char *call, int handle, void *dest, const void *src, size_t bytes,
                                         int row = 0, int nrows = 1) {
  const TeamDev t = team(call, handle);
  if (t.routed) return row ? void() : alltoall_routed<S>(call, t, dest, src, bytes);
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
// member has read the sizes, so one word per sender suffices. One row; routed teams and teams of
// more than 8 PEs: collect_routed.
template <typename S>
__device__ __forceinline__ void collect(const char *call, int handle, void *dest, const void *src, size_t bytes) {
  const TeamDev t = team(call, handle);
  if (t.routed || t.size > static_cast<int>(GSHMEM_DEV_MAX_TEAM_PES))
    return collect_routed<S>(call, t, dest, src, bytes);
  const int r = S::rank(), w = S::size();
  for (int j = r; j < t.size; j += w)
    sys_atomic<uint64_t>(
        reinterpret_cast<uint64_t *>(ctrl(t.pe(j), GSHMEM_DEV_CTRL_COLLECT))[t.slot * GSHMEM_DEV_MAX_TEAM_PES + t.me])
        .store(bytes, cuda::memory_order_relaxed);
  phase<S>(call, t, 0);
  const uint64_t *sizes =
      reinterpret_cast<const uint64_t *>(ctrl(st().my_pe, GSHMEM_DEV_CTRL_COLLECT)) + t.slot * GSHMEM_DEV_MAX_TEAM_PES;
  size_t off = 0, total = 0;
  for (int i = 0; i < t.size; ++i) {
    const size_t b =
        static_cast<size_t>(sys_atomic<uint64_t>(*const_cast<uint64_t *>(sizes + i)).load(cuda::memory_order_relaxed));
    if (i < t.me) off += b;
    total += b;
  }
  {  // always checked (also with device checks off): the peers write total bytes here
    const uint64_t off0 = reinterpret_cast<uint64_t>(dest) - st().heap_base;
    if (total && (off0 >= st().heap_size || total > st().heap_size - off0))
      fail_value(call, "dest does not hold the collected bytes in the symmetric heap; total bytes",
                 static_cast<long long>(total));
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
  if (dst < 1 || sst < 1)
    fail_value(call, "strides must be positive; dst * 2^32 + sst", (static_cast<long long>(dst) << 32) + sst);
  if (t.routed) return row ? void() : alltoalls_routed<S>(call, t, dest, src, dst, sst, nelems, elem);
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

// Owner side of a scan for elements [lo, hi): the owner reads the slice from every member in team
// order and stores each member's prefix (Mode: inclusive or exclusive, zero on member 0) into that
// member's dest. A thread loads member j's element before it stores member j's result, so
// dest == source is allowed as in reduce_range.
template <typename S, typename T, typename Op, int Mode>
__device__ __forceinline__ void scan_range(const char *call, const TeamDev &t, T *dest, const T *src, size_t n,
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
      union Vec {
        uint4 u;
        T e[V];
      };
      const size_t nv = (hi - lo) / V;
      for (size_t i = r; i < nv; i += w) {
        Vec acc;
        acc.u = make_uint4(0, 0, 0, 0);  // all-zero bits: T{} for the SUM types
        for (int j = 0; j < t.size; ++j) {
          Vec x;
          x.u = reinterpret_cast<const uint4 *>(srcs[j] + lo)[i];
          uint4 *d = reinterpret_cast<uint4 *>(dsts[j] + lo);
          if (Mode == kExscan) d[i] = acc.u;
#pragma unroll
          for (size_t e = 0; e < V; ++e) acc.e[e] = j == 0 ? x.e[e] : Op()(acc.e[e], x.e[e]);
          if (Mode == kInscan) d[i] = acc.u;
        }
      }
      done = lo + nv * V;
    }
  }
  for (size_t i = done + r; i < hi; i += w) {
    T acc{};
    for (int j = 0; j < t.size; ++j) {
      const T x = srcs[j][i];
      if (Mode == kExscan) dsts[j][i] = acc;
      acc = j == 0 ? x : Op()(acc, x);
      if (Mode == kInscan) dsts[j][i] = acc;
    }
  }
}

// Reduce-scatter + all-gather, out of line (see broadcast_push): a phase (every member's source
// is ready), the owner side of each slice (a reduction's, or a scan's: Mode), a phase (every
// slice delivered everywhere).
template <typename S, typename T, typename Op, int Mode = kReduceAll>
static __device__ __noinline__ void reduce_rs(const char *call, const TeamDev &t, T *dest, const T *src, size_t n,
                                              int row, int nrows) {
  phase<S>(call, t, row);
  constexpr size_t V = sizeof(T) <= 16 && 16 % sizeof(T) == 0 ? 16 / sizeof(T) : 1;
  const size_t per = ((n + t.size - 1) / t.size + V - 1) / V * V;
  const size_t slo = per * t.me < n ? per * t.me : n, shi = slo + per < n ? slo + per : n;
  const size_t rper = ((shi - slo + nrows - 1) / nrows + V - 1) / V * V;
  const size_t lo = slo + rper * row < shi ? slo + rper * row : shi, hi = lo + rper < shi ? lo + rper : shi;
  if constexpr (Mode == kReduceAll) reduce_range<S, T, Op>(call, t, dest, src, n, lo, hi);
  else scan_range<S, T, Op, Mode>(call, t, dest, src, n, lo, hi);
  phase<S>(call, t, row);
}

template <typename S, typename T, typename Op>
__device__ __forceinline__ void reduce(const char *call, int handle, T *dest, const T *src, size_t n, int row = 0,
                                       int nrows = 1) {
  const TeamDev t = team(call, handle);
  const size_t bytes = n * sizeof(T);
  (void)peer(call, dest, bytes, st().my_pe);
  (void)peer(call, src, bytes, st().my_pe);
  if (!n) return;
  if (t.routed || t.size > static_cast<int>(GSHMEM_DEV_MAX_TEAM_PES))
    return row ? void() : reduce_routed<S, T, Op>(t, dest, src, n, 0);
  if (t.size == 1) {
    size_t lo, hi;
    row_range(bytes, row, nrows, &lo, &hi);
    if (dest != src) copy<S>(reinterpret_cast<char *>(dest) + lo, reinterpret_cast<const char *>(src) + lo, hi - lo);
    S::sync();
    return;
  }
  if (bytes <= kLLPayload && nrows == 1) {
    reduce_small<S, T, Op>(t, dest, src, n);
    return;
  }
  if constexpr (std::is_same_v<S, Block> && 16 % sizeof(T) == 0)
    if (gshmem_dev_ll_big_fits(t.slot, t.size, nrows, bytes,
                               reinterpret_cast<uintptr_t>(dest) | reinterpret_cast<uintptr_t>(src)))
      return reduce_ll_big<T, Op>(t, dest, src, n, row, nrows);
  reduce_rs<S, T, Op>(call, t, dest, src, n, row, nrows);
}

// Inclusive (Mode kInscan) or exclusive (kExscan) prefix sums over the team, element by element:
// member i's dest[k] = the sum of source[k] over members 0..i (0..i-1; zero on member 0), in team
// order. Small scans are LL rounds (reduce_ll), larger ones the owner-slice path (scan_range);
// dest == source is allowed. Routed teams and teams of more than 8 PEs: scan_routed.
template <typename S, typename T, int Mode>
__device__ __forceinline__ void scan(const char *call, int handle, T *dest, const T *src, size_t n, int row = 0,
                                     int nrows = 1) {
  using Sum = Reduce<GSHMEM_REDUCE_SUM>;
  const TeamDev t = team(call, handle);
  const size_t bytes = n * sizeof(T);
  (void)peer(call, dest, bytes, st().my_pe);
  (void)peer(call, src, bytes, st().my_pe);
  if (!n) return;
  if (t.routed || t.size > static_cast<int>(GSHMEM_DEV_MAX_TEAM_PES))
    return row ? void() : scan_routed<S, T, Sum, Mode>(t, dest, src, n);
  if (t.size == 1) {
    const size_t per = (n + static_cast<size_t>(nrows) - 1) / static_cast<size_t>(nrows);
    const size_t lo = per * static_cast<size_t>(row) < n ? per * static_cast<size_t>(row) : n;
    const size_t hi = lo + per < n ? lo + per : n;
    for (size_t i = lo + static_cast<size_t>(S::rank()); i < hi; i += static_cast<size_t>(S::size()))
      dest[i] = Mode == kExscan ? T{} : src[i];
    S::sync();
    return;
  }
  if (bytes <= kLLPayload && nrows == 1) return reduce_ll<S, T, Sum, Mode>(t, dest, src, n);
  reduce_rs<S, T, Sum, Mode>(call, t, dest, src, n, row, nrows);
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
// dest must not overlap src. Routed teams and teams of more than 8 PEs: reduce_routed over all blocks.
template <typename S, typename T, typename Op>
__device__ __forceinline__ void reducescatter(const char *call, int handle, T *dest, const T *src, size_t n,
                                              int row = 0, int nrows = 1) {
  const TeamDev t = team(call, handle);
  (void)peer(call, dest, n * sizeof(T), st().my_pe);
  (void)peer(call, src, n * static_cast<size_t>(t.size) * sizeof(T), st().my_pe);
  if (!n) return;
  if (t.routed || t.size > static_cast<int>(GSHMEM_DEV_MAX_TEAM_PES))
    return row ? void() : reduce_routed<S, T, Op>(t, dest, src, n * static_cast<size_t>(t.size), n);
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
