// The one interface every transport implements: the tcp transport (sockets to each PE's server
// thread), the ib transport (InfiniBand verbs) and the copy engine (same-node GPU segments through
// the GPU's copy engines). Operations address (pe, segment, offset); the runtime builds one per-PE
// route table over these (transport/routes.hpp) that host calls and the GPU proxy both use.
// Transports include this, never each other.
//
// Contract:
// * put: src (host or GPU memory of this process) may be reused when put returns; the data is in
//   place at pe by the next quiet(). put_nbi: src must stay unchanged until the next quiet() (or
//   until a completion mark covers it).
// * get: dst holds the data when get returns; get_nbi: by the next quiet().
// * signal (SHMEM_SIGNAL_SET or SHMEM_SIGNAL_ADD of a 64-bit word) is performed after every put
//   and get started earlier to the same PE.
// * amo (4 or 8 bytes, gshmem_amo_op with operands (a, b), device_host/ops.h): *old (host memory,
//   may be null) holds the old value when amo returns; amo_nbi: *old (host or GPU memory) by the
//   next quiet(). Atomic with the owner's own atomics on the word where the transport says so
//   (tcp: the owner applies it; ib: docs/transport.md).
// * fence(): operations started after it to a PE are performed after those started before it to
//   that PE. quiet(): every operation started so far has completed.
// * A transport whose operations complete on their own (a copy engine) offers completion marks:
//   mark(token) says "everything started so far completes by token", marked_done() returns the
//   largest token whose operations have all completed (non-decreasing); the GPU proxy publishes
//   that instead of blocking in quiet() while triggers keep arriving.
// * Errors come back as a Status, with error() naming the PE, the operation and the values; the
//   caller ends the job (common/fatal) or reports it.
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "common/status.hpp"
#include "gshmem/device_host/ops.h"
#include "gshmem/device_host/trigger.h"

namespace gshmem::transport {

// host segment (control block + host heap), globals, GPU segment (device control block + device heap)
enum class Seg : uint8_t { host = GSHMEM_TRIG_SEG_HOST, data = GSHMEM_TRIG_SEG_DATA, device = GSHMEM_TRIG_SEG_DEVICE };
constexpr int kSegments = 3;

// The value a word holds after op is applied to old (for transports that emulate an operation
// with compare-and-swap). Bitwise and arithmetic wrap at the operand width the caller masks to.
constexpr uint64_t amo_new_value(gshmem_amo_op op, uint64_t old, uint64_t a, uint64_t b) {
  switch (op) {
    case GSHMEM_AMO_FETCH: return old;
    case GSHMEM_AMO_SET:
    case GSHMEM_AMO_SWAP: return a;
    case GSHMEM_AMO_CSWAP: return old == a ? b : old;
    case GSHMEM_AMO_ADD: return old + a;
    case GSHMEM_AMO_AND: return old & a;
    case GSHMEM_AMO_OR: return old | a;
    case GSHMEM_AMO_XOR: return old ^ a;
  }
  return old;
}

class Transport {
 public:
  virtual ~Transport() = default;
  virtual const char* name() const = 0;

  virtual Status put(int pe, Seg seg, uint64_t off, const void* src, size_t n) = 0;
  virtual Status put_nbi(int pe, Seg seg, uint64_t off, const void* src, size_t n) { return put(pe, seg, off, src, n); }
  virtual Status get(int pe, Seg seg, uint64_t off, void* dst, size_t n) = 0;
  virtual Status get_nbi(int pe, Seg seg, uint64_t off, void* dst, size_t n) { return get(pe, seg, off, dst, n); }
  virtual Status signal(int pe, Seg seg, uint64_t off, uint64_t value, int sig_op) = 0;
  virtual Status amo(int pe, Seg seg, uint64_t off, gshmem_amo_op op, size_t bytes, uint64_t a, uint64_t b,
                     uint64_t* old) = 0;
  virtual Status amo_nbi(int pe, Seg seg, uint64_t off, gshmem_amo_op op, size_t bytes, uint64_t a, uint64_t b,
                         uint64_t* old) = 0;
  virtual Status fence() = 0;
  virtual Status quiet() = 0;
  // Every operation started so far to pe has completed (the default waits for all of them).
  virtual Status quiet(int pe) {
    (void)pe;
    return quiet();
  }

  virtual bool has_marks() const { return false; }
  virtual Status mark(uint64_t token) {
    (void)token;
    return quiet();
  }
  virtual uint64_t marked_done() { return 0; }

  const std::string& error() const { return err_; }

 protected:
  Status fail(std::string msg, Status st = Status::system_error) {
    err_ = std::move(msg);
    return st;
  }
  std::string err_;
};

}  // namespace gshmem::transport
