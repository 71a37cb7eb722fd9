#include "proxy/gpu_proxy.hpp"

#if GSHMEM_HAVE_CUDA
#include <atomic>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstring>
#include <mutex>
#include <new>
#include <thread>

#include "common/fatal.hpp"
#include "common/log.hpp"
#include "proxy/executor.hpp"

namespace gshmem::proxy {
namespace {
constexpr const char* kCall = "gshmem proxy";
}  // namespace

struct GpuProxy::Impl {
  mem::DeviceOps* ops = nullptr;
  mem::GpuContext* gpu = nullptr;
  int npes = 0;
  uint32_t log2 = 0;
  Fifo::Slot* slots = nullptr;              // pinned, mapped
  gshmem_proxy_host_words* host = nullptr;  // pinned, mapped
  CUdeviceptr slots_dev = 0, host_dev = 0;
  CUdeviceptr dev_words = 0, results = 0, peers = 0;  // GPU memory
  std::unique_ptr<Fifo> fifo;
  std::unique_ptr<Executor> exec;
  bool marks = false;  // a transport completes asynchronously and writes the completion word itself
  CUstream qstream = nullptr;
  std::atomic<bool> stop{false};
  std::thread thread;
  // The watchdog: the proxy thread counts its loop turns; a count that stands still for seconds
  // means the thread is stuck inside an engine call (a CUDA call waiting for the context lock
  // that another thread holds while it waits for a kernel, which waits for this proxy).
  std::atomic<uint64_t> turns{0};
  std::thread watchdog;
  std::mutex wd_mu;
  std::condition_variable wd_cv;

  void watch() {
    uint64_t last = ~0ull;
    int still = 0;
    bool warned = false;
    std::unique_lock<std::mutex> lk(wd_mu);
    while (!wd_cv.wait_for(lk, std::chrono::seconds(1), [this] { return stop.load(); })) {
      const uint64_t t = turns.load(std::memory_order_relaxed);
      still = t == last ? still + 1 : 0;
      last = t;
      if (still == kStuckSeconds && !warned) {
        warned = true;
        GSHMEM_WARN(Subsys::proxy,
                    "proxy: the proxy thread has been inside one call for %d s. If it is a CUDA call, another "
                    "thread of this process is probably blocked in a synchronous CUDA call (cudaMemcpy or "
                    "cudaMemset with pageable memory, the first launch of a kernel) that holds the CUDA context "
                    "lock while it waits for a kernel that waits for this proxy: a deadlock. Synchronize the "
                    "stream or device before such calls while proxied operations run (docs/gpu.md).",
                    kStuckSeconds);
      }
    }
  }
  static constexpr int kStuckSeconds = 10;

  void check(CUresult r, const char* what) {
    if (r != CUDA_SUCCESS) fatal(kCall, "%s failed: %s", what, cu::error_string(r));
  }

  void run() {
    mem::gpu_make_current(*gpu);
    // What the transports do on this thread to this PE's GPU memory (results of fetching
    // operations) goes on the proxy's stream: ordered before the completion it publishes there,
    // and never behind a host-launched collective kernel on the PE's stream that waits for it.
    mem::DeviceOps::set_thread_stream(wstream);
    uint32_t idle = 0;
    auto last = std::chrono::steady_clock::now();
    while (!stop.load(std::memory_order_relaxed)) {
      turns.store(turns.load(std::memory_order_relaxed) + 1, std::memory_order_relaxed);  // one writer: no locked add
      const auto t0 = std::chrono::steady_clock::now();
      const uint64_t n = exec->poll(batch());
      if (n) {
        busy_ns += static_cast<uint64_t>(
            std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::steady_clock::now() - t0).count());
        polled += n;
      }
      if (n && !marks) mirror_completed();  // a marking transport writes the completion word itself
      if (n || exec->outstanding()) {
        idle = 0;
        continue;
      }
      if (++idle < 4096) {
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#endif
        continue;
      }
      std::this_thread::yield();
      const auto now = std::chrono::steady_clock::now();
      if (now - last > std::chrono::seconds(5)) {
        last = now;
        report_stall();
      }
    }
    while (exec->poll(batch()) || exec->outstanding()) {
    }
    GSHMEM_INFO(Subsys::proxy, "proxy: %llu FIFO slots handled in %.1f us", static_cast<unsigned long long>(polled),
                busy_ns / 1e3);
  }
  uint64_t busy_ns = 0, polled = 0;  // host time in polls that found work, and the slots they took
  // Slots per batch: as many as are ready, up to the FIFO's size. A batch ends with one completion
  // mark, and a copy engine merges the PUTs of one batch, so whole-FIFO batches beat smaller ones
  // (measured: docs/perf/h200-proxy.md).
  uint64_t batch() const { return uint64_t{1} << log2; }
  // Idle for a while: GPU threads that reserved slots they have not written for seconds point at
  // a stuck producer; say so (the job may be hanging) with the counters. A slot reserved but not
  // yet written is normal for a moment, so only the same unwritten slot at two checks 5 s apart
  // counts (once per slot).
  uint64_t stall_tail = ~0ull, warned_tail = ~0ull;
  void report_stall() {
    const cu::Driver& d = *gpu->drv;
    uint64_t head = 0;
    if (d.cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(&head), dev_words, sizeof head, wstream) != CUDA_SUCCESS ||
        d.cuStreamSynchronize(wstream) != CUDA_SUCCESS)
      return;
    const uint64_t tail = fifo->tail();
    const bool stuck = head > tail && tail == stall_tail && tail != warned_tail;
    stall_tail = head > tail ? tail : ~0ull;
    if (!stuck) return;
    warned_tail = tail;
    GSHMEM_WARN(Subsys::proxy,
                "proxy: GPU threads reserved FIFO slots up to %llu, but slot %llu has not been written for 5 s "
                "(tail %llu, completed %llu)",
                static_cast<unsigned long long>(head), static_cast<unsigned long long>(tail),
                static_cast<unsigned long long>(tail), static_cast<unsigned long long>(fifo->completed()));
  }
  // GPU threads poll completion in GPU memory: write it there after every batch (stream order
  // keeps the values increasing).
  void mirror_completed() {
    const CUdeviceptr at = dev_words + offsetof(gshmem_proxy_dev_words, completed);
    check(gpu->drv->cuStreamWriteValue64(wstream, at, fifo->completed(), 0), "cuStreamWriteValue64(proxy completion)");
  }
  CUstream wstream = nullptr;  // the proxy thread's own stream (completion mirror, stall reports)
};

GpuProxy::GpuProxy(std::unique_ptr<Impl> impl) : impl_(std::move(impl)) {}

Status GpuProxy::create(mem::DeviceOps& ops, int npes, int64_t want, std::unique_ptr<GpuProxy>* out) {
  mem::GpuContext& g = ops.gpu();
  const cu::Driver& d = *g.drv;
  mem::gpu_make_current(g);
  auto p = std::make_unique<Impl>();
  p->ops = &ops;
  p->gpu = &g;
  p->npes = npes;
  uint32_t log2 = 6;
  while (log2 < 24 && (int64_t{1} << log2) < want) ++log2;
  p->log2 = log2;
  const size_t cap = size_t{1} << log2;
  const unsigned flags = CU_MEMHOSTALLOC_DEVICEMAP | CU_MEMHOSTALLOC_PORTABLE;
  GSHMEM_CU(d, cuMemHostAlloc, reinterpret_cast<void**>(&p->slots), cap * sizeof(Fifo::Slot), flags);
  GSHMEM_CU(d, cuMemHostAlloc, reinterpret_cast<void**>(&p->host), sizeof(gshmem_proxy_host_words), flags);
  memset(static_cast<void*>(p->slots), 0, cap * sizeof(Fifo::Slot));
  memset(static_cast<void*>(p->host), 0, sizeof(gshmem_proxy_host_words));
  GSHMEM_CU(d, cuMemHostGetDevicePointer, &p->slots_dev, p->slots, 0);
  GSHMEM_CU(d, cuMemHostGetDevicePointer, &p->host_dev, p->host, 0);
  GSHMEM_CU(d, cuMemAlloc, &p->dev_words, sizeof(gshmem_proxy_dev_words));
  GSHMEM_CU(d, cuMemAlloc, &p->results, cap * sizeof(gshmem_proxy_result));
  GSHMEM_CU(d, cuMemAlloc, &p->peers, static_cast<size_t>(npes));
  GSHMEM_CU(d, cuStreamCreate, &p->qstream, CU_STREAM_NON_BLOCKING);
  GSHMEM_CU(d, cuStreamCreate, &p->wstream, CU_STREAM_NON_BLOCKING);
  GSHMEM_CU(d, cuMemsetD8Async, p->dev_words, 0, sizeof(gshmem_proxy_dev_words), p->qstream);
  GSHMEM_CU(d, cuMemsetD8Async, p->results, 0, cap * sizeof(gshmem_proxy_result), p->qstream);
  GSHMEM_CU(d, cuMemsetD8Async, p->peers, 0, static_cast<size_t>(npes), p->qstream);
  GSHMEM_CU(d, cuStreamSynchronize, p->qstream);
  static_assert(sizeof(std::atomic<uint64_t>) == sizeof(uint64_t), "FIFO counters are plain words");
  auto* tail = new (&p->host->tail) std::atomic<uint64_t>(0);
  auto* completed = new (&p->host->completed) std::atomic<uint64_t>(0);
  p->fifo = std::make_unique<Fifo>(log2, p->slots, tail, completed);
  out->reset(new GpuProxy(std::move(p)));
  return Status::ok;
}

CUdeviceptr GpuProxy::completion_word() const { return impl_->dev_words + offsetof(gshmem_proxy_dev_words, completed); }

Status GpuProxy::start(std::vector<transport::Transport*> via) {
  Impl& p = *impl_;
  const cu::Driver& d = *p.gpu->drv;
  mem::gpu_make_current(*p.gpu);
  std::vector<uint8_t> proxied(static_cast<size_t>(p.npes), 0);  // device code: 1 = push a trigger for this PE
  for (size_t pe = 0; pe < via.size() && pe < proxied.size(); ++pe) proxied[pe] = via[pe] != nullptr;
  GSHMEM_CU(d, cuMemcpyAsync, p.peers, reinterpret_cast<CUdeviceptr>(proxied.data()), proxied.size(), p.qstream);
  GSHMEM_CU(d, cuStreamSynchronize, p.qstream);
  for (transport::Transport* t : via) p.marks = p.marks || (t && t->caps().marks);
  p.ops->preload("shmem_init (GPU proxy)", reinterpret_cast<void*>(p.results));
  p.exec = std::make_unique<Executor>(*p.fifo, std::move(via));
  Impl* raw = &p;
  p.thread = std::thread([raw] { raw->run(); });
  p.watchdog = std::thread([raw] { raw->watch(); });
  GSHMEM_INFO(Subsys::proxy, "GPU proxy: %zu-slot FIFO", size_t{1} << p.log2);
  return Status::ok;
}

void GpuProxy::fill(gshmem_device_state* s) const {
  const Impl& p = *impl_;
  s->proxy_slots = p.slots_dev;
  s->proxy_dev = p.dev_words;
  s->proxy_host = p.host_dev;
  s->proxy_peers = p.peers;
  s->proxy_results = p.results;
  s->proxy_log2 = p.log2;
}

void GpuProxy::quiet() {
  Impl& p = *impl_;
  const cu::Driver& d = *p.gpu->drv;
  mem::gpu_make_current(*p.gpu);
  uint64_t head = 0;
  CUresult r = d.cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(&head), p.dev_words, sizeof head, p.qstream);
  if (r == CUDA_SUCCESS) r = d.cuStreamSynchronize(p.qstream);
  if (r != CUDA_SUCCESS) fatal("shmem_quiet", "reading the proxy FIFO head failed: %s", cu::error_string(r));
  p.fifo->quiet(head);
}

GpuProxy::~GpuProxy() {
  Impl& p = *impl_;
  {
    std::lock_guard<std::mutex> lk(p.wd_mu);
    p.stop.store(true);
  }
  p.wd_cv.notify_all();
  if (p.watchdog.joinable()) p.watchdog.join();
  if (p.thread.joinable()) p.thread.join();
  const cu::Driver& d = *p.gpu->drv;
  p.exec.reset();
  d.cuStreamDestroy(p.qstream);
  d.cuStreamDestroy(p.wstream);
  d.cuMemFree(p.dev_words);
  d.cuMemFree(p.results);
  d.cuMemFree(p.peers);
  d.cuMemFreeHost(p.slots);
  d.cuMemFreeHost(p.host);
}

}  // namespace gshmem::proxy
#endif
