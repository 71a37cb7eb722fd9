// Unique-id initialisation for frameworks (core/uniqueid.hpp).
#include <shmem.h>
#include <shmemx.h>

#include <cstring>

#include "common/fatal.hpp"
#include "core/uniqueid.hpp"

using namespace gshmem;

extern "C" {

int shmemx_get_uniqueid(shmemx_uniqueid_t* id) {
  if (!id) {
    report_error("shmemx_get_uniqueid", "id is NULL");
    return 1;
  }
  return core::get_uniqueid(id->internal, sizeof id->internal);
}

int shmemx_set_attr_uniqueid_args(int rank, int nranks, const shmemx_uniqueid_t* id, shmemx_init_attr_t* attr) {
  if (!id || !attr || nranks < 1 || rank < 0 || rank >= nranks) {
    report_error("shmemx_set_attr_uniqueid_args", "invalid arguments (rank %d, nranks %d, id %p, attr %p)", rank,
                 nranks, static_cast<const void*>(id), static_cast<void*>(attr));
    return 1;
  }
  memset(attr, 0, sizeof *attr);
  attr->rank = rank;
  attr->nranks = nranks;
  attr->uid = *id;
  return 0;
}

int shmemx_init_attr(unsigned int flags, shmemx_init_attr_t* attr) {
  if (flags == SHMEMX_INIT_WITH_MPI_COMM && attr && attr->mpi_comm)
    return core::init_from_mpi_comm("shmemx_init_attr", attr->mpi_comm);
  if (flags != SHMEMX_INIT_WITH_UNIQUEID || !attr) {
    report_error("shmemx_init_attr",
                 "flags 0x%x (expected SHMEMX_INIT_WITH_UNIQUEID, or SHMEMX_INIT_WITH_MPI_COMM with attr->mpi_comm "
                 "set) or attr NULL",
                 flags);
    return 1;
  }
  char id[sizeof attr->uid.internal + 1];
  memcpy(id, attr->uid.internal, sizeof attr->uid.internal);
  id[sizeof attr->uid.internal] = 0;
  return core::init_from_uniqueid("shmemx_init_attr", attr->rank, attr->nranks, id);
}

}  // extern "C"
