// The GPU proxy's engine for peers whose heap is mapped in this process (same node, proxy forced):
// the copy engine and the GPU's stream front end do the work, the proxy thread only enqueues.
//
// * One stream per target PE keeps the operations to one PE in FIFO order (a SIGNAL after the
//   PUTs before it) and lets transfers to different PEs overlap.
// * PUT/GET: cuMemcpyAsync. Small inline PUTs whose destination and size are 4-byte multiples and
//   SIGNAL SET are stream write-value operations, gathered per stream and submitted with one
//   cuStreamBatchMemOp (each write is ordered after everything before it on the stream). Other
//   inline PUTs are staged in a pinned ring and copied. SIGNAL ADD and atomics: one-thread kernels.
// * Completion is asynchronous (Engine::deferred): after a batch, complete_at(upto) makes a
//   completion stream wait for every stream used, then write upto into the GPU-memory word GPU
//   threads poll (so a GPU waiter never needs the host), and records an event the host side polls
//   for the host's completion count. The proxy thread never blocks on a stream while triggers
//   keep arriving.
#pragma once
#include <cstdint>
#include <deque>
#include <vector>

#include "proxy/executor.hpp"

#if GSHMEM_HAVE_CUDA
#include <cuda.h>

namespace gshmem {
struct Runtime;
struct GpuContext;
}  // namespace gshmem

namespace gshmem::proxy {

class CeEngine final : public Engine {
 public:
  // mirror: the GPU-memory word that receives the completion count (0: none, host waits only).
  CeEngine(Runtime& rt, CUdeviceptr mirror);
  ~CeEngine() override;
  CeEngine(const CeEngine&) = delete;
  CeEngine& operator=(const CeEngine&) = delete;

  void put(uint32_t pe, uint32_t seg, uint64_t off, uint64_t src, uint64_t n) override;
  void put_inline(uint32_t pe, uint32_t seg, uint64_t off, const void* data, uint64_t n) override;
  void get(uint32_t pe, uint32_t seg, uint64_t off, uint64_t dst, uint64_t n) override;
  void signal(uint32_t pe, uint32_t seg, uint64_t off, uint64_t v, uint32_t op) override;
  void amo(uint32_t pe, uint32_t seg, uint64_t off, uint32_t op, uint32_t bytes, uint64_t operand, uint64_t compare,
           uint64_t* old) override;
  void flush() override;
  bool deferred() const override { return true; }
  void complete_at(uint64_t upto) override;
  uint64_t completed_upto() override;

 private:
  struct Batch {
    CUevent done;
    uint64_t upto;
    uint64_t arena_end;
  };
  CUdeviceptr addr(uint32_t pe, uint32_t seg, uint64_t off, uint64_t n, const char* what) const;
  CUstream stream(uint32_t pe);  // marks pe's stream used since the last complete_at
  void write_value(uint32_t pe, CUdeviceptr dst, uint64_t v, unsigned bytes);
  void submit(uint32_t pe);  // enqueues pe's gathered write-value operations
  void submit_all();
  char* stage(const void* data, uint64_t n);  // 16 bytes of the pinned ring
  CUevent event();

  Runtime& rt_;
  GpuContext& g_;
  CUdeviceptr mirror_;
  std::vector<CUstream> streams_;
  std::vector<uint8_t> used_;                                   // since the last complete_at
  std::vector<std::vector<CUstreamBatchMemOpParams>> memops_;   // per PE, not yet submitted
  std::vector<CUevent> join_;                                   // per PE: completion waits on it
  CUstream cstream_ = nullptr;                                  // completion stream
  std::deque<Batch> batches_;
  std::vector<CUevent> free_events_;
  uint64_t done_ = 0;
  char* arena_ = nullptr;
  uint64_t arena_head_ = 0, arena_tail_ = 0;  // bytes staged / released, ever
};

}  // namespace gshmem::proxy
#endif
