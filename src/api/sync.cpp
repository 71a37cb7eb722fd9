// Point-to-point synchronization: wait_until/test and the _all/_any/_some (+_vector) forms,
// signal_fetch/signal_wait_until (core/p2p.hpp).
#include <shmem.h>

#include "core/p2p.hpp"

using namespace gshmem;
using namespace gshmem::core;

namespace {
// Names a type spelled with several words (unsigned long long) so T{} parses in macros.
template <typename T>
using Id = T;
}  // namespace

extern "C" {

#define GSHMEM_DEF_P2P(T, N)                                                                                \
  void shmem_##N##_wait_until(T* v, int c, T x) { wait_one("shmem_" #N "_wait_until", v, c, x); }           \
  void shmem_##N##_wait_until_all(T* v, size_t n, const int* st, int c, T x) {                              \
    wait_all(Cond<T>{"shmem_" #N "_wait_until_all", c, x, nullptr}, v, n, st);                              \
  }                                                                                                         \
  size_t shmem_##N##_wait_until_any(T* v, size_t n, const int* st, int c, T x) {                            \
    return wait_any(Cond<T>{"shmem_" #N "_wait_until_any", c, x, nullptr}, v, n, st);                       \
  }                                                                                                         \
  size_t shmem_##N##_wait_until_some(T* v, size_t n, size_t* ix, const int* st, int c, T x) {               \
    return wait_some(Cond<T>{"shmem_" #N "_wait_until_some", c, x, nullptr}, v, n, ix, st);                 \
  }                                                                                                         \
  void shmem_##N##_wait_until_all_vector(T* v, size_t n, const int* st, int c, const T* x) {                \
    wait_all(Cond<T>{"shmem_" #N "_wait_until_all_vector", c, Id<T>{}, x}, v, n, st);                       \
  }                                                                                                         \
  size_t shmem_##N##_wait_until_any_vector(T* v, size_t n, const int* st, int c, const T* x) {              \
    return wait_any(Cond<T>{"shmem_" #N "_wait_until_any_vector", c, Id<T>{}, x}, v, n, st);                \
  }                                                                                                         \
  size_t shmem_##N##_wait_until_some_vector(T* v, size_t n, size_t* ix, const int* st, int c, const T* x) { \
    return wait_some(Cond<T>{"shmem_" #N "_wait_until_some_vector", c, Id<T>{}, x}, v, n, ix, st);          \
  }                                                                                                         \
  int shmem_##N##_test(T* v, int c, T x) { return test_single("shmem_" #N "_test", v, c, x); }              \
  int shmem_##N##_test_all(T* v, size_t n, const int* st, int c, T x) {                                     \
    check_ivars("shmem_" #N "_test_all", v, n);                                                             \
    return test_all(Cond<T>{"shmem_" #N "_test_all", c, x, nullptr}, v, n, st);                             \
  }                                                                                                         \
  size_t shmem_##N##_test_any(T* v, size_t n, const int* st, int c, T x) {                                  \
    check_ivars("shmem_" #N "_test_any", v, n);                                                             \
    return test_any(Cond<T>{"shmem_" #N "_test_any", c, x, nullptr}, v, n, st);                             \
  }                                                                                                         \
  size_t shmem_##N##_test_some(T* v, size_t n, size_t* ix, const int* st, int c, T x) {                     \
    check_ivars("shmem_" #N "_test_some", v, n);                                                            \
    return test_some(Cond<T>{"shmem_" #N "_test_some", c, x, nullptr}, v, n, ix, st);                       \
  }                                                                                                         \
  int shmem_##N##_test_all_vector(T* v, size_t n, const int* st, int c, const T* x) {                       \
    check_ivars("shmem_" #N "_test_all_vector", v, n);                                                      \
    return test_all(Cond<T>{"shmem_" #N "_test_all_vector", c, Id<T>{}, x}, v, n, st);                      \
  }                                                                                                         \
  size_t shmem_##N##_test_any_vector(T* v, size_t n, const int* st, int c, const T* x) {                    \
    check_ivars("shmem_" #N "_test_any_vector", v, n);                                                      \
    return test_any(Cond<T>{"shmem_" #N "_test_any_vector", c, Id<T>{}, x}, v, n, st);                      \
  }                                                                                                         \
  size_t shmem_##N##_test_some_vector(T* v, size_t n, size_t* ix, const int* st, int c, const T* x) {       \
    check_ivars("shmem_" #N "_test_some_vector", v, n);                                                     \
    return test_some(Cond<T>{"shmem_" #N "_test_some_vector", c, Id<T>{}, x}, v, n, ix, st);                \
  }
GSHMEM_P2P_TYPES(GSHMEM_DEF_P2P)
#undef GSHMEM_DEF_P2P

uint64_t shmem_signal_fetch(const uint64_t* sig_addr) {
  if (!sig_addr) fatal("shmem_signal_fetch", "sig_addr is NULL");
  check_ivars("shmem_signal_fetch", sig_addr, 1);
  return load(sig_addr);
}

uint64_t shmem_signal_wait_until(uint64_t* sig_addr, int cmp, uint64_t cmp_value) {
  const char* call = "shmem_signal_wait_until";
  if (!sig_addr) fatal(call, "sig_addr is NULL");
  check_ivars(call, sig_addr, 1);
  (void)compare(call, uint64_t{}, cmp, uint64_t{});
  uint64_t v = 0;
  wait_for([&] { return compare(call, v = load(sig_addr), cmp, cmp_value); });
  return v;
}

// Deprecated waits: wait while *ivar == cmp_value.
#define GSHMEM_DEF_OLD_WAIT(T, N) \
  void shmem_##N##_wait(T* v, T x) { wait_one("shmem_" #N "_wait", v, SHMEM_CMP_NE, x); }
GSHMEM_OLD_WAIT_TYPES(GSHMEM_DEF_OLD_WAIT)
#undef GSHMEM_DEF_OLD_WAIT
void shmem_wait(long* v, long x) { wait_one("shmem_wait", v, SHMEM_CMP_NE, x); }
void shmem_wait_until(long* v, int c, long x) { wait_one("shmem_wait_until", v, c, x); }

}  // extern "C"
