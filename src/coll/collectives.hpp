// Host-side collectives over a group of PEs (a team, or a deprecated active set with pSync).
// CPU PEs: every member reads its peers' symmetric buffers (through the shared mappings, or the
// transport for PEs on other nodes) and pulls them (pull),
// so the PEs work in parallel and no PE serialises the others; each collective is framed by two
// group syncs (entry: sources ready; exit: destinations complete). Reductions split the array
// into one slice per member: the owner of a slice reduces it across all sources and writes the
// result into every member's dest, which is also correct in place (dest == source) because slice
// k of any source is read only by its owner before that owner writes slice k anywhere.
#pragma once
#include <cstddef>
#include <cstdint>
#include <algorithm>
#include <cstring>
#include <functional>
#include <vector>

namespace gshmem::coll {

struct Group {
  std::vector<int> pes;  // world PE of each member index
  int me = 0;            // this PE's member index
  std::function<void()> sync;
  // Publish one word for the other members (visible after the next sync) and read member i's.
  std::function<void(uint64_t)> publish;
  std::function<uint64_t(int)> published;
  // Copy from / to pe's instance of a symmetric address (a mapped copy, or the transport).
  std::function<void(void* dst, const void* sym, size_t n, int pe)> read;
  std::function<void(void* sym, const void* src, size_t n, int pe)> write;
  int size() const { return static_cast<int>(pes.size()); }
};

inline void broadcast(Group& g, void* dest, const void* src, size_t bytes, int root, bool update_root) {
  g.sync();
  if (g.me != root) g.read(dest, src, bytes, g.pes[static_cast<size_t>(root)]);
  else if (update_root && dest != src) memmove(dest, src, bytes);
  g.sync();
}

inline void fcollect(Group& g, void* dest, const void* src, size_t bytes) {
  g.sync();
  const int n = g.size();
  for (int k = 0; k < n; ++k) {
    const int i = (g.me + k) % n;  // start with the own block, then spread reads over peers
    g.read(static_cast<char*>(dest) + static_cast<size_t>(i) * bytes, src, bytes, g.pes[static_cast<size_t>(i)]);
  }
  g.sync();
}

inline void collect(Group& g, void* dest, const void* src, size_t bytes) {
  g.publish(bytes);
  g.sync();
  const int n = g.size();
  std::vector<size_t> off(static_cast<size_t>(n) + 1, 0);
  for (int i = 0; i < n; ++i) off[static_cast<size_t>(i) + 1] = off[static_cast<size_t>(i)] + g.published(i);
  for (int k = 0; k < n; ++k) {
    const int i = (g.me + k) % n;
    const size_t len = off[static_cast<size_t>(i) + 1] - off[static_cast<size_t>(i)];
    if (len) g.read(static_cast<char*>(dest) + off[static_cast<size_t>(i)], src, len, g.pes[static_cast<size_t>(i)]);
  }
  g.sync();
}

// Member i's block for member j is source + j*bytes on i; it lands at dest + i*bytes on j.
inline void alltoall(Group& g, void* dest, const void* src, size_t bytes) {
  g.sync();
  const int n = g.size();
  for (int k = 0; k < n; ++k) {
    const int i = (g.me + k) % n;
    g.read(static_cast<char*>(dest) + static_cast<size_t>(i) * bytes,
           static_cast<const char*>(src) + static_cast<size_t>(g.me) * bytes, bytes, g.pes[static_cast<size_t>(i)]);
  }
  g.sync();
}

// Strided: element k of the block for member j sits at source[(j*nelems + k)*sst]; it lands at
// dest[(i*nelems + k)*dst] on j.
inline void alltoalls(Group& g, void* dest, const void* src, ptrdiff_t dst, ptrdiff_t sst, size_t nelems, size_t elem) {
  g.sync();
  const int n = g.size();
  for (int k = 0; k < n; ++k) {
    const int i = (g.me + k) % n;
    const char* s = static_cast<const char*>(src);
    char* d = static_cast<char*>(dest);
    for (size_t e = 0; e < nelems; ++e)
      g.read(d + ((static_cast<size_t>(i) * nelems + e) * static_cast<size_t>(dst)) * elem,
             s + ((static_cast<size_t>(g.me) * nelems + e) * static_cast<size_t>(sst)) * elem, elem,
             g.pes[static_cast<size_t>(i)]);
  }
  g.sync();
}

namespace detail {
// Form 0: o = op(o, x); 1: o = op(x, o); 2: o = op(x, y) (o, x, y disjoint). Blocks of a fixed
// length with restrict pointers: the compiler vectorizes the block's loop at -O2 (a known trip
// count, no aliasing to check), where a loop of unknown length stays one element at a time.
template <int Form, typename T, typename Op>
void combine_aligned(T* __restrict o, const T* __restrict x, const T* __restrict y, size_t n, Op op) {
  constexpr size_t kBlock = 256 / sizeof(T) < 8 ? 8 : 256 / sizeof(T);
  size_t k = 0;
  for (; k + kBlock <= n; k += kBlock) {
    T* __restrict ob = o + k;
    const T* __restrict xb = x + k;
    const T* __restrict yb = y + k;
    for (size_t j = 0; j < kBlock; ++j) {
      if constexpr (Form == 0) ob[j] = op(ob[j], xb[j]);
      else if constexpr (Form == 1) ob[j] = op(xb[j], ob[j]);
      else ob[j] = op(xb[j], yb[j]);
    }
  }
  for (; k < n; ++k) {
    if constexpr (Form == 0) o[k] = op(o[k], x[k]);
    else if constexpr (Form == 1) o[k] = op(x[k], o[k]);
    else o[k] = op(x[k], y[k]);
  }
}
}  // namespace detail

// out[k] = op(lo[k], hi[k]) for k < n, element by element; out may be lo or hi (the same array,
// never a shifted one). Buffers aligned for T take the vectorized forms; others (a box at an odd
// offset) go an element at a time through copies.
template <typename T, typename Op>
void combine(void* out, const void* lo, const void* hi, size_t n, Op op) {
  const auto aligned = [](const void* p) { return reinterpret_cast<uintptr_t>(p) % alignof(T) == 0; };
  const auto apart = [n](const void* p, const void* q) {
    const auto a = reinterpret_cast<uintptr_t>(p), b = reinterpret_cast<uintptr_t>(q);
    return a + n * sizeof(T) <= b || b + n * sizeof(T) <= a;
  };
  auto* o = static_cast<T*>(out);
  const auto* a = static_cast<const T*>(lo);
  const auto* b = static_cast<const T*>(hi);
  if (aligned(out) && aligned(lo) && aligned(hi)) {
    if (out == lo && apart(out, hi)) return detail::combine_aligned<0, T>(o, b, b, n, op);
    if (out == hi && apart(out, lo)) return detail::combine_aligned<1, T>(o, a, a, n, op);
    if (apart(out, lo) && apart(out, hi) && apart(lo, hi)) return detail::combine_aligned<2, T>(o, a, b, n, op);
  }
  for (size_t k = 0; k < n; ++k) {
    T x, y;  // copies: out may be lo or hi
    memcpy(&x, static_cast<const char*>(lo) + k * sizeof(T), sizeof x);
    memcpy(&y, static_cast<const char*>(hi) + k * sizeof(T), sizeof y);
    x = op(x, y);
    memcpy(static_cast<char*>(out) + k * sizeof(T), &x, sizeof x);
  }
}

template <typename T, typename Op>
void reduce(Group& g, T* dest, const T* src, size_t n, Op op) {
  g.sync();
  const size_t members = static_cast<size_t>(g.size());
  const size_t chunk = (n + members - 1) / members;
  const size_t lo = std::min(n, chunk * static_cast<size_t>(g.me)), hi = std::min(n, lo + chunk);
  if (hi > lo) {
    std::vector<T> acc(hi - lo), in(hi - lo);
    g.read(acc.data(), src + lo, (hi - lo) * sizeof(T), g.pes[0]);
    for (size_t i = 1; i < members; ++i) {
      g.read(in.data(), src + lo, (hi - lo) * sizeof(T), g.pes[i]);
      combine<T>(acc.data(), acc.data(), in.data(), hi - lo, op);
    }
    for (size_t i = 0; i < members; ++i) g.write(dest + lo, acc.data(), (hi - lo) * sizeof(T), g.pes[i]);
  }
  g.sync();
}

// Scans (prefix sums, OpenSHMEM 1.6): member i's dest[k] = the combination of source[k] over
// members 0..i (exclusive: 0..i-1, and T{} on member 0), in team order. As reduce: the owner of
// each slice reads it from every member in member order and writes each member's prefix into that
// member's dest; member j's slice is read before it is written, so dest == source is allowed.
template <typename T, typename Op>
void scan(Group& g, T* dest, const T* src, size_t n, bool exclusive, Op op) {
  g.sync();
  const size_t members = static_cast<size_t>(g.size());
  const size_t chunk = (n + members - 1) / members;
  const size_t lo = std::min(n, chunk * static_cast<size_t>(g.me)), hi = std::min(n, lo + chunk);
  if (hi > lo) {
    std::vector<T> acc(hi - lo, T{}), in(hi - lo), out(hi - lo);
    for (size_t i = 0; i < members; ++i) {
      g.read(in.data(), src + lo, (hi - lo) * sizeof(T), g.pes[i]);
      for (size_t k = 0; k < hi - lo; ++k) {
        if (exclusive) out[k] = acc[k];
        acc[k] = i == 0 ? in[k] : op(acc[k], in[k]);
      }
      g.write(dest + lo, exclusive ? out.data() : acc.data(), (hi - lo) * sizeof(T), g.pes[i]);
    }
  }
  g.sync();
}

// Reduce-scatter: member i's dest (n elements) is the reduction over every member's source block i
// (source holds size() * n elements). Each member pulls its block from every source in member
// order (the same order everywhere), then the closing sync lets the sources be reused; dest is
// written only after every member has read (dest must not overlap source, checked by the caller).
template <typename T, typename Op>
void reducescatter(Group& g, T* dest, const T* src, size_t n, Op op) {
  g.sync();
  const size_t members = static_cast<size_t>(g.size());
  const T* mine = src + static_cast<size_t>(g.me) * n;
  std::vector<T> acc(n), in(n);
  if (n) {
    g.read(acc.data(), mine, n * sizeof(T), g.pes[0]);
    for (size_t i = 1; i < members; ++i) {
      g.read(in.data(), mine, n * sizeof(T), g.pes[i]);
      combine<T>(acc.data(), acc.data(), in.data(), n, op);
    }
  }
  g.sync();
  if (n) memcpy(dest, acc.data(), n * sizeof(T));
}

}  // namespace gshmem::coll
