// Unique-id initialisation for frameworks: rank 0 creates a listening socket and a secret
// (shmemx_get_uniqueid), the framework ships the 128-byte id to every rank its own way, and every
// rank calls shmemx_init_attr with its rank and the rank count.
#include <shmem.h>
#include <shmemx.h>

#include <cstdio>
#include <cstring>
#include <mutex>

#include "api/access.hpp"
#include "bootstrap/uid.hpp"
#include "common/log.hpp"

using namespace gshmem;

namespace {
std::mutex g_mu;
int g_listen_fd = -1;
std::string g_uid_text;
}  // namespace

extern "C" {

int shmemx_get_uniqueid(shmemx_uniqueid_t* id) {
  if (!id) {
    report_error("shmemx_get_uniqueid", "id is NULL");
    return 1;
  }
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
  memset(id->internal, 0, sizeof id->internal);
  snprintf(id->internal, sizeof id->internal, "%s", g_uid_text.c_str());
  return 0;
}

int shmemx_set_attr_uniqueid_args(int rank, int nranks, const shmemx_uniqueid_t* id, shmemx_init_attr_t* attr) {
  if (!id || !attr || nranks < 1 || rank < 0 || rank >= nranks) {
    report_error("shmemx_set_attr_uniqueid_args", "invalid arguments (rank %d, nranks %d, id %p, attr %p)",
            rank, nranks, static_cast<const void*>(id), static_cast<void*>(attr));
    return 1;
  }
  memset(attr, 0, sizeof *attr);
  attr->rank = rank;
  attr->nranks = nranks;
  attr->uid = *id;
  return 0;
}

int shmemx_init_attr(unsigned int flags, shmemx_init_attr_t* attr) {
  if (flags != SHMEMX_INIT_WITH_UNIQUEID || !attr) {
    report_error("shmemx_init_attr", "flags 0x%x (expected SHMEMX_INIT_WITH_UNIQUEID) or attr NULL", flags);
    return 1;
  }
  boot::UidArgs a;
  a.uid.assign(attr->uid.internal, strnlen(attr->uid.internal, sizeof attr->uid.internal));
  a.rank = attr->rank;
  a.nranks = attr->nranks;
  {
    std::lock_guard<std::mutex> lock(g_mu);
    if (a.rank == 0 && a.nranks > 1) {
      if (g_listen_fd < 0 || a.uid != g_uid_text) {
        report_error("shmemx_init_attr", "rank 0 must use the id it got from shmemx_get_uniqueid");
        return 1;
      }
      a.listen_fd = g_listen_fd;
      g_listen_fd = -1;  // the bootstrap owns and closes it
    }
  }
  runtime_init("shmemx_init_attr", SHMEM_THREAD_MULTIPLE, nullptr, &a);
  return 0;
}

int shmemx_device(void) {
#if GSHMEM_HAVE_CUDA
  Runtime& r = api::rt("shmemx_device");
  return r.gpu ? r.gpu->ordinal : -1;
#else
  (void)api::rt("shmemx_device");
  return -1;
#endif
}

}  // extern "C"
