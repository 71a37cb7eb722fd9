// Atomic memory operations. On CPU PEs the target is mapped shared memory, so each AMO is one
// hardware atomic on the peer's mapping: atomic with respect to the owner's own atomics too.
// float/double go through same-width integer atomics (fetch, set, swap only, as the spec lists).
#include <shmem.h>

#include <type_traits>

#include "api/access.hpp"
#include "api/device_ops.hpp"

namespace gshmem::api {
namespace {

template <typename T>
using Bits = std::conditional_t<sizeof(T) == 4, uint32_t, std::conditional_t<sizeof(T) == 8, uint64_t, T>>;

template <typename T>
inline Bits<T> to_bits(T v) {
  Bits<T> b;
  memcpy(&b, &v, sizeof v);
  return b;
}
template <typename T>
inline T from_bits(Bits<T> b) {
  T v;
  memcpy(&v, &b, sizeof v);
  return v;
}

// Host-side AMOs on GPU memory go through a one-thread kernel (api/device_ops.hpp).
// Where an AMO runs: on CPU memory here (*p), on GPU memory through a kernel, or on another node
// through the owner's proxy (*t).
template <typename T>
inline bool indirect(const char* c, const T* dest, int pe, char** p, Target* t) {
  if (!dest) fatal(c, "dest is NULL (target pe %d)", pe);
  *t = target(c, dest, sizeof(T), pe);
  if (reinterpret_cast<uintptr_t>(dest) % sizeof(T))
    fatal(c, "dest %p is not aligned to %zu bytes (target pe %d)", static_cast<const void*>(dest), sizeof(T), pe);
  *p = t->p;
  return t->device || t->remote;
}
template <typename T>
inline T dev(const char* c, const Target& t, int pe, AmoOp op, T a, T b = T()) {
  const uint64_t ua = static_cast<uint64_t>(to_bits(a)), ub = static_cast<uint64_t>(to_bits(b));
  if (t.remote)
    return from_bits<T>(static_cast<Bits<T>>(
        tcp().amo(pe, t.seg, t.off, static_cast<transport::AmoOp>(op), sizeof(T), ua, ub)));
  return from_bits<T>(static_cast<Bits<T>>(dev_amo(c, t.p, sizeof(T), op, ua, ub)));
}
static_assert(static_cast<int>(AmoOp::bxor) == static_cast<int>(transport::AmoOp::bxor), "same operation codes");

template <typename T>
inline T amo_fetch(const char* c, const T* src, int pe) {
  char* p;
  Target t;
  if (indirect(c, src, pe, &p, &t)) return dev<T>(c, t, pe, AmoOp::fetch, T());
  return from_bits<T>(__atomic_load_n(reinterpret_cast<Bits<T>*>(p), __ATOMIC_SEQ_CST));
}
template <typename T>
inline void amo_set(const char* c, T* dst, T v, int pe) {
  char* p;
  Target t;
  if (indirect(c, dst, pe, &p, &t)) (void)dev<T>(c, t, pe, AmoOp::set, v);
  else __atomic_store_n(reinterpret_cast<Bits<T>*>(p), to_bits(v), __ATOMIC_SEQ_CST);
}
template <typename T>
inline T amo_swap(const char* c, T* dst, T v, int pe) {
  char* p;
  Target t;
  if (indirect(c, dst, pe, &p, &t)) return dev<T>(c, t, pe, AmoOp::swap, v);
  return from_bits<T>(__atomic_exchange_n(reinterpret_cast<Bits<T>*>(p), to_bits(v), __ATOMIC_SEQ_CST));
}
template <typename T>
inline T amo_cswap(const char* c, T* dst, T cond, T v, int pe) {
  char* p;
  Target t;
  if (indirect(c, dst, pe, &p, &t)) return dev<T>(c, t, pe, AmoOp::cswap, cond, v);
  __atomic_compare_exchange_n(reinterpret_cast<T*>(p), &cond, v, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
  return cond;  // holds the old value whether or not the swap happened
}
enum class Op { add, band, bor, bxor };
template <Op O, typename T>
inline T amo_rmw(const char* c, T* dst, T v, int pe) {
  char* p;
  Target tg;
  if (indirect(c, dst, pe, &p, &tg)) {
    constexpr AmoOp d = O == Op::add ? AmoOp::add : O == Op::band ? AmoOp::band : O == Op::bor ? AmoOp::bor : AmoOp::bxor;
    return dev<T>(c, tg, pe, d, v);
  }
  T* t = reinterpret_cast<T*>(p);
  if constexpr (O == Op::add) return __atomic_fetch_add(t, v, __ATOMIC_SEQ_CST);
  else if constexpr (O == Op::band) return __atomic_fetch_and(t, v, __ATOMIC_SEQ_CST);
  else if constexpr (O == Op::bor) return __atomic_fetch_or(t, v, __ATOMIC_SEQ_CST);
  else return __atomic_fetch_xor(t, v, __ATOMIC_SEQ_CST);
}
template <typename T>
inline T* fetch_out(const char* c, T* fetch, int pe) {
  if (!fetch) fatal(c, "fetch is NULL (target pe %d)", pe);
  return fetch;
}

}  // namespace
}  // namespace gshmem::api

using namespace gshmem;
using namespace gshmem::api;

extern "C" {

#define GSHMEM_DEF_AMO_EXT(T, N)                                                                         \
  T shmem_##N##_atomic_fetch(const T* s, int pe) { return amo_fetch("shmem_" #N "_atomic_fetch", s, pe); } \
  void shmem_##N##_atomic_set(T* d, T v, int pe) { amo_set("shmem_" #N "_atomic_set", d, v, pe); }     \
  T shmem_##N##_atomic_swap(T* d, T v, int pe) { return amo_swap("shmem_" #N "_atomic_swap", d, v, pe); } \
  void shmem_##N##_atomic_fetch_nbi(T* f, const T* s, int pe) {                                        \
    *fetch_out("shmem_" #N "_atomic_fetch_nbi", f, pe) = amo_fetch("shmem_" #N "_atomic_fetch_nbi", s, pe); \
  }                                                                                                    \
  void shmem_##N##_atomic_swap_nbi(T* f, T* d, T v, int pe) {                                          \
    *fetch_out("shmem_" #N "_atomic_swap_nbi", f, pe) = amo_swap("shmem_" #N "_atomic_swap_nbi", d, v, pe); \
  }
GSHMEM_AMO_EXT_TYPES(GSHMEM_DEF_AMO_EXT)
#undef GSHMEM_DEF_AMO_EXT

#define GSHMEM_DEF_AMO_STD(T, N)                                                                         \
  T shmem_##N##_atomic_compare_swap(T* d, T c, T v, int pe) {                                          \
    return amo_cswap("shmem_" #N "_atomic_compare_swap", d, c, v, pe);                                 \
  }                                                                                                    \
  T shmem_##N##_atomic_fetch_inc(T* d, int pe) {                                                       \
    return amo_rmw<Op::add>("shmem_" #N "_atomic_fetch_inc", d, Id<T>(1), pe);                             \
  }                                                                                                    \
  void shmem_##N##_atomic_inc(T* d, int pe) { amo_rmw<Op::add>("shmem_" #N "_atomic_inc", d, Id<T>(1), pe); } \
  T shmem_##N##_atomic_fetch_add(T* d, T v, int pe) {                                                  \
    return amo_rmw<Op::add>("shmem_" #N "_atomic_fetch_add", d, v, pe);                                \
  }                                                                                                    \
  void shmem_##N##_atomic_add(T* d, T v, int pe) { amo_rmw<Op::add>("shmem_" #N "_atomic_add", d, v, pe); } \
  void shmem_##N##_atomic_compare_swap_nbi(T* f, T* d, T c, T v, int pe) {                             \
    *fetch_out("shmem_" #N "_atomic_compare_swap_nbi", f, pe) =                                        \
        amo_cswap("shmem_" #N "_atomic_compare_swap_nbi", d, c, v, pe);                                \
  }                                                                                                    \
  void shmem_##N##_atomic_fetch_inc_nbi(T* f, T* d, int pe) {                                          \
    *fetch_out("shmem_" #N "_atomic_fetch_inc_nbi", f, pe) =                                           \
        amo_rmw<Op::add>("shmem_" #N "_atomic_fetch_inc_nbi", d, Id<T>(1), pe);                            \
  }                                                                                                    \
  void shmem_##N##_atomic_fetch_add_nbi(T* f, T* d, T v, int pe) {                                     \
    *fetch_out("shmem_" #N "_atomic_fetch_add_nbi", f, pe) =                                           \
        amo_rmw<Op::add>("shmem_" #N "_atomic_fetch_add_nbi", d, v, pe);                               \
  }
GSHMEM_AMO_STD_TYPES(GSHMEM_DEF_AMO_STD)
#undef GSHMEM_DEF_AMO_STD

#define GSHMEM_DEF_AMO_BIT_OP(T, N, NAME, OP)                                                            \
  T shmem_##N##_atomic_fetch_##NAME(T* d, T v, int pe) {                                               \
    return amo_rmw<OP>("shmem_" #N "_atomic_fetch_" #NAME, d, v, pe);                                  \
  }                                                                                                    \
  void shmem_##N##_atomic_##NAME(T* d, T v, int pe) { amo_rmw<OP>("shmem_" #N "_atomic_" #NAME, d, v, pe); } \
  void shmem_##N##_atomic_fetch_##NAME##_nbi(T* f, T* d, T v, int pe) {                                \
    *fetch_out("shmem_" #N "_atomic_fetch_" #NAME "_nbi", f, pe) =                                     \
        amo_rmw<OP>("shmem_" #N "_atomic_fetch_" #NAME "_nbi", d, v, pe);                              \
  }
#define GSHMEM_DEF_AMO_BIT(T, N)                 \
  GSHMEM_DEF_AMO_BIT_OP(T, N, and, Op::band)     \
  GSHMEM_DEF_AMO_BIT_OP(T, N, or, Op::bor)       \
  GSHMEM_DEF_AMO_BIT_OP(T, N, xor, Op::bxor)
GSHMEM_AMO_BIT_TYPES(GSHMEM_DEF_AMO_BIT)
#undef GSHMEM_DEF_AMO_BIT
#undef GSHMEM_DEF_AMO_BIT_OP

// Deprecated (OpenSHMEM 1.3) names.
#define GSHMEM_DEF_OLD_EXT(T, N)                                                                         \
  T shmem_##N##_fetch(const T* s, int pe) { return amo_fetch("shmem_" #N "_fetch", s, pe); }            \
  void shmem_##N##_set(T* d, T v, int pe) { amo_set("shmem_" #N "_set", d, v, pe); }                   \
  T shmem_##N##_swap(T* d, T v, int pe) { return amo_swap("shmem_" #N "_swap", d, v, pe); }
#define GSHMEM_DEF_OLD_STD(T, N)                                                                         \
  T shmem_##N##_cswap(T* d, T c, T v, int pe) { return amo_cswap("shmem_" #N "_cswap", d, c, v, pe); } \
  T shmem_##N##_finc(T* d, int pe) { return amo_rmw<Op::add>("shmem_" #N "_finc", d, Id<T>(1), pe); }      \
  void shmem_##N##_inc(T* d, int pe) { amo_rmw<Op::add>("shmem_" #N "_inc", d, Id<T>(1), pe); }            \
  T shmem_##N##_fadd(T* d, T v, int pe) { return amo_rmw<Op::add>("shmem_" #N "_fadd", d, v, pe); }    \
  void shmem_##N##_add(T* d, T v, int pe) { amo_rmw<Op::add>("shmem_" #N "_add", d, v, pe); }
GSHMEM_OLD_EXT_TYPES(GSHMEM_DEF_OLD_EXT)
GSHMEM_OLD_STD_TYPES(GSHMEM_DEF_OLD_STD)
#undef GSHMEM_DEF_OLD_EXT
#undef GSHMEM_DEF_OLD_STD
long shmem_swap(long* d, long v, int pe) { return amo_swap("shmem_swap", d, v, pe); }

}  // extern "C"
