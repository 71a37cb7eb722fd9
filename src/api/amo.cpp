// Atomic memory operations (core/amo.hpp), and the deprecated OpenSHMEM 1.3 names.
#include <shmem.h>

#include "common/fatal.hpp"
#include "core/amo.hpp"

using namespace gshmem;

namespace {
// Names a type spelled with several words (unsigned long long) so T(1) parses in macros.
template <typename T>
using Id = T;
// The nbi fetch result: stored through core, since fetch may be GPU memory on a GPU PE.
template <typename T>
struct FetchOut {
  const char* call;
  T* fetch;
  void operator=(T v) const { core::store_result(call, fetch, &v, sizeof v); }
};
template <typename T>
FetchOut<T> fetch_out(const char* c, T* fetch, int pe) {
  if (!fetch) fatal(c, "fetch is NULL (target pe %d)", pe);
  return {c, fetch};
}
template <typename T>
T amo_fetch(const char* c, const T* s, int pe) {
  return core::amo(c, const_cast<T*>(s), pe, GSHMEM_AMO_FETCH);
}
template <typename T>
void amo_set(const char* c, T* d, T v, int pe) {
  (void)core::amo(c, d, pe, GSHMEM_AMO_SET, v);
}
template <typename T>
T amo_swap(const char* c, T* d, T v, int pe) {
  return core::amo(c, d, pe, GSHMEM_AMO_SWAP, v);
}
template <typename T>
T amo_cswap(const char* c, T* d, T cond, T v, int pe) {
  return core::amo(c, d, pe, GSHMEM_AMO_CSWAP, cond, v);
}
template <gshmem_amo_op O, typename T>
T amo_rmw(const char* c, T* d, T v, int pe) {
  return core::amo(c, d, pe, O, v);
}
}  // namespace

extern "C" {

#define GSHMEM_DEF_AMO_EXT(T, N)                                                                           \
  T shmem_##N##_atomic_fetch(const T* s, int pe) { return amo_fetch("shmem_" #N "_atomic_fetch", s, pe); } \
  void shmem_##N##_atomic_set(T* d, T v, int pe) { amo_set("shmem_" #N "_atomic_set", d, v, pe); }         \
  T shmem_##N##_atomic_swap(T* d, T v, int pe) { return amo_swap("shmem_" #N "_atomic_swap", d, v, pe); }  \
  void shmem_##N##_atomic_fetch_nbi(T* f, const T* s, int pe) {                                            \
    fetch_out("shmem_" #N "_atomic_fetch_nbi", f, pe) = amo_fetch("shmem_" #N "_atomic_fetch_nbi", s, pe); \
  }                                                                                                        \
  void shmem_##N##_atomic_swap_nbi(T* f, T* d, T v, int pe) {                                              \
    fetch_out("shmem_" #N "_atomic_swap_nbi", f, pe) = amo_swap("shmem_" #N "_atomic_swap_nbi", d, v, pe); \
  }
GSHMEM_AMO_EXT_TYPES(GSHMEM_DEF_AMO_EXT)
#undef GSHMEM_DEF_AMO_EXT

#define GSHMEM_DEF_AMO_STD(T, N)                                                                                     \
  T shmem_##N##_atomic_compare_swap(T* d, T c, T v, int pe) {                                                        \
    return amo_cswap("shmem_" #N "_atomic_compare_swap", d, c, v, pe);                                               \
  }                                                                                                                  \
  T shmem_##N##_atomic_fetch_inc(T* d, int pe) {                                                                     \
    return amo_rmw<GSHMEM_AMO_ADD>("shmem_" #N "_atomic_fetch_inc", d, Id<T>(1), pe);                                \
  }                                                                                                                  \
  void shmem_##N##_atomic_inc(T* d, int pe) { amo_rmw<GSHMEM_AMO_ADD>("shmem_" #N "_atomic_inc", d, Id<T>(1), pe); } \
  T shmem_##N##_atomic_fetch_add(T* d, T v, int pe) {                                                                \
    return amo_rmw<GSHMEM_AMO_ADD>("shmem_" #N "_atomic_fetch_add", d, v, pe);                                       \
  }                                                                                                                  \
  void shmem_##N##_atomic_add(T* d, T v, int pe) { amo_rmw<GSHMEM_AMO_ADD>("shmem_" #N "_atomic_add", d, v, pe); }   \
  void shmem_##N##_atomic_compare_swap_nbi(T* f, T* d, T c, T v, int pe) {                                           \
    fetch_out("shmem_" #N "_atomic_compare_swap_nbi", f, pe) =                                                       \
        amo_cswap("shmem_" #N "_atomic_compare_swap_nbi", d, c, v, pe);                                              \
  }                                                                                                                  \
  void shmem_##N##_atomic_fetch_inc_nbi(T* f, T* d, int pe) {                                                        \
    fetch_out("shmem_" #N "_atomic_fetch_inc_nbi", f, pe) =                                                          \
        amo_rmw<GSHMEM_AMO_ADD>("shmem_" #N "_atomic_fetch_inc_nbi", d, Id<T>(1), pe);                               \
  }                                                                                                                  \
  void shmem_##N##_atomic_fetch_add_nbi(T* f, T* d, T v, int pe) {                                                   \
    fetch_out("shmem_" #N "_atomic_fetch_add_nbi", f, pe) =                                                          \
        amo_rmw<GSHMEM_AMO_ADD>("shmem_" #N "_atomic_fetch_add_nbi", d, v, pe);                                      \
  }
GSHMEM_AMO_STD_TYPES(GSHMEM_DEF_AMO_STD)
#undef GSHMEM_DEF_AMO_STD

#define GSHMEM_DEF_AMO_BIT_OP(T, N, NAME, OP)                                                                \
  T shmem_##N##_atomic_fetch_##NAME(T* d, T v, int pe) {                                                     \
    return amo_rmw<OP>("shmem_" #N "_atomic_fetch_" #NAME, d, v, pe);                                        \
  }                                                                                                          \
  void shmem_##N##_atomic_##NAME(T* d, T v, int pe) { amo_rmw<OP>("shmem_" #N "_atomic_" #NAME, d, v, pe); } \
  void shmem_##N##_atomic_fetch_##NAME##_nbi(T* f, T* d, T v, int pe) {                                      \
    fetch_out("shmem_" #N "_atomic_fetch_" #NAME "_nbi", f, pe) =                                            \
        amo_rmw<OP>("shmem_" #N "_atomic_fetch_" #NAME "_nbi", d, v, pe);                                    \
  }
#define GSHMEM_DEF_AMO_BIT(T, N)                   \
  GSHMEM_DEF_AMO_BIT_OP(T, N, and, GSHMEM_AMO_AND) \
  GSHMEM_DEF_AMO_BIT_OP(T, N, or, GSHMEM_AMO_OR)   \
  GSHMEM_DEF_AMO_BIT_OP(T, N, xor, GSHMEM_AMO_XOR)
GSHMEM_AMO_BIT_TYPES(GSHMEM_DEF_AMO_BIT)
#undef GSHMEM_DEF_AMO_BIT
#undef GSHMEM_DEF_AMO_BIT_OP

// Deprecated (OpenSHMEM 1.3) names.
#define GSHMEM_DEF_OLD_EXT(T, N)                                                             \
  T shmem_##N##_fetch(const T* s, int pe) { return amo_fetch("shmem_" #N "_fetch", s, pe); } \
  void shmem_##N##_set(T* d, T v, int pe) { amo_set("shmem_" #N "_set", d, v, pe); }         \
  T shmem_##N##_swap(T* d, T v, int pe) { return amo_swap("shmem_" #N "_swap", d, v, pe); }
#define GSHMEM_DEF_OLD_STD(T, N)                                                                             \
  T shmem_##N##_cswap(T* d, T c, T v, int pe) { return amo_cswap("shmem_" #N "_cswap", d, c, v, pe); }       \
  T shmem_##N##_finc(T* d, int pe) { return amo_rmw<GSHMEM_AMO_ADD>("shmem_" #N "_finc", d, Id<T>(1), pe); } \
  void shmem_##N##_inc(T* d, int pe) { amo_rmw<GSHMEM_AMO_ADD>("shmem_" #N "_inc", d, Id<T>(1), pe); }       \
  T shmem_##N##_fadd(T* d, T v, int pe) { return amo_rmw<GSHMEM_AMO_ADD>("shmem_" #N "_fadd", d, v, pe); }   \
  void shmem_##N##_add(T* d, T v, int pe) { amo_rmw<GSHMEM_AMO_ADD>("shmem_" #N "_add", d, v, pe); }
GSHMEM_OLD_EXT_TYPES(GSHMEM_DEF_OLD_EXT)
GSHMEM_OLD_STD_TYPES(GSHMEM_DEF_OLD_STD)
#undef GSHMEM_DEF_OLD_EXT
#undef GSHMEM_DEF_OLD_STD
long shmem_swap(long* d, long v, int pe) { return amo_swap("shmem_swap", d, v, pe); }

}  // extern "C"
