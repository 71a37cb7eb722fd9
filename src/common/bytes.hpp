// Alignment-safe reads and writes of trivially copyable values at any byte address: every
// multi-byte field read from the wire, from a peer's record or from shared memory that is not
// known to be aligned goes through these (a cast and a dereference is undefined behaviour there).
#pragma once
#include <cstring>
#include <type_traits>

namespace gshmem {

template <typename T>
inline T load_unaligned(const void* p) noexcept {
  static_assert(std::is_trivially_copyable_v<T>);
  T v;
  std::memcpy(&v, p, sizeof v);
  return v;
}

template <typename T>
inline void store_unaligned(void* p, const T& v) noexcept {
  static_assert(std::is_trivially_copyable_v<T>);
  std::memcpy(p, &v, sizeof v);
}

}  // namespace gshmem
