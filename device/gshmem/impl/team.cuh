// Device teams and the phase, the synchronisation step of every team collective (impl/coll.cuh,
// impl/ll.cuh).
//
// Each PE's device control block holds, per team slot, a matrix of phase flags
// [row][sender index] and a per-row phase counter (device/host layout in device_host/state.h).
// A phase on row r: every member adds 1 to flag [r][its index] of every other member (after a
// release fence, system scope), then waits until all of its own flags [r][*] pass the number of
// phases it had run on the row. Teams of up to GSHMEM_DEV_MAX_TEAM_PES PEs do this in one round;
// larger teams (up to GSHMEM_DEV_DISSEM_MAX_PES) run a dissemination barrier over the same words
// (flag index = round); routed teams (TeamDev::routed) run phase_routed. Flags and counters only grow, so a waiter
// compares with >, and a peer one phase ahead never confuses it. A split phase (phase's wait and add) changes what one
// phase adds and waits for, so that two of them leave the row as two phases do.
#pragma once
#include "gshmem/device_host/team.h"
#include "gshmem/impl/sync.cuh"

namespace gshmem::dev {

// routed: a member is reached through the proxy (another node), or the team has more than
// GSHMEM_DEV_DISSEM_MAX_PES members; its collectives take impl/routed.cuh's paths. node_run: see
// gshmem_device_team (0: the routed paths treat every member alike).
struct TeamDev {
  int size, me, slot, start, stride, routed, node_run;
  __device__ __forceinline__ int pe(int i) const { return start + i * stride; }
};

__device__ __forceinline__ char *ctrl(int pe, uint32_t off) { return segment(pe) + off; }

__device__ __forceinline__ TeamDev team(const char *call, int handle) {
#if GSHMEM_DEVICE_CHECKS
  if (!st().initialized) fail_value(call, "called before shmem_init; team", handle);
#endif
  // Team WORLD is fixed for the job: when every PE is mapped its descriptor comes from the device
  // state (constant bank). The load from the control block it replaces would, after the previous
  // collective's acquire invalidated L1, be an L2 round trip in front of every phase counter load.
  if (handle == SHMEM_TEAM_WORLD && st().world_mapped) return {st().npes, st().my_pe, 0, 0, 1, 0, 0};
  if (static_cast<unsigned>(handle) >= GSHMEM_DEV_MAX_TEAMS) fail_value(call, "not a valid team handle", handle);
  const gshmem_device_team *d =
      reinterpret_cast<const gshmem_device_team *>(ctrl(st().my_pe, GSHMEM_DEV_CTRL_TEAMS)) + handle;
  // Global loads by name (LDG rather than a generic load), past L1.
  const int4 a = __ldcg(reinterpret_cast<const int4 *>(d));
  const int4 b = __ldcg(reinterpret_cast<const int4 *>(&d->start));
  if (a.x != 1 && a.x != 3)
    fail_value(call,
               a.x == 2 ? "the team's PEs are not equally strided, which device collectives need; team"
                        : "not a valid team handle, or this PE is not a member; team",
               handle);
  return {a.y, a.z, a.w, b.x, b.y, a.x == 3, b.z};
}

__device__ __forceinline__ uint64_t *phase_flag(int pe, int slot, int row, int idx) {
  return reinterpret_cast<uint64_t *>(ctrl(pe, GSHMEM_DEV_CTRL_PHASE_FLAGS)) +
         (static_cast<size_t>(slot) * GSHMEM_DEV_MAX_ROWS + row) * GSHMEM_DEV_MAX_TEAM_PES + idx;
}

// Adds v to the word at off in pe's control block: a relaxed system-scope reduction when pe is
// mapped, else a proxied SIGNAL (ADD), which the proxy performs after everything pushed before it.
__device__ __forceinline__ void ctrl_add(int pe, uint32_t off, uint64_t v) {
  if (proxied(pe)) proxy_signal(off, v, SHMEM_SIGNAL_ADD, pe);
  else red_add_relaxed_sys_u64(reinterpret_cast<uint64_t *>(ctrl(pe, off)), v);
}

__device__ __forceinline__ uint32_t phase_flag_off(int slot, int row, int idx) {
  return GSHMEM_DEV_CTRL_PHASE_FLAGS +
         static_cast<uint32_t>(
             ((static_cast<size_t>(slot) * GSHMEM_DEV_MAX_ROWS + row) * GSHMEM_DEV_MAX_TEAM_PES + idx) * 8);
}

__device__ __forceinline__ uint32_t routed_flag_off(int slot, int idx) {
  return GSHMEM_DEV_CTRL_ROUTED_FLAGS + static_cast<uint32_t>((slot * GSHMEM_DEV_ROUTED_WORDS + idx) * 8);
}
// Routed flag words of the node-run phase (routed.cuh lists the others): members count their
// arrivals on their run leader's kPhaseArrive, the leader its releases on theirs' kPhaseDone.
constexpr int kPhaseArrive = 60, kPhaseDone = 61;

// Node runs (gshmem_device_team::node_run): the members of a run, 1 without node runs.
__device__ __forceinline__ int run_size(const TeamDev &t) { return t.node_run > 1 ? t.node_run : 1; }
// Whether this member leads a node run: it alone exchanges with the other nodes and releases its run.
__device__ __forceinline__ bool run_leader(const TeamDev &t) { return t.node_run > 1 && t.me % t.node_run == 0; }
// The members that exchange across nodes: the runs' leaders (leader i is member i * k), or every
// member without node runs.
__device__ __forceinline__ TeamDev run_leaders(const TeamDev &t) {
  const int k = run_size(t);
  return {t.size / k, t.me / k, t.slot, t.start, t.stride * k, t.routed, 0};
}

// A run leader's release of its run's other members: one added to each one's routed flag done_idx
// (one thread, after the scope barrier: the fence orders the scope's writes for the run).
static __device__ __noinline__ void run_release(const TeamDev &t, int done_idx) {
  fence_release_sys();
  for (int j = 1; j < t.node_run; ++j)
    red_add_relaxed_sys_u64(reinterpret_cast<uint64_t *>(ctrl(t.pe(t.me + j), routed_flag_off(t.slot, done_idx))), 1);
}

// The phase of a routed team (one thread): a dissemination barrier on row 0 whose round-k flag is
// word k of the slot's flag words (rounds past GSHMEM_DEV_MAX_TEAM_PES use the words of rows 1..,
// which routed teams never use: their collectives run in one row). Earlier proxied operations
// complete first (proxy_quiet); each round's update is a release (fence), so what this thread
// acquired in earlier rounds passes on to the next member, through the proxy or not.
// With node runs, only the leaders disseminate: a member quiets, releases and counts itself on its
// leader, which waits for the run, runs the dissemination among the leaders and, unless the caller
// has more to do first (release false: phase_routed_end), counts one release on each member. The
// chain member -> leader -> leaders -> member is one causality order, so a member's writes
// before the phase are visible everywhere after it.
static __device__ __noinline__ void phase_routed_one(const TeamDev &team, bool release = true) {
  proxy_quiet();
  uint64_t *cnt = reinterpret_cast<uint64_t *>(ctrl(st().my_pe, GSHMEM_DEV_CTRL_PHASE_CNT)) +
                  static_cast<size_t>(team.slot) * GSHMEM_DEV_MAX_ROWS;
  const uint64_t last = ld_volatile_u64(cnt);
  const char *own = ctrl(st().my_pe, 0);
  const int k = run_size(team);
  const int first = team.me - team.me % k;
  if (k > 1) {
    const uint64_t *mine = reinterpret_cast<const uint64_t *>(own + routed_flag_off(team.slot, kPhaseArrive));
    if (team.me != first) {
      fence_release_sys();
      red_add_relaxed_sys_u64(
          reinterpret_cast<uint64_t *>(ctrl(team.pe(first), routed_flag_off(team.slot, kPhaseArrive))), 1);
      mine = reinterpret_cast<const uint64_t *>(own + routed_flag_off(team.slot, kPhaseDone));
      while (ld_acquire_sys_u64(mine) <= last) {
      }
      st_volatile_u64(cnt, last + 1);
      return;
    }
    while (ld_acquire_sys_u64(mine) < (last + 1) * static_cast<uint64_t>(k - 1)) {
    }
  }
  const TeamDev t = run_leaders(team);  // the members that disseminate
  for (int r = 0, d = 1; d < t.size; ++r, d <<= 1) {
    fence_release_sys();
    ctrl_add(t.pe((t.me + d) % t.size), phase_flag_off(t.slot, 0, r), 1);
    while (ld_acquire_sys_u64(reinterpret_cast<const uint64_t *>(own + phase_flag_off(t.slot, 0, r))) <= last) {
    }
  }
  st_volatile_u64(cnt, last + 1);
  if (k > 1 && release) run_release(team, kPhaseDone);
}

template <typename S>
__device__ __forceinline__ void phase_routed(const TeamDev &t) {
  S::sync();
  if (S::rank() == 0) phase_routed_one(t);
  S::sync();
}

// A routed phase in two parts for collectives whose run leaders pass data on to their runs before
// releasing them: phase_routed_hold, the leader's stores into its run's members, phase_routed_end.
template <typename S>
__device__ __forceinline__ void phase_routed_hold(const TeamDev &t) {
  S::sync();
  if (S::rank() == 0) phase_routed_one(t, false);
  S::sync();
}
template <typename S>
__device__ __forceinline__ void phase_routed_end(const TeamDev &t) {
  S::sync();
  if (S::rank() == 0 && run_leader(t)) run_release(t, kPhaseDone);
  S::sync();
}

// One phase on row: the scope's threads fan the flag updates and the waits out over the peers.
// A flag counts the phases its sender has run on the row (flags and counters start at zero
// together: the whole control block is zeroed when the heap is made, and a team's slot is
// cleared, flags and counters at once, when the team is destroyed: src/coll/dev_teams.cpp), so a
// phase adds 1 to this member's flag on every other member (a relaxed system-scope reduction)
// and waits until all of its own flags pass the last phase.
// Each updating thread releases first: fence_release_sys, then the relaxed reductions, a release
// pattern as strong as a st.release.sys per flag. After the scope barrier the fence orders every
// store the scope made before the phase (cumulativity), so pushed data and earlier puts are
// visible to a peer once it sees the flag. Why this shape (measured with shmem_sync_flavors:
// docs/perf/h200x2-perftest.md): the release is a MEMBAR.SYS that waits until the thread's
// earlier stores are acknowledged, the previous phase's flag update included; with st.release of
// counter + 1 the fence would also wait for the counter's L2 round trip before it could start;
// the reduction's operand does not depend on the counter, which is loaded after the updates, so
// its round trip overlaps their flight (flavour frel_red). A kernel holding a printf call gets a
// MEMBAR.CTA before each fence, which waits for the thread's outstanding loads (frel_call; a
// counter load before the fence would be one of them); gshmem's error reports write a record
// instead of printing (impl/core.cuh), so the library's kernels have no MEMBAR.CTA. One fence per
// thread, not one per flag: a fence per flag waits for the update sent to the previous peer. The
// waits are acquire loads; the closing scope barrier passes their ordering on to the scope's
// other threads.
// BOUNDARY: the phase is the whole of an on-stream sync/barrier kernel, which stores and loads
// nothing else. What it must order is the earlier work of the stream, which the kernel boundary
// has already completed (every store of an earlier kernel or copy performed before this kernel
// starts), and the later work, which starts after this kernel ends with its own L1 contents; the
// flags are then relaxed (no membar for the release, no L1 invalidate per poll). With the proxy
// on, the release stays: the data the proxy wrote for earlier kernels is ordered before the flag
// only through the quiet's acquire.
// A split phase (teams of up to GSHMEM_DEV_MAX_TEAM_PES, with wait and add): this member adds
// `add` (0, 1 or 2) to its flags and waits only for member `wait`'s flag (none when wait is
// t.size); the row counter still moves by one. Two split phases in which every member adds 2 in
// all and the second waits for every flag (wait -1) leave the row as two phases do: a broadcast
// signals its root's data to each member with the first and closes with the second.
template <typename S, bool BOUNDARY = false>
__device__ __forceinline__ void phase(const char *call, const TeamDev &t, int row, int wait = -1, unsigned add = 1) {
  if (t.routed) return phase_routed<S>(t);
  // Every access of the phase names the global state space (core.cuh's *_u64 helpers).
  auto poll = [](const uint64_t *f) { return BOUNDARY ? ld_relaxed_sys_u64(f) : ld_acquire_sys_u64(f); };
  auto bump = [add](uint64_t *f) { red_add_relaxed_sys_u64(f, add); };
  S::sync();
  // Operations pushed to the proxy before the phase complete first. Every flag-updating thread
  // waits for that quiet (a warp's lanes need not reconverge after rank 0's wait on their own).
  if (S::rank() == 0) proxy_quiet();
  if (proxy_on()) S::sync();
  if (t.size > 1) {
    // The row's phase counter (volatile: another block of an earlier collective may have advanced it).
    uint64_t *cnt = reinterpret_cast<uint64_t *>(ctrl(st().my_pe, GSHMEM_DEV_CTRL_PHASE_CNT)) +
                    static_cast<size_t>(t.slot) * GSHMEM_DEV_MAX_ROWS + row;
    const int r = S::rank(), w = S::size(), me_w = t.pe(t.me);
    const bool release = !BOUNDARY || proxy_on();
    uint64_t last;
    if (t.size <= static_cast<int>(GSHMEM_DEV_MAX_TEAM_PES)) {
      // Loops not unrolled: a thread alone usually has one or a few peers, and every instruction
      // of its path is on the phase's latency (the unrolled loop's trip arithmetic cost 0.04-0.08
      // us a step at thread scope, shmem_sync_flavors).
      if (release && add && r < t.size - 1) fence_release_sys();
#pragma unroll 1
      for (int k = r; add && k < t.size - 1; k += w) {
        const int j = t.me + 1 + k < t.size ? t.me + 1 + k : t.me + 1 + k - t.size;
        bump(phase_flag(t.pe(j), t.slot, row, t.me));
      }
      // The counter is loaded after the updates: its L2 round trip overlaps their flight to the
      // peers, and the fence does not wait for it.
      last = ld_volatile_u64(cnt);
      const uint64_t *own = phase_flag(me_w, t.slot, row, 0);
#pragma unroll 1
      for (int k = r; k < t.size - 1; k += w) {
        const int j = t.me + 1 + k < t.size ? t.me + 1 + k : t.me + 1 + k - t.size;
        if (wait >= 0 && j != wait) continue;
        while (poll(own + j) <= last) {
        }
      }
    } else {
      last = ld_volatile_u64(cnt);
      (void)call;  // larger teams are routed (the host publishes them so)
      // Every round's update is a release: it passes on, to the next peer, what this thread
      // acquired from the previous rounds' peers.
      for (int k = 0, d = 1; r == 0 && d < t.size; ++k, d <<= 1) {
        if (release) fence_release_sys();
        bump(phase_flag(t.pe((t.me + d) % t.size), t.slot, row, k));
        while (poll(phase_flag(me_w, t.slot, row, k)) <= last) {
        }
      }
    }
    S::sync();
    if (r == 0) st_volatile_u64(cnt, last + 1);
  }
}

template <typename S>
__device__ __forceinline__ void team_sync(const char *call, int handle) {
  phase<S>(call, team(call, handle), 0);
}

// A barrier is a sync whose release fence before the flag updates also completes (orders) every
// earlier put of the scope, which is what the quiet in barrier = quiet + sync provides for NVLink
// stores.
template <typename S>
__device__ __forceinline__ void team_barrier(const char *call, int handle) {
  phase<S>(call, team(call, handle), 0);
}

// [lo, hi) of row's share of bytes, in multiples of A bytes (a power of two).
template <size_t A = 16>
__device__ __forceinline__ void row_range(size_t bytes, int row, int nrows, size_t *lo, size_t *hi) {
  static_assert(A != 0 && (A & (A - 1)) == 0, "row_range: A is a power of two");
  const size_t per = ((bytes + nrows - 1) / nrows + A - 1) & ~(A - 1);
  *lo = per * row < bytes ? per * row : bytes;
  *hi = *lo + per < bytes ? *lo + per : bytes;
}

}  // namespace gshmem::dev
