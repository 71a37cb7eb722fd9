// Team management (OpenSHMEM 1.5 teams): core/teams.hpp.
#include <shmem.h>
#include <shmemx.h>

#include "common/fatal.hpp"
#include "core/rma.hpp"
#include "core/teams.hpp"

using namespace gshmem;

namespace {
core::TeamConfig config_of(const shmem_team_config_t* c, long mask) {
  core::TeamConfig t;
  if (c && (mask & SHMEM_TEAM_NUM_CONTEXTS)) {
    t.has_num_contexts = true;
    t.num_contexts = c->num_contexts;
  }
  return t;
}
}  // namespace

extern "C" {

int shmem_team_my_pe(shmem_team_t team) { return core::team_my_pe(team); }
int shmem_team_n_pes(shmem_team_t team) { return core::team_n_pes(team); }

int shmem_team_get_config(shmem_team_t team, long config_mask, shmem_team_config_t* config) {
  bool valid = false;
  const int nctx = core::team_num_contexts(team, &valid);
  if (!valid) return -1;
  if (config_mask == 0 || !config) return 0;  // nothing asked for (as OpenSHMEM 1.6 clarifies)
  if (config_mask & SHMEM_TEAM_NUM_CONTEXTS) config->num_contexts = nctx;
  return 0;
}

int shmem_team_translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team) {
  return core::team_translate_pe(src_team, src_pe, dest_team);
}

void* shmem_team_ptr(shmem_team_t team, const void* dest, int pe) { return core::team_ptr(team, dest, pe); }

int shmem_team_sync(shmem_team_t team) {
  core::team_sync("shmem_team_sync", team);
  return 0;
}

int shmemx_team_barrier(shmem_team_t team) {
  if (team == SHMEM_TEAM_INVALID) return -1;
  core::quiet("shmemx_team_barrier");
  core::team_sync("shmemx_team_barrier", team);
  return 0;
}

int shmem_team_split_strided(shmem_team_t parent_team, int start, int stride, int size,
                             const shmem_team_config_t* config, long config_mask, shmem_team_t* new_team) {
  const char* call = "shmem_team_split_strided";
  if (!new_team) fatal(call, "new_team is NULL");
  *new_team = SHMEM_TEAM_INVALID;
  return core::team_split_strided(call, parent_team, start, stride, size, config_of(config, config_mask), new_team);
}

int shmem_team_split_2d(shmem_team_t parent_team, int xrange, const shmem_team_config_t* xaxis_config, long xaxis_mask,
                        shmem_team_t* xaxis_team, const shmem_team_config_t* yaxis_config, long yaxis_mask,
                        shmem_team_t* yaxis_team) {
  const char* call = "shmem_team_split_2d";
  if (!xaxis_team || !yaxis_team) fatal(call, "xaxis_team or yaxis_team is NULL");
  *xaxis_team = *yaxis_team = SHMEM_TEAM_INVALID;
  return core::team_split_2d(call, parent_team, xrange, config_of(xaxis_config, xaxis_mask), xaxis_team,
                             config_of(yaxis_config, yaxis_mask), yaxis_team);
}

int shmemx_team_get_uniqueid(shmemx_team_uniqueid_t* uniqueid) {
  if (!uniqueid) fatal("shmemx_team_get_uniqueid", "uniqueid is NULL");
  *uniqueid = core::team_new_uniqueid();
  return 0;
}

int shmemx_team_init(shmemx_team_uniqueid_t uniqueid, int npes, int pe_idx_in_team, const shmem_team_config_t* config,
                     long config_mask, shmem_team_t* new_team) {
  const char* call = "shmemx_team_init";
  if (!new_team) fatal(call, "new_team is NULL");
  *new_team = SHMEM_TEAM_INVALID;
  return core::team_init_uid(call, uniqueid, npes, pe_idx_in_team, config_of(config, config_mask), new_team);
}

void shmem_team_destroy(shmem_team_t team) {
  if (team == SHMEM_TEAM_INVALID) return;
  core::team_destroy("shmem_team_destroy", team);
}

}  // extern "C"
