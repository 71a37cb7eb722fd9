#include "transport/ucx/ucx.hpp"

#include <poll.h>
#include <sched.h>
#include <sys/eventfd.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <chrono>
#include <cstring>
#include <deque>
#include <functional>
#include <mutex>
#include <shared_mutex>
#include <thread>
#include <unordered_map>

#include "common/fatal.hpp"
#include "common/log.hpp"
#include "transport/host_amo.hpp"
#include "transport/ucx/context.hpp"
#include "transport/ucx/ucp_api.hpp"
#include "transport/ucx/wire.hpp"

namespace gshmem::transport {
namespace {

using ucx::Ucp;

constexpr unsigned kAmRequest = 0x47;  // an owner-applied atomic or signal
constexpr unsigned kAmReply = 0x48;    // its acknowledgement with the old value

struct OwnerReq {
  uint64_t id;
  uint64_t off;
  uint64_t a, b;
  uint8_t op;    // gshmem_amo_op
  uint8_t size;  // 4 or 8
  uint8_t seg;
  uint8_t pad[5];
};
struct OwnerRep {
  uint64_t id;
  uint64_t value;
};
static_assert(sizeof(OwnerReq) == 40 && sizeof(OwnerRep) == 16, "wire format");

struct Extent {
  uint64_t off, len;  // in the segment
  uint64_t base;      // the owner's address of off
  ucp_rkey_h rkey;
};

struct Mapped {  // this PE's memory mapped with UCX
  Seg seg;
  uint64_t off, len;
  ucp_mem_h memh;
};

// Collective: every PE's record (the bootstrap's allgather is of fixed-size blocks: sizes first).
Result exchange(boot::Bootstrap& b, const ucx::PeRecord& mine, std::vector<ucx::PeRecord>* all) {
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

// Empty progress rounds a thread spins through before it sleeps (a network round trip on
// InfiniBand completes within them; over TCP the wake-up is cheaper than spinning when PEs
// outnumber cores).
constexpr unsigned kSpinRounds = 16;
constexpr unsigned kSpinRoundsSpare = 4096;  // a core for every thread: a caller's spinning costs nobody

void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#endif
}

std::string fmt_pe(const std::string& what, int pe) {
  return std::string("ucx transport: ") + what + " to pe " + std::to_string(pe);
}

class Ucx;

struct EpArg {
  Ucx* t;
  int pe;
};

class Ucx final : public Transport {
 public:
  Ucx(const Ucp& u, ucp_context_h ctx, Env& env, bool owner_device, bool owner_host)
      : u_(u), ctx_(ctx), boot_(env.boot), mem_(env.mem), thread_setup_(env.thread_setup),
        spin_rounds_(env.spare_cores ? kSpinRoundsSpare : kSpinRounds), me_(env.my_pe), npes_(env.npes),
        owner_device_(owner_device), owner_host_(owner_host), peers_(static_cast<size_t>(env.npes)),
        ext_(static_cast<size_t>(env.npes)) {
    for (Peer& p : peers_) p.dirty.store(false);
  }
  ~Ucx() override { teardown(); }

  Result setup(const std::vector<Segment>& segs, const std::vector<int>& peers, double timeout_s);

  const char* name() const override { return "ucx"; }
  Caps caps() const override {
    Caps c;
    c.off_node = true;
    c.device_memory = true;
    c.device_atomics = !owner_device_;
    return c;
  }
  bool reaches(int pe) const override { return pe >= 0 && pe < npes_ && peers_[static_cast<size_t>(pe)].ep; }

  Result put(int pe, Seg seg, uint64_t off, const void* src, size_t n) override {
    return rma(true, pe, seg, off, const_cast<void*>(src), n, true);
  }
  Result put_nbi(int pe, Seg seg, uint64_t off, const void* src, size_t n) override {
    return rma(true, pe, seg, off, const_cast<void*>(src), n, false);
  }
  Result get(int pe, Seg seg, uint64_t off, void* dst, size_t n) override {
    return rma(false, pe, seg, off, dst, n, true);
  }
  Result get_nbi(int pe, Seg seg, uint64_t off, void* dst, size_t n) override {
    return rma(false, pe, seg, off, dst, n, false);
  }
  Result signal(int pe, Seg seg, uint64_t off, uint64_t value, int sig_op) override;
  Result amo(int pe, Seg seg, uint64_t off, gshmem_amo_op op, size_t bytes, uint64_t a, uint64_t b,
             uint64_t* old) override {
    return atomic(pe, seg, off, op, bytes, a, b, old, true, false);
  }
  Result amo_nbi(int pe, Seg seg, uint64_t off, gshmem_amo_op op, size_t bytes, uint64_t a, uint64_t b,
                 uint64_t* old) override {
    return atomic(pe, seg, off, op, bytes, a, b, old, false, false);
  }
  Result fence() override;
  Result quiet() override;
  Result quiet(int pe) override;
  Result extend(Seg seg, uint64_t off, void* base, size_t len) override;
  void drop(Seg seg, uint64_t off, size_t len) override;
  Result register_buffer(void* base, size_t len, bool device, uint64_t* token) override;
  unsigned progress() override {
    unsigned n = u_.worker_progress(worker_);
    if (!mem_) n += serve();  // host memory only: owner atomics are CPU atomics, safe on any thread
    return n;
  }
  void unregister_buffer(uint64_t token) override;
  Result finalize() override;

  // UCX's callbacks
  void lost(int pe, ucs_status_t st);
  ucs_status_t on_request(const void* data, size_t n, ucp_ep_h reply_ep);
  ucs_status_t on_reply(const void* data, size_t n);

 private:
  struct Peer {
    ucp_ep_h ep = nullptr;
    std::atomic<bool> dirty{false};  // RMA since the last flush of this endpoint
    EpArg arg{};
  };
  struct Pending {  // an owner-applied operation this PE started
    OwnerReq req;
    uint64_t* old;  // where the old value goes at quiet (may be GPU memory; null: nowhere)
    bool blocking;
    bool done = false;
    uint64_t value = 0;
  };
  struct Fetched {  // a UCX atomic's reply, delivered to *old at quiet
    uint64_t value;
    uint64_t* old;
  };
  struct Served {  // an owner-applied operation another PE asked for
    OwnerReq req;
    ucp_ep_h reply_ep;
  };

  Result fail(Status st, std::string what) const { return Result::fail(st, std::move(what)); }
  Result ucs_fail(const std::string& what, ucs_status_t st) const {
    return fail(st == UCS_ERR_UNREACHABLE || st == UCS_ERR_CONNECTION_RESET || st == UCS_ERR_ENDPOINT_TIMEOUT
                    ? Status::peer_failed
                    : Status::system_error,
                what + ": " + u_.str(st));
  }
  // Completes req (progressing the worker from this thread); frees it.
  Result wait(ucs_status_ptr_t req, const std::string& what);
  Result remote(int pe, Seg seg, uint64_t off, size_t n, const char* what, uint64_t* addr, ucp_rkey_h* rkey);
  Result rma(bool write, int pe, Seg seg, uint64_t off, void* local, size_t n, bool blocking);
  Result atomic(int pe, Seg seg, uint64_t off, gshmem_amo_op op, size_t bytes, uint64_t a, uint64_t b, uint64_t* old,
                bool blocking, bool ordered);
  Result owner_op(int pe, Seg seg, uint64_t off, gshmem_amo_op op, size_t bytes, uint64_t a, uint64_t b, uint64_t* old,
                  bool blocking);
  Result flush_ep(int pe);
  Result settle_owner_ops();  // every owner-applied operation started so far is acknowledged
  Result map(Seg seg, uint64_t off, void* base, size_t len, bool device, ucx::RegionRecord* rec);
  Result add_extents(int pe, const ucx::PeRecord& rec);
  unsigned serve();  // applies the owner-applied operations queued by on_request; returns how many
  void run();        // the progress thread

  // Progresses the worker from this thread until done() (which may be called again after it
  // returned true): a few busy rounds, then it sleeps on the
  // worker's event fd (a reply wakes it directly) and on progressed_fd_ (the progress thread took
  // the event and progressed), 1 ms at most per sleep.
  template <typename Done>
  void progress_until(Done&& done);
  void teardown();

  const Ucp& u_;
  ucp_context_h ctx_;
  ucp_worker_h worker_ = nullptr;
  boot::Bootstrap* boot_;
  mem::LocalMemory* mem_;
  std::function<void()> thread_setup_;
  unsigned spin_rounds_;  // a waiting caller's busy rounds before it sleeps
  int me_, npes_;
  bool owner_device_, owner_host_;
  std::vector<Peer> peers_;
  std::shared_mutex ext_mu_;                                     // the extents and this PE's mappings
  std::vector<std::array<std::vector<Extent>, kSegments>> ext_;  // [pe][seg]
  std::vector<Mapped> mine_;
  std::array<char*, kSegments> my_base_{};  // this PE's segment bases and sizes (owner-applied ops)
  std::array<uint64_t, kSegments> my_len_{};
  std::mutex buf_mu_;
  std::unordered_map<uint64_t, ucp_mem_h> bufs_;
  uint64_t next_token_ = 1;
  std::mutex pend_mu_;
  std::unordered_map<uint64_t, Pending> pending_;
  std::atomic<uint64_t> unacked_{0};
  uint64_t next_id_ = 1;
  std::mutex fetch_mu_;
  std::deque<Fetched> fetched_;  // stable addresses: UCX writes the replies there
  uint64_t discard_ = 0;         // replies nobody reads (concurrent writes to it are harmless)
  std::mutex serve_mu_;
  std::deque<Served> served_;
  int efd_ = -1, wake_ = -1;
  std::thread progress_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> closing_{false};
  int progressed_fd_ = -1;  // the progress thread writes it after progress while sleepers_
  std::atomic<uint32_t> sleepers_{0};
};

template <typename Done>
void Ucx::progress_until(Done&& done) {
  unsigned empty = 0;
  while (!done()) {
    if (u_.worker_progress(worker_)) {
      empty = 0;
      continue;
    }
    if (++empty < spin_rounds_) {
      cpu_relax();
      continue;
    }
    empty = 0;
    sleepers_.fetch_add(1);
    if (efd_ >= 0 && u_.worker_arm(worker_) == UCS_ERR_BUSY) {  // events are waiting: progress them
      sleepers_.fetch_sub(1);
      continue;
    }
    if (!done()) {
      pollfd fds[2] = {{efd_, POLLIN, 0}, {progressed_fd_, POLLIN, 0}};
      if (poll(fds, 2, 1) > 0 && (fds[1].revents & POLLIN)) {
        uint64_t v;
        ssize_t r = read(progressed_fd_, &v, sizeof v);
        (void)r;
      }
    }
    sleepers_.fetch_sub(1);
  }
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

void Ucx::lost(int pe, ucs_status_t st) {
  if (closing_.load()) return;
  // Called from UCX's progress, often on the progress thread, which has no caller to report to.
  fatal("ucx transport", "pe %d is unreachable or died (%s); ending the job", pe, u_.str(st));
}

Result Ucx::wait(ucs_status_ptr_t req, const std::string& what) {
  if (req == nullptr) return {};
  if (UCS_PTR_IS_ERR(req)) return ucs_fail(what, UCS_PTR_STATUS(req));
  ucs_status_t st = UCS_INPROGRESS;
  progress_until([&] { return (st = u_.request_check_status(req)) != UCS_INPROGRESS; });
  u_.request_free(req);
  return st == UCS_OK ? Result{} : ucs_fail(what, st);
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
  if (blocking) return wait(req, fmt_pe(what, pe));
  if (UCS_PTR_IS_ERR(req)) return ucs_fail(fmt_pe(what, pe), UCS_PTR_STATUS(req));
  if (req) u_.request_free(req);  // it completes on its own; the next flush waits for it
  return {};
}

Result Ucx::flush_ep(int pe) {
  Peer& p = peers_[static_cast<size_t>(pe)];
  if (!p.dirty.exchange(false)) return {};
  ucp_request_param_t prm;
  prm.op_attr_mask = 0;
  return wait(u_.ep_flush_nbx(p.ep, &prm), fmt_pe("a flush", pe));
}

Result Ucx::atomic(int pe, Seg seg, uint64_t off, gshmem_amo_op op, size_t bytes, uint64_t a, uint64_t b, uint64_t* old,
                   bool blocking, bool ordered) {
  if ((bytes != 4 && bytes != 8) || op >= GSHMEM_AMO_NOPS || off % bytes)
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
    if (blocking) return wait(req, fmt_pe("an atomic", pe));
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
    GSHMEM_TRY(wait(u_.atomic_op_nbx(ep, uop, buf, 1, addr, rkey, &prm), fmt_pe("an atomic", pe)));
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

Result Ucx::signal(int pe, Seg seg, uint64_t off, uint64_t value, int sig_op) {
  return atomic(pe, seg, off, sig_op == SHMEM_SIGNAL_ADD ? GSHMEM_AMO_ADD : GSHMEM_AMO_SET, 8, value, 0, nullptr, false,
                true);
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

Result Ucx::fence() {
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
  GSHMEM_TRY(wait(u_.worker_flush_nbx(worker_, &prm), "ucx transport: a quiet"));
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

Result Ucx::map(Seg seg, uint64_t off, void* base, size_t len, bool device, ucx::RegionRecord* rec) {
  ucp_mem_map_params_t mp;
  mp.field_mask =
      UCP_MEM_MAP_PARAM_FIELD_ADDRESS | UCP_MEM_MAP_PARAM_FIELD_LENGTH | UCP_MEM_MAP_PARAM_FIELD_MEMORY_TYPE;
  mp.address = base;
  mp.length = len;
  mp.memory_type = device ? UCS_MEMORY_TYPE_CUDA : UCS_MEMORY_TYPE_HOST;
  ucp_mem_h memh = nullptr;
  ucs_status_t st = u_.mem_map(ctx_, &mp, &memh);
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

Result Ucx::add_extents(int pe, const ucx::PeRecord& rec) {
  const ucp_ep_h ep = peers_[static_cast<size_t>(pe)].ep;
  for (const ucx::RegionRecord& g : rec.regions) {
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
  ucx::PeRecord rec;
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
    ucx::RegionRecord g;
    local = map(s.seg, 0, s.base, s.len, s.device, &g);
    if (local.ok()) rec.regions.push_back(std::move(g));
  }
  if (local.ok()) {
    for (auto [id, cb] : {std::pair{kAmRequest, &am_request}, std::pair{kAmReply, &am_reply}}) {
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
  std::vector<ucx::PeRecord> all;
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

Result Ucx::extend(Seg seg, uint64_t off, void* base, size_t len) {
  ucx::PeRecord rec;
  rec.address = {1};  // non-empty: this PE is well
  ucx::RegionRecord g;
  Result local = map(seg, off, base, len, seg == Seg::device, &g);
  if (local.ok()) rec.regions.push_back(std::move(g));
  else rec.address.clear();
  std::vector<ucx::PeRecord> all;
  GSHMEM_TRY(exchange(*boot_, rec, &all));
  if (!local.ok()) return local;
  {
    std::unique_lock<std::shared_mutex> lock(ext_mu_);
    if (off + len > my_len_[static_cast<size_t>(seg)]) my_len_[static_cast<size_t>(seg)] = off + len;
  }
  for (int pe = 0; pe < npes_; ++pe) {
    const ucx::PeRecord& r = all[static_cast<size_t>(pe)];
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
  ucp_mem_map_params_t mp;
  mp.field_mask =
      UCP_MEM_MAP_PARAM_FIELD_ADDRESS | UCP_MEM_MAP_PARAM_FIELD_LENGTH | UCP_MEM_MAP_PARAM_FIELD_MEMORY_TYPE;
  mp.address = base;
  mp.length = len;
  mp.memory_type = device ? UCS_MEMORY_TYPE_CUDA : UCS_MEMORY_TYPE_HOST;
  ucp_mem_h memh = nullptr;
  const ucs_status_t st = u_.mem_map(ctx_, &mp, &memh);
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

}  // namespace

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
