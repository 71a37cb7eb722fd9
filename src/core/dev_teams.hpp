// Teams as device code sees them: each GPU PE keeps a gshmem_device_team per team handle in its
// own device control block (device_host/state.h), written here when a team is created and
// cleared, with the slot's device collective state, when it is destroyed.
#pragma once
#include "core/runtime.hpp"

namespace gshmem {

// No-ops on CPU PEs. Errors end the job with a message naming call.
void dev_team_publish(const char* call, Runtime& r, const team::Team& t);
// After the team's last sync: no member writes this PE's flags for the slot any more.
void dev_team_clear(const char* call, Runtime& r, const team::Team& t);

}  // namespace gshmem
