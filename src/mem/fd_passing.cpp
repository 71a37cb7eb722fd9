#include "mem/fd_passing.hpp"

#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "bootstrap/uid.hpp"
#include "common/log.hpp"

namespace gshmem::mem {
namespace {

constexpr int kMaxFds = 8;

struct Request {
  uint8_t secret[16];
  int32_t pe;
  int32_t pad;
};
struct Reply {
  int32_t pe;
  int32_t nfds;
};

sockaddr_un addr_of(const uint8_t secret[16], int pe, socklen_t* len) {
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  char name[100];
  int n = snprintf(name, sizeof name, "gshmem-");
  for (int i = 0; i < 8; ++i) n += snprintf(name + n, sizeof name - n, "%02x", secret[i]);
  n += snprintf(name + n, sizeof name - n, "-%d", pe);
  a.sun_path[0] = '\0';  // abstract namespace: nothing on the file system, gone with the socket
  memcpy(a.sun_path + 1, name, static_cast<size_t>(n));
  *len = static_cast<socklen_t>(offsetof(sockaddr_un, sun_path) + 1 + n);
  return a;
}

bool send_fds(int sock, int my_pe, const std::vector<int>& fds) {
  Reply r{my_pe, static_cast<int32_t>(fds.size())};
  iovec iov{&r, sizeof r};
  char ctrl[CMSG_SPACE(sizeof(int) * kMaxFds)] = {};
  msghdr m{};
  m.msg_iov = &iov;
  m.msg_iovlen = 1;
  m.msg_control = ctrl;
  m.msg_controllen = CMSG_SPACE(sizeof(int) * fds.size());
  cmsghdr* c = CMSG_FIRSTHDR(&m);
  c->cmsg_level = SOL_SOCKET;
  c->cmsg_type = SCM_RIGHTS;
  c->cmsg_len = CMSG_LEN(sizeof(int) * fds.size());
  memcpy(CMSG_DATA(c), fds.data(), sizeof(int) * fds.size());
  ssize_t w;
  do w = sendmsg(sock, &m, MSG_NOSIGNAL);
  while (w < 0 && errno == EINTR);
  return w == sizeof r;
}

bool recv_fds(int sock, int expect_pe, size_t n, std::vector<int>* out) {
  Reply r{};
  iovec iov{&r, sizeof r};
  char ctrl[CMSG_SPACE(sizeof(int) * kMaxFds)] = {};
  msghdr m{};
  m.msg_iov = &iov;
  m.msg_iovlen = 1;
  m.msg_control = ctrl;
  m.msg_controllen = sizeof ctrl;
  ssize_t got;
  do got = recvmsg(sock, &m, MSG_CMSG_CLOEXEC);
  while (got < 0 && errno == EINTR);
  if (got != sizeof r || r.pe != expect_pe || r.nfds != static_cast<int32_t>(n)) return false;
  cmsghdr* c = CMSG_FIRSTHDR(&m);
  if (!c || c->cmsg_type != SCM_RIGHTS || c->cmsg_len != CMSG_LEN(sizeof(int) * n)) return false;
  out->resize(n);
  memcpy(out->data(), CMSG_DATA(c), sizeof(int) * n);
  return true;
}

}  // namespace

Status exchange_fds(boot::Bootstrap& b, const std::vector<int>& local_pes, const uint8_t secret[16],
                    const std::vector<int>& my_fds, std::vector<std::vector<int>>* peer_fds) {
  const int me = b.rank();
  const size_t nlocal = local_pes.size();
  if (my_fds.size() > static_cast<size_t>(kMaxFds)) return Status::invalid_argument;
  peer_fds->assign(nlocal, {});
  int lsock = -1;
  if (nlocal > 1) {
    lsock = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    socklen_t alen;
    sockaddr_un a = addr_of(secret, me, &alen);
    if (lsock < 0 || bind(lsock, reinterpret_cast<sockaddr*>(&a), alen) != 0 || listen(lsock, 4096) != 0) {
      GSHMEM_WARN(Subsys::transport, "fd exchange: cannot listen on an abstract Unix socket: %s", strerror(errno));
      if (lsock >= 0) close(lsock);
      lsock = -1;
    }
  }
  // Every PE must be listening before anyone connects; a failure anywhere fails everywhere.
  std::vector<int32_t> ok(static_cast<size_t>(b.size()), 1);
  ok[static_cast<size_t>(me)] = (nlocal <= 1 || lsock >= 0) ? 1 : 0;
  GSHMEM_CHECK(b.allgather(ok.data(), sizeof(int32_t)));
  for (int pe : local_pes)
    if (!ok[static_cast<size_t>(pe)]) {
      if (lsock >= 0) close(lsock);
      GSHMEM_WARN(Subsys::transport, "fd exchange: pe %d could not listen", pe);
      return Status::system_error;
    }

  Status st = Status::ok;
  std::vector<int> conns(nlocal, -1);
  for (size_t i = 0; i < nlocal && st == Status::ok; ++i) {
    if (local_pes[i] == me) continue;
    int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    socklen_t alen;
    sockaddr_un a = addr_of(secret, local_pes[i], &alen);
    Request req{};
    memcpy(req.secret, secret, 16);
    req.pe = me;
    // The peer is already listening with a large backlog, so connect and this small send
    // complete before the peer accepts: no ordering between PEs is needed.
    if (s < 0 || connect(s, reinterpret_cast<sockaddr*>(&a), alen) != 0 ||
        send(s, &req, sizeof req, MSG_NOSIGNAL) != sizeof req) {
      GSHMEM_WARN(Subsys::transport, "fd exchange: connecting to pe %d: %s", local_pes[i], strerror(errno));
      st = Status::system_error;
    }
    conns[i] = s;
  }
  for (size_t served = 0; st == Status::ok && served + 1 < nlocal;) {
    pollfd p{lsock, POLLIN, 0};
    if (poll(&p, 1, 60000) <= 0) {
      GSHMEM_WARN(Subsys::transport, "fd exchange: timed out waiting for same-node PEs to connect");
      st = Status::timeout;
      break;
    }
    int c = accept4(lsock, nullptr, nullptr, SOCK_CLOEXEC);
    if (c < 0) continue;
    Request req{};
    ucred cred{};
    socklen_t clen = sizeof cred;
    timeval tv{10, 0};
    setsockopt(c, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    bool good = recv(c, &req, sizeof req, MSG_WAITALL) == sizeof req && boot::secret_equal(req.secret, secret) &&
                getsockopt(c, SOL_SOCKET, SO_PEERCRED, &cred, &clen) == 0 && cred.uid == geteuid();
    if (!good) {
      GSHMEM_WARN(Subsys::transport, "fd exchange: rejected a connection (pid %d): bad secret or different user",
                  static_cast<int>(cred.pid));
      close(c);
      continue;
    }
    if (!send_fds(c, me, my_fds)) st = Status::system_error;
    close(c);
    ++served;
  }
  for (size_t i = 0; i < nlocal; ++i) {
    if (local_pes[i] == me) {
      for (int fd : my_fds) (*peer_fds)[i].push_back(dup(fd));
      continue;
    }
    if (st == Status::ok && !recv_fds(conns[i], local_pes[i], my_fds.size(), &(*peer_fds)[i])) {
      GSHMEM_WARN(Subsys::transport, "fd exchange: no descriptors from pe %d", local_pes[i]);
      st = Status::system_error;
    }
    if (conns[i] >= 0) close(conns[i]);
  }
  if (lsock >= 0) close(lsock);
  return st;
}

}  // namespace gshmem::mem
