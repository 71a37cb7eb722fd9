// Atomics: native NVLink atomics on the peer's memory through system-scope atomic_ref, relaxed
// order (OpenSHMEM AMOs order nothing by themselves; use fence/quiet).
#pragma once
#include <type_traits>

#include "gshmem/impl/proxy.cuh"

namespace gshmem::dev {

// An atomic's target must be aligned to its size; heap_off checks the offset's low bits (the heap
// base is 16 MiB-aligned).
template <typename T>
constexpr uint64_t amo_align = sizeof(T) - 1;

constexpr auto relaxed = cuda::memory_order_relaxed;

// 8-byte read-modify-write atomics in the global state space. A generic 64-bit atom (what
// atomic_ref emits) is compiled with a shared-memory fallback whose branch waits for the result,
// so a loop of independent 64-bit compare-and-swaps ran one round trip at a time (0.93 us per
// cswap against 0.48 us for the 32-bit ones, 2 x H200); the peer mapping is always global.
__device__ __forceinline__ uint64_t amo64(void *p, int op, uint64_t x, uint64_t y) {
  const size_t g = __cvta_generic_to_global(p);
  uint64_t r;
#define GSHMEM_AMO64(INSN) \
  asm volatile("atom.relaxed.sys.global." INSN " %0, [%1], %2;" : "=l"(r) : "l"(g), "l"(x) : "memory")
  switch (op) {
    case GSHMEM_AMO_SWAP:
      GSHMEM_AMO64("exch.b64");
      break;
    case GSHMEM_AMO_CSWAP:
      asm volatile("atom.relaxed.sys.global.cas.b64 %0, [%1], %2, %3;" : "=l"(r) : "l"(g), "l"(x), "l"(y) : "memory");
      break;
    case GSHMEM_AMO_ADD:
      GSHMEM_AMO64("add.u64");
      break;
    case GSHMEM_AMO_AND:
      GSHMEM_AMO64("and.b64");
      break;
    case GSHMEM_AMO_OR:
      GSHMEM_AMO64("or.b64");
      break;
    default:
      GSHMEM_AMO64("xor.b64");
      break;  // GSHMEM_AMO_XOR
  }
#undef GSHMEM_AMO64
  return r;
}

// One atomic operation on an object reached at address p (the peer's copy).
template <typename T>
__device__ __forceinline__ T amo_apply(T *p, int op, T x, T y) {
  sys_atomic<T> a(*p);
  switch (op) {
    case GSHMEM_AMO_FETCH:
      return a.load(relaxed);
    case GSHMEM_AMO_SET:
      a.store(x, relaxed);
      return T{};
    default:
      break;
  }
  if constexpr (sizeof(T) == 8 && (std::is_integral_v<T> || std::is_floating_point_v<T>)) {
    if (!std::is_integral_v<T> && op != GSHMEM_AMO_SWAP && op != GSHMEM_AMO_CSWAP) return T{};
    return __builtin_bit_cast(T, amo64(p, op, __builtin_bit_cast(uint64_t, x), __builtin_bit_cast(uint64_t, y)));
  } else {
    switch (op) {
      case GSHMEM_AMO_SWAP:
        return a.exchange(x, relaxed);
      case GSHMEM_AMO_CSWAP:
        a.compare_exchange_strong(x, y, relaxed, relaxed);
        return x;  // the old value either way
      default:
        break;
    }
    if constexpr (std::is_integral_v<T>) {  // the API offers add and the bitwise ops on integers only
      switch (op) {
        case GSHMEM_AMO_ADD:
          return a.fetch_add(x, relaxed);
        case GSHMEM_AMO_AND:
          return a.fetch_and(x, relaxed);
        case GSHMEM_AMO_OR:
          return a.fetch_or(x, relaxed);
        default:
          return a.fetch_xor(x, relaxed);  // GSHMEM_AMO_XOR
      }
    }
    return T{};
  }
}

// The non-fetching read-modify-writes (inc, add, and, or, xor) as reductions (red), which the
// issuing thread does not wait for. An atom whose result is unused still holds its destination
// register until the peer answers, so a thread's loop of them ran one NVLink round trip at a time
// (NVSHMEM's shmem_atomic_bw shape). The types are the integers of the standard and bitwise AMOs
// (4 or 8 bytes); add is two's complement, so one instruction serves signed and unsigned.
template <typename T>
__device__ __forceinline__ void red_apply(T *p, int op, T x) {
  static_assert(std::is_integral_v<T> && (sizeof(T) == 4 || sizeof(T) == 8), "red on 4- or 8-byte integers");
  const size_t g = __cvta_generic_to_global(p);
  // One switch per width: the instruction's width suffix and the operand's register class.
#define GSHMEM_RED(W, C, V)                                                                   \
  switch (op) {                                                                               \
    case GSHMEM_AMO_ADD:                                                                      \
      asm volatile("red.relaxed.sys.global.add.u" #W " [%0], %1;" ::"l"(g), C(V) : "memory"); \
      break;                                                                                  \
    case GSHMEM_AMO_AND:                                                                      \
      asm volatile("red.relaxed.sys.global.and.b" #W " [%0], %1;" ::"l"(g), C(V) : "memory"); \
      break;                                                                                  \
    case GSHMEM_AMO_OR:                                                                       \
      asm volatile("red.relaxed.sys.global.or.b" #W " [%0], %1;" ::"l"(g), C(V) : "memory");  \
      break;                                                                                  \
    default: /* GSHMEM_AMO_XOR */                                                             \
      asm volatile("red.relaxed.sys.global.xor.b" #W " [%0], %1;" ::"l"(g), C(V) : "memory"); \
      break;                                                                                  \
  }
  if constexpr (sizeof(T) == 8) {
    GSHMEM_RED(64, "l", static_cast<uint64_t>(x))
  } else {
    GSHMEM_RED(32, "r", static_cast<uint32_t>(x))
  }
#undef GSHMEM_RED
}

// The routed form (proxy, or a segment table), out of line like p_routed / g_routed: the direct
// path of an atomic in a user's loop is the window address and the atomic instruction.
template <typename T>
static __device__ __noinline__ T amo_routed(const char *c, const T *d, int op, T x, T y, bool fetch, int pe) {
  if (proxied(pe))
    return static_cast<T>(
        proxy_amo<T>(proxy_off(c, d, sizeof(T), pe, amo_align<T>), static_cast<gshmem_amo_op>(op), x, y, pe, fetch));
  return amo_apply<T>(reinterpret_cast<T *>(peer(c, d, sizeof(T), pe, amo_align<T>)), op, x, y);
}

// op, operands (x, y) as in the trigger AMO op codes (device_host/ops.h): CSWAP's are (expected,
// new value).
template <typename T, int OP>
__device__ __forceinline__ T amo_op(const char *c, const T *d, T x, T y, int pe) {
  constexpr bool fetch = OP != GSHMEM_AMO_SET;
  if (routed()) return amo_routed<T>(c, d, OP, x, y, fetch, pe);
  return amo_apply<T>(reinterpret_cast<T *>(window_peer(c, d, sizeof(T), pe, amo_align<T>)), OP, x, y);
}

// A non-fetching OP (ADD, AND, OR, XOR): the routed form as a non-fetching AMO (the proxy sends
// no reply), the direct one a reduction.
template <typename T, int OP>
__device__ __forceinline__ void amo_nf(const char *c, T *d, T x, int pe) {
  if (routed()) {
    amo_routed<T>(c, d, OP, x, T{}, false, pe);
    return;
  }
  red_apply<T>(reinterpret_cast<T *>(window_peer(c, d, sizeof(T), pe, amo_align<T>)), OP, x);
}
template <typename T>
__device__ __forceinline__ T fetch(const char *c, const T *d, int pe) {
  return amo_op<T, GSHMEM_AMO_FETCH>(c, d, T{}, T{}, pe);
}
template <typename T>
__device__ __forceinline__ void set(const char *c, T *d, T v, int pe) {
  amo_op<T, GSHMEM_AMO_SET>(c, d, v, T{}, pe);
}
template <typename T>
__device__ __forceinline__ T swap(const char *c, T *d, T v, int pe) {
  return amo_op<T, GSHMEM_AMO_SWAP>(c, d, v, T{}, pe);
}
template <typename T>
__device__ __forceinline__ T cswap(const char *c, T *d, T cond, T v, int pe) {
  return amo_op<T, GSHMEM_AMO_CSWAP>(c, d, cond, v, pe);
}
template <typename T>
__device__ __forceinline__ T fadd(const char *c, T *d, T v, int pe) {
  return amo_op<T, GSHMEM_AMO_ADD>(c, d, v, T{}, pe);
}
template <typename T>
__device__ __forceinline__ T fand(const char *c, T *d, T v, int pe) {
  return amo_op<T, GSHMEM_AMO_AND>(c, d, v, T{}, pe);
}
template <typename T>
__device__ __forceinline__ T f_or(const char *c, T *d, T v, int pe) {
  return amo_op<T, GSHMEM_AMO_OR>(c, d, v, T{}, pe);
}
template <typename T>
__device__ __forceinline__ T fxor(const char *c, T *d, T v, int pe) {
  return amo_op<T, GSHMEM_AMO_XOR>(c, d, v, T{}, pe);
}

}  // namespace gshmem::dev
