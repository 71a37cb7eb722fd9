#include "core/teams.hpp"

#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <string>
#include <vector>

#include "coll/dev_teams.hpp"
#include "common/log.hpp"
#include "core/detail/runtime.hpp"
#include "core/p2p.hpp"
#include "core/rma.hpp"
#include "core/runtime.hpp"
#include "gshmem/device_host/team.h"

namespace gshmem::core {
namespace {

team::Team* find(int handle) { return running() ? g_rt->teams.get(handle) : nullptr; }

team::Team& member_team(const char* call, int handle) {
  team::Team* t = rt(call).teams.get(handle);
  if (!t) fatal(call, "team %d is not a valid team handle", handle);
  if (t->my_index < 0) fatal(call, "this PE is not a member of team %d", handle);
  return *t;
}

// Collective over parent: agrees on slots, creates the new teams, publishes them to device code.
int split_common(const char* call, team::Team& parent, const std::vector<std::vector<int>>& members, int nctx,
                 std::vector<int>* out) {
  Runtime& r = *g_rt;
  Status st;
  {
    std::lock_guard<std::mutex> lock(parent.mu);
    st = r.teams.split(parent, members, nctx, out);
  }
  if (st == Status::out_of_memory) {
    if (r.my_pe == parent.pes[0])
      report_error(call, "team exhaustion: all %d team slots are in use (destroy unused teams)", heap::kMaxTeams);
    return 1;
  }
  if (st != Status::ok) fatal(call, "team split failed (%s)", status_name(st));
#if GSHMEM_HAVE_CUDA
  if (r.ops)
    for (int h : *out)
      if (h >= 0) coll::dev_team_publish(call, *r.ops, r.heap, *r.teams.get(h), r.node_table());
#endif
  return 0;
}

}  // namespace

int team_my_pe(int handle) {
  team::Team* t = find(handle);
  return t ? t->my_index : -1;
}

int team_n_pes(int handle) {
  team::Team* t = find(handle);
  return t ? t->size() : -1;
}

int team_num_contexts(int handle, bool* valid) {
  team::Team* t = find(handle);
  *valid = t != nullptr;
  return t ? t->num_contexts : 0;
}

int team_translate_pe(int src_team, int src_pe, int dest_team) {
  team::Team* s = find(src_team);
  team::Team* d = find(dest_team);
  if (!s || !d || src_pe < 0 || src_pe >= s->size()) return -1;
  return d->index_of(s->pes[static_cast<size_t>(src_pe)]);
}

int team_world_pe(const char* call, int handle, int pe) {
  if (handle == SHMEM_TEAM_WORLD) return pe;
  team::Team* t = rt(call).teams.get(handle);
  if (!t) fatal(call, "team %d is not a valid team handle (destroyed?)", handle);
  if (pe < 0 || pe >= t->size()) fatal(call, "pe %d out of range [0, %d) of team %d", pe, t->size(), handle);
  return t->pes[static_cast<size_t>(pe)];
}

void* team_ptr(int handle, const void* dest, int pe) {
  team::Team* t = find(handle);
  if (!t || pe < 0 || pe >= t->size()) return nullptr;
  return ptr(dest, t->pes[static_cast<size_t>(pe)]);
}

bool team_member(int handle) {
  team::Team* t = find(handle);
  return t && t->my_index >= 0;
}

void team_sync(const char* call, int handle) {
  flush_queued(call);  // as sync_all
  g_rt->teams.sync_serialized(member_team(call, handle));
}

// A split on SHMEM_TEAM_INVALID, or by a PE outside the parent, creates nothing and returns
// nonzero (OpenSHMEM 1.5: zero on success, nonzero otherwise; outputs stay SHMEM_TEAM_INVALID).
team::Team* split_parent(const char* call, int handle) {
  if (handle == SHMEM_TEAM_INVALID) return nullptr;
  team::Team* t = rt(call).teams.get(handle);
  if (!t) fatal(call, "team %d is not a valid team handle (destroyed?)", handle);
  if (t->my_index < 0) return nullptr;
  return t;
}

int team_split_strided(const char* call, int parent_handle, int start, int stride, int size, const TeamConfig& config,
                       int* new_team) {
  team::Team* parent = split_parent(call, parent_handle);
  if (!parent) return 1;
  g_rt->teams.check_args_or_fail(
      call, *parent, 0x5157,
      (static_cast<uint64_t>(static_cast<uint32_t>(start)) << 32) | static_cast<uint32_t>(stride),
      static_cast<uint64_t>(static_cast<uint32_t>(size)));
  // Every member passed the same triplet (checked above), so every member returns the same.
  const long long last = start + static_cast<long long>(size - 1) * stride;
  if (size < 1 || start < 0 || start >= parent->size() || last < 0 || last >= parent->size() ||
      (size > 1 && stride == 0)) {
    GSHMEM_INFO(Subsys::coll, "%s: start %d, stride %d, size %d do not select PEs of team %d (%d PEs)", call, start,
                stride, size, parent_handle, parent->size());
    return 1;
  }
  std::vector<int> members;
  bool mine = false;
  for (int i = 0; i < size; ++i) {
    const int pe = parent->pes[static_cast<size_t>(start + i * stride)];
    members.push_back(pe);
    mine = mine || pe == g_rt->my_pe;
  }
  std::vector<int> out;
  const int rc = split_common(call, *parent, {mine ? members : std::vector<int>{}},
                              config.has_num_contexts ? config.num_contexts : 0, &out);
  if (rc == 0) *new_team = out[0];
  return rc;
}

int team_split_2d(const char* call, int parent_handle, int xrange, const TeamConfig& xconfig, int* xteam,
                  const TeamConfig& yconfig, int* yteam) {
  team::Team* parent = split_parent(call, parent_handle);
  if (!parent) return 1;
  g_rt->teams.check_args_or_fail(call, *parent, 0x5158, static_cast<uint64_t>(static_cast<uint32_t>(xrange)), 0);
  if (xrange < 1) {
    GSHMEM_INFO(Subsys::coll, "%s: xrange %d is not positive", call, xrange);
    return 1;
  }
  const int n = parent->size();
  if (xrange > n) xrange = n;
  const int me = parent->my_index, row = me / xrange, col = me % xrange;
  std::vector<int> x, y;
  for (int i = row * xrange; i < std::min(n, (row + 1) * xrange); ++i) x.push_back(parent->pes[static_cast<size_t>(i)]);
  for (int i = col; i < n; i += xrange) y.push_back(parent->pes[static_cast<size_t>(i)]);
  std::vector<int> out;
  const int rc = split_common(call, *parent, {x, y}, xconfig.has_num_contexts ? xconfig.num_contexts : 0, &out);
  if (rc == 0) {
    *xteam = out[0];
    *yteam = out[1];
    if (yconfig.has_num_contexts) g_rt->teams.get(out[1])->num_contexts = yconfig.num_contexts;
  }
  return rc;
}

uint64_t team_new_uniqueid() {
  static std::atomic<uint64_t> counter{0};
  uint64_t x = (static_cast<uint64_t>(static_cast<uint32_t>(getpid())) << 32) ^
               (static_cast<uint64_t>(rt("shmemx_team_get_uniqueid").my_pe) << 48) ^
               static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()) ^
               (counter.fetch_add(1) * 0x9e3779b97f4a7c15ull);
  x ^= x >> 31;  // mix (splitmix64's finaliser)
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  return x ? x : 1;
}

int team_init_uid(const char* call, uint64_t uid, int npes, int idx, const TeamConfig& config, int* new_team) {
  Runtime& r = rt(call);
  if (uid == 0) {
    report_error(call, "team id 0 was not made by shmemx_team_get_uniqueid (pe %d)", r.my_pe);
    return 1;
  }
  if (npes < 1 || npes > r.npes) {
    report_error(call, "npes %d out of range [1, %d] (pe %d)", npes, r.npes, r.my_pe);
    return 1;
  }
  if (idx < 0 || idx >= npes) {
    report_error(call, "pe_idx_in_team %d out of range [0, %d) (pe %d)", idx, npes, r.my_pe);
    return 1;
  }
  int handle = -1;
  std::string bad;
  const Status st =
      r.teams.init_from_uid(uid, npes, idx, config.has_num_contexts ? config.num_contexts : 0, &handle, &bad);
  if (st == Status::out_of_memory) {
    if (idx == 0)
      report_error(
          call, "team exhaustion: no team slot is free on every member (all %d in use on some; destroy unused teams)",
          heap::kMaxTeams);
    return 1;
  }
  if (st != Status::ok) fatal(call, "members disagree: %s", bad.c_str());
#if GSHMEM_HAVE_CUDA
  if (r.ops) coll::dev_team_publish(call, *r.ops, r.heap, *r.teams.get(handle), r.node_table());
#endif
  *new_team = handle;
  return 0;
}

void team_destroy(const char* call, int handle) {
  team::Team& t = member_team(call, handle);
  if (t.predefined) fatal(call, "team %d is predefined (WORLD, SHARED, NODE) and cannot be destroyed", handle);
  Runtime& r = *g_rt;
#if GSHMEM_HAVE_CUDA
  if (r.ops) {
    coll::dev_idle(call, *r.ops);  // this PE's kernels and on-stream collectives on the team have finished
    // ... and the flag updates they left with the proxy have landed: a routed collective's last
    // acks are never waited for on the device, and one arriving after the clear would corrupt
    // the slot's next team.
    if (r.proxy) r.proxy->quiet();
    r.teams.sync_serialized(t);  // ... and every member's have
    coll::dev_team_clear(call, *r.ops, r.heap, t);
  }
#endif
  r.teams.destroy(t);  // frees t: no other thread may use the team during its destruction
}

}  // namespace gshmem::core
