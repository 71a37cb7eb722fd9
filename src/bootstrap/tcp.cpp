#include "bootstrap/tcp.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <thread>

#include "common/fatal.hpp"
#include "common/io.hpp"
#include "common/log.hpp"

namespace gshmem::boot {
namespace {

using namespace wire;
using Clock = std::chrono::steady_clock;

bool write_full_ok(int fd, const void* buf, size_t n) { return write_full(fd, buf, n) == Io::ok; }

bool send_frame(int fd, Type t, const void* payload, uint64_t len) {
  FrameHdr h{kMagic, t, 0, len};
  return write_full_ok(fd, &h, sizeof h) && (len == 0 || write_full_ok(fd, payload, len));
}

void set_nodelay(int fd) {
  int one = 1;
  setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
}

class TcpBootstrap final : public Bootstrap {
 public:
  TcpBootstrap(int rank, int nranks, TcpOptions opts) : opts_(std::move(opts)) {
    rank_ = rank;
    size_ = nranks;
    fds_.assign(static_cast<size_t>(nranks), -1);
  }
  ~TcpBootstrap() override {
    for (int fd : fds_)
      if (fd >= 0) close(fd);
  }
  const char* name() const noexcept override { return opts_.launcher_name; }

  Status join(const UniqueId& uid);

  Status allgather(void* buf, size_t bytes) override {
    if (size_ == 1) return Status::ok;
    std::lock_guard<std::mutex> lk(io_mu_);  // against the health monitor's reads
    auto* b = static_cast<char*>(buf);
    return rank_ == 0 ? root_allgather(b, bytes) : leaf_allgather(b, bytes);
  }
  Status barrier() override {
    char dummy[1] = {0};
    if (size_ == 1) return Status::ok;
    std::vector<char> all(static_cast<size_t>(size_));
    all[static_cast<size_t>(rank_)] = dummy[0];
    return allgather(all.data(), 1);
  }
  void check_health() override;
  [[noreturn]] void abort(int status, const char* msg) override;
  [[noreturn]] void global_exit(int status) override;
  void finalize() override {
    for (int& fd : fds_)
      if (fd >= 0) {
        close(fd);
        fd = -1;
      }
    if (opts_.launcher_finalize) {
      opts_.launcher_finalize();
      opts_.launcher_finalize = nullptr;
    }
  }

 private:
  Status root_allgather(char* buf, size_t bytes);
  Status leaf_allgather(char* buf, size_t bytes);
  // Handles an unsolicited control frame (abort/exit) already identified by its header.
  [[noreturn]] void handle_control(int from_fd, const FrameHdr& h);
  [[noreturn]] void peer_lost(int rank);
  void relay(Type t, const void* payload, uint64_t len, int except_rank);

  // Once one thread ends the job (a lost peer, a relayed abort, abort, global exit), any other
  // thread that would also end it waits for the process to exit instead: one message, one status.
  void claim_ending() {
    if (ending_.exchange(true))
      for (;;) pause();
  }

  TcpOptions opts_;
  std::vector<int> fds_;  // root: one per leaf rank; leaf: fds_[0] is the root
  // Held by a collective for its whole exchange; check_health (any thread, e.g. the monitor) only
  // reads when it gets it, so two threads never read one connection.
  std::mutex io_mu_;
  std::atomic<bool> ending_{false};
};

Status TcpBootstrap::join(const UniqueId& uid) {
  const auto deadline = Clock::now() + std::chrono::seconds(opts_.timeout_s);
  if (rank_ == 0) {
    int lfd = opts_.listen_fd;
    int joined = 0;
    while (joined < size_ - 1) {
      auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
      if (left <= 0) {
        std::string missing;
        for (int r = 1; r < size_; ++r)
          if (fds_[r] < 0) missing += (missing.empty() ? "" : ",") + std::to_string(r);
        GSHMEM_WARN(Subsys::boot, "bootstrap: %d of %d PEs joined within %d s; missing PEs: %s", joined + 1, size_,
                    opts_.timeout_s, missing.c_str());
        close(lfd);
        return Status::timeout;
      }
      pollfd p{lfd, POLLIN, 0};
      int pr = poll(&p, 1, static_cast<int>(std::min<long long>(left, 1000)));
      if (pr <= 0) continue;
      sockaddr_in peer{};
      socklen_t plen = sizeof peer;
      int fd = accept4(lfd, reinterpret_cast<sockaddr*>(&peer), &plen, SOCK_CLOEXEC);
      if (fd < 0) continue;
      char addr[INET_ADDRSTRLEN] = "?";
      inet_ntop(AF_INET, &peer.sin_addr, addr, sizeof addr);
      // A peer gets 5 s to authenticate; anything malformed is dropped without a reply.
      timeval tv{5, 0};
      setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
      FrameHdr h{};
      Hello hello{};
      hello.rank = hello.nranks = -1;
      const char* why = nullptr;
      auto taken = [](int r, const void* fds) {
        return (*static_cast<const std::vector<int>*>(fds))[static_cast<size_t>(r)] >= 0;
      };
      if (read_full(fd, &h, sizeof h) != Io::ok) why = "no frame header";
      else if ((why = check_hello_header(h))) {
      } else if (read_full(fd, &hello, sizeof hello) != Io::ok) why = "truncated hello";
      else why = check_hello(hello, uid.secret, size_, taken, &fds_);
      if (why) {
        GSHMEM_WARN(Subsys::boot, "bootstrap: rejected connection from %s:%u: %s (rank %d, nranks %d)", addr,
                    ntohs(peer.sin_port), why, hello.rank, hello.nranks);
        if (h.magic == kMagic) send_frame(fd, t_reject, why, strlen(why));
        close(fd);
        continue;
      }
      timeval none{0, 0};
      setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &none, sizeof none);
      set_nodelay(fd);
      fds_[hello.rank] = fd;
      ++joined;
    }
    close(lfd);
    for (int r = 1; r < size_; ++r)
      if (!send_frame(fds_[r], t_welcome, nullptr, 0)) peer_lost(r);
    GSHMEM_DEBUG(Subsys::boot, "bootstrap root: all %d PEs joined", size_);
    return Status::ok;
  }

  sockaddr_in sa{};
  sa.sin_family = AF_INET;
  sa.sin_addr.s_addr = uid.ip_be;
  sa.sin_port = htons(uid.port);
  int delay_ms = 5;
  for (;;) {
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0) return Status::system_error;
    if (connect(fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa) == 0) {
      set_nodelay(fd);
      Hello h{kVersion, rank_, size_, 0, {}};
      memcpy(h.secret, uid.secret, 16);
      FrameHdr r{};
      if (send_frame(fd, t_hello, &h, sizeof h) && read_full(fd, &r, sizeof r) == Io::ok && r.magic == kMagic) {
        const Reply reply = classify_reply(r);
        if (reply == Reply::welcome) {
          fds_[0] = fd;
          return Status::ok;
        }
        char why[kMaxReject + 1] = "malformed reply";
        if (reply == Reply::reject && read_full(fd, why, r.len) != Io::ok)
          snprintf(why, sizeof why, "truncated reject");
        why[reply == Reply::reject ? r.len : sizeof why - 1] = 0;
        GSHMEM_WARN(Subsys::boot, "bootstrap: root %s rejected rank %d: %s", uid_to_string(uid).substr(0, 30).c_str(),
                    rank_, why);
        close(fd);
        return Status::bootstrap_error;
      }
      // The root may have been busy; a dropped connection before welcome is retried.
    }
    close(fd);
    if (Clock::now() > deadline) {
      char ip[INET_ADDRSTRLEN];
      inet_ntop(AF_INET, &sa.sin_addr, ip, sizeof ip);
      GSHMEM_WARN(Subsys::boot, "bootstrap: rank %d could not join the root at %s:%u within %d s", rank_, ip, uid.port,
                  opts_.timeout_s);
      return Status::timeout;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(delay_ms));
    delay_ms = std::min(delay_ms * 2, 200);
  }
}

Status TcpBootstrap::root_allgather(char* buf, size_t bytes) {
  std::vector<pollfd> pfds;
  std::vector<int> ranks;
  for (int r = 1; r < size_; ++r) {
    pfds.push_back({fds_[r], POLLIN, 0});
    ranks.push_back(r);
  }
  size_t pending = pfds.size();
  while (pending) {
    int pr = poll(pfds.data(), pfds.size(), -1);
    if (pr < 0) {
      if (errno == EINTR) continue;
      return Status::system_error;
    }
    for (size_t i = 0; i < pfds.size(); ++i) {
      if (pfds[i].fd < 0 || !pfds[i].revents) continue;
      int r = ranks[i];
      FrameHdr h{};
      if (read_full(pfds[i].fd, &h, sizeof h) != Io::ok || h.magic != kMagic) peer_lost(r);
      if (is_control(h)) handle_control(pfds[i].fd, h);
      if (const char* bad = check_allgather(h, bytes)) {
        GSHMEM_WARN(Subsys::boot, "bootstrap allgather: pe %d sent %llu bytes (type %u), pe 0 expected %zu: %s", r,
                    (unsigned long long)h.len, h.type, bytes, bad);
        abort(1, "bootstrap collective arguments differ between PEs");
      }
      if (read_full(pfds[i].fd, buf + static_cast<size_t>(r) * bytes, bytes) != Io::ok) peer_lost(r);
      pfds[i].fd = -1;
      --pending;
    }
  }
  const size_t total = bytes * static_cast<size_t>(size_);
  for (int r = 1; r < size_; ++r)
    if (!send_frame(fds_[r], t_allgather, buf, total)) peer_lost(r);
  return Status::ok;
}

Status TcpBootstrap::leaf_allgather(char* buf, size_t bytes) {
  int fd = fds_[0];
  if (!send_frame(fd, t_allgather, buf + static_cast<size_t>(rank_) * bytes, bytes)) peer_lost(0);
  FrameHdr h{};
  if (read_full(fd, &h, sizeof h) != Io::ok || h.magic != kMagic) peer_lost(0);
  if (is_control(h)) handle_control(fd, h);
  const size_t total = bytes * static_cast<size_t>(size_);
  if (const char* bad = check_allgather(h, total)) {
    GSHMEM_WARN(Subsys::boot, "bootstrap allgather: root sent %llu bytes, expected %zu: %s", (unsigned long long)h.len,
                total, bad);
    abort(1, "bootstrap protocol error");
  }
  if (read_full(fd, buf, total) != Io::ok) peer_lost(0);
  return Status::ok;
}

void TcpBootstrap::check_health() {
  if (size_ == 1) return;
  std::unique_lock<std::mutex> lk(io_mu_, std::try_to_lock);
  if (!lk.owns_lock()) return;  // a collective is reading the connections: it sees a lost peer itself
  for (int r = 0; r < size_; ++r) {
    int fd = fds_[r];
    if (fd < 0) continue;
    pollfd p{fd, POLLIN | POLLRDHUP, 0};
    if (poll(&p, 1, 0) <= 0) continue;
    if (p.revents & (POLLRDHUP | POLLHUP | POLLERR)) {
      // Data may precede the hangup: an abort message explains the hangup better than "died".
      FrameHdr h{};
      if (recv(fd, &h, sizeof h, MSG_PEEK | MSG_DONTWAIT) == sizeof h && is_control(h)) {
        (void)read_full(fd, &h, sizeof h);
        handle_control(fd, h);
      }
      peer_lost(r);
    }
    if (p.revents & POLLIN) {
      FrameHdr h{};
      ssize_t n = recv(fd, &h, sizeof h, MSG_PEEK | MSG_DONTWAIT);
      if (n == sizeof h && is_control(h)) {
        (void)read_full(fd, &h, sizeof h);
        handle_control(fd, h);
      }
      // An allgather contribution from a PE that is already in the next collective: left queued.
    }
  }
}

void TcpBootstrap::relay(Type t, const void* payload, uint64_t len, int except_rank) {
  for (int r = 0; r < size_; ++r)
    if (r != except_rank && fds_[r] >= 0) send_frame(fds_[r], t, payload, len);
}

void TcpBootstrap::handle_control(int from_fd, const FrameHdr& h) {
  claim_ending();
  AbortMsg raw{}, m;
  const bool got = h.len == sizeof raw && read_full(from_fd, &raw, sizeof raw) == Io::ok;
  parse_control(h, got ? &raw : nullptr, got ? sizeof raw : 0, size_, &m);
  if (rank_ == 0) relay(static_cast<Type>(h.type), &m, sizeof m, m.from_rank);
  if (h.type == t_abort) {
    report_error("bootstrap", "job aborted by pe %d (status %d)%s%s", m.from_rank, m.status, m.text[0] ? ": " : "",
                 m.text);
  }
  if (opts_.launcher_abort && h.type == t_abort) opts_.launcher_abort(m.status, m.text);
  terminate(m.status);
}

void TcpBootstrap::peer_lost(int r) {
  claim_ending();
  char msg[256];
  if (rank_ == 0)
    snprintf(msg, sizeof msg, "pe %d exited or died without shmem_finalize (its bootstrap connection closed)", r);
  else snprintf(msg, sizeof msg, "pe 0 (bootstrap root) exited or died without shmem_finalize");
  report_error("bootstrap", "%s; ending the job", msg);
  fds_[r] >= 0 ? (close(fds_[r]), fds_[r] = -1) : 0;
  AbortMsg m{};
  m.status = 1;
  m.from_rank = rank_;
  snprintf(m.text, sizeof m.text, "%s", msg);
  relay(t_abort, &m, sizeof m, -1);
  if (opts_.launcher_abort) opts_.launcher_abort(1, msg);
  terminate(1);
}

void TcpBootstrap::abort(int status, const char* msg) {
  claim_ending();
  AbortMsg m{};
  m.status = status == 0 ? 1 : status;
  m.from_rank = rank_;
  snprintf(m.text, sizeof m.text, "%s", msg ? msg : "");
  relay(t_abort, &m, sizeof m, -1);
  if (opts_.launcher_abort) opts_.launcher_abort(m.status, m.text);
  terminate(m.status);
}

void TcpBootstrap::global_exit(int status) {
  claim_ending();
  AbortMsg m{};
  m.status = status;
  m.from_rank = rank_;
  relay(t_exit, &m, sizeof m, -1);
  // Give the relay a moment to leave before the connections close with this process.
  if (rank_ == 0) std::this_thread::sleep_for(std::chrono::milliseconds(50));
  terminate(status);
}

class SingleBootstrap final : public Bootstrap {
 public:
  const char* name() const noexcept override { return "single"; }
  Status allgather(void*, size_t) override { return Status::ok; }
  Status barrier() override { return Status::ok; }
  void check_health() override {}
  [[noreturn]] void abort(int status, const char*) override { terminate(status == 0 ? 1 : status); }
  [[noreturn]] void global_exit(int status) override { terminate(status); }
};

}  // namespace

Status tcp_create(const UniqueId& uid, int rank, int nranks, TcpOptions opts, std::unique_ptr<Bootstrap>* out) {
  if (nranks < 1 || rank < 0 || rank >= nranks) {
    GSHMEM_WARN(Subsys::boot, "bootstrap: rank %d out of range for %d ranks", rank, nranks);
    return Status::invalid_argument;
  }
  if (rank == 0 && nranks > 1 && opts.listen_fd < 0) {
    GSHMEM_WARN(Subsys::boot, "bootstrap: rank 0 has no listening socket for unique id %s", uid_to_string(uid).c_str());
    return Status::invalid_argument;
  }
  auto b = std::make_unique<TcpBootstrap>(rank, nranks, std::move(opts));
  if (nranks > 1) GSHMEM_CHECK(b->join(uid));
  *out = std::move(b);
  return Status::ok;
}

std::unique_ptr<Bootstrap> single_create() { return std::make_unique<SingleBootstrap>(); }

}  // namespace gshmem::boot
