#include "common/io.hpp"

#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>

namespace gshmem {
namespace {
void wait_for(int fd, short ev) {
  pollfd p{fd, ev, 0};
  poll(&p, 1, 1000);
}
}  // namespace

Io write_full(int fd, const void* buf, size_t n) {
  auto* p = static_cast<const char*>(buf);
  bool socket = true;
  while (n) {
    ssize_t w = socket ? send(fd, p, n, MSG_NOSIGNAL) : write(fd, p, n);
    if (w < 0 && socket && errno == ENOTSOCK) {
      socket = false;  // a pipe or a file
      continue;
    }
    if (w < 0 && errno == EINTR) continue;
    if (w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      wait_for(fd, POLLOUT);
      continue;
    }
    if (w <= 0) return Io::error;
    p += w;
    n -= static_cast<size_t>(w);
  }
  return Io::ok;
}

Io read_full(int fd, void* buf, size_t n) {
  auto* p = static_cast<char*>(buf);
  const size_t want = n;
  while (n) {
    ssize_t r = read(fd, p, n);
    if (r < 0 && errno == EINTR) continue;
    if (r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
      wait_for(fd, POLLIN);
      continue;
    }
    if (r == 0) return n == want ? Io::eof : Io::error;
    if (r < 0) return Io::error;
    p += r;
    n -= static_cast<size_t>(r);
  }
  return Io::ok;
}

}  // namespace gshmem
