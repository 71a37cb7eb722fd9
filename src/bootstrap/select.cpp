// Bootstrap selection and the PMIx / MPI wire-up. PMIx and MPI only provide rank, size and a
// way to share rank 0's unique id; the job then runs over the TCP star (tcp.cpp).
#include <fcntl.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>

#include <cstring>

#include "bootstrap/bootstrap.hpp"
#include "bootstrap/tcp.hpp"
#include "common/dl.hpp"
#include "common/log.hpp"

#if GSHMEM_HAVE_PMIX
#include <pmix.h>
// pmix_common.h defines PMIX_RANK as a key string; the config table has a field of that name.
#undef PMIX_RANK
#endif

namespace gshmem::boot {
namespace {

constexpr size_t kUidText = 96;

#if GSHMEM_HAVE_PMIX
struct Pmix {
  DynLib lib;
  decltype(&PMIx_Init) init = nullptr;
  decltype(&PMIx_Finalize) fin = nullptr;
  decltype(&PMIx_Abort) abort = nullptr;
  decltype(&PMIx_Put) put = nullptr;
  decltype(&PMIx_Commit) commit = nullptr;
  decltype(&PMIx_Fence) fence = nullptr;
  decltype(&PMIx_Get) get = nullptr;
  decltype(&PMIx_Value_destruct) destruct = nullptr;
  pmix_proc_t me{};
};
Pmix* g_pmix = nullptr;  // lives for the process: PMIx keeps threads running

Status pmix_wireup(const Config& cfg, int* rank, int* size, UniqueId* uid, int* listen_fd) {
  auto* p = new Pmix;
  g_pmix = p;
  if (!p->lib.open(cfg.GSHMEM_PMIX_LIB.c_str()) || !p->lib.sym("PMIx_Init", &p->init) ||
      !p->lib.sym("PMIx_Finalize", &p->fin) || !p->lib.sym("PMIx_Abort", &p->abort) ||
      !p->lib.sym("PMIx_Put", &p->put) || !p->lib.sym("PMIx_Commit", &p->commit) ||
      !p->lib.sym("PMIx_Fence", &p->fence) || !p->lib.sym("PMIx_Get", &p->get) ||
      !p->lib.sym("PMIx_Value_destruct", &p->destruct)) {
    GSHMEM_WARN(Subsys::boot, "PMIx bootstrap: cannot load %s (GSHMEM_PMIX_LIB): %s", cfg.GSHMEM_PMIX_LIB.c_str(),
                p->lib.error().c_str());
    return Status::not_available;
  }
  pmix_status_t rc = p->init(&p->me, nullptr, 0);
  if (rc != PMIX_SUCCESS) {
    GSHMEM_WARN(Subsys::boot,
                "PMIx bootstrap: PMIx_Init failed (status %d); was this process started by a PMIx launcher?", rc);
    return Status::bootstrap_error;
  }
  pmix_proc_t wild{};
  memcpy(wild.nspace, p->me.nspace, sizeof wild.nspace);
  wild.rank = PMIX_RANK_WILDCARD;
  pmix_value_t* v = nullptr;
  rc = p->get(&wild, PMIX_JOB_SIZE, nullptr, 0, &v);
  if (rc != PMIX_SUCCESS || !v) {
    GSHMEM_WARN(Subsys::boot, "PMIx bootstrap: PMIx_Get(PMIX_JOB_SIZE) failed (status %d)", rc);
    return Status::bootstrap_error;
  }
  *size = static_cast<int>(v->data.uint32);
  p->destruct(v);
  free(v);
  *rank = static_cast<int>(p->me.rank);
  if (*rank == 0) {
    GSHMEM_CHECK(uid_create_listener(*size == 1, cfg.GSHMEM_BOOTSTRAP_IFNAME, uid, listen_fd));
    std::string text = uid_to_string(*uid);
    pmix_value_t val{};
    val.type = PMIX_STRING;
    val.data.string = text.data();
    rc = p->put(PMIX_GLOBAL, "gshmem.uid", &val);
    if (rc != PMIX_SUCCESS) GSHMEM_WARN(Subsys::boot, "PMIx bootstrap: PMIx_Put failed (status %d)", rc);
  }
  rc = p->commit();
  if (rc == PMIX_SUCCESS) rc = p->fence(&wild, 1, nullptr, 0);
  if (rc != PMIX_SUCCESS) {
    GSHMEM_WARN(Subsys::boot, "PMIx bootstrap: commit/fence failed (status %d)", rc);
    return Status::bootstrap_error;
  }
  if (*rank != 0) {
    pmix_proc_t root{};
    memcpy(root.nspace, p->me.nspace, sizeof root.nspace);
    root.rank = 0;
    rc = p->get(&root, "gshmem.uid", nullptr, 0, &v);
    if (rc != PMIX_SUCCESS || !v || v->type != PMIX_STRING) {
      GSHMEM_WARN(Subsys::boot, "PMIx bootstrap: cannot read rank 0's unique id (status %d)", rc);
      return Status::bootstrap_error;
    }
    Status st = uid_parse(v->data.string, uid);
    p->destruct(v);
    free(v);
    GSHMEM_CHECK(st);
  }
  return Status::ok;
}

void pmix_finalize() {
  if (g_pmix && g_pmix->fin) g_pmix->fin(nullptr, 0);
}

void pmix_abort(int status, const char* msg) {
  if (g_pmix && g_pmix->abort) g_pmix->abort(status, msg, nullptr, 0);
}
#endif  // GSHMEM_HAVE_PMIX

// MPI, when the program already called MPI_Init: handles differ by ABI (Open MPI passes
// addresses of global objects, MPICH-derived libraries pass integer constants).
struct Mpi {
  DynLib lib;
  int (*initialized)(int*) = nullptr;
  int (*finalized)(int*) = nullptr;
  int (*comm_rank)(void*, int*) = nullptr;
  int (*comm_size)(void*, int*) = nullptr;
  int (*bcast)(void*, int, void*, int, void*) = nullptr;
  int (*abort)(void*, int) = nullptr;
  void* world = nullptr;  // MPI_COMM_WORLD, or the communicator shmemx_init_attr passed
  void* byte = nullptr;
  bool ompi_abi = false;  // handles are pointers (Open MPI), not ints (MPICH and derivatives)
};
Mpi* g_mpi = nullptr;

bool mpi_is_initialized() {
  static Mpi m;
  m.lib.use_process();
  if (!m.lib.sym("MPI_Initialized", &m.initialized) || !m.lib.sym("MPI_Finalized", &m.finalized)) return false;
  int init = 0, fin = 0;
  m.initialized(&init);
  m.finalized(&fin);
  if (!init || fin) return false;
  if (!m.lib.sym("MPI_Comm_rank", &m.comm_rank) || !m.lib.sym("MPI_Comm_size", &m.comm_size) ||
      !m.lib.sym("MPI_Bcast", &m.bcast) || !m.lib.sym("MPI_Abort", &m.abort))
    return false;
  if (m.lib.sym("ompi_mpi_comm_world", &m.world)) {
    m.ompi_abi = true;
    m.lib.sym("ompi_mpi_byte", &m.byte);
  } else {
    m.world = reinterpret_cast<void*>(static_cast<intptr_t>(0x44000000));  // MPICH ABI
    m.byte = reinterpret_cast<void*>(static_cast<intptr_t>(0x4c00010d));
  }
  g_mpi = &m;
  return m.byte != nullptr;
}

Status mpi_wireup(const Config& cfg, int* rank, int* size, UniqueId* uid, int* listen_fd) {
  Mpi& m = *g_mpi;
  m.comm_rank(m.world, rank);
  m.comm_size(m.world, size);
  char text[kUidText] = {};
  if (*rank == 0) {
    GSHMEM_CHECK(uid_create_listener(*size == 1, cfg.GSHMEM_BOOTSTRAP_IFNAME, uid, listen_fd));
    snprintf(text, sizeof text, "%s", uid_to_string(*uid).c_str());
  }
  if (m.bcast(text, sizeof text, m.byte, 0, m.world) != 0) {
    GSHMEM_WARN(Subsys::boot, "MPI bootstrap: MPI_Bcast of the unique id failed");
    return Status::bootstrap_error;
  }
  if (*rank != 0) GSHMEM_CHECK(uid_parse(text, uid));
  return Status::ok;
}

void mpi_abort(int status, const char*) {
  if (g_mpi) g_mpi->abort(g_mpi->world, status);
}

// The handle stored at the address the program passed (an MPI_Comm variable of its ABI).
void* mpi_comm_handle(const Mpi& m, const void* comm_addr) {
  if (m.ompi_abi) return *static_cast<void* const*>(comm_addr);
  return reinterpret_cast<void*>(static_cast<intptr_t>(*static_cast<const int*>(comm_addr)));
}

Status mpi_create(const Config& cfg, std::unique_ptr<Bootstrap>* out) {
  TcpOptions opts;
  opts.timeout_s = static_cast<int>(cfg.GSHMEM_BOOTSTRAP_TIMEOUT);
  UniqueId uid;
  int rank = 0, size = 1;
  GSHMEM_CHECK(mpi_wireup(cfg, &rank, &size, &uid, &opts.listen_fd));
  opts.launcher_abort = mpi_abort;
  opts.launcher_name = "mpi";
  return tcp_create(uid, rank, size, std::move(opts), out);
}

}  // namespace

Status create(const Config& cfg, const UidArgs* uid_args, std::unique_ptr<Bootstrap>* out) {
  if (uid_args && uid_args->mpi_comm) {
    if (!mpi_is_initialized()) {
      GSHMEM_WARN(Subsys::boot,
                  "an MPI communicator was passed but MPI is not linked or not initialised (call MPI_Init first)");
      return Status::not_available;
    }
    g_mpi->world = mpi_comm_handle(*g_mpi, uid_args->mpi_comm);
    return mpi_create(cfg, out);
  }
  if (uid_args) {
    UniqueId uid;
    GSHMEM_CHECK(uid_parse(uid_args->uid.c_str(), &uid));
    TcpOptions opts;
    opts.timeout_s = static_cast<int>(cfg.GSHMEM_BOOTSTRAP_TIMEOUT);
    opts.listen_fd = uid_args->listen_fd;
    opts.launcher_name = "uid";
    return tcp_create(uid, uid_args->rank, uid_args->nranks, std::move(opts), out);
  }
  std::string kind = cfg.GSHMEM_BOOTSTRAP;
  if (kind == "auto") {
    if (!cfg.GSHMEM_BOOTSTRAP_UID.empty()) kind = "uid";
    else if (mpi_is_initialized()) kind = "mpi";
    else if (cfg.PMIX_RANK >= 0) kind = "pmix";
    else if (cfg.OMPI_COMM_WORLD_SIZE > 1) {
      GSHMEM_WARN(Subsys::boot,
                  "started by mpirun with OMPI_COMM_WORLD_SIZE=%lld but no PMIx environment (PMIX_RANK unset) and "
                  "MPI was not initialised; call MPI_Init before shmem_init, or launch with oshrun",
                  (long long)cfg.OMPI_COMM_WORLD_SIZE);
      return Status::not_available;
    } else kind = "single";
  }
  TcpOptions opts;
  opts.timeout_s = static_cast<int>(cfg.GSHMEM_BOOTSTRAP_TIMEOUT);
  UniqueId uid;
  int rank = 0, size = 1;
  if (kind == "single") {
    *out = single_create();
    return Status::ok;
  }
  if (kind == "uid") {
    if (cfg.GSHMEM_BOOTSTRAP_UID.empty() || cfg.GSHMEM_BOOTSTRAP_RANK < 0 || cfg.GSHMEM_BOOTSTRAP_NRANKS < 1) {
      GSHMEM_WARN(Subsys::boot,
                  "uid bootstrap needs GSHMEM_BOOTSTRAP_UID, GSHMEM_BOOTSTRAP_RANK and GSHMEM_BOOTSTRAP_NRANKS "
                  "(got '%s', %lld, %lld); oshrun sets them",
                  cfg.GSHMEM_BOOTSTRAP_UID.c_str(), (long long)cfg.GSHMEM_BOOTSTRAP_RANK,
                  (long long)cfg.GSHMEM_BOOTSTRAP_NRANKS);
      return Status::invalid_argument;
    }
    GSHMEM_CHECK(uid_parse(cfg.GSHMEM_BOOTSTRAP_UID.c_str(), &uid));
    rank = static_cast<int>(cfg.GSHMEM_BOOTSTRAP_RANK);
    size = static_cast<int>(cfg.GSHMEM_BOOTSTRAP_NRANKS);
    opts.listen_fd = static_cast<int>(cfg.GSHMEM_BOOTSTRAP_LISTEN_FD);
    opts.launcher_name = "uid";
    if (rank == 0 && opts.listen_fd >= 0) fcntl(opts.listen_fd, F_SETFD, FD_CLOEXEC);
    // No inherited listener (not started by oshrun): rank 0 listens on the id's own address.
    if (rank == 0 && size > 1 && opts.listen_fd < 0) GSHMEM_CHECK(uid_listen_at(uid, &opts.listen_fd));
    return tcp_create(uid, rank, size, std::move(opts), out);
  }
  if (kind == "mpi") {
    if (!g_mpi && !mpi_is_initialized()) {
      GSHMEM_WARN(Subsys::boot,
                  "GSHMEM_BOOTSTRAP=mpi but MPI is not linked or not initialised (call MPI_Init before shmem_init)");
      return Status::not_available;
    }
    return mpi_create(cfg, out);
  }
  if (kind == "pmix") {
#if GSHMEM_HAVE_PMIX
    GSHMEM_CHECK(pmix_wireup(cfg, &rank, &size, &uid, &opts.listen_fd));
    opts.launcher_abort = pmix_abort;
    opts.launcher_finalize = pmix_finalize;
    opts.launcher_name = "pmix";
    return tcp_create(uid, rank, size, std::move(opts), out);
#else
    GSHMEM_WARN(
        Subsys::boot,
        "GSHMEM_BOOTSTRAP=pmix but this gshmem was built without PMIx headers (install libpmix-dev and rebuild)");
    return Status::not_available;
#endif
  }
  return Status::internal_error;  // the config table allows only the kinds above
}

}  // namespace gshmem::boot
