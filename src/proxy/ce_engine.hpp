// The GPU proxy's engine for peers whose heap is mapped in this process (same node, proxy forced):
// the copy engine and the GPU's stream front end do the work, the proxy thread only enqueues.
//
// * PUTs (copies) wait in a per-PE list until another operation to that PE, a FENCE or the end of
//   the batch; then adjacent ones (source and destination both contiguous) become one copy
//   (merge.hpp): the blocks of a block-scoped transfer push one PUT each, and one large copy runs
//   at the copy engine's full rate where a hundred small ones pay its start-up and the host's
//   call each.
// * Each target PE has a few streams (lanes, GSHMEM_PROXY_CE_STREAMS). PUTs of 64 KiB and more go
//   to them in turn so that copies to one PE overlap; everything else goes to lane 0. Cross-lane
//   event waits (planned by LanePlan, lanes.hpp) put a GET, SIGNAL or atomic after every earlier
//   operation to its PE and make a FENCE order everything before it to a PE before everything
//   after. Operations to different PEs never wait for each other.
// * PUT/GET: cuMemcpyAsync. Small inline PUTs whose destination and size are 4-byte multiples and
//   SIGNAL SET are stream write-value operations, gathered per PE and submitted on lane 0 with one
//   cuStreamBatchMemOp (each write is ordered after everything before it on the stream). Other
//   inline PUTs are staged in a pinned ring and copied. SIGNAL ADD and atomics: one-thread kernels.
// * Completion is asynchronous (Engine::deferred): after a batch, complete_at(upto) makes a
//   completion stream wait for every lane used, then write upto into the GPU-memory word GPU
//   threads poll (so a GPU waiter never needs the host), and records an event the host side polls
//   for the host's completion count. The proxy thread never blocks on a stream while triggers
//   keep arriving.
#pragma once
#include <cstdint>
#include <deque>
#include <vector>

#include "proxy/executor.hpp"
#include "proxy/lanes.hpp"
#include "proxy/merge.hpp"

#if GSHMEM_HAVE_CUDA
#include <cuda.h>

namespace gshmem {
struct Runtime;
struct GpuContext;
}  // namespace gshmem

namespace gshmem::proxy {

class CeEngine final : public Engine, private LanePlan::Waits {
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
  void fence() override;
  bool deferred() const override { return true; }
  void complete_at(uint64_t upto) override;
  uint64_t completed_upto() override;

 private:
  struct Batch {
    CUevent done;
    uint64_t upto;
    uint64_t arena_end;
  };
  struct Target {
    std::vector<CUstream> lane;                       // created on first use
    std::vector<CUevent> mark;                        // per lane: recorded for a wait on it
    std::vector<CUstreamBatchMemOpParams> memops;     // for lane 0, not yet submitted
    std::vector<Copy> puts;                           // not yet issued (merged when issued)
  };
  CUdeviceptr addr(uint32_t pe, uint32_t seg, uint64_t off, uint64_t n, const char* what) const;
  void issue_puts(uint32_t pe);  // merges and enqueues pe's waiting PUTs
  void issue_all_puts();
  // The stream for the next operation of kind k to pe (lane 0's write-values are submitted first
  // unless memop: the operation itself is one).
  CUstream place(uint32_t pe, LanePlan::Kind k, bool memop = false);
  CUstream lane(uint32_t pe, unsigned i);
  void wait(uint32_t pe, unsigned waiter, unsigned on) override;
  void write_value(uint32_t pe, CUdeviceptr dst, uint64_t v, unsigned bytes);
  void submit(uint32_t pe);  // enqueues pe's gathered write-value operations on lane 0
  void submit_all();
  char* stage(const void* data, uint64_t n);  // 16 bytes of the pinned ring
  CUevent event();

  Runtime& rt_;
  GpuContext& g_;
  CUdeviceptr mirror_;
  std::vector<Target> targets_;
  LanePlan plan_;
  CUstream cstream_ = nullptr;                                  // completion stream
  std::deque<Batch> batches_;
  std::vector<CUevent> free_events_;
  uint64_t done_ = 0;
  char* arena_ = nullptr;
  uint64_t arena_head_ = 0, arena_tail_ = 0;  // bytes staged / released, ever
  // Reported at INFO when the engine stops (GSHMEM_DEBUG=INFO GSHMEM_DEBUG_SUBSYS=PROXY): how well
  // PUTs merged and how large the batches were.
  struct Counts {
    uint64_t puts = 0, copies = 0, put_bytes = 0, batches = 0, merge_ns = 0, copy_ns = 0, record_ns = 0;
  } counts_;
};

}  // namespace gshmem::proxy
#endif
