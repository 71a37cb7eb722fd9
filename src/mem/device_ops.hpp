// Host-side operations on GPU memory through the driver: copies on the PE's non-blocking stream
// (or the calling thread's context stream), 64-bit writes ordered after them, and atomics run as
// one-thread kernels (the host cannot issue NVLink atomics). The peer segments are mapped in this
// process (UVA), so the same calls reach every same-node PE. Host RMA never waits for user
// kernels (which may themselves wait for this RMA). A failing CUDA call ends the job with a
// message naming the call.
//
// Non-blocking puts from the heap (put_from_heap) are queued and issued together, as one batched
// driver copy (cuMemcpyBatchAsync; one cuMemcpyAsync each without it), when the queue is full and
// before any other operation of this object: a host put costs a driver call of about 2 us, which a
// loop of small nbi puts paid per put. The copies of one batch may run in any order (OpenSHMEM orders
// puts only across a fence, and shmem_fence flushes the queue). docs/memory-model.md.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <mutex>
#include <vector>

#include "gshmem/device_host/ops.h"
#include "mem/gpu.hpp"
#include "mem/local_memory.hpp"

namespace gshmem::mem {

#if GSHMEM_HAVE_CUDA
class DeviceOps {
 public:
  // batch: most queued nbi puts (0: none queued); batch_bytes: the largest put that is queued.
  DeviceOps(GpuContext& g, size_t batch, size_t batch_bytes);
  DeviceOps(const DeviceOps&) = delete;
  DeviceOps& operator=(const DeviceOps&) = delete;

  GpuContext& gpu() { return g_; }
  // The word (this PE's GPU memory) through which a blocking atomic returns its old value.
  void set_scratch(void* word) { scratch_ = word; }

  // Blocking: returns when the source may be reused (put) or the data has arrived (get).
  void copy(const char* call, void* dst, const void* src, size_t bytes, bool blocking);
  // Atomic 64-bit write, ordered after every earlier copy on the stream (signal SET); waits for it.
  void write64(const char* call, uint64_t* dst, uint64_t value);
  // A put from this PE's device heap to GPU memory. Non-blocking ones of at most batch_bytes
  // (src unchanged until the next quiet) are queued, issued at the next flush; others are issued
  // at once (copy).
  void put_from_heap(const char* call, void* dst, const void* src, size_t bytes, bool blocking);
  // Issues the queued puts (every other operation here starts with it).
  void flush(const char* call);
  // Waits for every operation issued on the PE's stream.
  void quiet(const char* call);
  // A host-initiated atomic (4- or 8-byte target) on the operation stream; returns the old value.
  uint64_t amo(const char* call, void* target, size_t size, gshmem_amo_op op, uint64_t a, uint64_t b);
  // Enqueued on stream (a CUstream); the old value goes to out (GPU-accessible memory, may be null).
  void amo_async(const char* call, void* target, size_t size, gshmem_amo_op op, uint64_t a, uint64_t b, void* out,
                 CUstream stream);
  // Loads the atomic kernels and runs each once on word (GPU memory, read only): a kernel loaded
  // for the first time while another kernel runs may wait for that kernel (lazy loading), which
  // would deadlock a kernel waiting for a proxied atomic. Called before the proxy starts.
  void preload(const char* call, void* word);

  // Streams of contexts (shmem_ctx_create on GPU PEs). While set on a thread (set_thread_stream),
  // copy, write64 and amo use that stream instead of the PE's, so a context's quiet waits only for
  // its own operations.
  CUstream stream_create(const char* call);
  void stream_quiet(const char* call, CUstream s);
  void stream_destroy(const char* call, CUstream s);
  static void set_thread_stream(CUstream s);

 private:
  void load_module(const char* call);  // with mu_ held
  CUfunction amo_kernel(const char* call, size_t size);
  CUstream op_stream() const;
  void check(const char* call, CUresult r, const char* what) const;

  void flush_locked(const char* call);

  GpuContext& g_;
  // The nbi queue: one stream (a put from another stream flushes first), parallel arrays as
  // cuMemcpyBatchAsync takes them.
  std::mutex q_mu_;
  std::atomic<bool> queued_{false};  // the queue is not empty (read without the lock)
  CUstream q_stream_ = nullptr;
  std::vector<CUdeviceptr> q_dst_, q_src_;
  std::vector<size_t> q_n_;
  const size_t batch_, batch_bytes_;
  bool batch_api_;  // cuMemcpyBatchAsync is there and has not failed
  void* scratch_ = nullptr;
  std::mutex mu_;  // blocking atomics share the scratch word; module loading
  CUmodule mod_ = nullptr;
  CUfunction fn_[2] = {nullptr, nullptr};  // 32-bit, 64-bit
};

// LocalMemory over a DeviceOps: what the transports use on a GPU PE.
class GpuLocalMemory final : public LocalMemory {
 public:
  explicit GpuLocalMemory(DeviceOps& ops) : ops_(ops) {}
  bool is_device(const void* p) const override;
  void copy(void* dst, const void* src, size_t n) override;
  uint64_t amo(void* p, gshmem_amo_op op, size_t size, uint64_t a, uint64_t b) override;

 private:
  DeviceOps& ops_;
};
#endif

}  // namespace gshmem::mem
