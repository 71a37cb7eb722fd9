// Point-to-point synchronization on this PE's symmetric objects: wait_until/test and the
// _all/_any/_some (+_vector) forms, signal_fetch/signal_wait_until. Every read of an ivar is an
// acquire load (GPU memory: a driver copy), so data a peer put before its flag (with fence or
// put_signal) is visible once the wait returns. Waits back off (common/wait.hpp) and check the
// job's health while sleeping.
#pragma once
#include <cstddef>
#include <cstdint>

#include "common/fatal.hpp"
#include "common/wait.hpp"
#include "core/rma.hpp"
#include "gshmem/device_host/ops.h"

namespace gshmem::core {

// [ivars, ivars + bytes) must be this PE's symmetric memory; ends the job naming call otherwise.
void check_own_symmetric(const char* call, const void* ivars, size_t bytes, const char* what);
bool ivar_on_device(const void* p);  // on this PE's device heap
void ivar_read(const char* call, void* dst, const void* src, size_t n);
// Issues this PE's queued host nbi puts (mem::DeviceOps::put_from_heap) before a wait, so a peer
// that waits for them while this PE waits for the peer is not held up until a quiet.
void flush_queued(const char* call);

template <typename T>
inline bool compare(const char* call, T v, int cmp, T x) {
  switch (cmp) {
    case SHMEM_CMP_EQ:
      return v == x;
    case SHMEM_CMP_NE:
      return v != x;
    case SHMEM_CMP_GT:
      return v > x;
    case SHMEM_CMP_GE:
      return v >= x;
    case SHMEM_CMP_LT:
      return v < x;
    case SHMEM_CMP_LE:
      return v <= x;
  }
  fatal(call, "cmp %d is not one of SHMEM_CMP_EQ/NE/GT/GE/LT/LE", cmp);
}

// GPU-memory ivars (device heap) are read with a copy through the driver.
template <typename T>
inline T load(const T* p) {
  if (__builtin_expect(ivar_on_device(p), 0)) {
    T v;
    ivar_read("shmem_wait_until", &v, p, sizeof(T));
    return v;
  }
  return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

// ivars must be symmetric on this PE (they are written by peers).
template <typename T>
inline void check_ivars(const char* call, const T* ivars, size_t n) {
  if (n == 0) return;
  if (!ivars) fatal(call, "ivars is NULL with nelems %zu", n);
  check_own_symmetric(call, ivars, bytes_of(call, n, sizeof(T)), "ivars");
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
// The search starts after the index this thread returned last, so with status NULL every
// satisfied index is returned eventually by repeated calls (OpenSHMEM 1.5, shmem_test_any).
inline thread_local size_t any_next = 0;
template <typename T>
size_t test_any(const Cond<T>& c, const T* v, size_t n, const int* st) {
  if (n == 0) return SIZE_MAX;
  const size_t start = any_next % n;
  for (size_t j = 0; j < n; ++j) {
    const size_t i = (start + j) % n;
    if (!(st && st[i]) && test_one(c, v, i)) {
      any_next = i + 1;
      return i;
    }
  }
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
  flush_queued(c.call);
  wait_for([&] { return test_all(c, v, n, st) != 0; });
}
template <typename T>
size_t wait_any(const Cond<T>& c, T* v, size_t n, const int* st) {
  check_ivars(c.call, v, n);
  (void)compare(c.call, T{}, c.cmp, T{});
  if (all_excluded(n, st)) return SIZE_MAX;
  size_t r = SIZE_MAX;
  flush_queued(c.call);
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
  flush_queued(c.call);
  wait_for([&] { return (k = test_some(c, v, n, idx, st)) != 0; });
  return k;
}
template <typename T>
void wait_one(const char* call, T* ivar, int cmp, T x) {
  if (!ivar) fatal(call, "ivar is NULL");
  check_ivars(call, ivar, 1);
  (void)compare(call, T{}, cmp, T{});
  flush_queued(call);
  wait_for([&] { return compare(call, load(ivar), cmp, x); });
}
template <typename T>
int test_single(const char* call, T* ivar, int cmp, T x) {
  if (!ivar) fatal(call, "ivar is NULL");
  check_ivars(call, ivar, 1);
  return compare(call, load(ivar), cmp, x) ? 1 : 0;
}

}  // namespace gshmem::core
