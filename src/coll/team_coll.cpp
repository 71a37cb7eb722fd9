#include "coll/team_coll.hpp"

#include <cstring>

#include "coll/env.hpp"
#include "coll/gpu_coll.hpp"
#include "coll/groups.hpp"
#include "gshmem/constants.h"

namespace gshmem::coll {

namespace {
bool checks_on(const char* call) { return env(call).cfg->GSHMEM_COLL_CHECKS; }

// Host collectives on the device heap run the GPU collective kernels on the PE's stream.
bool on_device(const char* call, int team, const void* d, const void* s, uint64_t op, uint64_t a, uint64_t b) {
  if (!device_buffers(call, d, s)) return false;
  if (checks_on(call)) env(call).teams->check_args_or_fail(call, team_for(call, team), op, a, b);
  return true;
}
}  // namespace

size_t bytes_of(const char* call, size_t nelems, size_t elem) {
  if (elem && nelems > SIZE_MAX / elem)
    fatal(call, "nelems %zu overflows the address space (element size %zu)", nelems, elem);
  return nelems * elem;
}

void team_host(const char* call, int handle, uint64_t op, uint64_t a, uint64_t b,
               const std::function<void(Group&, int)>& body) {
  team::Team& t = team_for(call, handle);
  if (checks_on(call)) env(call).teams->check_args_or_fail(call, t, op, a, b);
  Group g = team_group(call, t);
  body(g, t.size());
}

bool reduce_on_device(const char* call, int team, void* d, const void* s, size_t n, size_t elem, char kind,
                      gshmem_reduce_op op) {
  if (!on_device(call, team, d, s, op_reduce, bytes_of(call, n, elem), 0)) return false;
  dev_reduce(call, team, d, s, n, elem, kind, op, nullptr);
  return true;
}

bool scan_on_device(const char* call, int team, void* d, const void* s, size_t n, size_t elem, char kind,
                    bool exclusive) {
  if (!on_device(call, team, d, s, exclusive ? op_exscan : op_inscan, bytes_of(call, n, elem), 0)) return false;
  if (d != s) check_no_overlap(call, d, n * elem, s, n * elem);
  dev_scan(call, team, d, s, n, elem, kind, exclusive, nullptr);
  return true;
}

float f16_to_float(uint16_t v, char kind) {
  uint32_t x;
  if (kind == 'b') {
    x = static_cast<uint32_t>(v) << 16;
  } else {
    const uint32_t sign = static_cast<uint32_t>(v & 0x8000) << 16, exp = (v >> 10) & 0x1f;
    uint32_t man = v & 0x3ff;
    if (exp == 0x1f) {
      x = sign | 0x7f800000u | (man << 13);
    } else if (exp) {
      x = sign | ((exp + 112) << 23) | (man << 13);
    } else if (!man) {
      x = sign;
    } else {  // subnormal: normalise
      int k = 0;
      while (!(man & 0x400)) man <<= 1, ++k;
      x = sign | (static_cast<uint32_t>(113 - k) << 23) | ((man & 0x3ff) << 13);
    }
  }
  float f;
  memcpy(&f, &x, 4);
  return f;
}

uint16_t float_to_f16(float f, char kind) {
  uint32_t x;
  memcpy(&x, &f, 4);
  if (kind == 'b') {
    if ((x & 0x7fffffffu) > 0x7f800000u) return static_cast<uint16_t>((x >> 16) | 0x40);  // quiet NaN
    x += 0x7fffu + ((x >> 16) & 1);
    return static_cast<uint16_t>(x >> 16);
  }
  const uint32_t sign = (x >> 16) & 0x8000, exp = (x >> 23) & 0xff;
  uint32_t man = x & 0x7fffff;
  if (exp == 0xff) return static_cast<uint16_t>(sign | 0x7c00 | (man ? 0x200 | (man >> 13) : 0));
  const int e = static_cast<int>(exp) - 127 + 15;
  if (e >= 31) return static_cast<uint16_t>(sign | 0x7c00);
  if (e <= 0) {  // subnormal half (or zero)
    if (e < -10) return static_cast<uint16_t>(sign);
    man |= 0x800000;
    const int shift = 14 - e;
    uint32_t h = man >> shift;
    const uint32_t rem = man & ((1u << shift) - 1), half = 1u << (shift - 1);
    if (rem > half || (rem == half && (h & 1))) ++h;
    return static_cast<uint16_t>(sign | h);
  }
  uint32_t h = sign | (static_cast<uint32_t>(e) << 10) | (man >> 13);
  const uint32_t rem = man & 0x1fff;
  if (rem > 0x1000 || (rem == 0x1000 && (h & 1))) ++h;  // a carry into the exponent is right (up to inf)
  return static_cast<uint16_t>(h);
}

bool reducescatter_on_device(const char* call, int team, void* d, const void* s, size_t n, size_t elem, char kind,
                             gshmem_reduce_op op) {
  if (!on_device(call, team, d, s, op_reducescatter, bytes_of(call, n, elem), 0)) return false;
  dev_reducescatter(call, team, d, s, n, elem, kind, op, nullptr);
  return true;
}

int broadcast(const char* call, int team, void* d, const void* s, size_t n, size_t e, int root) {
  const size_t bytes = bytes_of(call, n, e);
  if (on_device(call, team, d, s, op_bcast, bytes, static_cast<uint64_t>(root)))
    return dev_broadcast(call, team, d, s, bytes, root, nullptr), 0;
  team_host(call, team, op_bcast, bytes, static_cast<uint64_t>(root), [&](Group& g, int size) {
    if (root < 0 || root >= size) fatal(call, "PE_root %d is not in the team (size %d)", root, size);
    check_sym(call, d, bytes, "dest");
    check_sym(call, s, bytes, "source");
    coll::broadcast(g, d, s, bytes, root, true);
  });
  return 0;
}

int fcollect(const char* call, int team, void* d, const void* s, size_t n, size_t e) {
  const size_t bytes = bytes_of(call, n, e);
  if (on_device(call, team, d, s, op_fcollect, bytes, 0)) return dev_fcollect(call, team, d, s, bytes, nullptr), 0;
  team_host(call, team, op_fcollect, bytes, 0, [&](Group& g, int size) {
    check_sym(call, d, bytes * static_cast<size_t>(size), "dest");
    check_sym(call, s, bytes, "source");
    coll::fcollect(g, d, s, bytes);
  });
  return 0;
}

int collect(const char* call, int team, void* d, const void* s, size_t n, size_t e) {
  const size_t bytes = bytes_of(call, n, e);
  if (on_device(call, team, d, s, op_collect, e, 0)) return dev_collect(call, team, d, s, bytes, nullptr), 0;
  team_host(call, team, op_collect, e, 0, [&](Group& g, int) {
    check_sym(call, s, bytes, "source");
    if (bytes) check_sym(call, d, bytes, "dest");
    coll::collect(g, d, s, bytes);
  });
  return 0;
}

int alltoall(const char* call, int team, void* d, const void* s, size_t n, size_t e) {
  const size_t bytes = bytes_of(call, n, e);
  if (on_device(call, team, d, s, op_alltoall, bytes, 0)) return dev_alltoall(call, team, d, s, bytes, nullptr), 0;
  team_host(call, team, op_alltoall, bytes, 0, [&](Group& g, int size) {
    check_sym(call, d, bytes * static_cast<size_t>(size), "dest");
    check_sym(call, s, bytes * static_cast<size_t>(size), "source");
    coll::alltoall(g, d, s, bytes);
  });
  return 0;
}

int alltoalls(const char* call, int team, void* d, const void* s, ptrdiff_t dst, ptrdiff_t sst, size_t n, size_t e) {
  if (dst < 1 || sst < 1) fatal(call, "strides must be positive (dst %td, sst %td)", dst, sst);
  const uint64_t strides = (static_cast<uint64_t>(dst) << 32) ^ static_cast<uint64_t>(sst);
  if (on_device(call, team, d, s, op_alltoalls, n, strides))
    return dev_alltoalls(call, team, d, s, dst, sst, n, e, nullptr), 0;
  team_host(call, team, op_alltoalls, n, strides, [&](Group& g, int size) {
    const size_t m = bytes_of(call, static_cast<size_t>(size), n);  // overflow-checked
    auto span_of = [&](ptrdiff_t st) {
      return m ? bytes_of(call, bytes_of(call, m - 1, static_cast<size_t>(st)) + 1, e) : 0;
    };
    check_sym(call, d, span_of(dst), "dest");
    check_sym(call, s, span_of(sst), "source");
    coll::alltoalls(g, d, s, dst, sst, n, e);
  });
  return 0;
}

// ---- deprecated active-set forms ----

void active(const char* call, int start, int log_stride, int size, long* pSync,
            const std::function<void(Group&)>& body) {
  Group g = active_set_group(call, start, log_stride, size, pSync);
  body(g);
  pSync[64] = SHMEM_SYNC_VALUE;  // the published word (collect) goes back to the initial value
}

void active_sync(const char* call, int start, int log_stride, int size, long* pSync, bool quiet_first) {
  active(call, start, log_stride, size, pSync, [&](Group& g) {
    if (quiet_first) env(call).quiet();
    g.sync();
  });
}

void active_broadcast(const char* call, void* d, const void* s, size_t bytes, int root, int start, int log_stride,
                      int size, long* pSync) {
  if (root < 0 || root >= size) fatal(call, "PE_root %d is not in the active set (size %d)", root, size);
  check_sym(call, d, bytes, "dest");
  check_sym(call, s, bytes, "source");
  active(call, start, log_stride, size, pSync, [&](Group& g) { coll::broadcast(g, d, s, bytes, root, false); });
}

void active_collect(const char* call, void* d, const void* s, size_t bytes, int start, int log_stride, int size,
                    long* pSync) {
  check_sym(call, s, bytes, "source");
  active(call, start, log_stride, size, pSync, [&](Group& g) { coll::collect(g, d, s, bytes); });
}

void active_fcollect(const char* call, void* d, const void* s, size_t bytes, int start, int log_stride, int size,
                     long* pSync) {
  check_sym(call, d, bytes * static_cast<size_t>(size), "dest");
  check_sym(call, s, bytes, "source");
  active(call, start, log_stride, size, pSync, [&](Group& g) { coll::fcollect(g, d, s, bytes); });
}

void active_alltoall(const char* call, void* d, const void* s, size_t bytes, int start, int log_stride, int size,
                     long* pSync) {
  check_sym(call, d, bytes * static_cast<size_t>(size), "dest");
  check_sym(call, s, bytes * static_cast<size_t>(size), "source");
  active(call, start, log_stride, size, pSync, [&](Group& g) { coll::alltoall(g, d, s, bytes); });
}

void active_alltoalls(const char* call, void* d, const void* s, ptrdiff_t dst, ptrdiff_t sst, size_t nelems,
                      size_t elem, int start, int log_stride, int size, long* pSync) {
  if (dst < 1 || sst < 1) fatal(call, "strides must be positive (dst %td, sst %td)", dst, sst);
  active(call, start, log_stride, size, pSync, [&](Group& g) { coll::alltoalls(g, d, s, dst, sst, nelems, elem); });
}

}  // namespace gshmem::coll
