// Teams as device code sees them: each GPU PE keeps a gshmem_device_team per team handle in its
// own device control block (device_host/state.h), written here when a team is created and
// cleared, with the slot's device collective state, when it is destroyed.
#pragma once
#include <vector>

#include "heap/heap.hpp"
#include "mem/device_ops.hpp"
#include "team/team.hpp"

namespace gshmem::coll {

// Device code addresses a team's members as first + index * stride: *stride gets that stride,
// and the result is the first index that breaks it (-1: every member fits).
int dev_team_stride(const team::Team& t, int* stride);

// gshmem_device_team::node_run of a routed team with these members (world PEs in team order):
// k when they form runs of k >= 2 consecutive members, each run alone on its node (node_of: every
// PE's node), at least two runs; else 0. It depends on the job's node table alone, so every member
// computes the same k (the device paths would deadlock on disagreement). A run's members are
// mapped to each other: shmem_init maps every same-node segment or fails.
int dev_team_node_run(const std::vector<int>& pes, const std::vector<int>& node_of);

#if GSHMEM_HAVE_CUDA
// Errors end the job with a message naming call.
// Also records in t.dev_routed whether the team is routed (dev_team_routed), for the launches.
// node_of: every PE's node (the same table on every PE), or null to keep every routed team flat
// (GSHMEM_COLL_NODE_RUNS off on some PE).
void dev_team_publish(const char* call, mem::DeviceOps& ops, const heap::SymmetricHeap& h, team::Team& t,
                      const std::vector<int>* node_of);
// Waits until this PE's GPU has finished all work (every stream): before a team is destroyed,
// so no kernel of this PE still uses the team when the members agree to clear it.
void dev_idle(const char* call, mem::DeviceOps& ops);
// After dev_idle on every member and a team sync: no member writes this PE's flags any more.
void dev_team_clear(const char* call, mem::DeviceOps& ops, const heap::SymmetricHeap& h, const team::Team& t);
#endif

}  // namespace gshmem::coll
