#include "transport/ib_transport.hpp"

#if GSHMEM_HAVE_IBVERBS
#include <algorithm>
#include <cerrno>
#include <cstdarg>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <random>

#include "common/log.hpp"

namespace gshmem::transport::ib {
namespace {
constexpr int kAccess = IBV_ACCESS_LOCAL_WRITE | IBV_ACCESS_REMOTE_WRITE | IBV_ACCESS_REMOTE_READ |
                        IBV_ACCESS_REMOTE_ATOMIC;
constexpr size_t kMaxMessage = size_t(1) << 30;  // per work request (the verbs limit is 2^31)

const char* seg_name(Seg s) { return s == Seg::host ? "host" : s == Seg::data ? "data" : "device"; }

const char* wc_status(int s) {
  switch (s) {
    case IBV_WC_SUCCESS: return "success";
    case IBV_WC_LOC_LEN_ERR: return "local length error";
    case IBV_WC_LOC_QP_OP_ERR: return "local QP operation error";
    case IBV_WC_LOC_PROT_ERR: return "local protection error";
    case IBV_WC_WR_FLUSH_ERR: return "flushed after an earlier error";
    case IBV_WC_REM_INV_REQ_ERR: return "remote invalid request";
    case IBV_WC_REM_ACCESS_ERR: return "remote access error";
    case IBV_WC_REM_OP_ERR: return "remote operation error";
    case IBV_WC_RETRY_EXC_ERR: return "transport retry counter exceeded (peer gone?)";
    case IBV_WC_RNR_RETRY_EXC_ERR: return "RNR retry counter exceeded";
    default: return "error";
  }
}

std::string fmt(const char* f, ...) __attribute__((format(printf, 1, 2)));
std::string fmt(const char* f, ...) {
  char b[512];
  va_list ap;
  va_start(ap, f);
  vsnprintf(b, sizeof b, f, ap);
  va_end(ap);
  return b;
}
}  // namespace

Status IbTransport::setup_local(const Verbs& v, const std::vector<int>& peers, const std::vector<SegmentSpec>& segs,
                                const Options& opt, char* record, std::vector<uint32_t>* psn, std::string* why) {
  if (peers.empty()) return Status::ok;  // PEs without ib peers publish ok and nothing else
  if (!opt.verbs_error.empty() || !v.get_device_list) {
    *why = opt.verbs_error.empty() ? "no verbs table" : opt.verbs_error;
    return Status::not_available;
  }
  Status st = open_device(v, opt.hca, &dev_, why);
  if (st != Status::ok) return st;
  if (v.query_device) {
    ibv_device_attr da{};
    if (v.query_device(dev_.ctx, &da) == 0) {
      nic_atomics_ = da.atomic_cap != IBV_ATOMIC_NONE;
      global_atomics_ = da.atomic_cap == IBV_ATOMIC_GLOB;
    }
  }
  if (!(pd_ = v.alloc_pd(dev_.ctx))) {
    *why = fmt("ibv_alloc_pd on %s failed: %s", dev_.name.c_str(), strerror(errno));
    return Status::system_error;
  }
  const int cqe = static_cast<int>(kQueueDepth * peers.size());
  if (!(cq_ = v.create_cq(dev_.ctx, cqe, nullptr, nullptr, 0))) {
    *why = fmt("ibv_create_cq(%d entries) on %s failed: %s", cqe, dev_.name.c_str(), strerror(errno));
    return Status::system_error;
  }
  for (const SegmentSpec& s : segs) {
    ibv_mr* mr = nullptr;
    std::string how;
    if (s.dmabuf_fd >= 0) {
      if (v.reg_dmabuf_mr) {
        mr = v.reg_dmabuf_mr(pd_, 0, s.len, reinterpret_cast<uint64_t>(s.base), s.dmabuf_fd, kAccess);
        if (!mr) how = fmt("ibv_reg_dmabuf_mr: %s; ", strerror(errno));
      } else {
        how = "no ibv_reg_dmabuf_mr in this rdma-core; ";
      }
    }
    if (!mr) mr = v.reg_mr(pd_, s.base, s.len, kAccess);  // GPU memory: needs a peer-memory module
    if (!mr) {
      *why = fmt("cannot register the %s segment (%zu bytes at %p): %sibv_reg_mr: %s", seg_name(s.seg), s.len, s.base,
                 how.c_str(), strerror(errno));
      return Status::system_error;
    }
    if (!how.empty())
      GSHMEM_INFO(Subsys::transport, "ib: %s segment registered with ibv_reg_mr (%s)", seg_name(s.seg), how.c_str());
    mrs_.push_back(mr);
    reg_.add_local(static_cast<int>(s.seg), s.base, s.len, mr->lkey, mr->rkey);
    record_set_seg(record, static_cast<int>(s.seg), reg_.local_record(static_cast<int>(s.seg)));
  }
  staging_ = static_cast<char*>(aligned_alloc(4096, kStagingBytes));
  results_ = static_cast<uint64_t*>(aligned_alloc(4096, kResultSlots * sizeof(uint64_t)));
  if (!staging_ || !results_) {
    *why = "out of host memory for the staging buffers";
    return Status::out_of_memory;
  }
  if (!(staging_mr_ = v.reg_mr(pd_, staging_, kStagingBytes, kAccess)) ||
      !(results_mr_ = v.reg_mr(pd_, results_, kResultSlots * sizeof(uint64_t), kAccess))) {
    *why = fmt("cannot register the staging buffers: ibv_reg_mr: %s", strerror(errno));
    return Status::system_error;
  }
  std::mt19937 rng(std::random_device{}());
  ibv_gid gid{};
  if (dev_.roce && v.query_gid(dev_.ctx, dev_.port, opt.gid_index, &gid) != 0) {
    *why = fmt("ibv_query_gid(%s port %u index %d) failed", dev_.name.c_str(), dev_.port, opt.gid_index);
    return Status::system_error;
  }
  for (int pe : peers) {
    ibv_qp_init_attr ia{};
    ia.send_cq = ia.recv_cq = cq_;
    ia.qp_type = IBV_QPT_RC;
    ia.cap.max_send_wr = kQueueDepth;
    ia.cap.max_recv_wr = 1;
    ia.cap.max_send_sge = ia.cap.max_recv_sge = 1;
    ibv_qp* qp = v.create_qp(pd_, &ia);
    if (!qp) {
      *why = fmt("ibv_create_qp for pe %d failed: %s", pe, strerror(errno));
      return Status::system_error;
    }
    qps_[static_cast<size_t>(pe)] = qp;
    if ((st = qp_to_init(v, qp, dev_.port)) != Status::ok) {
      *why = fmt("the queue pair for pe %d did not reach INIT", pe);
      return st;
    }
    (*psn)[static_cast<size_t>(pe)] = rng() & 0xffffff;
    QpInfo q{};
    q.version = kQpInfoVersion;
    q.qpn = qp->qp_num;
    q.psn = (*psn)[static_cast<size_t>(pe)];
    q.lid = dev_.port_attr.lid;
    q.port = dev_.port;
    q.mtu = static_cast<uint8_t>(dev_.port_attr.active_mtu);
    q.roce = dev_.roce;
    memcpy(q.gid, gid.raw, 16);
    record_set_qp(record, pe, q);
  }
  return Status::ok;
}

// My queue pair for pe goes to pe's queue pair for me.
Status IbTransport::connect(const std::vector<int>& peers, const std::vector<char>& all, size_t rec_bytes,
                            const std::vector<uint32_t>& psn, int gid_index, std::string* why) {
  const int n = static_cast<int>(qps_.size());
  for (const int pe : peers) {
    PeerRecord r;
    std::string bad;
    if (parse_record(all.data() + rec_bytes * static_cast<size_t>(pe), rec_bytes, n, me_, &r, &bad) != Status::ok) {
      *why = fmt("ib transport: malformed connection record from pe %d: %s", pe, bad.c_str());
      return Status::invalid_argument;
    }
    const QpInfo& theirs = r.qp;
    ibv_qp* qp = qps_[static_cast<size_t>(pe)];
    Status st;
    if ((st = qp_to_rtr(v_, qp, theirs, dev_.port, gid_index)) != Status::ok ||
        (st = qp_to_rts(v_, qp, psn[static_cast<size_t>(pe)])) != Status::ok) {
      *why = fmt("ib transport: cannot connect to pe %d (queue pair %u)", pe, theirs.qpn);
      return st;
    }
    for (int s = 0; s < kSegs; ++s)
      if (r.segs[s].len) reg_.set_remote(pe, s, r.segs[s]);
  }
  return Status::ok;
}

Status IbTransport::create(const Verbs& v, boot::Bootstrap& boot, const std::vector<int>& peers,
                           const std::vector<SegmentSpec>& segs, const Options& opt, mem::LocalMemory* mem,
                           std::unique_ptr<IbTransport>* out, std::string* why) {
  std::unique_ptr<IbTransport> t(new IbTransport());
  t->v_ = v;
  t->mem_ = mem;
  t->me_ = boot.rank();
  const int n = boot.size();
  t->qps_.assign(static_cast<size_t>(n), nullptr);
  t->inflight_.assign(static_cast<size_t>(n), 0);
  std::vector<uint32_t> psn(static_cast<size_t>(n), 0);
  const size_t rec_bytes = record_bytes(n);
  std::vector<char> all(rec_bytes * static_cast<size_t>(n), 0);
  char* mine = all.data() + rec_bytes * static_cast<size_t>(t->me_);
  std::string local_why;
  Status st = t->setup_local(v, peers, segs, opt, mine, &psn, &local_why);
  record_set_ok(mine, st == Status::ok);
  // Every PE publishes, so a PE whose set-up failed ends the others' waits too.
  Status bs = boot.allgather(all.data(), rec_bytes);
  if (bs != Status::ok) {
    *why = "ib transport: bootstrap allgather failed";
    return bs;
  }
  if (st != Status::ok) *why = "ib transport: " + local_why;
  for (int pe = 0; pe < n && st == Status::ok; ++pe)
    if (!record_ok(all.data() + rec_bytes * static_cast<size_t>(pe))) {
      *why = fmt("ib transport: pe %d could not set up its InfiniBand resources (its message says why)", pe);
      st = Status::not_available;
    }
  if (st == Status::ok) st = t->connect(peers, all, rec_bytes, psn, opt.gid_index, why);
  // Nobody sends before every queue pair is ready to receive; everybody learns of a failure. Every
  // PE reaches this second allgather, also one whose set-up failed.
  bool connected = false;
  int bad = -1;
  if ((bs = boot::all_ok(boot, st == Status::ok, &connected, &bad)) != Status::ok) {
    *why = "ib transport: bootstrap allgather failed";
    return bs;
  }
  if (st == Status::ok && !connected) {
    *why = fmt("ib transport: pe %d could not connect its queue pairs (its message says why)", bad);
    st = Status::not_available;
  }
  if (st != Status::ok) return st;
  if (!peers.empty())
    GSHMEM_INFO(Subsys::transport, "ib: %s port %u, %zu peers, atomics %s", t->dev_.name.c_str(), t->dev_.port,
                peers.size(), t->global_atomics_ ? "global" : t->nic_atomics_ ? "HCA" : "none");
  *out = std::move(t);
  return Status::ok;
}

Status IbTransport::start(boot::Bootstrap& boot, const std::vector<int>& peers, const std::vector<SegmentSpec>& segs,
                          Options opt, mem::LocalMemory* mem, std::unique_ptr<IbTransport>* out, std::string* why) {
  Verbs v;
  if (!peers.empty()) {
    std::string load_why;
    if (load_verbs(&v, &load_why) != Status::ok) opt.verbs_error = load_why;
  }
  return create(v, boot, peers, segs, opt, mem, out, why);
}

ibv_mr* IbTransport::reg_region(void* base, size_t len, int dmabuf_fd, std::string* why) {
  ibv_mr* mr = nullptr;
  std::string how;
  if (dmabuf_fd >= 0 && v_.reg_dmabuf_mr) {
    mr = v_.reg_dmabuf_mr(pd_, 0, len, reinterpret_cast<uint64_t>(base), dmabuf_fd, kAccess);
    if (!mr) how = fmt("ibv_reg_dmabuf_mr: %s; ", strerror(errno));
  }
  if (!mr) mr = v_.reg_mr(pd_, base, len, kAccess);
  if (!mr)
    *why = fmt("cannot register %zu bytes at %p with %s: %sibv_reg_mr: %s", len, base, dev_.name.c_str(), how.c_str(),
               strerror(errno));
  return mr;
}

Status IbTransport::add_extent(boot::Bootstrap& boot, Seg seg, uint64_t off, void* base, size_t len, int dmabuf_fd,
                               std::string* why) {
  const int n = boot.size();
  std::vector<char> all(kExtentBytes * static_cast<size_t>(n), 0);
  char* mine = all.data() + kExtentBytes * static_cast<size_t>(me_);
  ibv_mr* mr = nullptr;
  std::string local_why;
  const bool has_peers = pd_ && std::any_of(qps_.begin(), qps_.end(), [](ibv_qp* q) { return q != nullptr; });
  if (has_peers && len) mr = reg_region(base, len, dmabuf_fd, &local_why);
  const bool ok = !has_peers || !len || mr;
  extent_set(mine, ok, static_cast<int>(seg), off,
             mr ? RemoteSeg{reinterpret_cast<uint64_t>(base), len, mr->rkey, 0} : RemoteSeg{0, 0, 0, 0});
  // Every PE publishes (also one that failed), so every PE learns of a failure.
  if (boot.allgather(all.data(), kExtentBytes) != Status::ok) {
    if (mr) v_.dereg_mr(mr);
    *why = "ib transport: bootstrap allgather failed while registering a heap extension";
    return Status::system_error;
  }
  Status st = ok ? Status::ok : Status::system_error;
  if (!ok) *why = fmt("ib transport: pe %d: %s", me_, local_why.c_str());
  std::vector<RemoteSeg> theirs(static_cast<size_t>(n), RemoteSeg{0, 0, 0, 0});
  for (int pe = 0; pe < n && st == Status::ok; ++pe) {
    if (pe == me_ || !qps_[static_cast<size_t>(pe)]) continue;
    bool peer_ok = false;
    std::string pwhy;
    if (parse_extent(all.data() + kExtentBytes * static_cast<size_t>(pe), static_cast<int>(seg), off, len, &peer_ok,
                     &theirs[static_cast<size_t>(pe)], &pwhy) != Status::ok) {
      *why = fmt("ib transport: pe %d sent a malformed extension record: %s", pe, pwhy.c_str());
      st = Status::invalid_argument;
    } else if (!peer_ok) {
      *why = fmt("ib transport: pe %d could not register its %zu-byte heap extension (its message says why)", pe, len);
      st = Status::system_error;
    }
  }
  if (st != Status::ok) {
    if (mr) v_.dereg_mr(mr);
    return st;
  }
  std::lock_guard<std::mutex> lock(user_mu_);
  if (mr) {
    extents_.push_back({seg, off, len, mr});
    reg_.add_local(static_cast<int>(seg), base, len, mr->lkey, mr->rkey);
  }
  for (int pe = 0; pe < n; ++pe)
    if (pe != me_ && qps_[static_cast<size_t>(pe)])
      reg_.add_remote(pe, static_cast<int>(seg), off, theirs[static_cast<size_t>(pe)]);
  return Status::ok;
}

void IbTransport::drop_extents(Seg seg, uint64_t off, uint64_t len) {
  std::lock_guard<std::mutex> lock(user_mu_);
  reg_.drop_remote(static_cast<int>(seg), off, len);
  for (size_t i = 0; i < extents_.size();) {
    const Extent& e = extents_[i];
    if (e.seg == seg && e.off >= off && e.off - off < len && e.len <= len - (e.off - off)) {
      reg_.remove_local(e.mr->lkey);
      v_.dereg_mr(e.mr);
      extents_.erase(extents_.begin() + static_cast<std::ptrdiff_t>(i));
    } else {
      ++i;
    }
  }
}

Status IbTransport::register_local(void* base, size_t len, int dmabuf_fd, uint32_t* token, std::string* why) {
  ibv_mr* mr = reg_region(base, len, dmabuf_fd, why);
  if (!mr) return Status::system_error;
  std::lock_guard<std::mutex> lock(user_mu_);
  user_mrs_.push_back(mr);
  reg_.add_local(Registry::kUserBuffer, base, len, mr->lkey, mr->rkey);
  *token = mr->lkey;
  return Status::ok;
}

void IbTransport::unregister_local(uint32_t token) {
  std::lock_guard<std::mutex> lock(user_mu_);
  reg_.remove_local(token);
  for (size_t i = 0; i < user_mrs_.size(); ++i)
    if (user_mrs_[i]->lkey == token) {
      v_.dereg_mr(user_mrs_[i]);
      user_mrs_.erase(user_mrs_.begin() + static_cast<std::ptrdiff_t>(i));
      return;
    }
}

IbTransport::~IbTransport() {
  if (inflight_total_) (void)quiet();
  for (ibv_mr* mr : user_mrs_) v_.dereg_mr(mr);
  for (const Extent& e : extents_) v_.dereg_mr(e.mr);
  for (ibv_qp* qp : qps_)
    if (qp) v_.destroy_qp(qp);
  if (cq_) v_.destroy_cq(cq_);
  for (ibv_mr* mr : mrs_) v_.dereg_mr(mr);
  if (staging_mr_) v_.dereg_mr(staging_mr_);
  if (results_mr_) v_.dereg_mr(results_mr_);
  if (pd_) v_.dealloc_pd(pd_);
  if (dev_.ctx) v_.close_device(dev_.ctx);
  free(staging_);
  free(results_);
}

Status IbTransport::remote(int pe, Seg seg, uint64_t off, size_t n, const char* what, uint64_t* raddr, uint32_t* rkey) {
  if (pe < 0 || static_cast<size_t>(pe) >= qps_.size() || !qps_[static_cast<size_t>(pe)])
    return fail(fmt("ib transport: %s to pe %d, which is not connected through ib", what, pe));
  if (!reg_.remote(pe, static_cast<int>(seg), off, n, raddr, rkey))
    return fail(fmt("ib transport: %s to pe %d: %s segment offset 0x%llx + %zu bytes is outside what pe %d registered",
                    what, pe, seg_name(seg), static_cast<unsigned long long>(off), n, pe));
  return Status::ok;
}

Status IbTransport::post(int pe, ibv_send_wr* wr, const char* what) {
  while (inflight_[static_cast<size_t>(pe)] >= kQueueDepth) {
    const Status st = poll_some();
    if (st != Status::ok) return st;
  }
  wr->wr_id = static_cast<uint64_t>(pe);
  wr->send_flags |= IBV_SEND_SIGNALED;
  wr->next = nullptr;
  ibv_send_wr* bad = nullptr;
  const int r = v_.post_send(qps_[static_cast<size_t>(pe)], wr, &bad);
  if (r) return fail(fmt("ib transport: posting %s to pe %d failed: %s", what, pe, strerror(r)));
  ++inflight_[static_cast<size_t>(pe)];
  ++inflight_total_;
  return Status::ok;
}

Status IbTransport::poll_some() {
  ibv_wc wc[16];
  const int got = v_.poll_cq(cq_, 16, wc);
  if (got < 0) return fail(fmt("ib transport: ibv_poll_cq failed (%d)", got));
  for (int i = 0; i < got; ++i) {
    const int pe = static_cast<int>(wc[i].wr_id);
    if (pe >= 0 && static_cast<size_t>(pe) < inflight_.size() && inflight_[static_cast<size_t>(pe)]) {
      --inflight_[static_cast<size_t>(pe)];
      --inflight_total_;
    }
    if (wc[i].status != IBV_WC_SUCCESS)
      return fail(fmt("ib transport: a work request to pe %d failed: %s (status %d, vendor error 0x%x)", pe,
                      wc_status(wc[i].status), static_cast<int>(wc[i].status), wc[i].vendor_err));
  }
  return Status::ok;
}

Status IbTransport::drain(int pe) {
  while (inflight_[static_cast<size_t>(pe)]) {
    const Status st = poll_some();
    if (st != Status::ok) return st;
  }
  return Status::ok;
}

Status IbTransport::quiet() {
  while (inflight_total_) {
    const Status st = poll_some();
    if (st != Status::ok) return st;
  }
  for (const Delivery& d : deliveries_) mem::store_local(mem_, d.dst, d.from, d.n);
  for (const Fetched& f : fetched_) mem::store_local(mem_, f.old, &results_[f.slot], sizeof(uint64_t));
  deliveries_.clear();
  fetched_.clear();
  staged_ = 0;
  next_slot_ = 1;
  return Status::ok;
}

char* IbTransport::stage(size_t n, Status* st) {
  *st = Status::ok;
  if (staged_ + n > kStagingBytes) *st = quiet();  // frees every staged byte
  if (*st != Status::ok) return nullptr;
  char* p = staging_ + staged_;
  staged_ = (staged_ + n + 63) & ~size_t(63);
  return p;
}

uint32_t IbTransport::result_slot(Status* st) {
  *st = Status::ok;
  if (next_slot_ == kResultSlots) *st = quiet();
  return *st == Status::ok ? next_slot_++ : 0;
}

// One RDMA write or read of n bytes between local (lkey) and raddr (rkey).
Status IbTransport::post_rdma(int pe, bool write, const void* local, size_t n, uint32_t lkey, uint64_t raddr,
                            uint32_t rkey, unsigned flags, const char* what) {
  ibv_sge sge{reinterpret_cast<uint64_t>(local), static_cast<uint32_t>(n), lkey};
  ibv_send_wr wr{};
  wr.opcode = write ? IBV_WR_RDMA_WRITE : IBV_WR_RDMA_READ;
  wr.send_flags = flags;
  wr.sg_list = &sge;
  wr.num_sge = 1;
  wr.wr.rdma.remote_addr = raddr;
  wr.wr.rdma.rkey = rkey;
  return post(pe, &wr, what);
}

// One NIC atomic on the 8-byte word at raddr: fetch-add of x, or compare-swap (expected x, new
// y); the old value lands in results_[slot].
Status IbTransport::post_atomic(int pe, bool cswap, uint64_t raddr, uint32_t rkey, uint32_t slot, uint64_t x, uint64_t y,
                              unsigned flags, const char* what) {
  ibv_sge sge{reinterpret_cast<uint64_t>(&results_[slot]), 8, results_mr_->lkey};
  ibv_send_wr wr{};
  wr.opcode = cswap ? IBV_WR_ATOMIC_CMP_AND_SWP : IBV_WR_ATOMIC_FETCH_AND_ADD;
  wr.send_flags = flags;
  wr.sg_list = &sge;
  wr.num_sge = 1;
  wr.wr.atomic.remote_addr = raddr;
  wr.wr.atomic.rkey = rkey;
  wr.wr.atomic.compare_add = x;
  wr.wr.atomic.swap = y;
  return post(pe, &wr, what);
}

// put (write) or get of n bytes between local and (pe, seg, off), in pieces; a local buffer that
// is not registered goes through the staging area (copied in now for a put, out at quiet for a get).
Status IbTransport::transfer(bool write, int pe, Seg seg, uint64_t off, char* local, size_t n) {
  uint64_t raddr = 0;
  uint32_t rkey = 0;
  if (n == 0) return remote(pe, seg, off, 0, write ? "put" : "get", &raddr, &rkey);
  // The range may span regions (the heap's set-up part and its extensions): one piece per
  // region, every piece found before any is posted (a range past the end moves nothing).
  struct Piece {
    uint64_t raddr;
    uint32_t rkey;
    size_t n;
  };
  Piece one;
  std::vector<Piece> more;
  size_t pieces = 0;
  for (size_t done = 0; done < n; ++pieces) {
    Piece p{0, 0, 0};
    if (pe < 0 || static_cast<size_t>(pe) >= qps_.size() || !qps_[static_cast<size_t>(pe)] ||
        !reg_.remote(pe, static_cast<int>(seg), off + done, n - done, &p.raddr, &p.rkey, &p.n) || p.n == 0)
      return remote(pe, seg, off, n, write ? "put" : "get", &raddr, &rkey);  // the error, for the whole range
    if (pieces == 0) one = p;
    else more.push_back(p);
    done += p.n;
  }
  size_t done = 0;
  for (size_t i = 0; i < pieces; ++i) {
    const Piece& p = i == 0 ? one : more[i - 1];
    const Status st = transfer_part(write, pe, p.raddr, p.rkey, local + done, p.n);
    if (st != Status::ok) return st;
    done += p.n;
  }
  return Status::ok;
}

// One region's part of a transfer.
Status IbTransport::transfer_part(bool write, int pe, uint64_t raddr, uint32_t rkey, char* local, size_t n) {
  Status st = Status::ok;
  uint32_t lkey = 0;
  const bool registered = reg_.lookup(local, n, &lkey);
  const size_t piece = registered ? kMaxMessage : kStagingBytes / 2;
  for (size_t done = 0; done < n && st == Status::ok; done += piece) {
    const size_t k = n - done < piece ? n - done : piece;
    char* at = local + done;
    if (!registered) {
      char* s = stage(k, &st);
      if (st != Status::ok) return st;
      if (!write) deliveries_.push_back({at, s, k});
      else if (mem_ && mem_->is_device(at)) mem_->copy(s, at, k);
      else memcpy(s, at, k);
      at = s;
      lkey = staging_mr_->lkey;
    }
    st = post_rdma(pe, write, at, k, lkey, raddr + done, rkey, 0, write ? "an RDMA write" : "an RDMA read");
  }
  return st;
}

Status IbTransport::put_nbi(int pe, Seg seg, uint64_t off, const void* src, size_t n) {
  return transfer(true, pe, seg, off, const_cast<char*>(static_cast<const char*>(src)), n);  // only read
}

Status IbTransport::put(int pe, Seg seg, uint64_t off, const void* src, size_t n) {
  GSHMEM_CHECK(put_nbi(pe, seg, off, src, n));
  return drain(pe);  // the NIC has read a registered source (a staged one was copied at the call)
}

Status IbTransport::get_nbi(int pe, Seg seg, uint64_t off, void* dst, size_t n) {
  return transfer(false, pe, seg, off, static_cast<char*>(dst), n);
}

Status IbTransport::get(int pe, Seg seg, uint64_t off, void* dst, size_t n) {
  GSHMEM_CHECK(get_nbi(pe, seg, off, dst, n));
  return quiet();  // delivers staged data
}

Status IbTransport::signal(int pe, Seg seg, uint64_t off, uint64_t value, int sig_op) {
  const bool add = sig_op == SHMEM_SIGNAL_ADD;
  uint64_t raddr = 0;
  uint32_t rkey = 0;
  Status st = remote(pe, seg, off, 8, "signal", &raddr, &rkey);
  if (st != Status::ok) return st;
  if (raddr & 7) return fail(fmt("ib transport: signal to pe %d at offset 0x%llx is not 8-byte aligned", pe,
                                 static_cast<unsigned long long>(off)));
  if (add && !nic_atomics_) return amo_nbi(pe, seg, off, GSHMEM_AMO_ADD, 8, value, 0, nullptr);
  // The read completes after every earlier write on this queue pair is in the target's memory;
  // IBV_SEND_FENCE holds the signal until that read is done.
  if ((st = post_rdma(pe, false, &results_[0], 8, results_mr_->lkey, raddr, rkey, 0,
                      "the read that orders a signal")) != Status::ok)
    return st;
  if (add) return post_atomic(pe, false, raddr, rkey, 0, value, 0, IBV_SEND_FENCE, "a signal (fetch-add)");
  char* s = stage(8, &st);
  if (st != Status::ok) return st;
  memcpy(s, &value, 8);
  return post_rdma(pe, true, s, 8, staging_mr_->lkey, raddr, rkey, IBV_SEND_FENCE, "a signal (write)");
}

// One NIC atomic on the 8-byte word at raddr, waited for: fetch-add of x (cswap false) or
// compare-swap (expected x, new y); *seen = the word before it.
Status IbTransport::atomic_step(int pe, uint64_t raddr, uint32_t rkey, bool cswap, uint64_t x, uint64_t y,
                              uint64_t* seen) {
  Status st;
  const uint32_t slot = result_slot(&st);
  if (st != Status::ok) return st;
  if ((st = post_atomic(pe, cswap, raddr, rkey, slot, x, y, 0, cswap ? "a compare-swap" : "a fetch-add")) != Status::ok)
    return st;
  if ((st = drain(pe)) != Status::ok) return st;
  *seen = results_[slot];
  return Status::ok;
}

// An operation the NIC does not have, as compare-swap steps on the aligned word around it
// (shift: the operand's bit offset in that word).
Status IbTransport::emulate(int pe, uint64_t word, uint32_t rkey, gshmem_amo_op op, size_t bytes, unsigned shift, uint64_t a,
                          uint64_t b, uint64_t* old) {
  const uint64_t width = bytes == 8 ? ~0ull : 0xffffffffull;
  const uint64_t mask = width << shift;
  uint64_t cur = 0;
  Status st = atomic_step(pe, word, rkey, false, 0, 0, &cur);  // an atomic read
  while (st == Status::ok) {
    const uint64_t was = (cur & mask) >> shift;
    const uint64_t now = amo_new_value(op, was, a & width, b & width) & width;
    uint64_t seen = cur;
    if (op != GSHMEM_AMO_FETCH && now != was)
      st = atomic_step(pe, word, rkey, true, cur, (cur & ~mask) | (now << shift), &seen);
    if (st != Status::ok) break;
    if (seen == cur) {
      if (old) mem::store_local(mem_, old, &was, sizeof was);
      return Status::ok;
    }
    cur = seen;  // another writer came first: again from its value
  }
  return st;
}

Status IbTransport::amo(int pe, Seg seg, uint64_t off, gshmem_amo_op op, size_t bytes, uint64_t a, uint64_t b,
                        uint64_t* old) {
  GSHMEM_CHECK(amo_nbi(pe, seg, off, op, bytes, a, b, old));
  return quiet();  // delivers the old value
}

Status IbTransport::amo_nbi(int pe, Seg seg, uint64_t off, gshmem_amo_op op, size_t bytes, uint64_t a, uint64_t b,
                            uint64_t* old) {
  if (bytes != 4 && bytes != 8)
    return fail(fmt("ib transport: atomic on pe %d: %zu-byte operand (4 or 8 bytes)", pe, bytes));
  if (off % bytes)
    return fail(fmt("ib transport: atomic on pe %d: offset 0x%llx is not %zu-byte aligned", pe,
                    static_cast<unsigned long long>(off), bytes));
  uint64_t raddr = 0;
  uint32_t rkey = 0;
  // a 4-byte operand is changed through the aligned 8-byte word around it, which must be inside too
  Status st = remote(pe, seg, off & ~7ull, 8, "atomic", &raddr, &rkey);
  if (st != Status::ok) return st;
  raddr += off & 7;
  if (!nic_atomics_)
    return fail(fmt("ib transport: atomic on pe %d: %s reports no atomic operations", pe, dev_.name.c_str()));
  const bool native = bytes == 8 && (op == GSHMEM_AMO_ADD || op == GSHMEM_AMO_FETCH || op == GSHMEM_AMO_CSWAP);
  if (!native) return emulate(pe, raddr & ~7ull, rkey, op, bytes, static_cast<unsigned>((raddr & 7) * 8), a, b, old);
  const uint32_t slot = old ? result_slot(&st) : 0;  // slot 0: scratch for an unused old value
  if (st != Status::ok) return st;
  const bool cs = op == GSHMEM_AMO_CSWAP;
  if ((st = post_atomic(pe, cs, raddr, rkey, slot, op == GSHMEM_AMO_FETCH ? 0 : a, b, 0, "an atomic")) != Status::ok)
    return st;
  if (old) fetched_.push_back({old, slot});
  return Status::ok;
}

}  // namespace gshmem::transport::ib
#endif
