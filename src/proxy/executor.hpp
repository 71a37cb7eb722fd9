// The proxy's side of the trigger FIFO: decodes triggers (format in device_host/trigger.h) and
// hands each to the transport its target PE is routed to (the per-PE route table the runtime
// built: the copy engine on one node, ucx or tcp across nodes; a host-memory transport in the unit
// tests). Operations are started in FIFO order with the transports' non-blocking forms (the GPU
// producers keep their sources and results until their quiet; inline data is copied at the call).
// After a batch every transport without completion marks is quieted and every one with marks gets
// a mark at the batch's end; the completion count published to the producers is the end of the
// batch, or the least mark done, so a producer's quiet never returns before its operations are
// done. A transport performs a GET, SIGNAL or AMO to a PE after every earlier operation to that PE
// (put-with-signal is PUT then SIGNAL), and every operation after a FENCE after every operation
// before it to the same PE; PUTs between fences may overlap.
#pragma once
#include <cstdint>
#include <vector>

#include "common/fatal.hpp"
#include "proxy/fifo.hpp"
#include "transport/transport.hpp"

namespace gshmem::proxy {

class Executor {
 public:
  // via[pe]: the transport for triggers to pe (null: pe is not reached through the proxy; a
  // trigger for it is rejected). The transports outlive the executor.
  Executor(Fifo& fifo, std::vector<transport::Transport*> via) : fifo_(fifo), via_(std::move(via)) {
    for (transport::Transport* t : via_) {
      if (!t || seen(t)) continue;
      (t->caps().marks ? marking_ : blocking_).push_back(t);
    }
  }

  // Starts the ready triggers (at most max_slots slots), completes or marks the batch, publishes
  // completion; returns the slots consumed. With a marking transport, poll() must go on being
  // called while work is outstanding().
  uint64_t poll(uint64_t max_slots = ~0ull) {
    const uint64_t n = fifo_.poll_deferred(
        [&](const gshmem_trigger& t, const gshmem_trigger* ext, uint64_t n_ext) { run(t, ext, n_ext); }, max_slots);
    if (n)
      for (transport::Transport* t : blocking_) check(*t, t->quiet(), "quiet");
    // Everything before tail is complete once the blocking transports are quiet (above) and every
    // marking transport's marks are done up to tail.
    uint64_t c = fifo_.tail();
    for (transport::Transport* t : marking_) {
      if (n) check(*t, t->mark(fifo_.tail()), "a completion mark");
      const uint64_t d = t->marked_done();
      c = d < c ? d : c;
    }
    if (c > published_) fifo_.publish_completed(published_ = c);
    return n;
  }
  // Slots started but not yet reported complete (marking transports).
  bool outstanding() const { return published_ < fifo_.tail(); }
  // Malformed triggers seen (bad version, unknown operation, missing extension, an unrouted PE);
  // each is skipped with a message, never performed.
  uint64_t rejected() const { return rejected_; }

 private:
  bool seen(transport::Transport* t) const {
    for (auto* x : marking_)
      if (x == t) return true;
    for (auto* x : blocking_)
      if (x == t) return true;
    return false;
  }
  // The proxy thread has no caller to hand an error to: a failed operation ends the job.
  void check(transport::Transport& t, const transport::Result& res, const char* what) {
    if (!res.ok()) fatal("proxy", "%s transport: %s failed: %s", t.name(), what, res.what().c_str());
  }
  void reject(const char* why, const gshmem_trigger_fields& f) {
    ++rejected_;
    report_error("proxy", "rejected trigger (%s): op %u, pe %u, size %llu, offset 0x%llx, version %u", why, f.op, f.pe,
                 static_cast<unsigned long long>(f.size), static_cast<unsigned long long>(f.dst_off), f.version);
  }
  void run(const gshmem_trigger& t, const gshmem_trigger* ext, uint64_t n_ext) {
    const gshmem_trigger_fields f = gshmem_trigger_decode(t);
    if (f.version != GSHMEM_TRIGGER_VERSION) return reject("version", f);
    if (f.op == GSHMEM_TRIG_FLUSH || f.op == GSHMEM_TRIG_FENCE) {  // no extension, nothing to move
      if (n_ext) return reject("extension slots", f);
      if (f.op == GSHMEM_TRIG_FENCE)
        for (auto* list : {&marking_, &blocking_})
          for (transport::Transport* x : *list) check(*x, x->fence(), "fence");
      return;
    }
    if (n_ext != (f.op == GSHMEM_TRIG_AMO ? 2u : 1u)) return reject("extension slots", f);
    if (f.pe >= via_.size() || !via_[f.pe]) return reject("target pe not reached through the proxy", f);
    if (f.segment >= static_cast<uint32_t>(transport::kSegments)) return reject("segment", f);
    transport::Transport& x = *via_[f.pe];
    const int pe = static_cast<int>(f.pe);
    const auto seg = static_cast<transport::Seg>(f.segment);
    switch (f.op) {
      case GSHMEM_TRIG_PUT:
        if (f.flags & GSHMEM_TRIG_FLAG_INLINE) {
          if (f.size > GSHMEM_TRIG_INLINE_MAX) return reject("inline put size", f);
          return check(x, x.put(pe, seg, f.dst_off, ext, f.size), "an inline put");  // copied at the call
        }
        return check(x, x.put_nbi(pe, seg, f.dst_off, reinterpret_cast<const void*>(ext->w0), f.size), "a put");
      case GSHMEM_TRIG_GET:
        return check(x, x.get_nbi(pe, seg, f.dst_off, reinterpret_cast<void*>(ext->w0), f.size), "a get");
      case GSHMEM_TRIG_SIGNAL:
        if (f.size != SHMEM_SIGNAL_SET && f.size != SHMEM_SIGNAL_ADD) return reject("signal operation", f);
        return check(x, x.signal(pe, seg, f.dst_off, ext->w1, static_cast<int>(f.size)), "a signal");
      case GSHMEM_TRIG_AMO: {
        const uint32_t bytes = static_cast<uint32_t>(f.size & 0xf), op = static_cast<uint32_t>(f.size >> 4);
        if ((bytes != 4 && bytes != 8) || op >= GSHMEM_AMO_NOPS) return reject("atomic operation", f);
        return check(x,
                     x.amo_nbi(pe, seg, f.dst_off, static_cast<gshmem_amo_op>(op), bytes, ext[0].w0, ext[0].w1,
                               reinterpret_cast<uint64_t*>(static_cast<uintptr_t>(ext[1].w0))),
                     "an atomic");
      }
      default:
        return reject("operation", f);
    }
  }
  Fifo& fifo_;
  std::vector<transport::Transport*> via_;
  std::vector<transport::Transport*> marking_, blocking_;  // each distinct transport once
  uint64_t rejected_ = 0;
  uint64_t published_ = 0;
};

}  // namespace gshmem::proxy
