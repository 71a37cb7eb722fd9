// An executor engine over the ib transport: each trigger becomes RDMA work requests on the queue
// pair to its target PE (signals behind an ordering read, atomics on the NIC or as compare-swap
// steps); flush is the transport's quiet, which also delivers staged get data and fetched values
// (into GPU memory through the transport's LocalMemory). Never run on InfiniBand hardware yet.
#pragma once
#include "proxy/executor.hpp"
#include "transport/ib_transport.hpp"

#if GSHMEM_HAVE_IBVERBS
namespace gshmem::proxy {

class IbEngine : public Engine {
 public:
  // fail(message) ends the job (never returns).
  IbEngine(transport::ib::Transport& t, void (*fail)(const char* msg)) : t_(t), fail_(fail) {}
  void put(uint32_t pe, uint32_t seg, uint64_t off, uint64_t src, uint64_t n) override {
    check(t_.put(static_cast<int>(pe), static_cast<transport::Seg>(seg), off, reinterpret_cast<const void*>(src), n));
  }
  void put_inline(uint32_t pe, uint32_t seg, uint64_t off, const void* data, uint64_t n) override {
    check(t_.put(static_cast<int>(pe), static_cast<transport::Seg>(seg), off, data, n));  // staged at the call
  }
  void get(uint32_t pe, uint32_t seg, uint64_t off, uint64_t dst, uint64_t n) override {
    check(t_.get(static_cast<int>(pe), static_cast<transport::Seg>(seg), off, reinterpret_cast<void*>(dst), n));
  }
  void signal(uint32_t pe, uint32_t seg, uint64_t off, uint64_t value, uint32_t sig_op) override {
    check(t_.signal(static_cast<int>(pe), static_cast<transport::Seg>(seg), off, value, sig_op == 1));
  }
  void amo(uint32_t pe, uint32_t seg, uint64_t off, uint32_t op, uint32_t bytes, uint64_t operand, uint64_t compare,
           uint64_t* old) override {
    // the transport's cswap takes (expected, new value); a trigger carries (new value, expected)
    const bool cs = op == GSHMEM_TRIG_AMO_CSWAP;
    check(t_.amo(static_cast<int>(pe), static_cast<transport::Seg>(seg), off, static_cast<transport::AmoOp>(op), bytes,
                 cs ? compare : operand, cs ? operand : compare, old));
  }
  void flush() override { check(t_.quiet()); }
  // RDMA writes on one queue pair may be placed out of order, so a fence waits for everything
  // started (a signal, by contrast, orders itself behind a read).
  void fence() override { check(t_.quiet()); }

 private:
  void check(Status st) {
    if (st != Status::ok) fail_(t_.error().c_str());
  }
  transport::ib::Transport& t_;
  void (*fail_)(const char* msg);
};

}  // namespace gshmem::proxy
#endif
