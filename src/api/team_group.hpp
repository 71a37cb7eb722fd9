// Builds coll::Group objects for the C API: from a team handle, or from a deprecated active set
// (PE_start, logPE_stride, PE_size) whose pSync array supplies the synchronisation words.
#pragma once
#include "api/access.hpp"
#include "coll/collectives.hpp"

namespace gshmem::api {

// Validates the handle and membership; reports call with the team and PE otherwise.
team::Team& team_for(const char* call, int handle);
coll::Group team_group(const char* call, team::Team& t);
coll::Group active_set_group(const char* call, int start, int log_stride, int size, long* pSync);
// Checks that [p, p + bytes) is symmetric on every member (this PE's view) and not on the device
// heap (host collectives on GPU memory come with the device collectives).
void check_sym(const char* call, const void* p, size_t bytes, const char* what);

}  // namespace gshmem::api
