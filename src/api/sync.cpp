// Point-to-point synchronization: wait_until/test and the _all/_any/_some (+_vector) forms,
// signal_fetch/signal_wait_until. Every read of an ivar is an acquire load, so data a peer put
// before its flag (with fence or put_signal) is visible once the wait returns.
#include <shmem.h>

#include "api/access.hpp"
#include "api/device_ops.hpp"
#include "common/wait.hpp"

namespace gshmem::api {
namespace {

template <typename T>
inline bool compare(const char* call, T v, int cmp, T x) {
  switch (cmp) {
    case SHMEM_CMP_EQ: return v == x;
    case SHMEM_CMP_NE: return v != x;
    case SHMEM_CMP_GT: return v > x;
    case SHMEM_CMP_GE: return v >= x;
    case SHMEM_CMP_LT: return v < x;
    case SHMEM_CMP_LE: return v <= x;
  }
  fatal(call, "cmp %d is not one of SHMEM_CMP_EQ/NE/GT/GE/LT/LE", cmp);
}

inline bool on_device(const void* p) {
  const heap::Region& h = g_rt->heap.heap_region();
  return h.device && reinterpret_cast<uintptr_t>(p) - h.lo < h.size;
}

// GPU-memory ivars (device heap) are read with a copy through the driver.
template <typename T>
inline T load(const T* p) {
  if (__builtin_expect(on_device(p), 0)) {
    T v;
    dev_copy("shmem_wait_until", &v, p, sizeof(T), true);
    return v;
  }
  return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

// ivars must be symmetric on this PE (they are written by peers).
template <typename T>
inline void check_ivars(const char* call, const T* ivars, size_t n) {
  if (n == 0) return;
  if (!ivars) fatal(call, "ivars is NULL with nelems %zu", n);
  Runtime& r = rt(call);
  (void)target(call, ivars, bytes_of(call, n, sizeof(T)), r.my_pe, "ivars");
}

// One pass over the array. Values: cmp_values (vector) or the single cmp_value.
template <typename T>
struct Cond {
  const char* call;
  int cmp;
  T value;
  const T* values;
  T target(size_t i) const { return values ? values[i] : value; }
};

template <typename T>
inline bool test_one(const Cond<T>& c, const T* ivars, size_t i) {
  return compare(c.call, load(ivars + i), c.cmp, c.target(i));
}

template <typename T>
int test_all(const Cond<T>& c, const T* v, size_t n, const int* st) {
  for (size_t i = 0; i < n; ++i)
    if (!(st && st[i]) && !test_one(c, v, i)) return 0;
  return 1;
}
template <typename T>
size_t test_any(const Cond<T>& c, const T* v, size_t n, const int* st) {
  for (size_t i = 0; i < n; ++i)
    if (!(st && st[i]) && test_one(c, v, i)) return i;
  return SIZE_MAX;
}
template <typename T>
size_t test_some(const Cond<T>& c, const T* v, size_t n, size_t* idx, const int* st) {
  size_t k = 0;
  for (size_t i = 0; i < n; ++i)
    if (!(st && st[i]) && test_one(c, v, i)) idx[k++] = i;
  return k;
}
inline bool all_excluded(size_t n, const int* st) {
  if (!st) return n == 0;
  for (size_t i = 0; i < n; ++i)
    if (!st[i]) return false;
  return true;
}

template <typename T>
void wait_all(const Cond<T>& c, T* v, size_t n, const int* st) {
  check_ivars(c.call, v, n);
  (void)compare(c.call, T{}, c.cmp, T{});
  wait_for([&] { return test_all(c, v, n, st) != 0; });
}
template <typename T>
size_t wait_any(const Cond<T>& c, T* v, size_t n, const int* st) {
  check_ivars(c.call, v, n);
  (void)compare(c.call, T{}, c.cmp, T{});
  if (all_excluded(n, st)) return SIZE_MAX;
  size_t r = SIZE_MAX;
  wait_for([&] { return (r = test_any(c, v, n, st)) != SIZE_MAX; });
  return r;
}
template <typename T>
size_t wait_some(const Cond<T>& c, T* v, size_t n, size_t* idx, const int* st) {
  check_ivars(c.call, v, n);
  (void)compare(c.call, T{}, c.cmp, T{});
  if (all_excluded(n, st)) return 0;
  if (!idx) fatal(c.call, "indices is NULL with nelems %zu", n);
  size_t k = 0;
  wait_for([&] { return (k = test_some(c, v, n, idx, st)) != 0; });
  return k;
}
template <typename T>
void wait_one(const char* call, T* ivar, int cmp, T x) {
  if (!ivar) fatal(call, "ivar is NULL");
  check_ivars(call, ivar, 1);
  (void)compare(call, T{}, cmp, T{});
  wait_for([&] { return compare(call, load(ivar), cmp, x); });
}
template <typename T>
int test_single(const char* call, T* ivar, int cmp, T x) {
  if (!ivar) fatal(call, "ivar is NULL");
  check_ivars(call, ivar, 1);
  return compare(call, load(ivar), cmp, x) ? 1 : 0;
}

}  // namespace
}  // namespace gshmem::api

using namespace gshmem;
using namespace gshmem::api;

extern "C" {

#define GSHMEM_DEF_P2P(T, N)                                                                            \
  void shmem_##N##_wait_until(T* v, int c, T x) { wait_one("shmem_" #N "_wait_until", v, c, x); }       \
  void shmem_##N##_wait_until_all(T* v, size_t n, const int* st, int c, T x) {                        \
    wait_all(Cond<T>{"shmem_" #N "_wait_until_all", c, x, nullptr}, v, n, st);                        \
  }                                                                                                   \
  size_t shmem_##N##_wait_until_any(T* v, size_t n, const int* st, int c, T x) {                      \
    return wait_any(Cond<T>{"shmem_" #N "_wait_until_any", c, x, nullptr}, v, n, st);                \
  }                                                                                                   \
  size_t shmem_##N##_wait_until_some(T* v, size_t n, size_t* ix, const int* st, int c, T x) {         \
    return wait_some(Cond<T>{"shmem_" #N "_wait_until_some", c, x, nullptr}, v, n, ix, st);           \
  }                                                                                                   \
  void shmem_##N##_wait_until_all_vector(T* v, size_t n, const int* st, int c, T* x) {                \
    wait_all(Cond<T>{"shmem_" #N "_wait_until_all_vector", c, Id<T>{}, x}, v, n, st);                     \
  }                                                                                                   \
  size_t shmem_##N##_wait_until_any_vector(T* v, size_t n, const int* st, int c, T* x) {              \
    return wait_any(Cond<T>{"shmem_" #N "_wait_until_any_vector", c, Id<T>{}, x}, v, n, st);              \
  }                                                                                                   \
  size_t shmem_##N##_wait_until_some_vector(T* v, size_t n, size_t* ix, const int* st, int c, T* x) { \
    return wait_some(Cond<T>{"shmem_" #N "_wait_until_some_vector", c, Id<T>{}, x}, v, n, ix, st);        \
  }                                                                                                   \
  int shmem_##N##_test(T* v, int c, T x) { return test_single("shmem_" #N "_test", v, c, x); }        \
  int shmem_##N##_test_all(T* v, size_t n, const int* st, int c, T x) {                               \
    check_ivars("shmem_" #N "_test_all", v, n);                                                       \
    return test_all(Cond<T>{"shmem_" #N "_test_all", c, x, nullptr}, v, n, st);                       \
  }                                                                                                   \
  size_t shmem_##N##_test_any(T* v, size_t n, const int* st, int c, T x) {                            \
    check_ivars("shmem_" #N "_test_any", v, n);                                                       \
    return test_any(Cond<T>{"shmem_" #N "_test_any", c, x, nullptr}, v, n, st);                       \
  }                                                                                                   \
  size_t shmem_##N##_test_some(T* v, size_t n, size_t* ix, const int* st, int c, T x) {               \
    check_ivars("shmem_" #N "_test_some", v, n);                                                      \
    return test_some(Cond<T>{"shmem_" #N "_test_some", c, x, nullptr}, v, n, ix, st);                 \
  }                                                                                                   \
  int shmem_##N##_test_all_vector(T* v, size_t n, const int* st, int c, T* x) {                       \
    check_ivars("shmem_" #N "_test_all_vector", v, n);                                                \
    return test_all(Cond<T>{"shmem_" #N "_test_all_vector", c, Id<T>{}, x}, v, n, st);                    \
  }                                                                                                   \
  size_t shmem_##N##_test_any_vector(T* v, size_t n, const int* st, int c, T* x) {                    \
    check_ivars("shmem_" #N "_test_any_vector", v, n);                                                \
    return test_any(Cond<T>{"shmem_" #N "_test_any_vector", c, Id<T>{}, x}, v, n, st);                    \
  }                                                                                                   \
  size_t shmem_##N##_test_some_vector(T* v, size_t n, size_t* ix, const int* st, int c, T* x) {       \
    check_ivars("shmem_" #N "_test_some_vector", v, n);                                               \
    return test_some(Cond<T>{"shmem_" #N "_test_some_vector", c, Id<T>{}, x}, v, n, ix, st);              \
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
  gshmem::wait_for([&] { return compare(call, v = load(sig_addr), cmp, cmp_value); });
  return v;
}

// Deprecated waits: wait while *ivar == cmp_value.
#define GSHMEM_DEF_OLD_WAIT(T, N) \
  void shmem_##N##_wait(T* v, T x) { wait_one("shmem_" #N "_wait", v, SHMEM_CMP_NE, x); }
GSHMEM_OLD_WAIT_TYPES(GSHMEM_DEF_OLD_WAIT)
#undef GSHMEM_DEF_OLD_WAIT
void shmem_short_wait_until(short* v, int c, short x) { wait_one("shmem_short_wait_until", v, c, x); }
void shmem_wait(long* v, long x) { wait_one("shmem_wait", v, SHMEM_CMP_NE, x); }
void shmem_wait_until(long* v, int c, long x) { wait_one("shmem_wait_until", v, c, x); }

}  // extern "C"
