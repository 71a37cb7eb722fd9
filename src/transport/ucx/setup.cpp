// The ucx transport: records, mappings, connecting, heap extensions, buffer registration, finalize.
#include "transport/ucx/ucx_transport.hpp"

namespace gshmem::transport::ucx {

Result exchange(boot::Bootstrap& b, const PeRecord& mine, std::vector<PeRecord>* all) {
  const int me = b.rank(), npes = b.size();
  const std::vector<uint8_t> bytes = ucx::pack(mine);
  std::vector<uint64_t> sizes(static_cast<size_t>(npes), 0);
  sizes[static_cast<size_t>(me)] = bytes.size();
  Status st = b.allgather(sizes.data(), sizeof(uint64_t));
  if (st != Status::ok) return Result::fail(st, "ucx transport: bootstrap allgather of record sizes failed");
  uint64_t max = 0;
  for (uint64_t s : sizes) max = s > max ? s : max;
  if (max > (64u << 20))
    return Result::fail(Status::invalid_argument,
                        "ucx transport: a PE published a record of " + std::to_string(max) + " bytes");
  std::vector<uint8_t> blob(static_cast<size_t>(max * static_cast<uint64_t>(npes)), 0);
  memcpy(blob.data() + max * static_cast<uint64_t>(me), bytes.data(), bytes.size());
  if ((st = b.allgather(blob.data(), max)) != Status::ok)
    return Result::fail(st, "ucx transport: bootstrap allgather of records failed");
  all->assign(static_cast<size_t>(npes), {});
  for (int pe = 0; pe < npes; ++pe) {
    std::string why;
    if (!ucx::parse(blob.data() + max * static_cast<uint64_t>(pe), sizes[static_cast<size_t>(pe)],
                    &(*all)[static_cast<size_t>(pe)], &why))
      return Result::fail(Status::invalid_argument,
                          "ucx transport: pe " + std::to_string(pe) + " published a bad record: " + why);
  }
  return {};
}

void ep_error(void* arg, ucp_ep_h ep, ucs_status_t st) {
  (void)ep;
  auto* a = static_cast<EpArg*>(arg);
  a->t->lost(a->pe, st);
}
ucs_status_t am_request(void* arg, const void* header, size_t header_length, void* data, size_t length,
                        const ucp_am_recv_param_t* param) {
  (void)header, (void)header_length;
  const ucp_ep_h reply = (param->recv_attr & UCP_AM_RECV_ATTR_FIELD_REPLY_EP) ? param->reply_ep : nullptr;
  return static_cast<Ucx*>(arg)->on_request(data, length, reply);
}
ucs_status_t am_reply(void* arg, const void* header, size_t header_length, void* data, size_t length,
                      const ucp_am_recv_param_t* param) {
  (void)header, (void)header_length, (void)param;
  return static_cast<Ucx*>(arg)->on_reply(data, length);
}
ucs_status_t am_put_flag(void* arg, const void* header, size_t header_length, void* data, size_t length,
                         const ucp_am_recv_param_t* param) {
  (void)header, (void)header_length, (void)param;
  return static_cast<Ucx*>(arg)->on_put_flag(data, length);
}

namespace {
// [base, base + len) of this process mapped with UCX, GPU memory with its memory type.
ucs_status_t mem_map(const Ucp& u, ucp_context_h ctx, void* base, size_t len, bool device, ucp_mem_h* memh) {
  ucp_mem_map_params_t mp;
  mp.field_mask =
      UCP_MEM_MAP_PARAM_FIELD_ADDRESS | UCP_MEM_MAP_PARAM_FIELD_LENGTH | UCP_MEM_MAP_PARAM_FIELD_MEMORY_TYPE;
  mp.address = base;
  mp.length = len;
  mp.memory_type = device ? UCS_MEMORY_TYPE_CUDA : UCS_MEMORY_TYPE_HOST;
  return u.mem_map(ctx, &mp, memh);
}
}  // namespace

Result Ucx::map(Seg seg, uint64_t off, void* base, size_t len, bool device, RegionRecord* rec) {
  ucp_mem_h memh = nullptr;
  ucs_status_t st = mem_map(u_, ctx_, base, len, device, &memh);
  char b[160];
  snprintf(b, sizeof b, "ucx transport: mapping %s memory [%p, +%zu) of segment %u", device ? "GPU" : "host", base, len,
           static_cast<unsigned>(seg));
  if (st != UCS_OK) return ucs_fail(b, st);
  void* packed = nullptr;
  size_t packed_len = 0;
  if ((st = u_.rkey_pack(ctx_, memh, &packed, &packed_len)) != UCS_OK) {
    u_.mem_unmap(ctx_, memh);
    return ucs_fail(std::string(b) + " (rkey)", st);
  }
  rec->seg = static_cast<uint8_t>(seg);
  rec->device = device;
  rec->off = off;
  rec->base = reinterpret_cast<uint64_t>(base);
  rec->len = len;
  rec->rkey.assign(static_cast<uint8_t*>(packed), static_cast<uint8_t*>(packed) + packed_len);
  u_.rkey_buffer_release(packed);
  std::unique_lock<std::shared_mutex> lock(ext_mu_);
  mine_.push_back({seg, off, len, memh});
  return {};
}

Result Ucx::add_extents(int pe, const PeRecord& rec) {
  const ucp_ep_h ep = peers_[static_cast<size_t>(pe)].ep;
  for (const RegionRecord& g : rec.regions) {
    ucp_rkey_h rkey = nullptr;
    const ucs_status_t st = u_.ep_rkey_unpack(ep, g.rkey.data(), &rkey);
    if (st != UCS_OK) return ucs_fail(fmt_pe("unpacking the rkey of segment " + std::to_string(g.seg), pe), st);
    std::unique_lock<std::shared_mutex> lock(ext_mu_);
    ext_[static_cast<size_t>(pe)][g.seg].push_back({g.off, g.len, g.base, rkey});
  }
  return {};
}

Result Ucx::setup(const std::vector<Segment>& segs, const std::vector<int>& peers, double timeout_s) {
  ucp_worker_params_t wp;
  wp.field_mask = UCP_WORKER_PARAM_FIELD_THREAD_MODE;
  wp.thread_mode = UCS_THREAD_MODE_MULTI;
  ucs_status_t st = u_.worker_create(ctx_, &wp, &worker_);
  PeRecord rec;
  Result local;
  if (st != UCS_OK) local = ucs_fail("ucx transport: creating the worker", st);
  if (local.ok()) {
    ucp_address_t* addr = nullptr;
    size_t addr_len = 0;
    if ((st = u_.worker_get_address(worker_, &addr, &addr_len)) != UCS_OK) {
      local = ucs_fail("ucx transport: the worker's address", st);
    } else {
      rec.address.assign(reinterpret_cast<uint8_t*>(addr), reinterpret_cast<uint8_t*>(addr) + addr_len);
      u_.worker_release_address(worker_, addr);
    }
  }
  if (local.ok() && u_.worker_get_efd(worker_, &efd_) != UCS_OK) efd_ = -1;  // no wakeup: the thread polls
  for (const Segment& s : segs) {
    my_base_[static_cast<size_t>(s.seg)] = static_cast<char*>(s.base);
    my_len_[static_cast<size_t>(s.seg)] = s.len;
    if (!local.ok()) break;
    RegionRecord g;
    local = map(s.seg, 0, s.base, s.len, s.device, &g);
    if (local.ok()) rec.regions.push_back(std::move(g));
  }
  if (local.ok()) {
    for (auto [id, cb] :
         {std::pair{kAmRequest, &am_request}, std::pair{kAmReply, &am_reply}, std::pair{kAmPutFlag, &am_put_flag}}) {
      ucp_am_handler_param_t hp;
      hp.field_mask = UCP_AM_HANDLER_PARAM_FIELD_ID | UCP_AM_HANDLER_PARAM_FIELD_FLAGS | UCP_AM_HANDLER_PARAM_FIELD_CB |
                      UCP_AM_HANDLER_PARAM_FIELD_ARG;
      hp.id = id;
      hp.flags = UCP_AM_FLAG_WHOLE_MSG;
      hp.cb = cb;
      hp.arg = this;
      if ((st = u_.worker_set_am_recv_handler(worker_, &hp)) != UCS_OK)
        local = ucs_fail("ucx transport: the active-message handler", st);
    }
  }
  // Every PE learns whether every other PE got this far (a PE that failed publishes no address).
  if (!local.ok()) rec = {};
  std::vector<PeRecord> all;
  GSHMEM_TRY(exchange(*boot_, rec, &all));
  if (!local.ok()) return local;
  for (int pe = 0; pe < npes_; ++pe)
    if (all[static_cast<size_t>(pe)].address.empty())
      return fail(Status::peer_failed,
                  "ucx transport: pe " + std::to_string(pe) + " could not start UCX (its message says why)");
  if ((wake_ = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) < 0 ||
      (progressed_fd_ = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK)) < 0)
    return fail(Status::system_error, "ucx transport: eventfd failed");
  for (int pe : peers) {
    Peer& p = peers_[static_cast<size_t>(pe)];
    p.arg = {this, pe};
    ucp_ep_params_t ep;
    ep.field_mask =
        UCP_EP_PARAM_FIELD_REMOTE_ADDRESS | UCP_EP_PARAM_FIELD_ERR_HANDLING_MODE | UCP_EP_PARAM_FIELD_ERR_HANDLER;
    ep.address = reinterpret_cast<const ucp_address_t*>(all[static_cast<size_t>(pe)].address.data());
    ep.err_mode = UCP_ERR_HANDLING_MODE_PEER;
    ep.err_handler.cb = ep_error;
    ep.err_handler.arg = &p.arg;
    if ((st = u_.ep_create(worker_, &ep, &p.ep)) != UCS_OK) {
      p.ep = nullptr;
      local = ucs_fail(
          fmt_pe("connecting (UCX_TLS and UCX_NET_DEVICES choose what UCX may use; `ucx_info -d` lists it)", pe), st);
      break;
    }
    if (!(local = add_extents(pe, all[static_cast<size_t>(pe)])).ok()) break;
  }
  progress_ = std::thread([this] { run(); });
  // Wire up now (a flush to each peer), so a peer UCX cannot reach fails here, within the timeout.
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::duration<double>(timeout_s);
  for (int pe : peers) {
    if (!local.ok()) break;
    Peer& p = peers_[static_cast<size_t>(pe)];
    ucp_request_param_t prm;
    prm.op_attr_mask = 0;
    ucs_status_ptr_t req = u_.ep_flush_nbx(p.ep, &prm);
    if (UCS_PTR_IS_ERR(req)) {
      local = ucs_fail(fmt_pe("connecting", pe), UCS_PTR_STATUS(req));
      break;
    }
    while (req && (st = u_.request_check_status(req)) == UCS_INPROGRESS) {
      if (std::chrono::steady_clock::now() > deadline) {
        local = fail(Status::timeout, fmt_pe("connecting", pe) + ": no answer within " + std::to_string(timeout_s) +
                                          " s (GSHMEM_UCX_CONNECT_TIMEOUT; UCX_TLS, UCX_NET_DEVICES)");
        break;
      }
      if (!u_.worker_progress(worker_)) sched_yield();
    }
    if (req && local.ok() && st != UCS_OK) local = ucs_fail(fmt_pe("connecting", pe), st);
    if (req && local.ok()) u_.request_free(req);
  }
  bool all_ok = false;
  int bad = -1;
  const Status bs = boot::all_ok(*boot_, local.ok(), &all_ok, &bad);
  if (bs != Status::ok) return fail(bs, "ucx transport: bootstrap allgather failed");
  if (!local.ok()) return local;
  if (!all_ok)
    return fail(Status::peer_failed,
                "ucx transport: pe " + std::to_string(bad) + " could not connect (its message says why)");
  return {};
}

Result Ucx::extend(Seg seg, uint64_t off, void* base, size_t len) {
  PeRecord rec;
  rec.address = {1};  // non-empty: this PE is well
  RegionRecord g;
  Result local = map(seg, off, base, len, seg == Seg::device, &g);
  if (local.ok()) rec.regions.push_back(std::move(g));
  else rec.address.clear();
  std::vector<PeRecord> all;
  GSHMEM_TRY(exchange(*boot_, rec, &all));
  if (!local.ok()) return local;
  {
    std::unique_lock<std::shared_mutex> lock(ext_mu_);
    if (off + len > my_len_[static_cast<size_t>(seg)]) my_len_[static_cast<size_t>(seg)] = off + len;
  }
  for (int pe = 0; pe < npes_; ++pe) {
    const PeRecord& r = all[static_cast<size_t>(pe)];
    if (r.address.empty())
      return fail(Status::peer_failed,
                  "ucx transport: pe " + std::to_string(pe) + " could not map its part of the extension");
    if (r.regions.size() != 1 || r.regions[0].seg != static_cast<uint8_t>(seg) || r.regions[0].off != off ||
        r.regions[0].len != len)
      return fail(Status::invalid_argument, "ucx transport: pe " + std::to_string(pe) + " extended another range");
    if (reaches(pe)) GSHMEM_TRY(add_extents(pe, r));
  }
  return {};
}

void Ucx::drop(Seg seg, uint64_t off, size_t len) {
  std::unique_lock<std::shared_mutex> lock(ext_mu_);
  // An extension lies inside [off, off + len); a segment's first region (offset 0) is never dropped.
  const auto inside = [&](uint64_t o, uint64_t n) { return o != 0 && o >= off && o + n <= off + len; };
  for (auto& per : ext_) {
    auto& v = per[static_cast<size_t>(seg)];
    for (auto it = v.begin(); it != v.end();) {
      if (inside(it->off, it->len)) {
        u_.rkey_destroy(it->rkey);
        it = v.erase(it);
      } else {
        ++it;
      }
    }
  }
  for (auto it = mine_.begin(); it != mine_.end();) {
    if (it->seg == seg && inside(it->off, it->len)) {
      u_.mem_unmap(ctx_, it->memh);
      it = mine_.erase(it);
    } else {
      ++it;
    }
  }
}

Result Ucx::register_buffer(void* base, size_t len, bool device, uint64_t* token) {
  ucp_mem_h memh = nullptr;
  const ucs_status_t st = mem_map(u_, ctx_, base, len, device, &memh);
  if (st != UCS_OK) return ucs_fail("ucx transport: registering the buffer", st);
  std::lock_guard<std::mutex> lock(buf_mu_);
  *token = next_token_++;
  bufs_[*token] = memh;
  return {};
}

void Ucx::unregister_buffer(uint64_t token) {
  std::lock_guard<std::mutex> lock(buf_mu_);
  auto it = bufs_.find(token);
  if (it == bufs_.end()) return;
  u_.mem_unmap(ctx_, it->second);
  bufs_.erase(it);
}

Result Ucx::finalize() {
  // After a job-wide barrier: nothing targets any PE any more. Endpoints close with a flush, then
  // every PE waits for the others before its worker goes.
  closing_.store(true);
  {
    std::unique_lock<std::shared_mutex> lock(ext_mu_);
    for (auto& per : ext_)
      for (auto& v : per) {
        for (Extent& e : v) u_.rkey_destroy(e.rkey);
        v.clear();
      }
  }
  std::vector<ucs_status_ptr_t> closing;
  for (Peer& p : peers_) {
    if (!p.ep) continue;
    ucp_request_param_t prm;
    prm.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS;
    prm.flags = 0;  // flush first
    ucs_status_ptr_t req = u_.ep_close_nbx(p.ep, &prm);
    if (UCS_PTR_IS_PTR(req)) closing.push_back(req);
    p.ep = nullptr;
  }
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  for (ucs_status_ptr_t req : closing) {
    while (u_.request_check_status(req) == UCS_INPROGRESS && std::chrono::steady_clock::now() < deadline)
      if (!u_.worker_progress(worker_)) sched_yield();
    u_.request_free(req);
  }
  const Status st = boot_->barrier();
  teardown();
  return st == Status::ok ? Result{} : fail(st, "ucx transport: bootstrap barrier at finalize failed");
}

void Ucx::teardown() {
  closing_.store(true);
  stop_.store(true);
  if (wake_ >= 0) {
    const uint64_t one = 1;
    ssize_t w = write(wake_, &one, sizeof one);
    (void)w;
  }
  if (progress_.joinable()) progress_.join();
  for (auto& per : ext_)
    for (auto& v : per) {
      for (Extent& e : v) u_.rkey_destroy(e.rkey);
      v.clear();
    }
  for (Peer& p : peers_) {
    if (!p.ep) continue;
    ucp_request_param_t prm;
    prm.op_attr_mask = UCP_OP_ATTR_FIELD_FLAGS;
    prm.flags = UCP_EP_CLOSE_FLAG_FORCE;
    ucs_status_ptr_t req = u_.ep_close_nbx(p.ep, &prm);
    if (UCS_PTR_IS_PTR(req)) {
      while (u_.request_check_status(req) == UCS_INPROGRESS) u_.worker_progress(worker_);
      u_.request_free(req);
    }
    p.ep = nullptr;
  }
  for (Mapped& m : mine_) u_.mem_unmap(ctx_, m.memh);
  mine_.clear();
  for (auto& [token, memh] : bufs_) u_.mem_unmap(ctx_, memh);
  bufs_.clear();
  if (worker_) u_.worker_destroy(worker_);
  worker_ = nullptr;
  if (wake_ >= 0) close(wake_);
  if (progressed_fd_ >= 0) close(progressed_fd_);
  wake_ = progressed_fd_ = -1;
}

}  // namespace gshmem::transport::ucx
