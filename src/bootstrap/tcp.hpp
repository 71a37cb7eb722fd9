// The TCP star bootstrap: rank 0 (root) accepts one authenticated connection from every other
// rank and serves allgather/barrier by gather-then-scatter. Connections stay open for the job so
// a closed connection reveals a dead PE and aborts can be relayed.
#pragma once
#include <functional>
#include <vector>

#include "bootstrap/bootstrap.hpp"
#include "bootstrap/uid.hpp"
#include "bootstrap/wire.hpp"

namespace gshmem::boot {

struct TcpOptions {
  int timeout_s = 120;  // joining only
  int listen_fd = -1;   // root: the listening socket (taken over and closed after joining)
  // Called before terminating on abort (e.g. PMIx_Abort / MPI_Abort so the launcher knows).
  std::function<void(int status, const char* msg)> launcher_abort;
  // Called by finalize() after the connections are closed (e.g. PMIx_Finalize).
  std::function<void()> launcher_finalize;
  const char* launcher_name = "uid";
};

Status tcp_create(const UniqueId& uid, int rank, int nranks, TcpOptions opts, std::unique_ptr<Bootstrap>* out);

// Single process, no launcher.
std::unique_ptr<Bootstrap> single_create();

}  // namespace gshmem::boot
