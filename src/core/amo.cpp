#include "core/amo.hpp"

#include "core/detail/access.hpp"

namespace gshmem::core {

char* amo_word(const char* call, const void* dest, size_t size, int pe) {
  if (__builtin_expect(dest == nullptr, 0)) fatal(call, "dest is NULL (target pe %d)", pe);
  const Target t = target(call, dest, size, pe);
  if (__builtin_expect(reinterpret_cast<uintptr_t>(dest) % size != 0, 0))
    fatal(call, "dest %p is not aligned to %zu bytes (target pe %d)", dest, size, pe);
  return t.device || t.via ? nullptr : t.p;
}

void store_result(const char* call, void* fetch, const void* v, size_t n) {
  mem::store_local(rt(call).local_memory(), fetch, v, n);
}

uint64_t amo_indirect(const char* call, const void* dest, size_t size, int pe, gshmem_amo_op op, uint64_t a,
                      uint64_t b) {
  const Target t = target(call, dest, size, pe);
  if (t.via) {
    uint64_t old = 0;
    check_transport(call, t.via->amo(pe, t.seg, t.off, op, size, a, b, &old));
    return old;
  }
  return device_amo(call, t.p, size, op, a, b);
}

}  // namespace gshmem::core
