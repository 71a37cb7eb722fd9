#include "transport/copy_engine/copy_engine.hpp"

namespace gshmem::transport {

Probe copy_engine_probe(const Config& cfg, bool gpu) {
  (void)cfg;
  Probe p;
  p.state = gpu ? Probe::State::usable : Probe::State::absent;  // a GPU PE exists only in a CUDA build
  if (!gpu) p.why = "a CPU PE has no GPU memory to copy";
  p.caps.same_node_only = p.caps.device_memory = p.caps.device_atomics = p.caps.marks = true;
  return p;
}

#if !GSHMEM_HAVE_CUDA
Result copy_engine_create(Env& env, const std::vector<int>& peers, std::unique_ptr<Transport>* out) {
  (void)env, (void)peers, (void)out;
  return Result::fail(Status::not_available, "copy-engine transport: this gshmem was built without CUDA");
}
#endif

}  // namespace gshmem::transport

#if GSHMEM_HAVE_CUDA
#include <algorithm>
#include <chrono>
#include <cstring>

#include "common/fatal.hpp"
#include "common/log.hpp"

namespace gshmem::transport {
namespace {
constexpr const char* kCall = "copy-engine transport";
constexpr uint64_t kArena = 256 * 1024;  // pinned staging ring for unaligned inline puts
constexpr size_t kMaxMemops = 255;       // cuStreamBatchMemOp takes fewer than 256 per call

constexpr uint64_t kSpreadMin = 64 * 1024;  // PUTs this large go to the lanes in turn
constexpr size_t kMaxWaitingPuts = 16384;   // per PE, before they are issued anyway

uint64_t ns_between(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b) {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(b - a).count());
}

}  // namespace

bool CopyEngine::check(CUresult r, const char* what) {
  if (r == CUDA_SUCCESS) return true;
  if (err_.ok())
    err_ = Result::fail(Status::system_error, std::string(kCall) + ": " + what + " failed: " + cu::error_string(r));
  return false;
}

Result copy_engine_create(Env& env, const std::vector<int>& peers, std::unique_ptr<Transport>* out) {
  (void)peers;  // it reaches every PE whose GPU segment is mapped here
  if (!env.ops) return Result::fail(Status::internal_error, "copy-engine transport: made without the GPU's operations");
  auto ce = std::make_unique<CopyEngine>(*env.ops, env.npes, static_cast<unsigned>(env.cfg->GSHMEM_PROXY_CE_STREAMS),
                                         env.mapped_device_segment, env.device_segment_bytes,
                                         static_cast<CUdeviceptr>(env.completion_word));
  GSHMEM_TRY(ce->quiet());  // the construction's own CUDA calls
  *out = std::move(ce);
  return {};
}

Caps CopyEngine::caps() const {
  Caps c;
  c.same_node_only = c.device_memory = c.device_atomics = c.marks = true;
  return c;
}

bool CopyEngine::reaches(int pe) const {
  return pe >= 0 && pe < static_cast<int>(targets_.size()) && segment_base_(pe) != 0;
}

CopyEngine::CopyEngine(mem::DeviceOps& ops, int npes, unsigned lanes, std::function<uint64_t(int)> segment_base,
                       std::function<uint64_t()> segment_bytes, CUdeviceptr mirror)
    : ops_(ops), g_(ops.gpu()), segment_base_(std::move(segment_base)), segment_bytes_(std::move(segment_bytes)),
      mirror_(mirror), targets_(static_cast<size_t>(npes)), plan_(static_cast<uint32_t>(npes), lanes) {
  for (Target& t : targets_) {
    t.lane.assign(plan_.lanes(), nullptr);
    t.mark.assign(plan_.lanes(), nullptr);
  }
  check(g_.drv->cuMemHostAlloc(reinterpret_cast<void**>(&arena_), kArena, CU_MEMHOSTALLOC_PORTABLE),
        "cuMemHostAlloc(proxy staging ring)");
  check(g_.drv->cuStreamCreate(&cstream_, CU_STREAM_NON_BLOCKING), "cuStreamCreate(proxy completion)");
}

CopyEngine::~CopyEngine() {
  GSHMEM_INFO(Subsys::proxy,
              "copy engine: %llu PUTs (%llu bytes) issued as %llu copies, %llu batches; host time in "
              "merging %.1f us, copy calls %.1f us, completion marks %.1f us",
              static_cast<unsigned long long>(counts_.puts), static_cast<unsigned long long>(counts_.put_bytes),
              static_cast<unsigned long long>(counts_.copies), static_cast<unsigned long long>(counts_.batches),
              counts_.merge_ns / 1e3, counts_.copy_ns / 1e3, counts_.record_ns / 1e3);
  const cu::Driver& d = *g_.drv;
  for (Target& t : targets_)
    for (CUstream s : t.lane)
      if (s) d.cuStreamSynchronize(s);
  if (cstream_) d.cuStreamSynchronize(cstream_);
  for (const Batch& b : batches_) d.cuEventDestroy(b.done);
  for (CUevent e : free_events_) d.cuEventDestroy(e);
  for (Target& t : targets_) {
    for (CUevent e : t.mark)
      if (e) d.cuEventDestroy(e);
    for (CUstream s : t.lane)
      if (s) d.cuStreamDestroy(s);
  }
  if (cstream_) d.cuStreamDestroy(cstream_);
  if (arena_) d.cuMemFreeHost(arena_);
}

Result CopyEngine::addr(int pe, Seg seg, uint64_t off, uint64_t n, const char* what, CUdeviceptr* out) {
  const uint64_t base = pe >= 0 && pe < static_cast<int>(targets_.size()) ? segment_base_(pe) : 0;
  const uint64_t limit = segment_bytes_();
  if (seg != Seg::device || !base || off > limit || n > limit - off) {
    char b[256];
    snprintf(b, sizeof b,
             "copy-engine transport: %s to pe %d: segment %u offset 0x%llx + %llu bytes is outside its mapped device "
             "segment (%llu bytes)",
             what, pe, static_cast<unsigned>(seg), static_cast<unsigned long long>(off),
             static_cast<unsigned long long>(n), static_cast<unsigned long long>(limit));
    return Result::fail(Status::invalid_argument, b);
  }
  *out = static_cast<CUdeviceptr>(base + off);
  return err_;
}

CUstream CopyEngine::lane(uint32_t pe, unsigned i) {
  Target& t = targets_[pe];
  if (!t.lane[i]) {
    check(g_.drv->cuStreamCreate(&t.lane[i], CU_STREAM_NON_BLOCKING), "cuStreamCreate(proxy)");
    check(g_.drv->cuEventCreate(&t.mark[i], CU_EVENT_DISABLE_TIMING), "cuEventCreate(proxy)");
  }
  return t.lane[i];
}

void CopyEngine::wait(uint32_t pe, unsigned waiter, unsigned on) {
  const cu::Driver& d = *g_.drv;
  if (waiter == 0 || on == 0) submit(pe);               // lane 0's earlier write-values go before its wait or mark
  CUstream from = lane(pe, on), to = lane(pe, waiter);  // created (with their events) first
  CUevent e = targets_[pe].mark[on];
  check(d.cuEventRecord(e, from), "cuEventRecord(proxy lane)");
  check(d.cuStreamWaitEvent(to, e, 0), "cuStreamWaitEvent(proxy lane)");
}

CUstream CopyEngine::place(uint32_t pe, LanePlan::Kind k, bool memop) {
  const unsigned i = plan_.place(pe, k, *this);
  CUstream s = lane(pe, i);
  if (i == 0 && !memop) submit(pe);
  return s;
}

void CopyEngine::write_value(uint32_t pe, CUdeviceptr dst, uint64_t v, unsigned bytes) {
  CUstreamBatchMemOpParams p;
  memset(&p, 0, sizeof p);
  p.writeValue.operation = bytes == 8 ? CU_STREAM_MEM_OP_WRITE_VALUE_64 : CU_STREAM_MEM_OP_WRITE_VALUE_32;
  p.writeValue.address = dst;
  if (bytes == 8) p.writeValue.value64 = v;
  else p.writeValue.value = static_cast<cuuint32_t>(v);
  p.writeValue.flags = 0;  // default: the write is ordered after every earlier write on the stream
  std::vector<CUstreamBatchMemOpParams>& ops = targets_[pe].memops;
  ops.push_back(p);
  if (ops.size() == kMaxMemops) submit(pe);
}

void CopyEngine::submit(uint32_t pe) {
  std::vector<CUstreamBatchMemOpParams>& ops = targets_[pe].memops;
  if (ops.empty()) return;
  check(g_.drv->cuStreamBatchMemOp(lane(pe, 0), static_cast<unsigned>(ops.size()), ops.data(), 0),
        "cuStreamBatchMemOp(proxy)");
  ops.clear();
}

void CopyEngine::submit_all() {
  for (uint32_t pe = 0; pe < targets_.size(); ++pe) submit(pe);
}

Result CopyEngine::put_nbi(int pe, Seg seg, uint64_t off, const void* src, size_t n) {
  CUdeviceptr dst = 0;
  GSHMEM_TRY(addr(pe, seg, off, n, "put", &dst));
  if (!n) return err_;
  Target& t = targets_[static_cast<size_t>(pe)];
  t.puts.push_back(Copy{dst, reinterpret_cast<uint64_t>(src), n});
  ++counts_.puts;
  counts_.put_bytes += n;
  if (t.puts.size() >= kMaxWaitingPuts) issue_puts(static_cast<uint32_t>(pe));
  return err_;
}

void CopyEngine::issue_puts(uint32_t pe) {
  std::vector<Copy>& q = targets_[pe].puts;
  if (q.empty()) return;
  const auto t0 = std::chrono::steady_clock::now();
  merge_copies(q);
  const auto t1 = std::chrono::steady_clock::now();
  counts_.copies += q.size();
  for (const Copy& c : q) {
    CUstream s = place(pe, c.n >= kSpreadMin ? LanePlan::Kind::put_large : LanePlan::Kind::put_small);
    check(g_.drv->cuMemcpyAsync(static_cast<CUdeviceptr>(c.dst), static_cast<CUdeviceptr>(c.src), c.n, s),
          "cuMemcpyAsync(proxy put)");
  }
  q.clear();
  counts_.merge_ns += ns_between(t0, t1);
  counts_.copy_ns += ns_between(t1, std::chrono::steady_clock::now());
}

void CopyEngine::issue_all_puts() {
  for (uint32_t pe = 0; pe < targets_.size(); ++pe) issue_puts(pe);
}

Result CopyEngine::fence() {
  issue_all_puts();
  plan_.fence();
  return err_;
}

// A blocking put: src may be reused at return. The proxy's inline data (at most 16 bytes) becomes
// write-value operations or a staged copy; anything larger waits for its copy.
Result CopyEngine::put(int pe_, Seg seg, uint64_t off, const void* data, size_t n) {
  if (n > GSHMEM_TRIG_INLINE_MAX) {
    GSHMEM_TRY(put_nbi(pe_, seg, off, data, n));
    return quiet();
  }
  CUdeviceptr dst = 0;
  GSHMEM_TRY(addr(pe_, seg, off, n, "put", &dst));
  const uint32_t pe = static_cast<uint32_t>(pe_);
  const char* b = static_cast<const char*>(data);
  if (n && n % 4 == 0 && dst % 4 == 0) {  // whole words: write-value operations, no copy
    issue_puts(pe);
    (void)place(pe, LanePlan::Kind::put_small, true);
    for (uint64_t i = 0; i < n;) {
      if ((dst + i) % 8 == 0 && n - i >= 8) {
        uint64_t v;
        memcpy(&v, b + i, 8);
        write_value(pe, dst + i, v, 8);
        i += 8;
      } else {
        uint32_t v;
        memcpy(&v, b + i, 4);
        write_value(pe, dst + i, v, 4);
        i += 4;
      }
    }
    return err_;
  }
  issue_puts(pe);
  CUstream s = place(pe, LanePlan::Kind::put_small);
  const char* a = stage(data, n);
  check(g_.drv->cuMemcpyAsync(dst, reinterpret_cast<CUdeviceptr>(a), n, s), "cuMemcpyAsync(proxy inline put)");
  return err_;
}

Result CopyEngine::get_nbi(int pe, Seg seg, uint64_t off, void* dst, size_t n) {
  CUdeviceptr src = 0;
  GSHMEM_TRY(addr(pe, seg, off, n, "get", &src));
  issue_puts(static_cast<uint32_t>(pe));
  CUstream s = place(static_cast<uint32_t>(pe), LanePlan::Kind::ordered);
  check(g_.drv->cuMemcpyAsync(reinterpret_cast<CUdeviceptr>(dst), src, n, s), "cuMemcpyAsync(proxy get)");
  return err_;
}

Result CopyEngine::get(int pe, Seg seg, uint64_t off, void* dst, size_t n) {
  GSHMEM_TRY(get_nbi(pe, seg, off, dst, n));
  return quiet();
}

Result CopyEngine::signal(int pe, Seg seg, uint64_t off, uint64_t v, int sig_op) {
  CUdeviceptr d = 0;
  GSHMEM_TRY(addr(pe, seg, off, 8, "signal", &d));
  const uint32_t p = static_cast<uint32_t>(pe);
  issue_puts(p);
  const bool set = sig_op == SHMEM_SIGNAL_SET;
  CUstream s = place(p, LanePlan::Kind::ordered, set);
  if (set) write_value(p, d, v, 8);
  else ops_.amo_async(kCall, reinterpret_cast<void*>(d), 8, GSHMEM_AMO_ADD, v, 0, nullptr, s);
  return err_;
}

Result CopyEngine::amo_nbi(int pe, Seg seg, uint64_t off, gshmem_amo_op op, size_t bytes, uint64_t a, uint64_t b,
                           uint64_t* old) {
  CUdeviceptr d = 0;
  GSHMEM_TRY(addr(pe, seg, off, bytes, "atomic", &d));
  issue_puts(static_cast<uint32_t>(pe));
  CUstream s = place(static_cast<uint32_t>(pe), LanePlan::Kind::ordered);
  ops_.amo_async(kCall, reinterpret_cast<void*>(d), bytes, op, a, b, old, s);
  return err_;
}

// Blocking, with the old value in host memory: after every earlier operation to pe has completed,
// the atomic runs on the runtime's own stream (mem::DeviceOps::amo).
Result CopyEngine::amo(int pe, Seg seg, uint64_t off, gshmem_amo_op op, size_t bytes, uint64_t a, uint64_t b,
                       uint64_t* old) {
  CUdeviceptr d = 0;
  GSHMEM_TRY(addr(pe, seg, off, bytes, "atomic", &d));
  GSHMEM_TRY(quiet());
  const uint64_t v = ops_.amo(kCall, reinterpret_cast<void*>(d), bytes, op, a, b);
  if (old) *old = v;
  return err_;
}

char* CopyEngine::stage(const void* data, uint64_t n) {
  if (arena_head_ + 16 - arena_tail_ > kArena) {
    (void)marked_done();                            // releases the slots of finished batches
    if (arena_head_ + 16 - arena_tail_ > kArena) {  // all in flight: wait for them
      (void)quiet();
      arena_tail_ = arena_head_;
    }
  }
  char* a = arena_ + arena_head_ % kArena;
  arena_head_ += 16;
  memcpy(a, data, n);
  return a;
}

CUevent CopyEngine::event() {
  if (!free_events_.empty()) {
    CUevent e = free_events_.back();
    free_events_.pop_back();
    return e;
  }
  CUevent e = nullptr;
  check(g_.drv->cuEventCreate(&e, CU_EVENT_DISABLE_TIMING), "cuEventCreate(proxy)");
  return e;
}

Result CopyEngine::quiet() {
  issue_all_puts();
  submit_all();
  for (Target& t : targets_)
    for (CUstream s : t.lane)
      if (s) check(g_.drv->cuStreamSynchronize(s), "cuStreamSynchronize(proxy)");
  check(g_.drv->cuStreamSynchronize(cstream_), "cuStreamSynchronize(proxy completion)");
  return err_;
}

Result CopyEngine::mark(uint64_t upto) {
  const cu::Driver& d = *g_.drv;
  issue_all_puts();
  const auto t0 = std::chrono::steady_clock::now();
  submit_all();
  for (uint32_t pe = 0; pe < targets_.size(); ++pe) {
    Target& t = targets_[pe];
    for (uint32_t used = plan_.take_used(pe), i = 0; used >> i; ++i) {
      if (!(used & (1u << i))) continue;
      check(d.cuEventRecord(t.mark[i], t.lane[i]), "cuEventRecord(proxy)");
      check(d.cuStreamWaitEvent(cstream_, t.mark[i], 0), "cuStreamWaitEvent(proxy)");
    }
  }
  if (mirror_) check(d.cuStreamWriteValue64(cstream_, mirror_, upto, 0), "cuStreamWriteValue64(proxy completion)");
  CUevent e = event();
  check(d.cuEventRecord(e, cstream_), "cuEventRecord(proxy completion)");
  batches_.push_back(Batch{e, upto, arena_head_});
  ++counts_.batches;
  counts_.record_ns += ns_between(t0, std::chrono::steady_clock::now());
  return err_;
}

uint64_t CopyEngine::marked_done() {
  while (!batches_.empty()) {
    const Batch& b = batches_.front();
    const CUresult r = g_.drv->cuEventQuery(b.done);
    if (r == CUDA_ERROR_NOT_READY) break;
    check(r, "cuEventQuery(proxy completion)");
    done_ = b.upto;
    arena_tail_ = std::max(arena_tail_, b.arena_end);
    free_events_.push_back(b.done);
    batches_.pop_front();
  }
  return done_;
}

}  // namespace gshmem::transport
#endif
