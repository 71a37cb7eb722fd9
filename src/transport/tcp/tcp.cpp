#include "transport/tcp/tcp.hpp"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

#include "bootstrap/uid.hpp"
#include "common/fatal.hpp"
#include "common/io.hpp"
#include "common/log.hpp"
#include "transport/host_amo.hpp"

namespace gshmem::transport {
namespace {

constexpr uint32_t kMagic = 0x47535450;  // "GSTP"
enum Op : uint8_t { op_put = 1, op_get, op_amo, op_flush, op_bye };

struct Req {
  uint32_t magic;
  uint8_t op;
  uint8_t seg;
  uint8_t amo;
  uint8_t size;
  uint32_t from;
  uint32_t pad;
  uint64_t off;
  uint64_t len;
  uint64_t a;
  uint64_t b;
};
static_assert(sizeof(Req) == 48, "wire format");
struct Rep {
  uint64_t value;
  uint64_t len;
};

bool write_all(int fd, const void* p, size_t n) { return write_full(fd, p, n) == Io::ok; }
bool read_all(int fd, void* p, size_t n) { return read_full(fd, p, n) == Io::ok; }

// The server thread has no caller to return an error to: a broken connection ends the job.
[[noreturn]] void lost(int pe, const char* what) {
  fatal("tcp transport", "connection to pe %d lost during %s; ending the job", pe, what);
}

// A put into host memory. One naturally aligned word (1, 2, 4 or 8 bytes: a flag set with
// shmem_p or a small put) is stored whole and with release order, so a PE polling it with
// shmem_wait_until sees the word whole and, once it does, everything this thread delivered before
// (the server delivers each peer's operations in order). Larger puts go straight from the socket
// into place, followed by a release fence.
template <typename W>
void store_release(char* dst, const unsigned char* bytes) {
  W w;
  memcpy(&w, bytes, sizeof w);
  __atomic_store_n(reinterpret_cast<W*>(dst), w, __ATOMIC_RELEASE);
}
bool deliver_host_put(int fd, char* dst, uint64_t len) {
  if ((len == 1 || len == 2 || len == 4 || len == 8) && reinterpret_cast<uintptr_t>(dst) % len == 0) {
    unsigned char b[8];
    if (!read_all(fd, b, len)) return false;
    switch (len) {
      case 1:
        store_release<uint8_t>(dst, b);
        break;
      case 2:
        store_release<uint16_t>(dst, b);
        break;
      case 4:
        store_release<uint32_t>(dst, b);
        break;
      default:
        store_release<uint64_t>(dst, b);
        break;
    }
    return true;
  }
  if (!read_all(fd, dst, len)) return false;
  std::atomic_thread_fence(std::memory_order_release);
  return true;
}

struct Addr {
  uint32_t ip_be;
  uint16_t port;
  uint16_t pad;
};

}  // namespace

struct Tcp::Impl {
  int me = 0;
  int npes = 0;
  std::mutex seg_mu;  // bases/sizes: the device segment grows with the heap
  std::vector<char*> bases;
  std::vector<size_t> sizes;
  mem::LocalMemory* mem = nullptr;
  std::vector<char> stage;  // the proxy thread's staging buffer for GPU memory
  int listen_fd = -1;
  std::vector<int> out;  // per PE: my connection to its proxy (-1: none)
  std::vector<std::unique_ptr<std::mutex>> out_mu;
  std::vector<uint8_t> dirty;  // per PE: puts sent since the last flush
  std::thread proxy;
  std::atomic<bool> stopping{false};
  int wake[2] = {-1, -1};

  bool device(const void* p) const { return mem && mem->is_device(p); }
  char* local(const Req& r, int from) {
    const size_t s = r.seg;
    std::lock_guard<std::mutex> lock(seg_mu);
    if (s >= bases.size() || !bases[s] || r.off > sizes[s] || r.len > sizes[s] - r.off) {
      fatal("tcp transport", "pe %d sent an out-of-range request (segment %zu, offset %llu, %llu bytes)", from, s,
            (unsigned long long)r.off, (unsigned long long)r.len);
    }
    return bases[s] + r.off;
  }

  // The proxy thread: serves every incoming connection in arrival order per connection.
  void serve() {
    std::vector<pollfd> fds{{listen_fd, POLLIN, 0}, {wake[0], POLLIN, 0}};
    std::vector<int> peer_of{-1, -1};
    std::vector<char> buf;
    while (!stopping.load()) {
      if (poll(fds.data(), fds.size(), -1) < 0) continue;
      if (fds[1].revents) break;
      if (fds[0].revents & POLLIN) {
        int c = accept4(listen_fd, nullptr, nullptr, SOCK_CLOEXEC);
        if (c >= 0) {
          int one = 1;
          setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
          fds.push_back({c, POLLIN, 0});
          peer_of.push_back(-1);
        }
      }
      for (size_t i = 2; i < fds.size(); ++i) {
        if (!fds[i].revents) continue;
        Req r{};
        if (!read_all(fds[i].fd, &r, sizeof r) || r.magic != kMagic) {
          if (stopping.load()) return;
          const int pe = peer_of[i];
          close(fds[i].fd);
          fds.erase(fds.begin() + static_cast<long>(i));
          peer_of.erase(peer_of.begin() + static_cast<long>(i));
          if (pe >= 0) lost(pe, "serving its requests");
          --i;
          continue;
        }
        peer_of[i] = static_cast<int>(r.from);
        const int c = fds[i].fd;
        switch (r.op) {
          case op_put: {
            char* dst = local(r, r.from);
            if (!device(dst)) {
              if (!deliver_host_put(c, dst, r.len)) lost(r.from, "a put");
              break;
            }
            stage.resize(r.len);
            if (!read_all(c, stage.data(), r.len)) lost(r.from, "a put");
            mem->copy(dst, stage.data(), r.len);
            break;
          }
          case op_get: {
            const char* src = local(r, r.from);
            uint64_t words[8];
            if (device(src)) {
              stage.resize(r.len);
              mem->copy(stage.data(), src, r.len);
              src = stage.data();
            } else if (r.len <= sizeof words && r.len % 8 == 0 && reinterpret_cast<uintptr_t>(src) % 8 == 0) {
              // Small aligned reads are of words a peer polls (control records) while their owner
              // writes them: read whole words, as deliver_host_put writes them.
              for (uint64_t k = 0; k < r.len / 8; ++k)
                words[k] = __atomic_load_n(reinterpret_cast<const uint64_t*>(src) + k, __ATOMIC_RELAXED);
              src = reinterpret_cast<const char*>(words);
            }
            Rep rep{0, r.len};
            if (!write_all(c, &rep, sizeof rep) || !write_all(c, src, r.len)) lost(r.from, "a get");
            break;
          }
          case op_amo: {
            if (r.amo >= GSHMEM_AMO_NOPS || (r.size != 4 && r.size != 8) || r.off % r.size)
              fatal("tcp transport", "pe %u sent a malformed atomic (operation %u, %u bytes, offset %llu)", r.from,
                    r.amo, r.size, (unsigned long long)r.off);
            r.len = r.size;
            char* p = local(r, r.from);
            const auto op = static_cast<gshmem_amo_op>(r.amo);
            Rep rep{0, 0};
            if (device(p)) rep.value = mem->amo(p, op, r.size, r.a, r.b);
            else rep.value = host_amo(p, op, r.size, r.a, r.b);  // the owner's: atomic with its own atomics
            if (!write_all(c, &rep, sizeof rep)) lost(r.from, "an atomic");
            break;
          }
          case op_flush: {
            std::atomic_thread_fence(std::memory_order_seq_cst);
            Rep rep{0, 0};
            if (!write_all(c, &rep, sizeof rep)) lost(r.from, "a flush");
            break;
          }
          case op_bye: {
            close(c);
            fds.erase(fds.begin() + static_cast<long>(i));
            peer_of.erase(peer_of.begin() + static_cast<long>(i));
            --i;
            break;
          }
          default:
            lost(r.from, "an unknown request");
        }
      }
    }
  }

  Req req(Op op, Seg seg, uint64_t off, uint64_t len) {
    Req r{};
    r.magic = kMagic;
    r.op = op;
    r.seg = static_cast<uint8_t>(seg);
    r.from = static_cast<uint32_t>(me);
    r.off = off;
    r.len = len;
    return r;
  }
  int conn(int pe) const { return pe >= 0 && pe < npes ? out[static_cast<size_t>(pe)] : -1; }
};

Result Tcp::create(boot::Bootstrap& b, const std::vector<int>& remote, const std::vector<Segment>& segs,
                   const std::string& ifname, mem::LocalMemory* mem, std::unique_ptr<Tcp>* outp) {
  auto t = std::unique_ptr<Tcp>(new Tcp);
  t->impl_ = std::make_unique<Impl>();
  Impl& m = *t->impl_;
  m.me = b.rank();
  m.npes = b.size();
  m.bases.assign(kSegments, nullptr);
  m.sizes.assign(kSegments, 0);
  for (const Segment& s : segs) {
    m.bases[static_cast<size_t>(s.seg)] = static_cast<char*>(s.base);
    m.sizes[static_cast<size_t>(s.seg)] = s.len;
  }
  m.mem = mem;
  m.out.assign(static_cast<size_t>(m.npes), -1);
  m.dirty.assign(static_cast<size_t>(m.npes), 0);
  for (int i = 0; i < m.npes; ++i) m.out_mu.push_back(std::make_unique<std::mutex>());
  const auto failed = [](const char* what, Status st) {
    return Result::fail(st, std::string("tcp transport: ") + what + " (" + status_name(st) + ")");
  };
  boot::UniqueId id;
  Status st = boot::uid_create_listener(false, ifname, &id, &m.listen_fd);
  if (st != Status::ok) return failed("cannot listen (GSHMEM_BOOTSTRAP_IFNAME)", st);
  std::vector<Addr> addrs(static_cast<size_t>(m.npes));
  addrs[static_cast<size_t>(m.me)] = {id.ip_be, id.port, 0};
  if ((st = b.allgather(addrs.data(), sizeof(Addr))) != Status::ok) return failed("bootstrap allgather failed", st);
  if (pipe2(m.wake, O_CLOEXEC) != 0) return failed("pipe2 failed", Status::system_error);
  m.proxy = std::thread([&m] { m.serve(); });
  for (int pe : remote) {
    sockaddr_in sa{};
    sa.sin_family = AF_INET;
    sa.sin_addr.s_addr = addrs[static_cast<size_t>(pe)].ip_be;
    sa.sin_port = htons(addrs[static_cast<size_t>(pe)].port);
    int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0 || connect(fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa) != 0) {
      char ip[INET_ADDRSTRLEN];
      inet_ntop(AF_INET, &sa.sin_addr, ip, sizeof ip);
      char msg[256];
      snprintf(msg, sizeof msg, "tcp transport: cannot connect to pe %d at %s:%u: %s (GSHMEM_BOOTSTRAP_IFNAME)", pe, ip,
               addrs[static_cast<size_t>(pe)].port, strerror(errno));
      if (fd >= 0) close(fd);
      return Result::fail(Status::system_error, msg);
    }
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    m.out[static_cast<size_t>(pe)] = fd;
  }
  if ((st = b.barrier()) != Status::ok) return failed("bootstrap barrier failed", st);
  GSHMEM_INFO(Subsys::transport, "tcp transport: proxy on port %u, %zu remote PEs", id.port, remote.size());
  *outp = std::move(t);
  return {};
}

Caps Tcp::caps() const {
  Caps c;
  c.off_node = true;
  c.device_memory = true;  // staged through host buffers at both ends
  return c;
}

bool Tcp::reaches(int pe) const { return impl_->conn(pe) >= 0; }

Result Tcp::extend(Seg seg, uint64_t off, void* base, size_t len) {
  Impl& m = *impl_;
  std::lock_guard<std::mutex> lock(m.seg_mu);
  const size_t s = static_cast<size_t>(seg);
  if (!m.bases[s]) m.bases[s] = static_cast<char*>(base) - off;
  if (off + len > m.sizes[s]) m.sizes[s] = off + len;
  return {};
}

Probe tcp_probe(const Config& cfg, bool gpu) {
  (void)cfg, (void)gpu;
  Probe p;
  p.state = Probe::State::usable;
  p.caps.off_node = true;
  p.caps.device_memory = true;
  return p;
}

Result tcp_create(Env& env, const std::vector<int>& peers, std::unique_ptr<Transport>* out) {
  std::unique_ptr<Tcp> t;
  GSHMEM_TRY(Tcp::create(*env.boot, peers, env.segments, env.cfg->GSHMEM_BOOTSTRAP_IFNAME, env.mem, &t));
  *out = std::move(t);
  return {};
}

namespace {
thread_local std::vector<char> t_stage;  // a sending thread's staging buffer for GPU memory
}

#define GSHMEM_TCP_CONN(pe, what)               \
  const int c = m.conn(pe);                     \
  if (c < 0)                                    \
  return Result::fail(Status::invalid_argument, \
                      "tcp transport: " what " to pe " + std::to_string(pe) + ": no connection to that PE")
#define GSHMEM_TCP_PE(pe, what)                 \
  if (pe < 0 || pe >= m.npes)                   \
  return Result::fail(Status::invalid_argument, \
                      "tcp transport: " what " to pe " + std::to_string(pe) + ", which is not in the job")
#define GSHMEM_TCP_LOST(pe, what) \
  Result::fail(Status::peer_failed, "tcp transport: connection to pe " + std::to_string(pe) + " lost during " what)

Result Tcp::put(int pe, Seg seg, uint64_t off, const void* src, size_t n) {
  Impl& m = *impl_;
  if (m.device(src)) {
    t_stage.resize(n);
    m.mem->copy(t_stage.data(), src, n);
    src = t_stage.data();
  }
  GSHMEM_TCP_PE(pe, "a put");
  std::lock_guard<std::mutex> lock(*m.out_mu[static_cast<size_t>(pe)]);
  GSHMEM_TCP_CONN(pe, "a put");
  Req r = m.req(op_put, seg, off, n);
  if (!write_all(c, &r, sizeof r) || !write_all(c, src, n)) return GSHMEM_TCP_LOST(pe, "a put");
  m.dirty[static_cast<size_t>(pe)] = 1;
  return {};
}

Result Tcp::get(int pe, Seg seg, uint64_t off, void* dst, size_t n) {
  Impl& m = *impl_;
  GSHMEM_TCP_PE(pe, "a get");
  const bool dev = m.device(dst);
  if (dev) t_stage.resize(n);
  {
    std::lock_guard<std::mutex> lock(*m.out_mu[static_cast<size_t>(pe)]);
    GSHMEM_TCP_CONN(pe, "a get");
    Req r = m.req(op_get, seg, off, n);
    Rep rep{};
    if (!write_all(c, &r, sizeof r) || !read_all(c, &rep, sizeof rep) || rep.len != n ||
        !read_all(c, dev ? t_stage.data() : dst, n))
      return GSHMEM_TCP_LOST(pe, "a get");
  }
  if (dev) m.mem->copy(dst, t_stage.data(), n);
  return {};
}

Result Tcp::amo(int pe, Seg seg, uint64_t off, gshmem_amo_op op, size_t size, uint64_t a, uint64_t b, uint64_t* old) {
  Impl& m = *impl_;
  if (size != 4 && size != 8)
    return Result::fail(Status::invalid_argument,
                        "tcp transport: atomic of " + std::to_string(size) + " bytes (4 or 8)");
  GSHMEM_TCP_PE(pe, "an atomic");
  std::lock_guard<std::mutex> lock(*m.out_mu[static_cast<size_t>(pe)]);
  GSHMEM_TCP_CONN(pe, "an atomic");
  Req r = m.req(op_amo, seg, off, size);
  r.amo = static_cast<uint8_t>(op);
  r.size = static_cast<uint8_t>(size);
  r.a = a;
  r.b = b;
  Rep rep{};
  if (!write_all(c, &r, sizeof r) || !read_all(c, &rep, sizeof rep)) return GSHMEM_TCP_LOST(pe, "an atomic");
  if (old) *old = rep.value;
  return {};
}

Result Tcp::amo_nbi(int pe, Seg seg, uint64_t off, gshmem_amo_op op, size_t size, uint64_t a, uint64_t b,
                    uint64_t* old) {
  uint64_t v = 0;
  Result st = amo(pe, seg, off, op, size, a, b, &v);
  if (st.ok() && old) mem::store_local(impl_->mem, old, &v, sizeof v);  // old may be GPU memory
  return st;
}

Result Tcp::signal(int pe, Seg seg, uint64_t off, uint64_t value, int sig_op) {
  // The same connection as the data, applied after it.
  return amo(pe, seg, off, sig_op == SHMEM_SIGNAL_ADD ? GSHMEM_AMO_ADD : GSHMEM_AMO_SET, 8, value, 0, nullptr);
}

Result Tcp::quiet(int pe) {
  Impl& m = *impl_;
  GSHMEM_TCP_PE(pe, "a quiet");
  std::lock_guard<std::mutex> lock(*m.out_mu[static_cast<size_t>(pe)]);
  if (!m.dirty[static_cast<size_t>(pe)]) return {};
  GSHMEM_TCP_CONN(pe, "a quiet");
  Req r = m.req(op_flush, Seg::host, 0, 0);
  Rep rep{};
  if (!write_all(c, &r, sizeof r) || !read_all(c, &rep, sizeof rep)) return GSHMEM_TCP_LOST(pe, "a quiet");
  m.dirty[static_cast<size_t>(pe)] = 0;
  return {};
}

Result Tcp::quiet() {
  for (int pe = 0; pe < impl_->npes; ++pe)
    if (impl_->out[static_cast<size_t>(pe)] >= 0) GSHMEM_TRY(quiet(pe));
  return {};
}

Result Tcp::finalize() {
  shutdown();
  return {};
}

void Tcp::shutdown() {
  Impl& m = *impl_;
  if (m.stopping.load()) return;
  // Called after a job-wide barrier: nobody sends requests any more.
  for (int pe = 0; pe < m.npes; ++pe) {
    const int c = m.out[static_cast<size_t>(pe)];
    if (c < 0) continue;
    Req r = m.req(op_bye, Seg::host, 0, 0);
    write_all(c, &r, sizeof r);
  }
  m.stopping.store(true);
  char x = 1;
  ssize_t w = write(m.wake[1], &x, 1);
  (void)w;
  if (m.proxy.joinable()) m.proxy.join();
  for (int& c : m.out)
    if (c >= 0) {
      close(c);
      c = -1;
    }
  if (m.listen_fd >= 0) close(m.listen_fd);
  close(m.wake[0]);
  close(m.wake[1]);
}

Tcp::~Tcp() {
  if (impl_) shutdown();
}

}  // namespace gshmem::transport
