// An executor engine over the tcp transport: each trigger becomes a request on the connection to
// its target PE, whose proxy thread applies it (atomics with the owner's hardware atomics). One
// connection per PE keeps a SIGNAL behind the earlier PUTs to that PE; flush is the transport's
// quiet. Sources and destinations may be host or GPU memory: the transport stages GPU memory
// through host buffers (transport::LocalMemory).
#pragma once
#include "proxy/executor.hpp"
#include "transport/tcp.hpp"

namespace gshmem::proxy {

class TcpEngine : public Engine {
 public:
  explicit TcpEngine(transport::Tcp& tcp) : tcp_(tcp) {}
  void put(uint32_t pe, uint32_t seg, uint64_t off, uint64_t src, uint64_t n) override {
    tcp_.put(static_cast<int>(pe), static_cast<transport::Seg>(seg), off, reinterpret_cast<const void*>(src), n);
  }
  void put_inline(uint32_t pe, uint32_t seg, uint64_t off, const void* data, uint64_t n) override {
    tcp_.put(static_cast<int>(pe), static_cast<transport::Seg>(seg), off, data, n);
  }
  void get(uint32_t pe, uint32_t seg, uint64_t off, uint64_t dst, uint64_t n) override {
    tcp_.get(static_cast<int>(pe), static_cast<transport::Seg>(seg), off, reinterpret_cast<void*>(dst), n);
  }
  void signal(uint32_t pe, uint32_t seg, uint64_t off, uint64_t value, uint32_t sig_op) override {
    tcp_.amo(static_cast<int>(pe), static_cast<transport::Seg>(seg), off,
             sig_op == 1 ? transport::AmoOp::add : transport::AmoOp::set, 8, value, 0);
  }
  void amo(uint32_t pe, uint32_t seg, uint64_t off, uint32_t op, uint32_t bytes, uint64_t operand, uint64_t compare,
           uint64_t* old) override {
    // the transport's cswap takes (expected, new value); a trigger carries (new value, expected)
    const bool cs = op == GSHMEM_TRIG_AMO_CSWAP;
    const uint64_t v = tcp_.amo(static_cast<int>(pe), static_cast<transport::Seg>(seg), off,
                                static_cast<transport::AmoOp>(op), bytes, cs ? compare : operand, cs ? operand : compare);
    if (old) tcp_.store_local(old, &v, sizeof v);  // old may be GPU memory (a GPU producer's result slot)
  }
  void flush() override { tcp_.quiet(); }

 private:
  transport::Tcp& tcp_;
};

// The trigger operation numbering matches the transport's.
static_assert(static_cast<int>(transport::AmoOp::cswap) == GSHMEM_TRIG_AMO_CSWAP &&
                  static_cast<int>(transport::AmoOp::bxor) == GSHMEM_TRIG_AMO_XOR,
              "trigger AMO ops and transport AMO ops differ");

}  // namespace gshmem::proxy
