#include "bootstrap/uid.hpp"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "common/log.hpp"

namespace gshmem::boot {

Status random_bytes(void* buf, size_t n) {
  auto* p = static_cast<uint8_t*>(buf);
  while (n) {
    ssize_t r = getrandom(p, n, 0);
    if (r < 0) {
      if (errno == EINTR) continue;
      GSHMEM_WARN(Subsys::boot, "getrandom failed: %s", strerror(errno));
      return Status::system_error;
    }
    p += r;
    n -= static_cast<size_t>(r);
  }
  return Status::ok;
}

bool secret_equal(const uint8_t a[16], const uint8_t b[16]) noexcept {
  uint8_t d = 0;
  for (int i = 0; i < 16; ++i) d |= a[i] ^ b[i];
  return d == 0;
}

std::string uid_to_string(const UniqueId& id) {
  char ip[INET_ADDRSTRLEN];
  in_addr a{};
  a.s_addr = id.ip_be;
  inet_ntop(AF_INET, &a, ip, sizeof ip);
  char out[128];
  int n = snprintf(out, sizeof out, "gshmem1:%s:%u:", ip, id.port);
  for (int i = 0; i < 16; ++i) n += snprintf(out + n, sizeof out - n, "%02x", id.secret[i]);
  return out;
}

Status uid_parse(const char* text, UniqueId* out) {
  char ip[64];
  unsigned port = 0;
  char hex[64];
  if (!text || strncmp(text, "gshmem1:", 8) != 0 ||
      sscanf(text + 8, "%63[0-9.]:%u:%63[0-9a-fA-F]", ip, &port, hex) != 3 || port == 0 || port > 65535 ||
      strlen(hex) != 32) {
    GSHMEM_WARN(Subsys::boot, "malformed unique id '%s' (expected gshmem1:IP:PORT:32-hex-digit secret)",
                text ? text : "(null)");
    return Status::invalid_argument;
  }
  in_addr a{};
  if (inet_pton(AF_INET, ip, &a) != 1) {
    GSHMEM_WARN(Subsys::boot, "malformed unique id '%s': bad IPv4 address '%s'", text, ip);
    return Status::invalid_argument;
  }
  out->ip_be = a.s_addr;
  out->port = static_cast<uint16_t>(port);
  for (int i = 0; i < 16; ++i) {
    unsigned v;
    sscanf(hex + 2 * i, "%2x", &v);
    out->secret[i] = static_cast<uint8_t>(v);
  }
  return Status::ok;
}

namespace {
uint32_t advertised_ip(const std::string& ifname) {
  ifaddrs* ifs = nullptr;
  uint32_t found = htonl(INADDR_LOOPBACK);
  if (getifaddrs(&ifs) != 0) return found;
  for (ifaddrs* i = ifs; i; i = i->ifa_next) {
    if (!i->ifa_addr || i->ifa_addr->sa_family != AF_INET || !(i->ifa_flags & IFF_UP)) continue;
    if (!ifname.empty()) {
      if (ifname == i->ifa_name) {
        found = reinterpret_cast<sockaddr_in*>(i->ifa_addr)->sin_addr.s_addr;
        break;
      }
      continue;
    }
    if (i->ifa_flags & IFF_LOOPBACK) continue;
    found = reinterpret_cast<sockaddr_in*>(i->ifa_addr)->sin_addr.s_addr;
    break;
  }
  freeifaddrs(ifs);
  return found;
}
}  // namespace

Status uid_listen_at(const UniqueId& id, int* listen_fd) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  sockaddr_in sa{};
  sa.sin_family = AF_INET;
  sa.sin_addr.s_addr = id.ip_be;
  sa.sin_port = htons(id.port);
  int one = 1;
  if (fd >= 0) setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  if (fd < 0 || bind(fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa) != 0 || listen(fd, 4096) != 0) {
    GSHMEM_WARN(Subsys::boot, "bootstrap: rank 0 cannot listen on %s: %s", uid_to_string(id).substr(0, 30).c_str(),
                strerror(errno));
    if (fd >= 0) close(fd);
    return Status::system_error;
  }
  *listen_fd = fd;
  return Status::ok;
}

Status uid_create_listener(bool loopback_only, const std::string& ifname, UniqueId* id, int* listen_fd) {
  int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) {
    GSHMEM_WARN(Subsys::boot, "socket: %s", strerror(errno));
    return Status::system_error;
  }
  sockaddr_in sa{};
  sa.sin_family = AF_INET;
  sa.sin_addr.s_addr = htonl(loopback_only ? INADDR_LOOPBACK : INADDR_ANY);
  sa.sin_port = 0;
  socklen_t len = sizeof sa;
  if (bind(fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa) != 0 || listen(fd, 4096) != 0 ||
      getsockname(fd, reinterpret_cast<sockaddr*>(&sa), &len) != 0) {
    GSHMEM_WARN(Subsys::boot, "bootstrap listener: %s", strerror(errno));
    close(fd);
    return Status::system_error;
  }
  id->ip_be = loopback_only ? htonl(INADDR_LOOPBACK) : advertised_ip(ifname);
  if (!ifname.empty() && !loopback_only && id->ip_be == htonl(INADDR_LOOPBACK) && ifname != "lo")
    GSHMEM_WARN(Subsys::boot,
                "GSHMEM_BOOTSTRAP_IFNAME=%s: no such interface with an IPv4 address; advertising 127.0.0.1",
                ifname.c_str());
  id->port = ntohs(sa.sin_port);
  Status st = random_bytes(id->secret, sizeof id->secret);
  if (st != Status::ok) {
    close(fd);
    return st;
  }
  *listen_fd = fd;
  return Status::ok;
}

}  // namespace gshmem::boot
