// coll::Group objects for the C API's collectives: from a team handle, or from a deprecated active
// set (PE_start, logPE_stride, PE_size) whose pSync array supplies the synchronisation words.
#pragma once
#include <cstddef>

#include "coll/collectives.hpp"
#include "team/team.hpp"

namespace gshmem::coll {

// The team of handle, checked: a valid handle and this PE a member; ends the job naming call
// otherwise.
team::Team& team_for(const char* call, int handle);
Group team_group(const char* call, team::Team& t);
Group active_set_group(const char* call, int start, int log_stride, int size, long* pSync);
// pe's copy of a symmetric range, read or written (mapped copies, or the route's transport).
void read_sym(const char* call, void* dst, const void* sym, size_t n, int pe);
void write_sym(const char* call, void* sym, const void* src, size_t n, int pe);

}  // namespace gshmem::coll
