#include "core/detail/access.hpp"

namespace gshmem::core {

void bad_address(const char* call, const char* what, const void* addr, size_t bytes, int pe, heap::Target::Error e) {
  Runtime& r = *g_rt;
  const heap::Region& h = r.heap.heap_region();
  const heap::Region& d = r.heap.data_region();
  const char* why = addr == nullptr                      ? "is NULL"
                    : e == heap::Target::Error::past_end ? "extends past the end of its symmetric segment"
                                                         : "is not a symmetric address";
  fatal(call, "%s %p (%zu bytes) %s (target pe %d, heap %p + %zu, data %p + %zu)", what, addr, bytes, why, pe,
        reinterpret_cast<void*>(h.lo), h.size, reinterpret_cast<void*>(d.lo), d.size);
}

#if GSHMEM_HAVE_CUDA
namespace {
mem::DeviceOps& ops(const char* call) {
  Runtime& r = rt(call);
  if (!r.ops) fatal(call, "needs a GPU PE (this PE has the host heap kind)");
  return *r.ops;
}
}  // namespace

void device_copy(const char* call, void* dst, const void* src, size_t bytes, bool blocking) {
  ops(call).copy(call, dst, src, bytes, blocking);
}
void device_put(const char* call, void* dst, const void* src, size_t bytes, bool blocking) {
  if (on_device_heap(src, bytes)) ops(call).put_from_heap(call, dst, src, bytes, blocking);
  else ops(call).copy(call, dst, src, bytes, blocking);
}
void device_write64(const char* call, uint64_t* dst, uint64_t value) { ops(call).write64(call, dst, value); }
uint64_t device_amo(const char* call, void* target, size_t size, gshmem_amo_op op, uint64_t a, uint64_t b) {
  return ops(call).amo(call, target, size, op, a, b);
}
void device_quiet(const char* call, Runtime& r) {
  if (!r.ops) return;
  r.ops->quiet(call);
  // and what GPU threads pushed to the proxy so far (kernels that ended may leave some in flight)
  if (r.proxy) r.proxy->quiet();
}
#else
void device_copy(const char* call, void*, const void*, size_t, bool) { fatal(call, "built without CUDA"); }
void device_put(const char* call, void*, const void*, size_t, bool) { fatal(call, "built without CUDA"); }
void device_write64(const char* call, uint64_t*, uint64_t) { fatal(call, "built without CUDA"); }
uint64_t device_amo(const char* call, void*, size_t, gshmem_amo_op, uint64_t, uint64_t) {
  fatal(call, "built without CUDA");
}
void device_quiet(const char*, Runtime&) {}
#endif

bool on_device_heap(const void* p, size_t bytes) {
  const heap::Region& h = g_rt->heap.heap_region();
  const uintptr_t off = reinterpret_cast<uintptr_t>(p) - h.lo;
  return h.device && off < h.size && bytes <= h.size - off;
}

}  // namespace gshmem::core

#include "core/p2p.hpp"

namespace gshmem::core {

void check_own_symmetric(const char* call, const void* ivars, size_t bytes, const char* what) {
  Runtime& r = rt(call);
  (void)target(call, ivars, bytes, r.my_pe, what);
}
bool ivar_on_device(const void* p) { return on_device_heap(p); }
void ivar_read(const char* call, void* dst, const void* src, size_t n) { device_copy(call, dst, src, n, true); }
void flush_queued(const char* call) {
#if GSHMEM_HAVE_CUDA
  if (g_rt->ops) g_rt->ops->flush(call);
#else
  (void)call;
#endif
}

}  // namespace gshmem::core
