// Bootstrap: the out-of-band channel every PE has before any transport exists.
// Tiny interface (rank, size, allgather, barrier, abort); PMIx, MPI and oshrun only differ in how
// a process learns its rank, the job size and the unique id of the TCP root; every bootstrap
// collective then runs over the authenticated TCP star (see docs/design.md, "Bootstrap").
#pragma once
#include <cstddef>
#include <memory>
#include <string>

#include "common/config.hpp"
#include "common/status.hpp"

namespace gshmem::boot {

class Bootstrap {
 public:
  virtual ~Bootstrap() = default;
  int rank() const noexcept { return rank_; }
  int size() const noexcept { return size_; }
  virtual const char* name() const noexcept = 0;
  // buf holds size()*bytes; this rank's contribution is at rank()*bytes. Every rank must pass
  // the same bytes; a mismatch is reported naming the PE.
  virtual Status allgather(void* buf, size_t bytes) = 0;
  virtual Status barrier() = 0;
  // Non-blocking: reports a dead PE or an abort/global_exit relayed from another PE (and then
  // terminates this process). Called from the slow path of waits.
  virtual void check_health() = 0;
  // Ends the whole job: tells the launcher and every PE, then terminates this process with status.
  [[noreturn]] virtual void abort(int status, const char* msg) = 0;
  // shmem_global_exit: every PE exits with status (stdio flushed).
  [[noreturn]] virtual void global_exit(int status) = 0;
  virtual void finalize() {}

 protected:
  int rank_ = 0;
  int size_ = 1;
};

// Collective: whether every PE passed ok (one allgather). *first_bad, when given, gets the lowest
// PE that did not (-1 when all did). An allgather failure comes back as its Status.
Status all_ok(Bootstrap& b, bool ok, bool* all, int* first_bad = nullptr);

// Explicit unique-id arguments (shmemx_init_attr); listen_fd is rank 0's listener.
struct UidArgs {
  std::string uid;
  int rank = -1;
  int nranks = 0;
  int listen_fd = -1;
  // Instead of an id: the address of the program's MPI_Comm (shmemx_init_attr with
  // SHMEMX_INIT_WITH_MPI_COMM): the MPI bootstrap over that communicator, its ranks the PEs.
  const void* mpi_comm = nullptr;
};

// With uid_args: the uid bootstrap with those arguments. Otherwise picks from GSHMEM_BOOTSTRAP (auto: uid when
// GSHMEM_BOOTSTRAP_UID is set, else MPI when the program already initialised MPI, else PMIx when launched by a PMIx
// launcher, else a single PE). Returns a clear error when the requested one cannot work.
Status create(const Config& cfg, const UidArgs* uid_args, std::unique_ptr<Bootstrap>* out);

}  // namespace gshmem::boot
