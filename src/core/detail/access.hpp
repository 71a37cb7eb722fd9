// Address translation and routing for host calls (core's files only): where a symmetric range is
// on a PE and how to reach it, plus the host-side GPU operations on mapped device segments.
#pragma once
#include <cstddef>
#include <cstdint>

#include "core/detail/runtime.hpp"

namespace gshmem::core {

struct Target {
  char* p;                    // pe's mapping of the address in this process (null when not mapped)
  bool device;                // GPU memory: host code goes through the driver
  transport::Transport* via;  // not mapped: the route's transport, at (seg, off)
  transport::Seg seg;
  uint64_t off;
};

[[noreturn]] void bad_address(const char* call, const char* what, const void* addr, size_t bytes, int pe,
                              heap::Target::Error e);

// Translates a symmetric range [addr, addr + bytes) of this PE to pe's copy of it; ends the job
// naming call, the PE and the address when pe is out of range or the range is not symmetric.
inline Target target(const char* call, const void* addr, size_t bytes, int pe, const char* what = "dest") {
  Runtime& r = rt(call);
  if (__builtin_expect(static_cast<unsigned>(pe) >= static_cast<unsigned>(r.npes), 0))
    fatal(call, "pe %d out of range [0, %d)", pe, r.npes);
  const heap::Target h = r.heap.translate(addr, bytes, pe);
  if (__builtin_expect(h.error != heap::Target::Error::none, 0)) bad_address(call, what, addr, bytes, pe, h.error);
  if (__builtin_expect(h.p != nullptr, 1)) return {h.p, h.device, nullptr, transport::Seg::host, 0};
  transport::Transport* via = r.routes[static_cast<size_t>(pe)].transport;
  if (!via) fatal(call, "pe %d is not reachable from this PE (another node, no transport)", pe);
  return {nullptr, h.device, via, static_cast<transport::Seg>(h.seg), h.off};
}

// Host operations on mapped GPU memory (GPU PEs); on a CPU PE they end the job naming call.
void device_copy(const char* call, void* dst, const void* src, size_t bytes, bool blocking);
// A host put to GPU memory: mem::DeviceOps::put_from_heap (nbi ones queued) when
// src is in this PE's device heap, a plain copy otherwise (the queue is for sources the caller may
// not change before the quiet).
void device_put(const char* call, void* dst, const void* src, size_t bytes, bool blocking);
void device_write64(const char* call, uint64_t* dst, uint64_t value);
uint64_t device_amo(const char* call, void* target, size_t size, gshmem_amo_op op, uint64_t a, uint64_t b);
// The PE's stream and every proxied device operation so far have completed (no-op on CPU PEs).
void device_quiet(const char* call, Runtime& r);
bool on_device_heap(const void* p, size_t bytes = 1);  // [p, p + bytes) is in this PE's device heap

}  // namespace gshmem::core
