// The proxy's side of the trigger FIFO: decodes triggers (format in device_host/trigger.h) and
// hands them to an Engine that performs them (the copy engine on one node, a network transport
// across nodes; a host-memory engine in the unit tests). Engines may complete asynchronously:
// after a batch the executor calls flush() and only then publishes the completion count, so a
// producer's quiet (which waits for that count) never returns before its operations are done.
// Operations are started in FIFO order. An engine must perform a GET, SIGNAL or AMO to a PE after
// every earlier operation to that PE (put-with-signal is PUT then SIGNAL), and every operation
// after a FENCE after every operation before it to the same PE; PUTs between fences may overlap.
#pragma once
#include <cstdint>
#include <cstdio>

#include "common/fatal.hpp"
#include "proxy/fifo.hpp"

namespace gshmem::proxy {

class Engine {
 public:
  virtual ~Engine() = default;
  virtual void put(uint32_t pe, uint32_t seg, uint64_t dst_off, uint64_t src_addr, uint64_t bytes) = 0;
  // data: bytes (<= 16) carried in the trigger; the engine copies it before returning.
  virtual void put_inline(uint32_t pe, uint32_t seg, uint64_t dst_off, const void* data, uint64_t bytes) = 0;
  virtual void get(uint32_t pe, uint32_t seg, uint64_t src_off, uint64_t dst_addr, uint64_t bytes) = 0;
  virtual void signal(uint32_t pe, uint32_t seg, uint64_t off, uint64_t value, uint32_t sig_op) = 0;
  // The old value (zero-extended for 4-byte operands) goes to *old (if not null) once flush() returns.
  virtual void amo(uint32_t pe, uint32_t seg, uint64_t off, uint32_t op, uint32_t bytes, uint64_t operand,
                   uint64_t compare, uint64_t* old) = 0;
  // Everything started so far has completed.
  virtual void flush() = 0;
  // shmem_fence: operations started after this call to a PE are performed after those started
  // before it to that PE. Engines that perform each PE's operations in order need nothing.
  virtual void fence() {}

  // Engines that complete asynchronously (a copy engine: the proxy thread must not block on a
  // stream while triggers keep arriving) return true from deferred(); the executor then calls
  // complete_at(upto) after a batch instead of flush(), meaning "everything started so far belongs
  // to the slots before upto", and publishes completion from completed_upto(): the largest upto
  // whose operations have all finished (non-decreasing).
  virtual bool deferred() const { return false; }
  virtual void complete_at(uint64_t /*upto*/) {}
  virtual uint64_t completed_upto() { return 0; }
};

class Executor {
 public:
  Executor(Fifo& fifo, Engine& engine) : fifo_(fifo), engine_(engine) {}

  // Starts the ready triggers (at most max_slots slots), flushes (or, for a deferred engine,
  // marks the batch and publishes whatever has finished by now), publishes completion; returns
  // the slots consumed. A deferred engine needs poll() to be called while work is outstanding.
  uint64_t poll(uint64_t max_slots = ~0ull) {
    const uint64_t n = fifo_.poll_deferred(
        [&](const gshmem_trigger& t, const gshmem_trigger* ext, uint64_t n_ext) { run(t, ext, n_ext); }, max_slots);
    if (engine_.deferred()) {
      if (n) engine_.complete_at(fifo_.tail());
      const uint64_t c = engine_.completed_upto();
      if (c > published_) fifo_.publish_completed(published_ = c);
    } else if (n) {
      engine_.flush();
      fifo_.publish_completed(published_ = fifo_.tail());
    }
    return n;
  }
  // Slots started but not yet reported complete (deferred engines).
  bool outstanding() const { return published_ < fifo_.tail(); }
  // Malformed triggers seen (bad version, unknown operation, missing extension); each is skipped
  // with a message, never performed.
  uint64_t rejected() const { return rejected_; }

 private:
  void reject(const char* why, const gshmem_trigger_fields& f) {
    ++rejected_;
    report_error("proxy", "rejected trigger (%s): op %u, pe %u, size %llu, offset 0x%llx, version %u", why, f.op, f.pe, static_cast<unsigned long long>(f.size), static_cast<unsigned long long>(f.dst_off),
            f.version);
  }
  void run(const gshmem_trigger& t, const gshmem_trigger* ext, uint64_t n_ext) {
    const gshmem_trigger_fields f = gshmem_trigger_decode(t);
    if (f.version != GSHMEM_TRIGGER_VERSION) return reject("version", f);
    if (f.op == GSHMEM_TRIG_FLUSH || f.op == GSHMEM_TRIG_FENCE) {  // no extension, nothing to move
      if (n_ext) return reject("extension slots", f);
      if (f.op == GSHMEM_TRIG_FENCE) engine_.fence();
      return;
    }
    if (n_ext != (f.op == GSHMEM_TRIG_AMO ? 2u : 1u)) return reject("extension slots", f);
    switch (f.op) {
      case GSHMEM_TRIG_PUT:
        if (f.flags & GSHMEM_TRIG_FLAG_INLINE) {
          if (f.size > GSHMEM_TRIG_INLINE_MAX) return reject("inline put size", f);
          return engine_.put_inline(f.pe, f.segment, f.dst_off, ext, f.size);
        }
        return engine_.put(f.pe, f.segment, f.dst_off, ext->w0, f.size);
      case GSHMEM_TRIG_GET: return engine_.get(f.pe, f.segment, f.dst_off, ext->w0, f.size);
      case GSHMEM_TRIG_SIGNAL:
        if (f.size > 1) return reject("signal operation", f);
        return engine_.signal(f.pe, f.segment, f.dst_off, ext->w1, static_cast<uint32_t>(f.size));
      case GSHMEM_TRIG_AMO: {
        const uint32_t bytes = static_cast<uint32_t>(f.size & 0xf), op = static_cast<uint32_t>(f.size >> 4);
        if ((bytes != 4 && bytes != 8) || op > GSHMEM_TRIG_AMO_XOR) return reject("atomic operation", f);
        return engine_.amo(f.pe, f.segment, f.dst_off, op, bytes, ext[0].w0, ext[0].w1,
                           reinterpret_cast<uint64_t*>(static_cast<uintptr_t>(ext[1].w0)));
      }
      default: return reject("operation", f);
    }
  }
  Fifo& fifo_;
  Engine& engine_;
  uint64_t rejected_ = 0;
  uint64_t published_ = 0;
};

}  // namespace gshmem::proxy
