#include "core/buffers.hpp"

#include <shmemx.h>
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <mutex>
#include <string>
#include <vector>

#include "core/alloc.hpp"
#include "core/detail/runtime.hpp"
#include "core/rma.hpp"
#include "mem/user_memory.hpp"

namespace gshmem::core {
namespace {

struct Reg {
  uintptr_t base;
  size_t size;
  bool device;
  unsigned long long buffer_id;  // the CUDA allocation's id (device): a changed id means it was freed
  std::vector<uint64_t> tokens;  // per transport (Runtime::transports): its registration there
};
struct SymReg {
  uintptr_t user;  // this PE's buffer
  size_t size;
  size_t off;     // heap offset of the symmetric region
  size_t mapped;  // rounded up to the VMM granularity
};

std::mutex g_mu;
std::vector<Reg> g_regs;
std::vector<SymReg> g_syms;
mem::UserAllocations g_allocs;

void* as_ptr(uintptr_t a) { return reinterpret_cast<void*>(a); }

// What the CUDA driver says about p on this PE's GPU: device memory of which allocation.
struct GpuMem {
  bool device = false;
  int ordinal = -1;
  unsigned long long id = 0;
  uintptr_t lo = 0;
  size_t len = 0;
};

GpuMem gpu_mem(Runtime& r, const void* p) {
  GpuMem m;
#if GSHMEM_HAVE_CUDA
  if (!r.gpu) return m;
  const cu::Driver& d = *r.gpu->drv;
  mem::gpu_make_current(*r.gpu);
  const auto dp = reinterpret_cast<CUdeviceptr>(p);
  CUmemorytype t{};
  if (d.cuPointerGetAttribute(&t, CU_POINTER_ATTRIBUTE_MEMORY_TYPE, dp) != CUDA_SUCCESS || t != CU_MEMORYTYPE_DEVICE)
    return m;
  m.device = true;
  d.cuPointerGetAttribute(&m.ordinal, CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, dp);
  d.cuPointerGetAttribute(&m.id, CU_POINTER_ATTRIBUTE_BUFFER_ID, dp);
  CUdeviceptr lo = 0;
  if (d.cuMemGetAddressRange(&lo, &m.len, dp) == CUDA_SUCCESS) m.lo = static_cast<uintptr_t>(lo);
#else
  (void)r;
  (void)p;
#endif
  return m;
}

// The registration's memory is gone (device memory freed, or reallocated as another buffer).
bool stale(Runtime& r, const Reg& g) {
  if (!g.device) return false;
  const GpuMem m = gpu_mem(r, as_ptr(g.base));
  return !m.device || m.id != g.buffer_id;
}

bool overlaps(uintptr_t a, size_t an, uintptr_t b, size_t bn) { return a < b + bn && b < a + an; }

// Whether [p, p + n) touches the symmetric heap or the globals.
bool touches_symmetric(Runtime& r, uintptr_t p, size_t n) {
  const heap::Region& h = r.heap.heap_region();
  const heap::Region& d = r.heap.data_region();
  return overlaps(p, n, h.lo, h.size) || (d.size && overlaps(p, n, d.lo, d.size));
}

std::string range(uintptr_t p, size_t n) {
  char buf[96];
  snprintf(buf, sizeof buf, "[%p, %p)", as_ptr(p), as_ptr(p + n));
  return buf;
}

void unregister_at_transports(Runtime& r, const Reg& g) {
  for (size_t i = 0; i < g.tokens.size() && i < r.transports.size(); ++i)
    if (g.tokens[i]) r.transports[i].t->unregister_buffer(g.tokens[i]);
}

// Registers [base, base + size) with every transport that registers local memory (each keeps its
// own page rounding). Returns an error message, empty on success (nothing stays registered then).
std::string register_at_transports(Runtime& r, Reg& g) {
  g.tokens.assign(r.transports.size(), 0);
  for (size_t i = 0; i < r.transports.size(); ++i) {
    if (!r.transports[i].collective) continue;
    const transport::Result res = r.transports[i].t->register_buffer(as_ptr(g.base), g.size, g.device, &g.tokens[i]);
    if (!res.ok()) {
      unregister_at_transports(r, g);
      return res.what();
    }
  }
  return {};
}

// Collective: every PE's ok; on failure of another PE, says which.
bool all_ok(const char* call, Runtime& r, bool ok) {
  bool all = false;
  int bad = -1;
  if (boot::all_ok(*r.boot, ok, &all, &bad) != Status::ok) fatal(call, "bootstrap allgather failed");
  if (!all && ok) report_error(call, "PE %d failed (its message says why); nothing was registered", bad);
  return all;
}

}  // namespace

void* mem_alloc(const char* call, size_t size) {
  Runtime& r = rt(call);
  if (size == 0) return nullptr;
  void* p = nullptr;
  const Status st = g_allocs.alloc(r.gpu_context(), size, &p);
  if (st != Status::ok) {
    report_error(call, "cannot allocate %zu bytes of %s memory (%s)", size, r.has_gpu() ? "GPU" : "host",
                 status_name(st));
    return nullptr;
  }
  return p;
}

int mem_free(const char* call, void* ptr) {
  Runtime& r = rt(call);
  if (!ptr) return SHMEMX_SUCCESS;
  std::lock_guard<std::mutex> lock(g_mu);
  mem::UserAlloc a;
  if (!g_allocs.find(ptr, 1, &a) || a.base != reinterpret_cast<uintptr_t>(ptr)) {
    report_error(call, "%p was not returned by shmemx_mem_alloc%s", ptr,
                 g_allocs.find(ptr, 1, &a) ? " (it is inside an allocation: pass its start)" : "");
    return SHMEMX_ERROR_INVALID_VALUE;
  }
  for (const Reg& g : g_regs)
    if (overlaps(g.base, g.size, a.base, a.mapped)) {
      report_error(call, "%p is registered (shmemx_buffer_register of %s): unregister it before freeing", ptr,
                   range(g.base, g.size).c_str());
      return SHMEMX_ERROR_INVALID_VALUE;
    }
  for (const SymReg& s : g_syms)
    if (overlaps(s.user, s.size, a.base, a.mapped)) {
      report_error(call,
                   "%p is registered symmetric (shmemx_buffer_register_symmetric returned %p): unregister it "
                   "before freeing",
                   ptr, static_cast<void*>(r.heap.base() + s.off));
      return SHMEMX_ERROR_INVALID_VALUE;
    }
  return g_allocs.free(ptr) == Status::ok ? SHMEMX_SUCCESS : SHMEMX_ERROR_INTERNAL;
}

int buffer_register(const char* call, void* ptr, size_t size) {
  Runtime& r = rt(call);
  const auto p = reinterpret_cast<uintptr_t>(ptr);
  if (!ptr) {
    report_error(call, "addr is NULL (length %zu)", size);
    return SHMEMX_ERROR_INVALID_VALUE;
  }
  if (size == 0 || p + size < p) {
    report_error(call, "length %zu at %p is not a valid range", size, ptr);
    return SHMEMX_ERROR_INVALID_VALUE;
  }
  if (touches_symmetric(r, p, size)) {
    report_error(call, "%s is symmetric memory (heap or globals) already: it needs no registration",
                 range(p, size).c_str());
    return SHMEMX_ERROR_INVALID_VALUE;
  }
  std::lock_guard<std::mutex> lock(g_mu);
  for (const Reg& g : g_regs) {
    if (!overlaps(p, size, g.base, g.size)) continue;
    if (stale(r, g))
      report_error(call,
                   "%s overlaps the registration of %s, whose memory was freed while registered: unregister it "
                   "(shmemx_buffer_unregister(%p)) first",
                   range(p, size).c_str(), range(g.base, g.size).c_str(), as_ptr(g.base));
    else if (g.base == p && g.size == size)
      report_error(call, "%s is registered already (double registration)", range(p, size).c_str());
    else
      report_error(call, "%s overlaps the registration of %s", range(p, size).c_str(), range(g.base, g.size).c_str());
    return SHMEMX_ERROR_INVALID_VALUE;
  }
  Reg g{p, size, false, 0, {}};
  const GpuMem m = gpu_mem(r, ptr);
  if (m.device) {
#if GSHMEM_HAVE_CUDA
    if (m.ordinal != r.gpu->ordinal) {
      report_error(call, "%p is memory of GPU %d; this PE uses GPU %d", ptr, m.ordinal, r.gpu->ordinal);
      return SHMEMX_ERROR_INVALID_VALUE;
    }
#endif
    if (m.lo && (p + size > m.lo + m.len)) {
      report_error(call, "%s extends past the end of its GPU allocation %s", range(p, size).c_str(),
                   range(m.lo, m.len).c_str());
      return SHMEMX_ERROR_INVALID_VALUE;
    }
    g.device = true;
    g.buffer_id = m.id;
  }
  const std::string why = register_at_transports(r, g);
  if (!why.empty()) {
    report_error(call, "%s: %s", range(p, size).c_str(), why.c_str());
    return SHMEMX_ERROR_NOT_SUPPORTED;
  }
  g_regs.push_back(g);
  return SHMEMX_SUCCESS;
}

int buffer_unregister(const char* call, void* ptr) {
  Runtime& r = rt(call);
  const auto p = reinterpret_cast<uintptr_t>(ptr);
  std::lock_guard<std::mutex> lock(g_mu);
  for (size_t i = 0; i < g_regs.size(); ++i) {
    const Reg g = g_regs[i];
    if (g.base != p) continue;
    quiet(call);  // nothing in flight uses it any more
    unregister_at_transports(r, g);
    g_regs.erase(g_regs.begin() + static_cast<std::ptrdiff_t>(i));
    if (stale(r, g)) {
      report_error(call, "the memory of %s was freed while registered (unregister before freeing)",
                   range(g.base, g.size).c_str());
      return SHMEMX_ERROR_INVALID_VALUE;
    }
    return SHMEMX_SUCCESS;
  }
  for (const Reg& g : g_regs)
    if (p > g.base && p < g.base + g.size) {
      report_error(call, "%p is inside the registration of %s: pass its start", ptr, range(g.base, g.size).c_str());
      return SHMEMX_ERROR_INVALID_VALUE;
    }
  report_error(call, "%p is not registered", ptr);
  return SHMEMX_ERROR_INVALID_VALUE;
}

void buffer_unregister_all(const char* call) {
  Runtime& r = rt(call);
  std::lock_guard<std::mutex> lock(g_mu);
  if (g_regs.empty()) return;
  quiet(call);
  for (const Reg& g : g_regs) unregister_at_transports(r, g);
  g_regs.clear();
}

void* buffer_register_symmetric(const char* call, void* ptr, size_t size, int flags) {
  Runtime& r = rt(call);
  r.teams.check_args_or_fail(call, *r.teams.get(team::kWorld), 0x5e9, size, static_cast<uint64_t>(flags));
  const auto p = reinterpret_cast<uintptr_t>(ptr);
  std::string why;
  if (!ptr || size == 0 || p + size < p) {
    char b[96];
    snprintf(b, sizeof b, "addr %p with size %zu is not a valid buffer", ptr, size);
    why = b;
  } else if (flags != 0) {
    why = "flags " + std::to_string(flags) + " (no flags are defined; pass 0)";
  } else if (!r.heap.growable()) {
    why = r.has_gpu() ? "the device heap is not on cuMem VMM (GSHMEM_DEVICE_ALLOC=ipc): regions cannot join it"
                      : "this is a CPU PE: symmetric registration needs the device heap of a GPU PE";
  } else if (touches_symmetric(r, p, size)) {
    why = range(p, size) + " is symmetric memory already";
  } else {
    std::lock_guard<std::mutex> lock(g_mu);
    for (const SymReg& s : g_syms)
      if (overlaps(p, size, s.user, s.size)) why = range(p, size) + " is registered symmetric already";
  }
  if (!why.empty()) report_error(call, "%s", why.c_str());
  if (!all_ok(call, r, why.empty())) return nullptr;
  quiet(call);
  std::lock_guard<std::mutex> heap_lock(heap_mutex());
  std::lock_guard<std::mutex> lock(g_mu);
  SymReg s{p, size, 0, 0};
  const Status st = r.heap.adopt(*r.boot, ptr, size, &s.off, &s.mapped);
  if (st != Status::ok) {
    if (st != Status::peer_failed)
      report_error(call, "%s cannot join the symmetric heap (%s; the message above says why)", range(p, size).c_str(),
                   status_name(st));
    else report_error(call, "another PE's buffer could not join the symmetric heap; nothing was registered");
    return nullptr;
  }
  transports_extend(call, r, s.off, s.mapped);
  republish_device_state(r);
  g_syms.push_back(s);
  barrier_all(call);  // every PE's transports know the region before anyone targets it
  return r.heap.base() + s.off;
}

int buffer_unregister_symmetric(const char* call, void* ptr, size_t size) {
  Runtime& r = rt(call);
  const auto p = reinterpret_cast<uintptr_t>(ptr);
  size_t idx = SIZE_MAX;
  {
    std::lock_guard<std::mutex> lock(g_mu);
    for (size_t i = 0; i < g_syms.size(); ++i)
      if (reinterpret_cast<uintptr_t>(r.heap.base()) + g_syms[i].off == p) idx = i;
    if (idx == SIZE_MAX)
      report_error(call, "%p was not returned by shmemx_buffer_register_symmetric (or is unregistered already)", ptr);
    else if (g_syms[idx].size != size)
      report_error(call, "size %zu differs from the %zu bytes registered at %p", size, g_syms[idx].size, ptr);
  }
  bool ok;
  {
    std::lock_guard<std::mutex> lock(g_mu);
    ok = idx != SIZE_MAX && idx < g_syms.size() && g_syms[idx].size == size;
  }
  if (!all_ok(call, r, ok)) return SHMEMX_ERROR_INVALID_VALUE;
  barrier_all(call);  // nobody targets the region any more
  std::lock_guard<std::mutex> heap_lock(heap_mutex());
  std::lock_guard<std::mutex> lock(g_mu);
  idx = SIZE_MAX;  // look again: another thread may have changed the table meanwhile
  for (size_t i = 0; i < g_syms.size(); ++i)
    if (reinterpret_cast<uintptr_t>(r.heap.base()) + g_syms[i].off == p) idx = i;
  if (idx == SIZE_MAX) {
    report_error(call, "%p was unregistered by another thread meanwhile", ptr);
    return SHMEMX_ERROR_INVALID_VALUE;
  }
  const SymReg s = g_syms[idx];
  g_syms.erase(g_syms.begin() + static_cast<std::ptrdiff_t>(idx));
  transports_drop(r, s.off, s.mapped);
  if (r.heap.unmap_range(s.off, s.mapped) != Status::ok) {
    report_error(call, "unmapping the region at %p failed (see above)", ptr);
    return SHMEMX_ERROR_INTERNAL;
  }
  return SHMEMX_SUCCESS;
}

void release_buffers() noexcept {
  std::lock_guard<std::mutex> lock(g_mu);
  g_regs.clear();
  g_syms.clear();
  g_allocs.release_all();
}

}  // namespace gshmem::core
