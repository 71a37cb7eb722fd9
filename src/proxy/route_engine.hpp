// The GPU proxy's engine in front of the others: routes each trigger to the engine of its target
// PE (copy engine, tcp or ib, chosen at init), forwards FENCE to all of them, and completes the
// synchronous ones before the copy engine's asynchronous completion mark. No CUDA here.
#pragma once
#include <utility>
#include <vector>

#include "core/runtime.hpp"
#include "proxy/executor.hpp"
#include "proxy/gpu_proxy.hpp"

namespace gshmem::proxy {

// Routes each target PE to its engine (copy engine, tcp or ib) and flushes them all.
class RouteEngine final : public Engine {
 public:
  RouteEngine(Engine* ce, Engine* tcp, Engine* ib, std::vector<Route> routes)
      : ce_(ce), tcp_(tcp), ib_(ib), routes_(std::move(routes)) {}
  void put(uint32_t pe, uint32_t seg, uint64_t off, uint64_t src, uint64_t n) override { at(pe).put(pe, seg, off, src, n); }
  void put_inline(uint32_t pe, uint32_t seg, uint64_t off, const void* d, uint64_t n) override {
    at(pe).put_inline(pe, seg, off, d, n);
  }
  void get(uint32_t pe, uint32_t seg, uint64_t off, uint64_t dst, uint64_t n) override { at(pe).get(pe, seg, off, dst, n); }
  void signal(uint32_t pe, uint32_t seg, uint64_t off, uint64_t v, uint32_t op) override {
    at(pe).signal(pe, seg, off, v, op);
  }
  void amo(uint32_t pe, uint32_t seg, uint64_t off, uint32_t op, uint32_t bytes, uint64_t a, uint64_t b,
           uint64_t* old) override {
    at(pe).amo(pe, seg, off, op, bytes, a, b, old);
  }
  // Without the copy engine every engine is synchronous. With it, completion is asynchronous
  // (the executor calls complete_at instead of flush): the synchronous engines are flushed before
  // the copy engine's completion mark, so the mark covers them too.
  void flush() override { flush_sync(); }
  // Every engine orders its own PEs' operations across the fence (the copy engine joins its
  // streams, ib waits, tcp is ordered already).
  void fence() override {
    if (ce_) ce_->fence();
    if (tcp_) tcp_->fence();
    if (ib_) ib_->fence();
  }
  bool deferred() const override { return ce_ != nullptr; }
  void complete_at(uint64_t upto) override {
    flush_sync();
    ce_->complete_at(upto);
  }
  uint64_t completed_upto() override { return ce_->completed_upto(); }

 private:
  void flush_sync() {
    if (tcp_) tcp_->flush();
    if (ib_) ib_->flush();
  }
  Engine& at(uint32_t pe) {
    if (pe >= routes_.size()) fatal("gshmem proxy", "trigger for pe %u: there are %zu PEs", pe, routes_.size());
    const Route r = routes_[pe];
    Engine* e = r == Route::copy_engine ? ce_ : r == Route::tcp ? tcp_ : r == Route::ib ? ib_ : nullptr;
    if (!e) fatal("gshmem proxy", "trigger for pe %u, which this PE reaches without the proxy", pe);
    return *e;
  }
  Engine* ce_;
  Engine* tcp_;
  Engine* ib_;
  std::vector<Route> routes_;
};

}  // namespace gshmem::proxy
