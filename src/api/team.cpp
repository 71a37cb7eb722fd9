// Team management (OpenSHMEM 1.5 teams) and the group adapters the collectives run on.
#include <shmem.h>

#include "api/device_ops.hpp"
#include "api/team_group.hpp"
#include "common/config.hpp"
#include "common/wait.hpp"
#include "core/dev_teams.hpp"

namespace gshmem::api {

team::Team& team_for(const char* call, int handle) {
  Runtime& r = rt(call);
  team::Team* t = r.teams.get(handle);
  if (!t) fatal(call, "team %d is not a valid team handle", handle);
  if (t->my_index < 0) fatal(call, "this PE is not a member of team %d", handle);
  return *t;
}

void check_sym(const char* call, const void* p, size_t bytes, const char* what) {
  if (!bytes) return;
  if (!p) fatal(call, "%s is NULL with %zu bytes", what, bytes);
  Target t = target(call, p, bytes, g_rt->my_pe, what);
  if (t.device)
    fatal(call, "%s %p is GPU memory: host-side collectives on the device heap are not supported yet", what, p);
}

namespace {
// Callers validated the range on this PE; the same offset exists on every PE.
void group_read(void* dst, const void* sym, size_t n, int pe) {
  Target t = target("shmem collective", sym, n, pe, "source");
  if (t.remote) tcp().get(pe, t.seg, t.off, dst, n);
  else memcpy(dst, t.p, n);
}
void group_write(void* sym, const void* src, size_t n, int pe) {
  Target t = target("shmem collective", sym, n, pe, "dest");
  if (t.remote) tcp().put(pe, t.seg, t.off, src, n);
  else memcpy(t.p, src, n);
}
}  // namespace

coll::Group team_group(const char* call, team::Team& t) {
  (void)call;
  coll::Group g;
  g.pes = t.pes;
  g.me = t.my_index;
  team::Team* tp = &t;
  g.sync = [tp] {
    transport_quiet();  // writes through the transport land before the members are released
    sync_team(*tp);
  };
  auto seq = std::make_shared<uint64_t>(0);
  g.publish = [tp, seq](uint64_t v) {
    const uint64_t s = ++tp->seq;
    *seq = s;
    heap::TeamSlot& slot = tp->slot_of(g_rt->heap, g_rt->my_pe);
    slot.pub[s & 1][0] = v;
    slot.pub_seq[s & 1].store(s, std::memory_order_release);
  };
  g.published = [tp, seq](int i) -> uint64_t {
    const heap::TeamSlot& mine = tp->slot_of(g_rt->heap, g_rt->my_pe);
    const int pe = tp->pes[static_cast<size_t>(i)];
    uint64_t their_seq = 0, v = 0;
    g_rt->teams.read_control(pe, &mine.pub_seq[*seq & 1], &their_seq, sizeof their_seq);
    g_rt->teams.read_control(pe, &mine.pub[*seq & 1][0], &v, sizeof v);
    if (their_seq != *seq) fatal("shmem collective", "pe %d of team %d is in a different collective", pe, tp->handle);
    return v;
  };
  g.read = group_read;
  g.write = group_write;
  return g;
}

// Deprecated active sets: pSync[k] (k < 32) are dissemination counters (the sender adds 1, the
// receiver waits for >= 1 and takes it back, so pSync returns to SHMEM_SYNC_VALUE = 0);
// pSync[kPub] carries a member's published word.
constexpr int kPub = 64;

coll::Group active_set_group(const char* call, int start, int log_stride, int size, long* pSync) {
  Runtime& r = rt(call);
  if (!pSync) fatal(call, "pSync is NULL");
  check_sym(call, pSync, SHMEM_SYNC_SIZE * sizeof(long), "pSync");
  if (size < 1 || start < 0 || log_stride < 0 || log_stride > 30 ||
      start + static_cast<long long>(size - 1) * (1LL << log_stride) >= r.npes)
    fatal(call, "active set (PE_start %d, logPE_stride %d, PE_size %d) does not fit %d PEs", start, log_stride,
              size, r.npes);
  coll::Group g;
  g.me = -1;
  for (int i = 0; i < size; ++i) {
    const int pe = start + i * (1 << log_stride);
    if (pe == r.my_pe) g.me = i;
    g.pes.push_back(pe);
  }
  if (g.me < 0) fatal(call, "this PE is not in the active set (PE_start %d, logPE_stride %d, PE_size %d)", start, log_stride, size);
  std::vector<int> pes = g.pes;
  const int me = g.me;
  g.sync = [pes, me, pSync] {
    const int n = static_cast<int>(pes.size());
    Backoff b;
    transport_quiet();
    for (int k = 0, d = 1; d < n; ++k, d <<= 1) {
      const int to_pe = pes[static_cast<size_t>((me + d) % n)];
      Target t = target("shmem active-set sync", &pSync[k], sizeof(long), to_pe, "pSync");
      if (t.remote) tcp().amo(to_pe, t.seg, t.off, transport::AmoOp::add, sizeof(long), 1, 0);
      else __atomic_fetch_add(reinterpret_cast<long*>(t.p), 1L, __ATOMIC_RELEASE);
      for (Backoff::State s; __atomic_load_n(&pSync[k], __ATOMIC_ACQUIRE) < 1;) b(s);
      __atomic_fetch_sub(&pSync[k], 1L, __ATOMIC_RELAXED);
    }
  };
  g.publish = [pSync](uint64_t v) { __atomic_store_n(&pSync[kPub], static_cast<long>(v), __ATOMIC_RELEASE); };
  g.published = [pes, pSync](int i) -> uint64_t {
    long v = 0;
    group_read(&v, &pSync[kPub], sizeof v, pes[static_cast<size_t>(i)]);
    return static_cast<uint64_t>(v);
  };
  g.read = group_read;
  g.write = group_write;
  return g;
}

}  // namespace gshmem::api

using namespace gshmem;
using namespace gshmem::api;

extern "C" {

int shmem_team_my_pe(shmem_team_t team) {
  team::Team* t = rt("shmem_team_my_pe").teams.get(team);
  return t ? t->my_index : -1;
}

int shmem_team_n_pes(shmem_team_t team) {
  team::Team* t = rt("shmem_team_n_pes").teams.get(team);
  return t ? t->size() : -1;
}

int shmem_team_get_config(shmem_team_t team, long config_mask, shmem_team_config_t* config) {
  team::Team* t = rt("shmem_team_get_config").teams.get(team);
  if (!t || !config) return -1;
  if (config_mask & SHMEM_TEAM_NUM_CONTEXTS) config->num_contexts = t->num_contexts;
  return 0;
}

int shmem_team_translate_pe(shmem_team_t src_team, int src_pe, shmem_team_t dest_team) {
  Runtime& r = rt("shmem_team_translate_pe");
  team::Team* s = r.teams.get(src_team);
  team::Team* d = r.teams.get(dest_team);
  if (!s || !d || src_pe < 0 || src_pe >= s->size()) return -1;
  return d->index_of(s->pes[static_cast<size_t>(src_pe)]);
}

void* shmem_team_ptr(shmem_team_t team, const void* dest, int pe) {
  team::Team* t = rt("shmem_team_ptr").teams.get(team);
  if (!t || pe < 0 || pe >= t->size()) return nullptr;
  return shmem_ptr(dest, t->pes[static_cast<size_t>(pe)]);
}

int shmem_team_sync(shmem_team_t team) {
  sync_team(team_for("shmem_team_sync", team));
  return 0;
}

static int split_common(const char* call, team::Team& parent, const std::vector<std::vector<int>>& members,
                        const shmem_team_config_t* config, long mask, std::vector<int>* out) {
  const int nctx = (config && (mask & SHMEM_TEAM_NUM_CONTEXTS)) ? config->num_contexts : 0;
  Status st;
  {
    std::lock_guard<std::mutex> lock(parent.mu);
    st = g_rt->teams.split(parent, members, nctx, out);
  }
  if (st == Status::out_of_memory) {
    if (g_rt->my_pe == parent.pes[0])
      report_error(call, "team exhaustion: all %d team slots are in use (destroy unused teams)", heap::kMaxTeams);
    return 1;
  }
  if (st != Status::ok) fatal(call, "team split failed (%s)", status_name(st));
  for (int h : *out)
    if (h >= 0) dev_team_publish(call, *g_rt, *g_rt->teams.get(h));
  return 0;
}

int shmem_team_split_strided(shmem_team_t parent_team, int start, int stride, int size,
                             const shmem_team_config_t* config, long config_mask, shmem_team_t* new_team) {
  const char* call = "shmem_team_split_strided";
  team::Team& parent = team_for(call, parent_team);
  if (!new_team) fatal(call, "new_team is NULL");
  *new_team = SHMEM_TEAM_INVALID;
  check_team_args(call, parent, 0x5157, (static_cast<uint64_t>(static_cast<uint32_t>(start)) << 32) |
                                            static_cast<uint32_t>(stride), static_cast<uint64_t>(size));
  const long long last = start + static_cast<long long>(size - 1) * stride;
  if (size < 1 || start < 0 || start >= parent.size() || last < 0 || last >= parent.size() || (size > 1 && stride == 0))
    fatal(call, "start %d, stride %d, size %d do not select PEs of the parent team (%d PEs)", start, stride, size,
              parent.size());
  std::vector<int> members;
  bool mine = false;
  for (int i = 0; i < size; ++i) {
    const int pe = parent.pes[static_cast<size_t>(start + i * stride)];
    members.push_back(pe);
    mine = mine || pe == g_rt->my_pe;
  }
  std::vector<int> out;
  int rc = split_common(call, parent, {mine ? members : std::vector<int>{}}, config, config_mask, &out);
  if (rc == 0) *new_team = out[0];
  return rc;
}

int shmem_team_split_2d(shmem_team_t parent_team, int xrange, const shmem_team_config_t* xaxis_config,
                        long xaxis_mask, shmem_team_t* xaxis_team, const shmem_team_config_t* yaxis_config,
                        long yaxis_mask, shmem_team_t* yaxis_team) {
  const char* call = "shmem_team_split_2d";
  team::Team& parent = team_for(call, parent_team);
  if (!xaxis_team || !yaxis_team) fatal(call, "xaxis_team or yaxis_team is NULL");
  if (xrange < 1) fatal(call, "xrange %d must be positive", xrange);
  *xaxis_team = *yaxis_team = SHMEM_TEAM_INVALID;
  check_team_args(call, parent, 0x5158, static_cast<uint64_t>(xrange), 0);
  const int n = parent.size();
  if (xrange > n) xrange = n;
  const int me = parent.my_index, row = me / xrange, col = me % xrange;
  std::vector<int> x, y;
  for (int i = row * xrange; i < std::min(n, (row + 1) * xrange); ++i) x.push_back(parent.pes[static_cast<size_t>(i)]);
  for (int i = col; i < n; i += xrange) y.push_back(parent.pes[static_cast<size_t>(i)]);
  (void)yaxis_config;
  (void)yaxis_mask;
  std::vector<int> out;
  int rc = split_common(call, parent, {x, y}, xaxis_config, xaxis_mask, &out);
  if (rc == 0) {
    *xaxis_team = out[0];
    *yaxis_team = out[1];
    if (yaxis_config && (yaxis_mask & SHMEM_TEAM_NUM_CONTEXTS))
      g_rt->teams.get(out[1])->num_contexts = yaxis_config->num_contexts;
  }
  return rc;
}

void shmem_team_destroy(shmem_team_t team) {
  const char* call = "shmem_team_destroy";
  if (team == SHMEM_TEAM_INVALID) return;
  team::Team& t = team_for(call, team);
  if (t.predefined) fatal(call, "team %d is predefined (WORLD, SHARED, NODE) and cannot be destroyed", team);
  if (dev_active()) {
    dev_idle(call, *g_rt);  // this PE's kernels and on-stream collectives on the team have finished
    sync_team(t);           // ... and every member's have
    dev_team_clear(call, *g_rt, t);
  }
  g_rt->teams.destroy(t);  // frees t: no other thread may use the team during its destruction
}

}  // extern "C"
