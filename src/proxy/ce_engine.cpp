#include "proxy/ce_engine.hpp"

#if GSHMEM_HAVE_CUDA
#include <algorithm>
#include <chrono>
#include <cstring>

#include "api/device_ops.hpp"
#include "common/log.hpp"
#include "core/runtime.hpp"

namespace gshmem::proxy {
namespace {
constexpr const char* kCall = "gshmem proxy";
constexpr uint64_t kArena = 256 * 1024;  // pinned staging ring for unaligned inline puts
constexpr size_t kMaxMemops = 255;       // cuStreamBatchMemOp takes fewer than 256 per call

void check(CUresult r, const char* what) { api::cu_check(kCall, r, what); }

constexpr uint64_t kSpreadMin = 64 * 1024;  // PUTs this large go to the lanes in turn
constexpr size_t kMaxWaitingPuts = 16384;    // per PE, before they are issued anyway

uint64_t ns_between(std::chrono::steady_clock::time_point a, std::chrono::steady_clock::time_point b) {
  return static_cast<uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(b - a).count());
}

unsigned lanes_from_config(const Runtime& rt) {
  static_assert(LanePlan::kMaxLanes == 16, "GSHMEM_PROXY_CE_STREAMS allows 1..16 (config_table.def)");
  return static_cast<unsigned>(rt.cfg->GSHMEM_PROXY_CE_STREAMS);
}
}  // namespace

CeEngine::CeEngine(Runtime& rt, CUdeviceptr mirror)
    : rt_(rt), g_(*rt.gpu), mirror_(mirror), targets_(static_cast<size_t>(rt.npes)),
      plan_(static_cast<uint32_t>(rt.npes), lanes_from_config(rt)) {
  for (Target& t : targets_) {
    t.lane.assign(plan_.lanes(), nullptr);
    t.mark.assign(plan_.lanes(), nullptr);
  }
  check(g_.drv->cuMemHostAlloc(reinterpret_cast<void**>(&arena_), kArena, CU_MEMHOSTALLOC_PORTABLE),
        "cuMemHostAlloc(proxy staging ring)");
  check(g_.drv->cuStreamCreate(&cstream_, CU_STREAM_NON_BLOCKING), "cuStreamCreate(proxy completion)");
}

CeEngine::~CeEngine() {
  GSHMEM_INFO(Subsys::proxy,
              "copy-engine proxy on pe %d: %llu PUTs (%llu bytes) issued as %llu copies, %llu batches; host time in "
              "merging %.1f us, copy calls %.1f us, completion marks %.1f us",
              rt_.my_pe, static_cast<unsigned long long>(counts_.puts),
              static_cast<unsigned long long>(counts_.put_bytes), static_cast<unsigned long long>(counts_.copies),
              static_cast<unsigned long long>(counts_.batches),
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

CUdeviceptr CeEngine::addr(uint32_t pe, uint32_t seg, uint64_t off, uint64_t n, const char* what) const {
  const uint64_t base = pe < static_cast<uint32_t>(rt_.npes) ? rt_.heap.device_segment(static_cast<int>(pe)) : 0;
  const uint64_t limit = GSHMEM_DEV_CTRL_BYTES + rt_.heap.size();
  if (seg != GSHMEM_TRIG_SEG_DEVICE || !base || off > limit || n > limit - off)
    fatal(kCall, "%s to pe %u: segment %u offset 0x%llx + %llu bytes is outside its device segment (%llu bytes)",
              what, pe, seg, static_cast<unsigned long long>(off), static_cast<unsigned long long>(n),
              static_cast<unsigned long long>(limit));
  return static_cast<CUdeviceptr>(base + off);
}

CUstream CeEngine::lane(uint32_t pe, unsigned i) {
  Target& t = targets_[pe];
  if (!t.lane[i]) {
    check(g_.drv->cuStreamCreate(&t.lane[i], CU_STREAM_NON_BLOCKING), "cuStreamCreate(proxy)");
    check(g_.drv->cuEventCreate(&t.mark[i], CU_EVENT_DISABLE_TIMING), "cuEventCreate(proxy)");
  }
  return t.lane[i];
}

void CeEngine::wait(uint32_t pe, unsigned waiter, unsigned on) {
  const cu::Driver& d = *g_.drv;
  if (waiter == 0 || on == 0) submit(pe);  // lane 0's earlier write-values go before its wait or mark
  CUstream from = lane(pe, on), to = lane(pe, waiter);  // created (with their events) first
  CUevent e = targets_[pe].mark[on];
  check(d.cuEventRecord(e, from), "cuEventRecord(proxy lane)");
  check(d.cuStreamWaitEvent(to, e, 0), "cuStreamWaitEvent(proxy lane)");
}

CUstream CeEngine::place(uint32_t pe, LanePlan::Kind k, bool memop) {
  const unsigned i = plan_.place(pe, k, *this);
  CUstream s = lane(pe, i);
  if (i == 0 && !memop) submit(pe);
  return s;
}

void CeEngine::write_value(uint32_t pe, CUdeviceptr dst, uint64_t v, unsigned bytes) {
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

void CeEngine::submit(uint32_t pe) {
  std::vector<CUstreamBatchMemOpParams>& ops = targets_[pe].memops;
  if (ops.empty()) return;
  check(g_.drv->cuStreamBatchMemOp(lane(pe, 0), static_cast<unsigned>(ops.size()), ops.data(), 0),
        "cuStreamBatchMemOp(proxy)");
  ops.clear();
}

void CeEngine::submit_all() {
  for (uint32_t pe = 0; pe < targets_.size(); ++pe) submit(pe);
}

void CeEngine::put(uint32_t pe, uint32_t seg, uint64_t off, uint64_t src, uint64_t n) {
  const CUdeviceptr dst = addr(pe, seg, off, n, "put");
  if (!n) return;
  Target& t = targets_[pe];
  t.puts.push_back(Copy{dst, src, n});
  ++counts_.puts;
  counts_.put_bytes += n;
  if (t.puts.size() >= kMaxWaitingPuts) issue_puts(pe);
}

void CeEngine::issue_puts(uint32_t pe) {
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

void CeEngine::issue_all_puts() {
  for (uint32_t pe = 0; pe < targets_.size(); ++pe) issue_puts(pe);
}

void CeEngine::fence() {
  issue_all_puts();
  plan_.fence();
}

void CeEngine::put_inline(uint32_t pe, uint32_t seg, uint64_t off, const void* data, uint64_t n) {
  const CUdeviceptr dst = addr(pe, seg, off, n, "put");
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
    return;
  }
  issue_puts(pe);
  CUstream s = place(pe, LanePlan::Kind::put_small);
  const char* a = stage(data, n);
  check(g_.drv->cuMemcpyAsync(dst, reinterpret_cast<CUdeviceptr>(a), n, s), "cuMemcpyAsync(proxy inline put)");
}

void CeEngine::get(uint32_t pe, uint32_t seg, uint64_t off, uint64_t dst, uint64_t n) {
  const CUdeviceptr src = addr(pe, seg, off, n, "get");
  issue_puts(pe);
  CUstream s = place(pe, LanePlan::Kind::ordered);
  check(g_.drv->cuMemcpyAsync(static_cast<CUdeviceptr>(dst), src, n, s), "cuMemcpyAsync(proxy get)");
}

void CeEngine::signal(uint32_t pe, uint32_t seg, uint64_t off, uint64_t v, uint32_t op) {
  const CUdeviceptr d = addr(pe, seg, off, 8, "signal");
  issue_puts(pe);
  CUstream s = place(pe, LanePlan::Kind::ordered, op == 0);
  if (op == 0) return write_value(pe, d, v, 8);  // SET
  api::dev_amo_async(kCall, reinterpret_cast<void*>(d), 8, api::AmoOp::add, v, 0, nullptr, s);
}

void CeEngine::amo(uint32_t pe, uint32_t seg, uint64_t off, uint32_t op, uint32_t bytes, uint64_t operand,
                   uint64_t compare, uint64_t* old) {
  const CUdeviceptr d = addr(pe, seg, off, bytes, "atomic");
  issue_puts(pe);
  CUstream s = place(pe, LanePlan::Kind::ordered);
  // the kernel's cswap takes (expected, new value); a trigger carries (new value, expected)
  const bool cs = op == GSHMEM_TRIG_AMO_CSWAP;
  api::dev_amo_async(kCall, reinterpret_cast<void*>(d), bytes, static_cast<api::AmoOp>(op), cs ? compare : operand,
                     cs ? operand : compare, old, s);
}

char* CeEngine::stage(const void* data, uint64_t n) {
  if (arena_head_ + 16 - arena_tail_ > kArena) {
    (void)completed_upto();  // releases the slots of finished batches
    if (arena_head_ + 16 - arena_tail_ > kArena) {  // all in flight: wait for them
      flush();
      arena_tail_ = arena_head_;
    }
  }
  char* a = arena_ + arena_head_ % kArena;
  arena_head_ += 16;
  memcpy(a, data, n);
  return a;
}

CUevent CeEngine::event() {
  if (!free_events_.empty()) {
    CUevent e = free_events_.back();
    free_events_.pop_back();
    return e;
  }
  CUevent e = nullptr;
  check(g_.drv->cuEventCreate(&e, CU_EVENT_DISABLE_TIMING), "cuEventCreate(proxy)");
  return e;
}

void CeEngine::flush() {
  issue_all_puts();
  submit_all();
  for (Target& t : targets_)
    for (CUstream s : t.lane)
      if (s) check(g_.drv->cuStreamSynchronize(s), "cuStreamSynchronize(proxy)");
  check(g_.drv->cuStreamSynchronize(cstream_), "cuStreamSynchronize(proxy completion)");
}

void CeEngine::complete_at(uint64_t upto) {
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
}

uint64_t CeEngine::completed_upto() {
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

}  // namespace gshmem::proxy
#endif
