// The ucx transport: atomics and signals applied by their owner, and the progress thread.
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
  progress_until([&] {  // may be asked again after it said yes: no side effects
    std::lock_guard<std::mutex> lock(pend_mu_);
    return pending_.find(id)->second.done;
  });
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
  if (it == pending_.end() || it->second.done) return UCS_OK;
  it->second.done = true;
  it->second.value = rep.value;
  unacked_.fetch_sub(1);
  return UCS_OK;
}

ucs_status_t Ucx::on_request(const void* data, size_t n, ucp_ep_h reply_ep) {
  if (n != sizeof(OwnerReq) || !reply_ep) {
    report_error("ucx transport", "a peer sent a malformed owner-applied request (%zu bytes)", n);
    return UCS_OK;
  }
  Served s;
  memcpy(&s.req, data, sizeof s.req);
  s.reply_ep = reply_ep;
  {
    std::lock_guard<std::mutex> lock(serve_mu_);
    served_.push_back(s);
  }
  const uint64_t one = 1;
  ssize_t w = write(wake_, &one, sizeof one);  // the progress thread applies it, outside UCX's callback
  (void)w;
  return UCS_OK;
}

unsigned Ucx::serve() {
  for (unsigned n = 0;; ++n) {
    Served s;
    {
      std::lock_guard<std::mutex> lock(serve_mu_);
      if (served_.empty()) return n;
      s = served_.front();
      served_.pop_front();
    }
    const OwnerReq& r = s.req;
    const size_t seg = r.seg;
    OwnerRep rep{r.id, 0};
    if (seg >= kSegments || (r.size != 4 && r.size != 8) || r.op >= GSHMEM_AMO_NOPS || r.off % r.size ||
        !my_base_[seg] || r.off > my_len_[seg] || r.size > my_len_[seg] - r.off) {
      fatal("ucx transport", "a peer sent an out-of-range atomic (segment %zu, offset %llu, %u bytes, operation %u)",
            seg, static_cast<unsigned long long>(r.off), r.size, r.op);
    }
    char* p = my_base_[seg] + r.off;
    const auto op = static_cast<gshmem_amo_op>(r.op);
    rep.value = mem_ && mem_->is_device(p) ? mem_->amo(p, op, r.size, r.a, r.b) : host_amo(p, op, r.size, r.a, r.b);
    ucp_request_param_t prm;
    prm.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS;
    prm.flags = UCP_AM_SEND_FLAG_EAGER;
    const Result res = wait(u_.am_send_nbx(s.reply_ep, kAmReply, nullptr, 0, &rep, sizeof rep, &prm),
                            "ucx transport: the reply to an owner-applied atomic");
    if (!res.ok() && !closing_.load()) fatal("ucx transport", "%s", res.what().c_str());
  }
}

Result Ucx::settle_owner_ops() {
  progress_until([&] { return unacked_.load() == 0; });
  std::lock_guard<std::mutex> lock(pend_mu_);
  for (auto it = pending_.begin(); it != pending_.end();) {
    if (it->second.done && !it->second.blocking) {
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
// sleep on progressed_, which it bumps after every round that progressed.
void Ucx::run() {
  if (thread_setup_) thread_setup_();
  pollfd fds[2] = {{efd_, POLLIN, 0}, {wake_, POLLIN, 0}};
  unsigned empty = 0;
  while (!stop_.load(std::memory_order_relaxed)) {
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
