// The TCP star bootstrap: rank 0 (root) accepts one authenticated connection from every other
// rank and serves allgather/barrier by gather-then-scatter. Connections stay open for the job so
// a closed connection reveals a dead PE and aborts can be relayed.
#pragma once
#include <functional>
#include <vector>

#include "bootstrap/bootstrap.hpp"
#include "bootstrap/uid.hpp"

namespace gshmem::boot {

struct TcpOptions {
  int timeout_s = 120;     // joining only
  int listen_fd = -1;      // root: the listening socket (taken over and closed after joining)
  // Called before terminating on abort (e.g. PMIx_Abort / MPI_Abort so the launcher knows).
  std::function<void(int status, const char* msg)> launcher_abort;
  // Called by finalize() after the connections are closed (e.g. PMIx_Finalize).
  std::function<void()> launcher_finalize;
  const char* launcher_name = "uid";
};

Status tcp_create(const UniqueId& uid, int rank, int nranks, TcpOptions opts, std::unique_ptr<Bootstrap>* out);

// Single process, no launcher.
std::unique_ptr<Bootstrap> single_create();

// Wire format, exposed for the unit tests that send malformed frames.
namespace wire {
constexpr uint32_t kMagic = 0x47534842;  // "GSHB"
constexpr uint32_t kVersion = 1;
enum Type : uint16_t { t_hello = 1, t_welcome = 2, t_reject = 3, t_allgather = 4, t_abort = 5, t_exit = 6 };
struct FrameHdr {
  uint32_t magic;
  uint16_t type;
  uint16_t reserved;
  uint64_t len;
};
static_assert(sizeof(FrameHdr) == 16);
struct Hello {
  uint32_t version;
  int32_t rank;
  int32_t nranks;
  uint32_t reserved;
  uint8_t secret[16];
};
static_assert(sizeof(Hello) == 32);
struct AbortMsg {
  int32_t status;
  int32_t from_rank;
  char text[504];
};
static_assert(sizeof(AbortMsg) == 512);
constexpr uint64_t kMaxFrame = 1ull << 30;
}  // namespace wire

}  // namespace gshmem::boot
