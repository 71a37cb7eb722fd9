// The copy-engine transport: same-node PEs whose GPU segments are mapped in this process, reached
// through the GPU's copy engines and stream front end (the GPU proxy uses it with
// GSHMEM_FORCE_PROXY; the thread calling it only enqueues work).
//
// * PUTs (copies) wait in a per-PE list until another operation to that PE, a FENCE or the end of
//   the batch; then adjacent ones (source and destination both contiguous) become one copy
//   (merge.hpp): the blocks of a block-scoped transfer push one PUT each, and one large copy runs
//   at the copy engine's full rate where a hundred small ones pay its start-up and the host's
//   call each.
// * Each target PE has a few streams (lanes). PUTs of 64 KiB and more go to them in turn so that
//   copies to one PE overlap; everything else goes to lane 0. Cross-lane event waits (planned by
//   LanePlan, lanes.hpp) put a GET, SIGNAL or atomic after every earlier operation to its PE and
//   make a FENCE order everything before it to a PE before everything after. Operations to
//   different PEs never wait for each other.
// * PUT/GET: cuMemcpyAsync. Small blocking PUTs (at most 16 bytes: the proxy's inline data) whose
//   destination and size are 4-byte multiples, and SIGNAL SET, are stream write-value operations,
//   gathered per PE and submitted on lane 0 with one cuStreamBatchMemOp (each write is ordered
//   after everything before it on the stream). Other small blocking PUTs are staged in a pinned
//   ring and copied. SIGNAL ADD and atomics: one-thread kernels (mem::DeviceOps).
// * Completion is asynchronous (completion marks, transport.hpp): mark(token) makes a completion
//   stream wait for every lane used, then write token into the GPU-memory word GPU threads poll
//   (so a GPU waiter never needs the host), and records an event marked_done() polls for the host
//   side. The calling thread never blocks on a stream while operations keep arriving.
// * A failed CUDA call is kept as the engine's error (the first one) and returned by the operation
//   that made it and by every later one; the engine is used by one thread, the proxy's.
#pragma once
#include <cstdint>
#include <deque>
#include <functional>
#include <vector>

#include "transport/copy_engine/lanes.hpp"
#include "transport/copy_engine/merge.hpp"
#include "transport/table.hpp"
#include "transport/transport.hpp"

namespace gshmem::transport {

Probe copy_engine_probe(const Config& cfg, bool gpu);
Result copy_engine_create(Env& env, const std::vector<int>& peers, std::unique_ptr<Transport>* out);

}  // namespace gshmem::transport

#if GSHMEM_HAVE_CUDA
#include "mem/device_ops.hpp"

namespace gshmem::transport {

class CopyEngine final : public Transport, private LanePlan::Waits {
 public:
  // segment_base(pe): device address of pe's GPU segment (0: not mapped here); segment_bytes():
  // its current size (it grows with the heap). mirror: the GPU-memory word that receives each
  // completed token (0: none). lanes: streams per target PE (1..LanePlan::kMaxLanes).
  CopyEngine(mem::DeviceOps& ops, int npes, unsigned lanes, std::function<uint64_t(int)> segment_base,
             std::function<uint64_t()> segment_bytes, CUdeviceptr mirror);
  ~CopyEngine() override;
  CopyEngine(const CopyEngine&) = delete;
  CopyEngine& operator=(const CopyEngine&) = delete;
  const char* name() const override { return "copy_engine"; }
  Caps caps() const override;
  bool reaches(int pe) const override;

  Result put(int pe, Seg seg, uint64_t off, const void* src, size_t n) override;
  Result put_nbi(int pe, Seg seg, uint64_t off, const void* src, size_t n) override;
  Result get(int pe, Seg seg, uint64_t off, void* dst, size_t n) override;
  Result get_nbi(int pe, Seg seg, uint64_t off, void* dst, size_t n) override;
  Result signal(int pe, Seg seg, uint64_t off, uint64_t value, int sig_op) override;
  Result amo(int pe, Seg seg, uint64_t off, gshmem_amo_op op, size_t bytes, uint64_t a, uint64_t b,
             uint64_t* old) override;
  Result amo_nbi(int pe, Seg seg, uint64_t off, gshmem_amo_op op, size_t bytes, uint64_t a, uint64_t b,
                 uint64_t* old) override;
  Result fence() override;
  Result quiet() override;
  Result mark(uint64_t token) override;
  uint64_t marked_done() override;

 private:
  struct Batch {
    CUevent done;
    uint64_t upto;
    uint64_t arena_end;
  };
  struct Target {
    std::vector<CUstream> lane;                    // created on first use
    std::vector<CUevent> mark;                     // per lane: recorded for a wait on it
    std::vector<CUstreamBatchMemOpParams> memops;  // for lane 0, not yet submitted
    std::vector<Copy> puts;                        // not yet issued (merged when issued)
  };
  Result addr(int pe, Seg seg, uint64_t off, uint64_t n, const char* what, CUdeviceptr* out);
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
  // Records the first failure (err_); false when r is not CUDA_SUCCESS.
  bool check(CUresult r, const char* what);
  Result err_;

  mem::DeviceOps& ops_;
  mem::GpuContext& g_;
  std::function<uint64_t(int)> segment_base_;
  std::function<uint64_t()> segment_bytes_;
  CUdeviceptr mirror_;
  std::vector<Target> targets_;
  LanePlan plan_;
  CUstream cstream_ = nullptr;  // completion stream
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

}  // namespace gshmem::transport
#endif
