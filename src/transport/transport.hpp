// What every transport shares: segment numbers, atomic operations, and the hook through which a
// transport touches this process's GPU memory. Transports include this, never each other.
#pragma once
#include <cstddef>
#include <cstdint>

namespace gshmem::transport {

// host segment (control block + host heap), globals, GPU segment (device control block + device heap)
enum class Seg : uint8_t { host = 0, data = 1, device = 2 };
// Operand conventions: set/swap/add/band/bor/bxor take a; cswap takes (a = expected, b = new value).
enum class AmoOp : uint8_t { fetch, set, swap, cswap, add, band, bor, bxor };

// The value a word holds after op is applied to old (for transports that emulate an operation
// with compare-and-swap). Bitwise and arithmetic wrap at the operand width the caller masks to.
constexpr uint64_t amo_new_value(AmoOp op, uint64_t old, uint64_t a, uint64_t b) {
  switch (op) {
    case AmoOp::fetch: return old;
    case AmoOp::set:
    case AmoOp::swap: return a;
    case AmoOp::cswap: return old == a ? b : old;
    case AmoOp::add: return old + a;
    case AmoOp::band: return old & a;
    case AmoOp::bor: return old | a;
    case AmoOp::bxor: return old ^ a;
  }
  return old;
}

// How a transport touches this process's GPU memory (GPU PEs): stage bytes through host buffers
// and apply atomics with the GPU's own atomics.
class LocalMemory {
 public:
  virtual ~LocalMemory() = default;
  virtual bool is_device(const void* p) const = 0;
  virtual void copy(void* dst, const void* src, size_t n) = 0;  // either side may be GPU memory
  virtual uint64_t amo(void* p, AmoOp op, size_t size, uint64_t a, uint64_t b) = 0;  // p: GPU memory
};

}  // namespace gshmem::transport
