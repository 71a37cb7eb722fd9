#include "transport/ucx/ucx.hpp"

#include "transport/ucx/ucx_transport.hpp"

namespace gshmem::transport {
namespace ucx {

void Ucx::lost(int pe, ucs_status_t st) {
  if (closing_.load()) return;
  // Called from UCX's progress, often on the progress thread, which has no caller to report to.
  fatal("ucx transport", "pe %d is unreachable or died (%s); ending the job", pe, u_.str(st));
}

Result Ucx::wait(ucs_status_ptr_t req, const char* what, int pe) {
  if (req == nullptr) return {};
  auto named = [&] { return pe < 0 ? std::string("ucx transport: ") + what : fmt_pe(what, pe); };
  if (UCS_PTR_IS_ERR(req)) return ucs_fail(named(), UCS_PTR_STATUS(req));
  ucs_status_t st = UCS_INPROGRESS;
  progress_until([&] { return (st = u_.request_check_status(req)) != UCS_INPROGRESS; });
  u_.request_free(req);
  return st == UCS_OK ? Result{} : ucs_fail(named(), st);
}

Result Ucx::remote(int pe, Seg seg, uint64_t off, size_t n, const char* what, uint64_t* addr, ucp_rkey_h* rkey) {
  if (!reaches(pe)) return fail(Status::invalid_argument, fmt_pe(what, pe) + ": not connected to that PE");
  std::shared_lock<std::shared_mutex> lock(ext_mu_);
  for (const Extent& e : ext_[static_cast<size_t>(pe)][static_cast<size_t>(seg)]) {
    if (off >= e.off && n <= e.len && off - e.off <= e.len - n) {
      *addr = e.base + (off - e.off);
      *rkey = e.rkey;
      return {};
    }
  }
  char b[160];
  snprintf(b, sizeof b, ": segment %u offset 0x%llx + %zu bytes is not memory that PE mapped",
           static_cast<unsigned>(seg), static_cast<unsigned long long>(off), n);
  return fail(Status::invalid_argument, fmt_pe(what, pe) + b);
}

Result Ucx::rma(bool write, int pe, Seg seg, uint64_t off, void* local, size_t n, bool blocking) {
  const Inside inside(this);
  if (!n) return {};
  const char* what = write ? "a put" : "a get";
  uint64_t addr = 0;
  ucp_rkey_h rkey = nullptr;
  GSHMEM_TRY(remote(pe, seg, off, n, what, &addr, &rkey));
  ucp_request_param_t prm;
  prm.op_attr_mask = 0;
  const ucp_ep_h ep = peers_[static_cast<size_t>(pe)].ep;
  ucs_status_ptr_t req =
      write ? u_.put_nbx(ep, local, n, addr, rkey, &prm) : u_.get_nbx(ep, local, n, addr, rkey, &prm);
  peers_[static_cast<size_t>(pe)].dirty.store(true, std::memory_order_relaxed);
  if (blocking) return wait(req, what, pe);
  if (UCS_PTR_IS_ERR(req)) return ucs_fail(fmt_pe(what, pe), UCS_PTR_STATUS(req));
  if (req) u_.request_free(req);  // it completes on its own; the next flush waits for it
  return {};
}

Result Ucx::flush_ep(int pe) {
  Peer& p = peers_[static_cast<size_t>(pe)];
  if (!p.dirty.exchange(false)) return {};
  ucp_request_param_t prm;
  prm.op_attr_mask = 0;
  return wait(u_.ep_flush_nbx(p.ep, &prm), "a flush", pe);
}

Result Ucx::atomic(int pe, Seg seg, uint64_t off, gshmem_amo_op op, size_t bytes, uint64_t a, uint64_t b, uint64_t* old,
                   bool blocking, bool ordered) {
  const Inside inside(this);
  if ((bytes != 4 && bytes != 8) || static_cast<unsigned>(op) >= GSHMEM_AMO_NOPS || off % bytes)
    return fail(Status::invalid_argument, fmt_pe("an atomic", pe) + ": operation " + std::to_string(op) + " of " +
                                              std::to_string(bytes) + " bytes at offset " + std::to_string(off));
  if (seg == Seg::device ? owner_device_ : owner_host_) {
    if (ordered) GSHMEM_TRY(flush_ep(pe));  // a signal: after every earlier put and get to pe
    return owner_op(pe, seg, off, op, bytes, a, b, old, blocking);
  }
  uint64_t addr = 0;
  ucp_rkey_h rkey = nullptr;
  GSHMEM_TRY(remote(pe, seg, off, bytes, "an atomic", &addr, &rkey));
  if (ordered) {
    const ucs_status_t st = u_.worker_fence(worker_);
    if (st != UCS_OK) return ucs_fail(fmt_pe("a fence before a signal", pe), st);
  }
  ucp_atomic_op_t uop;
  uint64_t operand = a, reply = 0;
  bool fetch = old != nullptr;
  switch (op) {
    case GSHMEM_AMO_FETCH:
      uop = UCP_ATOMIC_OP_ADD, operand = 0, fetch = true;
      break;
    case GSHMEM_AMO_SET:
      uop = UCP_ATOMIC_OP_SWAP, fetch = true;
      break;  // a swap needs a reply buffer
    case GSHMEM_AMO_SWAP:
      uop = UCP_ATOMIC_OP_SWAP, fetch = true;
      break;
    case GSHMEM_AMO_CSWAP:
      uop = UCP_ATOMIC_OP_CSWAP, reply = b, fetch = true;
      break;  // compare a, new value b
    case GSHMEM_AMO_ADD:
      uop = UCP_ATOMIC_OP_ADD;
      break;
    case GSHMEM_AMO_AND:
      uop = UCP_ATOMIC_OP_AND;
      break;
    case GSHMEM_AMO_OR:
      uop = UCP_ATOMIC_OP_OR;
      break;
    default:
      uop = UCP_ATOMIC_OP_XOR;
      break;
  }
  uint32_t operand32 = static_cast<uint32_t>(operand);
  const void* buf = bytes == 4 ? static_cast<const void*>(&operand32) : static_cast<const void*>(&operand);
  ucp_request_param_t prm;
  prm.op_attr_mask = UCP_OP_ATTR_FIELD_DATATYPE;
  prm.datatype = ucp_dt_make_contig(bytes);
  const ucp_ep_h ep = peers_[static_cast<size_t>(pe)].ep;
  if (!fetch) {  // a post: nothing comes back
    ucs_status_ptr_t req = u_.atomic_op_nbx(ep, uop, buf, 1, addr, rkey, &prm);
    if (blocking) return wait(req, "an atomic", pe);
    if (UCS_PTR_IS_ERR(req)) return ucs_fail(fmt_pe("an atomic", pe), UCS_PTR_STATUS(req));
    if (req) u_.request_free(req);
    return {};
  }
  prm.op_attr_mask |= UCP_OP_ATTR_FIELD_REPLY_BUFFER;
  if (!blocking && !old) {  // a set (a swap) whose old value nobody wants: the reply goes nowhere
    prm.reply_buffer = &discard_;
    if (op == GSHMEM_AMO_CSWAP) return fail(Status::invalid_argument, fmt_pe("a compare-swap without a result", pe));
    ucs_status_ptr_t req = u_.atomic_op_nbx(ep, uop, buf, 1, addr, rkey, &prm);
    if (UCS_PTR_IS_ERR(req)) return ucs_fail(fmt_pe("an atomic", pe), UCS_PTR_STATUS(req));
    if (req) u_.request_free(req);
    return {};
  }
  if (blocking) {
    uint64_t r64 = reply;
    uint32_t r32 = static_cast<uint32_t>(reply);
    prm.reply_buffer = bytes == 4 ? static_cast<void*>(&r32) : static_cast<void*>(&r64);
    GSHMEM_TRY(wait(u_.atomic_op_nbx(ep, uop, buf, 1, addr, rkey, &prm), "an atomic", pe));
    if (old) *old = bytes == 4 ? r32 : r64;
    return {};
  }
  Fetched* f;
  {
    std::lock_guard<std::mutex> lock(fetch_mu_);
    fetched_.push_back({reply, old});  // a 4-byte reply fills the low word (little-endian), the rest stays 0
    f = &fetched_.back();
    if (bytes == 4) f->value = static_cast<uint32_t>(reply);
  }
  prm.reply_buffer = &f->value;
  ucs_status_ptr_t req = u_.atomic_op_nbx(ep, uop, buf, 1, addr, rkey, &prm);
  if (UCS_PTR_IS_ERR(req)) return ucs_fail(fmt_pe("an atomic", pe), UCS_PTR_STATUS(req));
  if (req) u_.request_free(req);
  return {};
}

Result Ucx::signal(int pe, Seg seg, uint64_t off, uint64_t value, int sig_op) {
  return atomic(pe, seg, off, sig_op == SHMEM_SIGNAL_ADD ? GSHMEM_AMO_ADD : GSHMEM_AMO_SET, 8, value, 0, nullptr, false,
                true);
}

Result Ucx::fence() {
  const Inside inside(this);
  GSHMEM_TRY(settle_owner_ops());
  const ucs_status_t st = u_.worker_fence(worker_);
  return st == UCS_OK ? Result{} : ucs_fail("ucx transport: a fence", st);
}

Result Ucx::quiet() {
  ucp_request_param_t prm;
  prm.op_attr_mask = 0;
  size_t started;  // fetching atomics started before this flush (others may start more meanwhile)
  {
    std::lock_guard<std::mutex> lock(fetch_mu_);
    started = fetched_.size();
  }
  GSHMEM_TRY(wait(u_.worker_flush_nbx(worker_, &prm), "a quiet", -1));
  for (Peer& p : peers_) p.dirty.store(false, std::memory_order_relaxed);
  GSHMEM_TRY(settle_owner_ops());
  std::lock_guard<std::mutex> lock(fetch_mu_);
  for (size_t i = 0; i < started && !fetched_.empty(); ++i) {
    const Fetched& f = fetched_.front();
    mem::store_local(mem_, f.old, &f.value, sizeof f.value);  // old may be GPU memory
    fetched_.pop_front();  // the others keep their addresses (UCX may still write there)
  }
  return {};
}

Result Ucx::quiet(int pe) {
  if (!reaches(pe)) return {};
  {
    std::lock_guard<std::mutex> lock(fetch_mu_);
    if (!fetched_.empty()) return quiet();  // fetched values are delivered all together
  }
  GSHMEM_TRY(flush_ep(pe));
  return settle_owner_ops();
}

}  // namespace ucx

using ucx::exchange;
using ucx::Ucp;
using ucx::Ucx;

Probe ucx_probe(const Config& cfg, bool gpu) {
  Probe p;
  const Ucp* u = nullptr;
  if (!ucx::load_ucp(cfg.GSHMEM_UCX_LIBRARY, &u, &p.why)) return p;  // absent
  ucx::Context ctx;
  if (!ucx::context(*u, &ctx, &p.why)) {
    p.state = Probe::State::broken;
    return p;
  }
  p.caps.off_node = true;
  const bool cuda = (ctx.memory_types >> UCS_MEMORY_TYPE_CUDA) & 1u;
  p.caps.device_memory = !gpu || cuda;
  p.caps.device_atomics = cfg.GSHMEM_UCX_ATOMICS == "engine";  // else the owner applies them
  if (gpu && !cuda) {
    p.why = "UCX " + std::to_string(u->major) + "." + std::to_string(u->minor) + "." + std::to_string(u->release) +
            " (" + cfg.GSHMEM_UCX_LIBRARY +
            ") has no CUDA memory support: GPU PEs need a CUDA-aware UCX (built with --with-cuda, or the libucx-cu12/"
            "libucx-cu13 wheels) with cuda_copy in UCX_TLS";
  }
  p.state = Probe::State::usable;  // for CPU PEs; the planner keeps GPU PEs off it without CUDA memory
  return p;
}

Result ucx_create(Env& env, const std::vector<int>& peers, std::unique_ptr<Transport>* out) {
  const Ucp* u = nullptr;
  std::string why;
  ucx::Context ctx;
  const bool loaded = ucx::load_ucp(env.cfg->GSHMEM_UCX_LIBRARY, &u, &why) && ucx::context(*u, &ctx, &why);
  if (!loaded) {
    // Take part in the first collective step all the same (a record with no address), so the
    // other PEs hear of it instead of waiting.
    std::vector<ucx::PeRecord> all;
    (void)exchange(*env.boot, ucx::PeRecord{}, &all);
    return Result::fail(Status::not_available, why);
  }
  const std::string& mode = env.cfg->GSHMEM_UCX_ATOMICS;
  // auto: the owner applies every atomic (UCX 1.22 has no atomics over TCP with peer error handling,
  // and a NIC's atomics on GPU memory are not atomic with the GPU's own).
  auto t = std::make_unique<Ucx>(*u, ctx.ctx, env, mode != "engine", mode != "engine");
  GSHMEM_TRY(t->setup(env.segments, peers, static_cast<double>(env.cfg->GSHMEM_UCX_CONNECT_TIMEOUT)));
  GSHMEM_INFO(Subsys::transport, "ucx transport: UCX %u.%u.%u, %zu peers, atomics on GPU memory %s", u->major, u->minor,
              u->release, peers.size(), t->caps().device_atomics ? "by UCX" : "by their owner");
  *out = std::move(t);
  return {};
}

}  // namespace gshmem::transport
