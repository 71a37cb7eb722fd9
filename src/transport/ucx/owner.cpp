// The ucx transport: atomics and signals applied by their owner, and the progress thread.
#include <memory>

#include "transport/ucx/ucx_transport.hpp"

namespace gshmem::transport::ucx {

Result Ucx::owner_op(int pe, Seg seg, uint64_t off, gshmem_amo_op op, size_t bytes, uint64_t a, uint64_t b,
                     uint64_t* old, bool blocking) {
  if (!reaches(pe)) return fail(Status::invalid_argument, fmt_pe("an atomic", pe) + ": not connected to that PE");
  Pending* p;
  uint64_t id;
  {
    std::lock_guard<std::mutex> lock(pend_mu_);
    id = next_id_++;
    p = &pending_[id];  // node addresses are stable: the send reads p->req until it completes
    p->req =
        OwnerReq{id, off, a, b, static_cast<uint8_t>(op), static_cast<uint8_t>(bytes), static_cast<uint8_t>(seg), {}};
    p->old = old;
    p->blocking = blocking;
  }
  unacked_.fetch_add(1);
  ucp_request_param_t prm;
  prm.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS;
  prm.flags = UCP_AM_SEND_FLAG_REPLY | UCP_AM_SEND_FLAG_EAGER;
  ucs_status_ptr_t req =
      u_.am_send_nbx(peers_[static_cast<size_t>(pe)].ep, kAmRequest, nullptr, 0, &p->req, sizeof p->req, &prm);
  if (UCS_PTR_IS_ERR(req)) {
    std::lock_guard<std::mutex> lock(pend_mu_);
    pending_.erase(id);
    unacked_.fetch_sub(1);
    return ucs_fail(fmt_pe("an atomic (owner-applied)", pe), UCS_PTR_STATUS(req));
  }
  if (req) u_.request_free(req);  // the reply comes after the send completed
  if (!blocking) return {};
  // p stays put (only this thread erases a blocking entry); on_reply stores done after value
  progress_until([&] { return p->done.load(std::memory_order_acquire); });
  std::lock_guard<std::mutex> lock(pend_mu_);
  auto it = pending_.find(id);
  if (old) *old = it->second.value;
  pending_.erase(it);
  return {};
}

ucs_status_t Ucx::on_reply(const void* data, size_t n) {
  OwnerRep rep;
  if (n != sizeof rep) return UCS_OK;  // not ours to read: ignored (the request side counts it lost)
  memcpy(&rep, data, sizeof rep);
  std::lock_guard<std::mutex> lock(pend_mu_);
  auto it = pending_.find(rep.id);
  if (it == pending_.end() || it->second.done.load(std::memory_order_relaxed)) return UCS_OK;
  it->second.value = rep.value;
  it->second.done.store(true, std::memory_order_release);
  unacked_.fetch_sub(1);
  return UCS_OK;
}

// The message is copied: the copy lives until UCX has sent it (a send that does not complete at
// once keeps reading it), then the send's callback frees it; nobody waits for the send.
Result Ucx::post_am(ucp_ep_h ep, unsigned id, const void* a, size_t na, const void* b, size_t nb, const char* what,
                    int pe, const void* c, size_t nc) {
  struct Posted {
    const Ucp* u;
    std::unique_ptr<char[]> msg;  // not value-initialized: every byte is written below
  };
  auto* f = new Posted{&u_, std::unique_ptr<char[]>(new char[na + nb + nc])};
  memcpy(f->msg.get(), a, na);
  if (nb) memcpy(f->msg.get() + na, b, nb);
  if (nc) memcpy(f->msg.get() + na + nb, c, nc);
  ucp_request_param_t prm;
  prm.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS | UCP_OP_ATTR_FIELD_CALLBACK | UCP_OP_ATTR_FIELD_USER_DATA;
  prm.flags = UCP_AM_SEND_FLAG_EAGER;
  prm.cb.send = [](void* req, ucs_status_t, void* user) {
    auto* p = static_cast<Posted*>(user);
    p->u->request_free(req);
    delete p;
  };
  prm.user_data = f;
  ucs_status_ptr_t req = u_.am_send_nbx(ep, id, nullptr, 0, f->msg.get(), na + nb + nc, &prm);
  if (UCS_PTR_IS_PTR(req)) return {};  // the callback frees it
  delete f;
  if (!UCS_PTR_IS_ERR(req)) return {};
  return ucs_fail(pe < 0 ? std::string(what) : fmt_pe(what, pe), UCS_PTR_STATUS(req));
}

Result Ucx::raise_flag(int pe, Seg seg, uint64_t off, uint64_t value) {
  const Inside inside(this);
  if (!reaches(pe)) return fail(Status::invalid_argument, fmt_pe("a flag", pe) + ": not connected to that PE");
  if (off % 8) return fail(Status::invalid_argument, fmt_pe("a flag", pe) + ": offset " + std::to_string(off));
  const OwnerReq r{0, off, value, 0, kOpRaiseFlag, 8, static_cast<uint8_t>(seg), {}};
  return post_am(peers_[static_cast<size_t>(pe)].ep, kAmRequest, &r, sizeof r, nullptr, 0, "a flag", pe);
}

Result Ucx::put_flag(int pe, Seg seg, uint64_t off, const void* head, size_t nh, const void* src, size_t n,
                     uint64_t flag_off, uint64_t value) {
  if (nh + n > kPutFlagMax || seg != Seg::host)
    return Transport::put_flag(pe, seg, off, head, nh, src, n, flag_off, value);
  const Inside inside(this);
  if (!reaches(pe)) return fail(Status::invalid_argument, fmt_pe("a put with a flag", pe) + ": not connected");
  const PutFlagHdr h{off, flag_off, value, static_cast<uint32_t>(nh + n), static_cast<uint8_t>(seg), {}};
  return post_am(peers_[static_cast<size_t>(pe)].ep, kAmPutFlag, &h, sizeof h, head, nh, "a put with a flag", pe, src,
                 n);
}

// Applied in UCX's callback: host memory, a copy and a CPU atomic, no UCX call.
ucs_status_t Ucx::on_put_flag(const void* data, size_t n) {
  PutFlagHdr h;
  if (n < sizeof h) {
    report_error("ucx transport", "a peer sent a malformed put with a flag (%zu bytes)", n);
    return UCS_OK;
  }
  memcpy(&h, data, sizeof h);
  const size_t seg = h.seg;
  const uint64_t len = seg < kSegments ? my_len_[seg] : 0;
  if (n != sizeof h + h.n || seg != static_cast<size_t>(Seg::host) || !my_base_[seg] || h.off > len ||
      h.n > len - h.off || h.flag_off % 8 || h.flag_off > len || 8 > len - h.flag_off ||
      (mem_ && mem_->is_device(my_base_[seg]))) {
    fatal("ucx transport",
          "a peer sent an out-of-range put with a flag (segment %zu, offset %llu, %u bytes, flag %llu)", seg,
          static_cast<unsigned long long>(h.off), h.n, static_cast<unsigned long long>(h.flag_off));
  }
  if (h.n) memcpy(my_base_[seg] + h.off, static_cast<const char*>(data) + sizeof h, h.n);
  raise_to(std::atomic_ref<uint64_t>(*reinterpret_cast<uint64_t*>(my_base_[seg] + h.flag_off)), h.value);
  return UCS_OK;
}

// On a CPU PE (host memory only): a CPU atomic, applied and answered here, in arrival order. On a
// GPU PE: queued, and applied outside UCX's callback by the progress thread (which may use the GPU).
ucs_status_t Ucx::on_request(const void* data, size_t n, ucp_ep_h reply_ep) {
  Served s;
  if (n == sizeof s.req) memcpy(&s.req, data, sizeof s.req);
  if (n != sizeof s.req || (!reply_ep && s.req.op != kOpRaiseFlag)) {
    report_error("ucx transport", "a peer sent a malformed owner-applied request (%zu bytes)", n);
    return UCS_OK;
  }
  s.reply_ep = reply_ep;
  if (!mem_) {
    apply(s);
    return UCS_OK;
  }
  {
    std::lock_guard<std::mutex> lock(serve_mu_);
    served_.push_back(s);
    queued_.fetch_add(1, std::memory_order_release);
  }
  if (serving_ == this) return UCS_OK;  // this thread applies it after its progress call
  const uint64_t one = 1;
  ssize_t w = write(wake_, &one, sizeof one);  // the progress thread applies it, outside UCX's callback
  (void)w;
  return UCS_OK;
}

thread_local const Ucx* Ucx::serving_ = nullptr;

unsigned Ucx::serve() {
  for (unsigned n = 0;; ++n) {
    if (!queued_.load(std::memory_order_acquire)) return n;  // every wait round asks: no lock when idle
    Served s;
    {
      std::lock_guard<std::mutex> lock(serve_mu_);
      if (served_.empty()) return n;
      s = served_.front();
      served_.pop_front();
      queued_.fetch_sub(1, std::memory_order_relaxed);
    }
    apply(s);
  }
}

void Ucx::apply(const Served& s) {
  const OwnerReq& r = s.req;
  const size_t seg = r.seg;
  const bool flag = r.op == kOpRaiseFlag;
  if (seg >= kSegments || (r.size != 4 && r.size != 8) || (r.op >= GSHMEM_AMO_NOPS && !flag) || (flag && r.size != 8) ||
      r.off % r.size || !my_base_[seg] || r.off > my_len_[seg] || r.size > my_len_[seg] - r.off) {
    fatal("ucx transport", "a peer sent an out-of-range atomic (segment %zu, offset %llu, %u bytes, operation %u)", seg,
          static_cast<unsigned long long>(r.off), r.size, r.op);
  }
  char* p = my_base_[seg] + r.off;
  const bool on_gpu = mem_ && mem_->is_device(p);
  if (flag) {  // the larger value stays; no reply
    if (on_gpu) (void)mem_->amo(p, GSHMEM_AMO_SET, 8, r.a, 0);
    else raise_to(std::atomic_ref<uint64_t>(*reinterpret_cast<uint64_t*>(p)), r.a);
    return;
  }
  const auto op = static_cast<gshmem_amo_op>(r.op);
  const OwnerRep rep{r.id, on_gpu ? mem_->amo(p, op, r.size, r.a, r.b) : host_amo(p, op, r.size, r.a, r.b)};
  const Result res = post_am(s.reply_ep, kAmReply, &rep, sizeof rep, nullptr, 0,
                             "ucx transport: the reply to an owner-applied atomic", -1);
  if (!res.ok() && !closing_.load()) fatal("ucx transport", "%s", res.what().c_str());
}

Result Ucx::settle_owner_ops() {
  progress_until([&] { return unacked_.load() == 0; });
  std::lock_guard<std::mutex> lock(pend_mu_);
  for (auto it = pending_.begin(); it != pending_.end();) {
    if (it->second.done.load(std::memory_order_relaxed) && !it->second.blocking) {
      if (it->second.old) mem::store_local(mem_, it->second.old, &it->second.value, sizeof(uint64_t));
      it = pending_.erase(it);
    } else {
      ++it;
    }
  }
  return {};
}

// After activity the thread spins through kSpinRounds empty rounds, then sleeps on the worker's
// event fd (and the owner-side queue's), so an idle PE burns no core. Threads waiting for a request
// sleep on progressed_, which it bumps after every round that progressed. With a core for every
// PE (defer_) it leaves the worker alone while callers are inside it or waits progress it
// (g_wait_driven moves), and only takes it back when neither happened for a whole period.
void Ucx::run() {
  if (thread_setup_) thread_setup_();
  serving_ = this;
  pollfd fds[2] = {{efd_, POLLIN, 0}, {wake_, POLLIN, 0}};
  unsigned empty = 0;
  uint64_t driven = g_wait_driven.load(std::memory_order_relaxed);
  long defer_ns = kDeferMinNs;
  while (!stop_.load(std::memory_order_relaxed)) {
    if (defer_) {
      const uint64_t d = g_wait_driven.load(std::memory_order_relaxed);
      if (d != driven || inside_.load(std::memory_order_relaxed)) {  // a caller progresses the worker: stay off it
        driven = d;
        if (mem_) serve();  // requests on GPU memory are applied by this thread only
        const timespec t{defer_ns / 1000000000, defer_ns % 1000000000};
        if (ppoll(&fds[1], 1, &t, nullptr) > 0) {
          uint64_t v;
          ssize_t r = read(wake_, &v, sizeof v);
          (void)r;
        }
        defer_ns = std::min(2 * defer_ns, kDeferMaxNs);
        empty = 0;
        continue;
      }
      defer_ns = kDeferMinNs;
    }
    unsigned n = serve();
    while (u_.worker_progress(worker_)) ++n;
    if (n) {
      empty = 0;
      if (sleepers_.load()) {
        const uint64_t one = 1;
        ssize_t w = write(progressed_fd_, &one, sizeof one);
        (void)w;
      }
      continue;
    }
    if (++empty < kSpinRounds) {
      cpu_relax();
      continue;
    }
    if (efd_ < 0) {  // this UCX gives no event fd: back off gently
      std::this_thread::sleep_for(std::chrono::microseconds(20));
      continue;
    }
    const ucs_status_t st = u_.worker_arm(worker_);
    if (st == UCS_ERR_BUSY) continue;  // events arrived meanwhile: progress again
    {
      std::lock_guard<std::mutex> lock(serve_mu_);
      if (!served_.empty()) continue;
    }
    if (poll(fds, 2, 100) > 0 && (fds[1].revents & POLLIN)) {
      uint64_t v;
      ssize_t r = read(wake_, &v, sizeof v);
      (void)r;
    }
    empty = 0;
  }
}

}  // namespace gshmem::transport::ucx
