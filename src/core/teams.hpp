// Team management (OpenSHMEM 1.5 teams): queries, splits and destruction, with the device-side
// view of every team kept current on GPU PEs (coll/dev_teams.hpp).
#pragma once
#include <cstdint>

namespace gshmem::core {

struct TeamConfig {
  int num_contexts = 0;
  bool has_num_contexts = false;
};

int team_my_pe(int team);  // -1: not a valid team (or not running)
int team_n_pes(int team);
int team_num_contexts(int team, bool* valid);
int team_translate_pe(int src_team, int src_pe, int dest_team);
// The world PE of team's member pe; ends the job naming call when team or pe is not valid.
int team_world_pe(const char* call, int team, int pe);
void* team_ptr(int team, const void* dest, int pe);
bool team_member(int team);  // a valid team this PE belongs to
void team_sync(const char* call, int team);
int team_split_strided(const char* call, int parent, int start, int stride, int size, const TeamConfig& config,
                       int* new_team);
int team_split_2d(const char* call, int parent, int xrange, const TeamConfig& xconfig, int* xteam,
                  const TeamConfig& yconfig, int* yteam);
// A team of npes PEs, not split from a parent: the PEs that pass the same uid (from
// team_new_uniqueid on one of them), each with its index in the new team. 0 and *new_team, or
// nonzero (bad arguments: a message naming call, the PE and the value; no slot free on every
// member: the same on all). Members that disagree (npes, an index twice) end the job naming them.
int team_init_uid(const char* call, uint64_t uid, int npes, int idx, const TeamConfig& config, int* new_team);
uint64_t team_new_uniqueid();  // nonzero, unique across PEs and calls
void team_destroy(const char* call, int team);

}  // namespace gshmem::core
