// The one interface every transport implements, and what a transport is handed when it is made.
// Each transport lives in its own folder (transport/<name>/) and has one line in the transport
// table (transport/table.cpp); core keeps the list of the transports a job uses, loops over it for
// quiet, fence, heap extensions and finalize, and the route planner (core/route_plan.hpp) picks one
// per PE by capability. Operations address (pe, segment, offset); host calls and the GPU proxy use
// the same per-PE route table (transport/routes.hpp). Transports include this, never each other.
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
//   next quiet(). Atomic with the owner's own atomics on the word (each transport's header says
//   how).
// * fence(): operations started after it to a PE are performed after those started before it to
//   that PE. quiet(): every operation started so far has completed; quiet(pe): those to pe.
// * A transport whose operations complete on their own (caps().marks) offers completion marks:
//   mark(token) says "everything started so far completes by token", marked_done() returns the
//   largest token whose operations have all completed (non-decreasing); the GPU proxy publishes
//   that instead of blocking in quiet() while triggers keep arriving.
// * Collective calls (the factory in the table, extend, finalize) are made by every PE of the job
//   once any PE uses the transport, also by PEs with no peer on it.
// * Errors are values: every call returns a Result naming the transport, the PE, the operation and
//   the values; the caller reports it or ends the job. A transport never ends the process itself,
//   except from a thread of its own that has no caller to return to (it names the PE then).
#pragma once
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "bootstrap/bootstrap.hpp"
#include "common/config.hpp"
#include "common/status.hpp"
#include "gshmem/device_host/ops.h"
#include "gshmem/device_host/trigger.h"
#include "mem/local_memory.hpp"

namespace gshmem::mem {
class DeviceOps;
}

namespace gshmem::transport {

// host segment (control block + host heap), globals, GPU segment (device control block + device heap)
enum class Seg : uint8_t { host = GSHMEM_TRIG_SEG_HOST, data = GSHMEM_TRIG_SEG_DATA, device = GSHMEM_TRIG_SEG_DEVICE };
constexpr int kSegments = 3;

// The outcome of a transport call: ok, or a status with a message that names what failed.
class [[nodiscard]] Result {
 public:
  Result() = default;
  static Result fail(Status st, std::string what) {
    Result r;
    r.st_ = st == Status::ok ? Status::internal_error : st;
    r.what_ = std::move(what);
    return r;
  }
  bool ok() const { return st_ == Status::ok; }
  Status status() const { return st_; }
  const std::string& what() const { return what_; }

 private:
  Status st_ = Status::ok;
  std::string what_;
};

#define GSHMEM_TRY(expr)                            \
  do {                                              \
    ::gshmem::transport::Result gshmem_r_ = (expr); \
    if (!gshmem_r_.ok()) return gshmem_r_;          \
  } while (0)

// What a transport can do; the route planner ranks the transports that reach a PE by these.
struct Caps {
  bool off_node = false;        // reaches PEs on other nodes
  bool same_node_only = false;  // reaches only PEs whose GPU segment is mapped here (the copy engine)
  bool device_memory = false;   // reaches peers' GPU segments (Seg::device)
  bool device_atomics = false;  // applies atomics to peers' GPU memory in the engine (else the owner does)
  bool marks = false;           // asynchronous completion marks
};

// One of this PE's memory regions that peers address by (seg, offset from base).
struct Segment {
  Seg seg;
  void* base;
  size_t len;
  bool device;  // GPU memory
};

// What a transport is made with (core fills it; a transport takes what it needs).
struct Env {
  boot::Bootstrap* boot = nullptr;
  const Config* cfg = nullptr;
  int my_pe = 0;
  int npes = 1;
  std::vector<Segment> segments;       // this PE's
  mem::LocalMemory* mem = nullptr;     // touching this PE's GPU memory (null on CPU PEs)
  std::function<void()> thread_setup;  // run first on a transport's own threads (makes the GPU current)
  bool core_each = false;              // every PE on this host has a core of its own: waits may spin and progress
  // GPU PEs with the proxy:
  mem::DeviceOps* ops = nullptr;
  std::function<uint64_t(int)> mapped_device_segment;  // pe -> its GPU segment's address here (0: not mapped)
  std::function<uint64_t()> device_segment_bytes;      // the GPU segment's current size
  uint64_t completion_word = 0;  // the GPU-memory word the proxy's producers poll (device address)
};

// The value a word holds after op is applied to old (for transports that emulate an operation
// with compare-and-swap). Bitwise and arithmetic wrap at the operand width the caller masks to.
constexpr uint64_t amo_new_value(gshmem_amo_op op, uint64_t old, uint64_t a, uint64_t b) {
  switch (op) {
    case GSHMEM_AMO_FETCH:
      return old;
    case GSHMEM_AMO_SET:
    case GSHMEM_AMO_SWAP:
      return a;
    case GSHMEM_AMO_CSWAP:
      return old == a ? b : old;
    case GSHMEM_AMO_ADD:
      return old + a;
    case GSHMEM_AMO_AND:
      return old & a;
    case GSHMEM_AMO_OR:
      return old | a;
    case GSHMEM_AMO_XOR:
      return old ^ a;
  }
  return old;
}

class Transport {
 public:
  virtual ~Transport() = default;
  virtual const char* name() const = 0;
  virtual Caps caps() const = 0;
  // Whether operations to pe can go through this transport (it was connected to pe).
  virtual bool reaches(int pe) const = 0;

  virtual Result put(int pe, Seg seg, uint64_t off, const void* src, size_t n) = 0;
  virtual Result put_nbi(int pe, Seg seg, uint64_t off, const void* src, size_t n) { return put(pe, seg, off, src, n); }
  virtual Result get(int pe, Seg seg, uint64_t off, void* dst, size_t n) = 0;
  virtual Result get_nbi(int pe, Seg seg, uint64_t off, void* dst, size_t n) { return get(pe, seg, off, dst, n); }
  virtual Result signal(int pe, Seg seg, uint64_t off, uint64_t value, int sig_op) = 0;
  virtual Result amo(int pe, Seg seg, uint64_t off, gshmem_amo_op op, size_t bytes, uint64_t a, uint64_t b,
                     uint64_t* old) = 0;
  virtual Result amo_nbi(int pe, Seg seg, uint64_t off, gshmem_amo_op op, size_t bytes, uint64_t a, uint64_t b,
                         uint64_t* old) = 0;
  // Raises a synchronisation word (a team barrier's flag, whose values only grow) on pe to value.
  // Nothing waits for it: neither this call nor quiet (pe waits for the word itself, and its
  // arrival is what the caller's protocol needs). A transport may keep the larger of the word's
  // value and value, so a late arrival never lowers it.
  virtual Result raise_flag(int pe, Seg seg, uint64_t off, uint64_t value) {
    return amo_nbi(pe, seg, off, GSHMEM_AMO_SET, 8, value, 0, nullptr);
  }
  // Writes nh bytes from head and then n bytes from src at off on pe (one contiguous range: src's
  // bytes land at off + nh), then raises the word at flag_off to value as raise_flag does; the
  // bytes are in place when the word is seen raised. One message where the transport can (the
  // default completes the puts before raising the flag). Nothing waits for it afterwards; head
  // and src may be reused when it returns.
  virtual Result put_flag(int pe, Seg seg, uint64_t off, const void* head, size_t nh, const void* src, size_t n,
                          uint64_t flag_off, uint64_t value) {
    Result r = nh ? put(pe, seg, off, head, nh) : Result{};
    if (r.ok() && n) r = put(pe, seg, off + nh, src, n);
    if (r.ok()) r = quiet(pe);
    return r.ok() ? raise_flag(pe, seg, flag_off, value) : r;
  }
  virtual Result fence() = 0;
  virtual Result quiet() = 0;
  virtual Result quiet(int pe) {
    (void)pe;
    return quiet();
  }

  // Completion marks (caps().marks).
  virtual Result mark(uint64_t token) {
    (void)token;
    return quiet();
  }
  virtual uint64_t marked_done() { return 0; }

  // Collective: segment seg of every PE gained [off, off + len) at base on this PE (the device
  // heap grew, or a buffer joined it; the same off and len on every PE). Peers may target it once
  // every PE has returned.
  virtual Result extend(Seg seg, uint64_t off, void* base, size_t len) {
    (void)seg, (void)off, (void)base, (void)len;
    return {};
  }
  // Every PE, once no PE targets [off, off + len) of seg any more (it is being unmapped).
  virtual void drop(Seg seg, uint64_t off, size_t len) { (void)seg, (void)off, (void)len; }
  // A user buffer as the local side of transfers (shmemx_buffer_register): registered once instead
  // of at each transfer, where the engine has registration. *token names it for unregister_buffer.
  virtual Result register_buffer(void* base, size_t len, bool device, uint64_t* token) {
    (void)base, (void)len, (void)device;
    *token = 0;
    return {};
  }
  virtual void unregister_buffer(uint64_t token) { (void)token; }

  // Work a thread that waits for something else (a flag in its own memory) may do for the
  // transport: serving requests peers sent this PE. Any thread; returns how much it did.
  virtual unsigned progress() { return 0; }

  // Collective, after a job-wide barrier that follows the last operation: connections close.
  virtual Result finalize() { return {}; }
};

}  // namespace gshmem::transport
