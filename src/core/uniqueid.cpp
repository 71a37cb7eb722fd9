#include "core/uniqueid.hpp"

#include <cstdio>
#include <cstring>
#include <mutex>
#include <string>

#include "bootstrap/uid.hpp"
#include "common/config.hpp"
#include "common/fatal.hpp"
#include "core/detail/runtime.hpp"
#include "gshmem/constants.h"

namespace gshmem::core {
namespace {
std::mutex g_mu;
int g_listen_fd = -1;
std::string g_uid_text;
}  // namespace

int get_uniqueid(char* out, size_t size) {
  const Config* cfg = nullptr;
  if (config_load(&cfg) != Status::ok) return 1;
  std::lock_guard<std::mutex> lock(g_mu);
  if (g_listen_fd < 0) {
    boot::UniqueId uid;
    if (boot::uid_create_listener(false, cfg->GSHMEM_BOOTSTRAP_IFNAME, &uid, &g_listen_fd) != Status::ok) {
      report_error("shmemx_get_uniqueid", "cannot create the bootstrap listener");
      return 1;
    }
    g_uid_text = boot::uid_to_string(uid);
  }
  memset(out, 0, size);
  snprintf(out, size, "%s", g_uid_text.c_str());
  return 0;
}

int init_from_uniqueid(const char* call, int rank, int nranks, const char* id) {
  boot::UidArgs a;
  a.uid = id;
  a.rank = rank;
  a.nranks = nranks;
  {
    std::lock_guard<std::mutex> lock(g_mu);
    if (a.rank == 0 && a.nranks > 1) {
      if (g_listen_fd < 0 || a.uid != g_uid_text) {
        report_error(call, "rank 0 must use the id it got from shmemx_get_uniqueid");
        return 1;
      }
      a.listen_fd = g_listen_fd;
      g_listen_fd = -1;  // the bootstrap owns and closes it
    }
  }
  init_runtime(call, SHMEM_THREAD_MULTIPLE, nullptr, &a);
  return 0;
}

int init_from_mpi_comm(const char* call, const void* comm) {
  boot::UidArgs a;
  a.mpi_comm = comm;
  init_runtime(call, SHMEM_THREAD_MULTIPLE, nullptr, &a);
  return 0;
}

}  // namespace gshmem::core
