// The ucx transport's internals, shared by its files: ucx.cpp (RMA, atomics, quiet, the table's
// probe and create), owner.cpp (owner-applied atomics and the progress thread) and setup.cpp
// (records, mappings, connection, extensions, finalize). Nothing outside transport/ucx/ includes it.
#pragma once

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
#include "common/wait.hpp"
#include "transport/host_amo.hpp"
#include "transport/ucx/context.hpp"
#include "transport/ucx/ucp_api.hpp"
#include "transport/transport.hpp"
#include "transport/ucx/wire.hpp"

namespace gshmem::transport::ucx {

constexpr unsigned kAmRequest = 0x47;  // an owner-applied atomic or signal
constexpr unsigned kAmReply = 0x48;    // its acknowledgement with the old value
constexpr unsigned kAmPutFlag = 0x49;  // bytes and a raised flag (put_flag), applied on arrival

struct PutFlagHdr {  // followed by n bytes (put_flag's head and source together)
  uint64_t off, flag_off, value;
  uint32_t n;
  uint8_t seg;
  uint8_t pad[3];
};
static_assert(sizeof(PutFlagHdr) == 32, "wire format");
constexpr size_t kPutFlagMax = 65536;  // the most bytes put_flag carries in one message (eager)

// OwnerReq::op of a raised flag (raise_flag): applied as a maximum, with no reply.
constexpr uint8_t kOpRaiseFlag = 0xff;
static_assert(GSHMEM_AMO_NOPS < kOpRaiseFlag, "op codes");

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
Result exchange(boot::Bootstrap& b, const PeRecord& mine, std::vector<PeRecord>* all);

// Empty progress rounds a thread spins through before it sleeps (a network round trip on
// InfiniBand completes within them; over TCP the wake-up is cheaper than spinning when PEs
// outnumber cores).
constexpr unsigned kSpinRounds = 16;
// With a core for every PE a caller's spinning costs no other PE, and it never sleeps: a sleeping
// caller leaves the worker to the progress thread, and the two hand a transfer back and forth
// (where they share one core, each hand-over is a thread wake-up).
constexpr unsigned kSpinRoundsSpare = ~0u;
// With a core for every PE, the progress thread stays off the worker while waiting threads
// progress it (gshmem::g_wait_driven changes), looking again after kDeferMinNs, doubling up to
// kDeferMaxNs while they go on: a thread that stops waiting hands the worker back within two of
// the last period. Each look wakes the thread, which on a loaded machine takes the core from a
// transfer (short periods halved put bandwidth over UCX's tcp); the cap bounds the hand-back.
constexpr long kDeferMinNs = 100000;
constexpr long kDeferMaxNs = 2000000;

inline void cpu_relax() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_ia32_pause();
#elif defined(__aarch64__)
  asm volatile("yield" ::: "memory");
#endif
}

inline std::string fmt_pe(const std::string& what, int pe) {
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
        spin_rounds_(env.core_each ? kSpinRoundsSpare : kSpinRounds), defer_(env.core_each), me_(env.my_pe),
        npes_(env.npes), owner_device_(owner_device), owner_host_(owner_host), peers_(static_cast<size_t>(env.npes)),
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
  Result raise_flag(int pe, Seg seg, uint64_t off, uint64_t value) override;
  Result put_flag(int pe, Seg seg, uint64_t off, const void* head, size_t nh, const void* src, size_t n,
                  uint64_t flag_off, uint64_t value) override;
  Result fence() override;
  Result quiet() override;
  Result quiet(int pe) override;
  Result extend(Seg seg, uint64_t off, void* base, size_t len) override;
  void drop(Seg seg, uint64_t off, size_t len) override;
  Result register_buffer(void* base, size_t len, bool device, uint64_t* token) override;
  // A waiting thread's progress (common/wait.hpp). Inside for the progress thread: one call can
  // outlast kDeferMinNs (answering a large get over tcp sends it all from the callback), and
  // g_wait_driven does not move meanwhile; the progress thread taking the worker then would spin
  // on UCX's lock against the caller, on one core for a time slice.
  unsigned progress() override {
    const Inside inside(this);
    return u_.worker_progress(worker_);  // CPU PEs' owner requests are applied in UCX's callback
  }
  void unregister_buffer(uint64_t token) override;
  Result finalize() override;

  // UCX's callbacks
  void lost(int pe, ucs_status_t st);
  ucs_status_t on_request(const void* data, size_t n, ucp_ep_h reply_ep);
  ucs_status_t on_reply(const void* data, size_t n);
  ucs_status_t on_put_flag(const void* data, size_t n);

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
    std::atomic<bool> done{false};  // read without pend_mu_ by the thread that waits for it
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
  // Completes req (progressing the worker from this thread); frees it. The message ("ucx transport:
  // WHAT to pe PE", or without the PE when pe < 0) is built only on failure: blocking puts, gets
  // and atomics pass here once each.
  Result wait(ucs_status_ptr_t req, const char* what, int pe);
  Result remote(int pe, Seg seg, uint64_t off, size_t n, const char* what, uint64_t* addr, ucp_rkey_h* rkey);
  Result rma(bool write, int pe, Seg seg, uint64_t off, void* local, size_t n, bool blocking);
  Result atomic(int pe, Seg seg, uint64_t off, gshmem_amo_op op, size_t bytes, uint64_t a, uint64_t b, uint64_t* old,
                bool blocking, bool ordered);
  Result owner_op(int pe, Seg seg, uint64_t off, gshmem_amo_op op, size_t bytes, uint64_t a, uint64_t b, uint64_t* old,
                  bool blocking);
  Result flush_ep(int pe);
  // Sends a + b + c as one active message without waiting for it (a copy is sent). `what` and pe
  // (-1: none) name it in an error; the name is formatted only then, not on every flag or reply.
  Result post_am(ucp_ep_h ep, unsigned id, const void* a, size_t na, const void* b, size_t nb, const char* what, int pe,
                 const void* c = nullptr, size_t nc = 0);
  Result settle_owner_ops();  // every owner-applied operation started so far is acknowledged
  Result map(Seg seg, uint64_t off, void* base, size_t len, bool device, RegionRecord* rec);
  Result add_extents(int pe, const PeRecord& rec);
  unsigned serve();             // applies the owner-applied operations queued by on_request; returns how many
  void apply(const Served& s);  // one owner-applied operation, answered (the thread's GPU for GPU memory)
  // While a caller is inside the worker (an operation's start, which may push a large transfer
  // into the socket for milliseconds, or a wait), the progress thread stays off it (defer_).
  struct Inside {
    explicit Inside(Ucx* u) : t(u->defer_ ? u : nullptr) {
      if (t) t->inside_.fetch_add(1, std::memory_order_relaxed);
    }
    ~Inside() {
      if (t) t->inside_.fetch_sub(1, std::memory_order_relaxed);
    }
    Inside(const Inside&) = delete;
    Inside& operator=(const Inside&) = delete;
    Ucx* t;
  };
  // The progress thread of this PE, which applies the GPU-memory requests its own progress
  // receives after that progress call (on_request need not wake it for them).
  static thread_local const Ucx* serving_;
  void run();  // the progress thread

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
  unsigned spin_rounds_;        // a waiting caller's busy rounds before it sleeps
  bool defer_;                  // the progress thread defers to waiting threads that progress (kDeferMinNs)
  std::atomic<int> inside_{0};  // callers inside the worker (Inside)
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
  std::atomic<size_t> queued_{0};  // served_.size(), read without serve_mu_
  int efd_ = -1, wake_ = -1;
  std::thread progress_;
  std::atomic<bool> stop_{false};
  std::atomic<bool> closing_{false};
  int progressed_fd_ = -1;  // the progress thread writes it after progress while sleepers_
  std::atomic<uint32_t> sleepers_{0};
};

template <typename Done>
void Ucx::progress_until(Done&& done) {
  const Inside inside(this);
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

}  // namespace gshmem::transport::ucx
