// Argument checking and address translation shared by every public call. Checks are a handful of
// compares on the hot path; failures go out of line to fatal() (message names call, PE, value).
#pragma once
#include <cstdint>
#include <cstring>

#include "core/runtime.hpp"

namespace gshmem::api {

// Names a type spelled with several words (unsigned long long) so T{} and T(1) parse in macros.
template <typename T>
using Id = T;

[[noreturn]] void bad_address(const char* call, const char* what, const void* addr, size_t bytes, int pe);
[[noreturn]] void not_initialized(const char* call);

inline Runtime& rt(const char* call) {
  if (__builtin_expect(g_rt_state.load(std::memory_order_relaxed) != static_cast<int>(RtState::running), 0))
    not_initialized(call);
  return *g_rt;
}

struct Target {
  char* p;      // pe's mapping of the address, in this process (nullptr when remote)
  bool device;  // GPU memory: host code must go through the driver (api/device_ops.hpp)
  bool remote;  // not mapped: through the proxy / tcp transport at (seg, off)
  transport::Seg seg;
  uint64_t off;
};

// Translates a symmetric address range [addr, addr+bytes) on this PE to pe's mapping of it.
inline Target target(const char* call, const void* addr, size_t bytes, int pe, const char* what = "dest") {
  Runtime& r = rt(call);
  if (__builtin_expect(static_cast<unsigned>(pe) >= static_cast<unsigned>(r.npes), 0))
    fatal(call, "pe %d out of range [0, %d)", pe, r.npes);
  const uintptr_t a = reinterpret_cast<uintptr_t>(addr);
  const heap::Region* reg = &r.heap.heap_region();
  if (a - reg->lo >= reg->size) {
    reg = &r.heap.data_region();
    if (a - reg->lo >= reg->size) bad_address(call, what, addr, bytes, pe);
  }
  const uintptr_t off = a - reg->lo;
  if (__builtin_expect(bytes > reg->size - off, 0)) bad_address(call, what, addr, bytes, pe);
  char* base = reg->peer[static_cast<size_t>(pe)];
  if (__builtin_expect(base == nullptr, 0)) {
    if (!r.tcp) fatal(call, "pe %d is not reachable from this PE (another node)", pe);
    const bool heap = reg == &r.heap.heap_region();
    if (heap && reg->device)  // the device segment: device control block, then the heap
      return {nullptr, false, true, transport::Seg::device, GSHMEM_DEV_CTRL_BYTES + off};
    return {nullptr, false, true, heap ? transport::Seg::host : transport::Seg::data,
            heap ? heap::kControlBytes + off : off};
  }
  return {base + off, reg->device, false, transport::Seg::host, 0};
}

inline transport::Tcp& tcp() { return *g_rt->tcp; }
// Completes every put sent through the transport (part of quiet and of every barrier).
inline void transport_quiet() {
  if (g_rt && g_rt->tcp) g_rt->tcp->quiet();
}

// For callers that touch the memory with CPU instructions: GPU memory is refused with a message.
inline char* remote(const char* call, const void* addr, size_t bytes, int pe, const char* what = "dest") {
  Target t = target(call, addr, bytes, pe, what);
  if (__builtin_expect(t.device || t.remote, 0))
    fatal(call, "%s %p on pe %d is %s; this host-side operation needs direct access", what, addr, pe,
              t.device ? "GPU memory" : "on another node");
  return t.p;
}

// nelems * elem, reporting overflow.
inline size_t bytes_of(const char* call, size_t nelems, size_t elem) {
  if (__builtin_expect(nelems > SIZE_MAX / elem, 0))
    fatal(call, "nelems %zu overflows the address space (element size %zu)", nelems, elem);
  return nelems * elem;
}

inline void check_local(const char* call, const void* p, const char* what, size_t nelems) {
  if (__builtin_expect(p == nullptr, 0)) fatal(call, "%s is NULL with nelems %zu", what, nelems);
}

template <typename T>
inline T* amo_target(const char* call, const T* dest, int pe) {
  if (__builtin_expect(dest == nullptr, 0)) fatal(call, "dest is NULL (target pe %d)", pe);
  char* p = remote(call, dest, sizeof(T), pe);
  if (__builtin_expect(reinterpret_cast<uintptr_t>(p) % sizeof(T) != 0, 0))
    fatal(call, "dest %p is not aligned to %zu bytes (target pe %d)", static_cast<const void*>(dest), sizeof(T), pe);
  return reinterpret_cast<T*>(p);
}

}  // namespace gshmem::api
