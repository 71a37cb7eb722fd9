// Host-initiated atomics. On a mapped host heap each atomic is one hardware atomic on the peer's
// mapping (seq_cst), so it is atomic with the owner's own atomics too; float and double go
// through same-width integer atomics (fetch, set and swap only, as the spec lists). GPU memory:
// a one-thread kernel (mem::DeviceOps); PEs that are not mapped: the route's transport (the owner
// applies it). Operands as gshmem_amo_op says: cswap takes (a = expected, b = new value).
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <type_traits>

#include "gshmem/device_host/ops.h"

namespace gshmem::core {

// The mapped host word of an atomic on pe (checked: dest not NULL, symmetric, aligned to size, pe
// in range), or null when the atomic runs through the driver or a transport (amo_indirect).
char* amo_word(const char* call, const void* dest, size_t size, int pe);
uint64_t amo_indirect(const char* call, const void* dest, size_t size, int pe, gshmem_amo_op op, uint64_t a,
                      uint64_t b);

// Stores an nbi atomic's fetched value at fetch (host memory, or GPU memory on a GPU PE).
void store_result(const char* call, void* fetch, const void* v, size_t n);

template <typename T>
using AmoBits = std::conditional_t<sizeof(T) == 4, uint32_t, std::conditional_t<sizeof(T) == 8, uint64_t, T>>;

template <typename T>
T amo(const char* call, T* dest, int pe, gshmem_amo_op op, T a = T(), T b = T()) {
  using B = AmoBits<T>;
  B ba{}, bb{};
  memcpy(&ba, &a, sizeof a);
  memcpy(&bb, &b, sizeof b);
  char* p = amo_word(call, dest, sizeof(T), pe);
  B old{};
  if (!p) {
    const uint64_t v =
        amo_indirect(call, dest, sizeof(T), pe, op, static_cast<uint64_t>(ba), static_cast<uint64_t>(bb));
    old = static_cast<B>(v);
  } else {
    B* w = reinterpret_cast<B*>(p);
    switch (op) {
      case GSHMEM_AMO_FETCH:
        old = __atomic_load_n(w, __ATOMIC_SEQ_CST);
        break;
      case GSHMEM_AMO_SET:
        __atomic_store_n(w, ba, __ATOMIC_SEQ_CST);
        break;
      case GSHMEM_AMO_SWAP:
        old = __atomic_exchange_n(w, ba, __ATOMIC_SEQ_CST);
        break;
      case GSHMEM_AMO_CSWAP:
        old = ba;
        __atomic_compare_exchange_n(w, &old, bb, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);  // old: the old value
        break;
      default:
        if constexpr (std::is_integral_v<T>) {
          T* t = reinterpret_cast<T*>(p);
          T r{};
          if (op == GSHMEM_AMO_ADD) r = __atomic_fetch_add(t, a, __ATOMIC_SEQ_CST);
          else if (op == GSHMEM_AMO_AND) r = __atomic_fetch_and(t, a, __ATOMIC_SEQ_CST);
          else if (op == GSHMEM_AMO_OR) r = __atomic_fetch_or(t, a, __ATOMIC_SEQ_CST);
          else r = __atomic_fetch_xor(t, a, __ATOMIC_SEQ_CST);
          return r;
        }
        break;
    }
  }
  T out;
  memcpy(&out, &old, sizeof out);
  return out;
}

}  // namespace gshmem::core
