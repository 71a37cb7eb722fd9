// An atomic applied by the owner of a word in host memory (the tcp transport's server thread, the
// ucx transport's owner-applied operations): atomic with the owner's own CPU atomics on it.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>

#include "gshmem/device_host/ops.h"

namespace gshmem::transport {

// Kept out of line: inlined into a large serving loop, GCC 12.2 -O2 dropped the operand of the 32-
// and 64-bit fetch_and (a CAS loop storing the old value back); the mp amo suite under
// GSHMEM_FORCE_PROXY=1 catches a regression.
template <typename T>
__attribute__((noinline)) T host_amo(T* p, gshmem_amo_op op, T a, T b) {
  std::atomic_ref<T> x(*p);
  switch (op) {
    case GSHMEM_AMO_FETCH:
      return x.load();
    case GSHMEM_AMO_SET:
      x.store(a);
      return a;
    case GSHMEM_AMO_SWAP:
      return x.exchange(a);
    case GSHMEM_AMO_CSWAP:
      x.compare_exchange_strong(a, b);
      return a;  // a becomes the old value
    case GSHMEM_AMO_ADD:
      return x.fetch_add(a);
    case GSHMEM_AMO_AND:
      return x.fetch_and(a);
    case GSHMEM_AMO_OR:
      return x.fetch_or(a);
    default:
      return x.fetch_xor(a);  // GSHMEM_AMO_XOR (callers check op < GSHMEM_AMO_NOPS)
  }
}

// size 4 or 8 (callers check); returns the old value, zero-extended.
inline uint64_t host_amo(void* p, gshmem_amo_op op, size_t size, uint64_t a, uint64_t b) {
  if (size == 4) return host_amo(static_cast<uint32_t*>(p), op, static_cast<uint32_t>(a), static_cast<uint32_t>(b));
  return host_amo(static_cast<uint64_t*>(p), op, a, b);
}

}  // namespace gshmem::transport
