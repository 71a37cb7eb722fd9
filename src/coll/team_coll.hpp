// The collectives as the C API calls them: team-based (OpenSHMEM 1.5) and the deprecated
// active-set forms, on the algorithms of collectives.hpp (host memory) or the GPU kernels
// (gpu_coll.hpp: buffers on the device heap). Arguments are validated on every PE and
// (GSHMEM_COLL_CHECKS) cross-checked between members, so mismatched nelems or roots are reported,
// not corrupting. Every call returns 0 (errors end the job with a message naming call).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <functional>
#include <type_traits>

#include "coll/collectives.hpp"
#include "common/fatal.hpp"
#include "gshmem/device_host/ops.h"

namespace gshmem::coll {

int broadcast(const char* call, int team, void* d, const void* s, size_t nelems, size_t elem, int root);
int fcollect(const char* call, int team, void* d, const void* s, size_t nelems, size_t elem);
int collect(const char* call, int team, void* d, const void* s, size_t nelems, size_t elem);
int alltoall(const char* call, int team, void* d, const void* s, size_t nelems, size_t elem);
int alltoalls(const char* call, int team, void* d, const void* s, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
              size_t elem);
template <typename T, int Op>
int reduce(const char* call, int team, T* d, const T* s, size_t n);
// Reduce-scatter (host memory): source holds n_pes(team) * n elements, dest n.
template <typename T, int Op>
int reducescatter(const char* call, int team, T* d, const T* s, size_t n);

// OpenSHMEM 1.6 scans (sum): inclusive or exclusive prefix sums over the team's members.
template <typename T>
int scan(const char* call, int team, T* d, const T* s, size_t n, bool exclusive);

// half (Kind 'h') and bfloat16 ('b') reductions and reduce-scatter from the host: the GPU kernels
// for buffers on the device heap, else the host algorithms with the same arithmetic (each step in
// float, rounded to nearest-even to the type, in team order: the same bits as the kernels).
template <int Op, char Kind>
int reduce16(const char* call, int team, void* d, const void* s, size_t n, bool scatter);

// Deprecated active-set forms (PE_start, logPE_stride, PE_size, pSync).
void active_sync(const char* call, int start, int log_stride, int size, long* pSync, bool quiet_first);
void active_broadcast(const char* call, void* d, const void* s, size_t bytes, int root, int start, int log_stride,
                      int size, long* pSync);
void active_collect(const char* call, void* d, const void* s, size_t bytes, int start, int log_stride, int size,
                    long* pSync);
void active_fcollect(const char* call, void* d, const void* s, size_t bytes, int start, int log_stride, int size,
                     long* pSync);
void active_alltoall(const char* call, void* d, const void* s, size_t bytes, int start, int log_stride, int size,
                     long* pSync);
void active_alltoalls(const char* call, void* d, const void* s, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
                      size_t elem, int start, int log_stride, int size, long* pSync);
template <typename T, int Op>
void active_reduce(const char* call, T* d, const T* s, int n, int start, int log_stride, int size, long* pSync);

// ---- what the templates above use ----
size_t bytes_of(const char* call, size_t nelems, size_t elem);  // overflow reported
// The element kind GPU reductions dispatch on: 'i' signed, 'u' unsigned integer, 'f' floating,
// 'c' anything else (not on GPU memory).
template <typename T>
constexpr char element_kind() {
  return std::is_floating_point_v<T> ? 'f' : std::is_integral_v<T> ? (std::is_signed_v<T> ? 'i' : 'u') : 'c';
}
// Runs body on the host algorithms, or returns false (nothing done) when the buffers are on the
// device heap and the GPU reduction ran instead.
bool reduce_on_device(const char* call, int team, void* d, const void* s, size_t n, size_t elem, char kind,
                      gshmem_reduce_op op);
// The same for reduce-scatter.
bool reducescatter_on_device(const char* call, int team, void* d, const void* s, size_t n, size_t elem, char kind,
                             gshmem_reduce_op op);
void team_host(const char* call, int team, uint64_t op, uint64_t a, uint64_t b,
               const std::function<void(Group&, int size)>& body);
// A reduction on host memory pushed to the members (push.cpp) instead of pulled: at most
// heap::kPushBytes, on SHMEM_TEAM_WORLD any size up to 4 members and heap::kPushBytesWorld past
// that; combine(out, lo, hi, bytes) sets out = op(lo, hi) element by element (out may be lo or hi).
// False (nothing done) when it does not fit (larger, or a team past 65536 members).
bool push_reduce(const char* call, int team, void* d, const void* s, size_t bytes, size_t elem,
                 const std::function<void(void* out, const void* lo, const void* hi, size_t bytes)>& combine);
template <typename T, int Op>
auto push_combine() {
  return [](void* out, const void* lo, const void* hi, size_t bytes) {
    combine<T>(out, lo, hi, bytes / sizeof(T), gshmem::Reduce<Op>{});
  };
}
// An active set of every PE (PE_start 0, stride 1): pushed reductions run on SHMEM_TEAM_WORLD's
// boxes and sequence (checks pSync as the active-set forms do). False when the set is another.
bool active_is_world(const char* call, int start, int log_stride, int size, long* pSync);
// Checks that [p, p + bytes) is symmetric (this PE's view) and in host memory (host collectives).
void check_sym(const char* call, const void* p, size_t bytes, const char* what);
void active(const char* call, int start, int log_stride, int size, long* pSync,
            const std::function<void(Group&)>& body);
enum : uint64_t {
  op_bcast = 0x100,
  op_collect,
  op_fcollect,
  op_alltoall,
  op_alltoalls,
  op_reduce,
  op_reducescatter,
  op_inscan,
  op_exscan
};
// Reports when [d, d + dbytes) and [s, s + sbytes) overlap.
void check_no_overlap(const char* call, const void* d, size_t dbytes, const void* s, size_t sbytes);

template <typename T, int Op>
int reduce(const char* call, int team, T* d, const T* s, size_t n) {
  const size_t bytes = bytes_of(call, n, sizeof(T));
  if (reduce_on_device(call, team, d, s, n, sizeof(T), element_kind<T>(), static_cast<gshmem_reduce_op>(Op))) return 0;
  if (push_reduce(call, team, d, s, bytes, sizeof(T), push_combine<T, Op>())) return 0;
  team_host(call, team, op_reduce, bytes, 0, [&](Group& g, int) {
    check_sym(call, d, bytes, "dest");
    check_sym(call, s, bytes, "source");
    coll::reduce(g, d, s, n, gshmem::Reduce<Op>{});
  });
  return 0;
}

template <typename T, int Op>
int reducescatter(const char* call, int team, T* d, const T* s, size_t n) {
  const size_t bytes = bytes_of(call, n, sizeof(T));
  if (reducescatter_on_device(call, team, d, s, n, sizeof(T), element_kind<T>(), static_cast<gshmem_reduce_op>(Op)))
    return 0;
  team_host(call, team, op_reducescatter, bytes, 0, [&](Group& g, int size) {
    const size_t sbytes = bytes_of(call, n * static_cast<size_t>(size), sizeof(T));
    check_sym(call, d, bytes, "dest");
    check_sym(call, s, sbytes, "source");
    check_no_overlap(call, d, bytes, s, sbytes);
    coll::reducescatter(g, d, s, n, gshmem::Reduce<Op>{});
  });
  return 0;
}

// True when the scan's buffers are on the device heap and the GPU scan ran.
bool scan_on_device(const char* call, int team, void* d, const void* s, size_t n, size_t elem, char kind,
                    bool exclusive);

template <typename T>
int scan(const char* call, int team, T* d, const T* s, size_t n, bool exclusive) {
  const size_t bytes = bytes_of(call, n, sizeof(T));
  if (scan_on_device(call, team, d, s, n, sizeof(T), element_kind<T>(), exclusive)) return 0;
  team_host(call, team, exclusive ? op_exscan : op_inscan, bytes, 0, [&](Group& g, int) {
    check_sym(call, d, bytes, "dest");
    check_sym(call, s, bytes, "source");
    if (d != s) check_no_overlap(call, d, bytes, s, bytes);
    coll::scan(g, d, s, n, exclusive, gshmem::Reduce<GSHMEM_REDUCE_SUM>{});
  });
  return 0;
}

// IEEE binary16 ('h') and bfloat16 ('b') to and from float (round to nearest even).
float f16_to_float(uint16_t v, char kind);
uint16_t float_to_f16(float f, char kind);

template <int Op, char Kind>
struct Reduce16 {
  uint16_t operator()(uint16_t a, uint16_t b) const {
    const float fa = f16_to_float(a, Kind), fb = f16_to_float(b, Kind);
    if constexpr (Op == GSHMEM_REDUCE_MIN) return fb < fa ? b : a;  // as Reduce<MIN>: a on ties and NaN
    if constexpr (Op == GSHMEM_REDUCE_MAX) return fa < fb ? b : a;
    if constexpr (Op == GSHMEM_REDUCE_SUM) return float_to_f16(fa + fb, Kind);
    return float_to_f16(fa * fb, Kind);
  }
};

template <int Op, char Kind>
int reduce16(const char* call, int team, void* d, const void* s, size_t n, bool scatter) {
  static_assert(Op == GSHMEM_REDUCE_MIN || Op == GSHMEM_REDUCE_MAX || Op == GSHMEM_REDUCE_SUM ||
                Op == GSHMEM_REDUCE_PROD);
  const size_t bytes = bytes_of(call, n, 2);
  const auto op = static_cast<gshmem_reduce_op>(Op);
  if (scatter ? reducescatter_on_device(call, team, d, s, n, 2, Kind, op)
              : reduce_on_device(call, team, d, s, n, 2, Kind, op))
    return 0;
  team_host(call, team, scatter ? op_reducescatter : op_reduce, bytes, 0, [&](Group& g, int size) {
    const size_t sbytes = scatter ? bytes_of(call, n * static_cast<size_t>(size), 2) : bytes;
    check_sym(call, d, bytes, "dest");
    check_sym(call, s, sbytes, "source");
    auto* dd = static_cast<uint16_t*>(d);
    auto* ss = static_cast<const uint16_t*>(s);
    if (scatter) {
      check_no_overlap(call, d, bytes, s, sbytes);
      coll::reducescatter(g, dd, ss, n, Reduce16<Op, Kind>{});
    } else {
      coll::reduce(g, dd, ss, n, Reduce16<Op, Kind>{});
    }
  });
  return 0;
}

template <typename T, int Op>
void active_reduce(const char* call, T* d, const T* s, int n, int start, int log_stride, int size, long* pSync) {
  if (n < 0) fatal(call, "nreduce %d is negative", n);
  check_sym(call, d, static_cast<size_t>(n) * sizeof(T), "dest");
  check_sym(call, s, static_cast<size_t>(n) * sizeof(T), "source");
  const size_t bytes = static_cast<size_t>(n) * sizeof(T);
  if (active_is_world(call, start, log_stride, size, pSync) &&
      push_reduce(call, 0, d, s, bytes, sizeof(T), push_combine<T, Op>()))
    return;
  active(call, start, log_stride, size, pSync,
         [&](Group& g) { coll::reduce(g, d, s, static_cast<size_t>(n), gshmem::Reduce<Op>{}); });
}

}  // namespace gshmem::coll
