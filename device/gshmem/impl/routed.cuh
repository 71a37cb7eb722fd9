// Team collectives of routed teams (TeamDev::routed: a member on another node, reached through the
// proxy, or more members than the dissemination phase serves), and reductions, scans and collect of
// teams larger than the flag-matrix paths' GSHMEM_DEV_MAX_TEAM_PES. Every transfer goes to one
// member at a time, by stores when the member is mapped and through the proxy when it is not, so a
// team may span any number of nodes and have any number of members. All of it runs in one row
// (the host launches routed on-stream collectives with one block) and out of line: inlined into a
// user's kernel next to the NVLink paths, it would cost that kernel registers.
//
// broadcast, fcollect, alltoall, alltoalls: a routed phase, the members' puts (nbi), then the routed
// phase again, which completes the proxied ones first (team.cuh phase_routed). The first phase
// keeps a put out of a member's dest while that member is still in the team's previous collective:
// a reduction's last local write into the same dest can come after a faster member has left it.
// With node runs, broadcast and fcollect put across nodes to the runs' leaders only, which pass the
// data on to their runs between the closing phase's dissemination and the runs' release
// (phase_routed_hold, phase_routed_end).
//
// Reductions are recursive doubling in pieces through this PE's control block (reduce-scatter is
// recursive halving with the same partners, flags and buffers: reduce_halving):
// the members past the largest power of two (p2) first send their piece to member i - p2 (fold), the
// first p2 members exchange pieces with member i ^ 2^k in round k, combining op(lower member,
// higher member) so that every member holds the same bits, and the folded members get the result
// back (unfold). A team whose members form node runs (TeamDev::node_run: k consecutive members per
// node, every node alike) reduces hierarchically: each run's first member combines the run's
// sources through the mappings, only these leaders run the recursive doubling (one exchange per
// node pair and round instead of k), and each leader stores the result into its run's dests.
// Scans (sum) are Hillis-Steele rounds: in round k member i sends its inclusive
// partial to member i + 2^k. A message is a put into the receiver's buffer for its index and parity
// followed by an add to the receiver's flag for that index (through the proxy, the SIGNAL after the
// PUT); the receiver acks each message it has consumed, and a sender waits for the ack of the
// message two before (same buffer) before it sends. Each (sender, index) pair sends exactly one
// message per piece of its family, so the piece count (ROUTED_CNT) tells both sides which message
// comes next. The reduction family's buffers are the slot's LL area, the scan family's its raw
// area: routed teams use neither path. collect: an exclusive scan of the byte counts gives each
// member its offset, a sum the total, then puts and the routed phase (no first phase: a member
// has the sum only once every member has entered the call).
#pragma once
#include "gshmem/impl/ll.cuh"

namespace gshmem::dev {

// Reduction-family flag indices: 0 fold, 1..L rounds, L + 1 unfold (L < 31); scans: kScanIdx + k.
constexpr int kScanIdx = 32;
constexpr int kRoutedAck = 64;  // ack words follow the message words

__device__ __forceinline__ uint64_t *routed_word(int slot, int w) {
  return reinterpret_cast<uint64_t *>(ctrl(st().my_pe, GSHMEM_DEV_CTRL_ROUTED_CNT)) + slot * 8 + w;
}

// Waits (rank 0) until this PE's word at off reaches v; the scope barrier passes the acquire on.
template <typename S>
__device__ __forceinline__ void routed_wait(uint32_t off, uint64_t v) {
  if (S::rank() == 0)
    while (ld_acquire_sys_u64(reinterpret_cast<const uint64_t *>(ctrl(st().my_pe, off))) < v) {
    }
  S::sync();
}

// Message m on idx to member `to`: waits for the ack of message m - 2, puts bytes from this PE's
// src (global memory) to `to`'s control block at dst_off, then raises its flag for idx. Returns
// when src may change (proxied: the proxy has performed the PUT).
// Out of line, as the collectives below: a kernel needs the registers of the most demanding
// function it calls, and these paths must not raise that of a user's kernel past its NVLink paths.
template <typename S>
static __device__ __noinline__ void routed_send(const TeamDev &t, int to, int idx, uint64_t m, uint32_t dst_off,
                                                const void *src, size_t bytes) {
  routed_wait<S>(routed_flag_off(t.slot, kRoutedAck + idx), m >= 1 ? m - 1 : 0);
  const int pe = t.pe(to);
  if (proxied(pe)) {
    S::sync();
    if (S::rank() == 0) {
      fence_release_sys();  // the scope's stores to src, before the proxy reads it
      // src is in this PE's control block (global memory): proxy_put_bytes's loop for sources in
      // local or shared memory, inlined here, would raise the registers of every kernel that
      // calls a reduction.
      const uint64_t w = proxy_put_global(dst_off, static_cast<const char *>(src), bytes, pe);
      proxy_signal(routed_flag_off(t.slot, idx), 1, SHMEM_SIGNAL_ADD, pe);
      if (w) proxy_wait(w);
    }
    S::sync();
    return;
  }
  copy<S>(ctrl(pe, dst_off), static_cast<const char *>(src), bytes);
  S::sync();
  if (S::rank() == 0) {
    fence_release_sys();
    red_add_relaxed_sys_u64(reinterpret_cast<uint64_t *>(ctrl(pe, routed_flag_off(t.slot, idx))), 1);
  }
  S::sync();
}

// Message m on idx has arrived from `from` (wait), and has been consumed (ack).
template <typename S>
__device__ __forceinline__ void routed_recv(const TeamDev &t, int idx, uint64_t m) {
  routed_wait<S>(routed_flag_off(t.slot, idx), m + 1);
}
template <typename S>
static __device__ __noinline__ void routed_ack(const TeamDev &t, int from, int idx) {
  S::sync();  // every thread has read the buffer
  if (S::rank() == 0) {
    fence_release_sys();
    ctrl_add(t.pe(from), routed_flag_off(t.slot, kRoutedAck + idx), 1);
  }
}

template <typename S, typename T>
__device__ __forceinline__ void routed_copy(T *d, const T *s, size_t n) {
  for (size_t i = S::rank(); i < n; i += S::size()) d[i] = s[i];
  S::sync();
}

// acc = op(acc, x) (lower first) or op(x, acc).
template <typename S, typename T, typename Op>
__device__ __forceinline__ void routed_combine(T *acc, const T *x, size_t n, bool acc_lower) {
  for (size_t i = S::rank(); i < n; i += S::size()) acc[i] = acc_lower ? Op()(acc[i], x[i]) : Op()(x[i], acc[i]);
  S::sync();
}

// A node run's part in a routed reduction (TeamDev::node_run k >= 2): the run's first member (its
// leader) waits until the other k - 1 have entered (each adds one to the leader's kRunArrive flag),
// combines the run's sources itself, through the mappings, takes part in the recursive doubling
// among the leaders, stores every run member's part of the result into that member's dest and
// adds one to its kRunDone flag. The other members only announce themselves and wait: they return
// once the leader has read their source and written their dest. Word 5 of the slot's routed words
// counts the run reductions, the same on every member.
constexpr int kRunArrive = 62;  // past the scans' indices (kScanIdx + K, K <= 28) and kPhaseArrive, kPhaseDone
constexpr int kRunDone = 63;

// pe's copy of p, an address in this PE's own device segment (heap or control block).
template <typename T>
__device__ __forceinline__ T *seg_peer(T *p, int pe) {
  if (pe == st().my_pe) return p;
  const char *c = reinterpret_cast<const char *>(p);
  return reinterpret_cast<T *>(segment(pe) + (c - segment(st().my_pe)));
}

// Stores the result elements [lo, lo + n) (in res) into the dests of this member's run (this
// member alone without node runs): all of them (block 0: a reduction), or member j's block
// [j * block, (j + 1) * block) (reduce-scatter).
// The run's parts of a reduction are functions of their own, out of line: a kernel takes the
// registers of the most demanding function it calls, and reduce_routed's loop must not carry them.
template <typename S, typename T>
static __device__ __noinline__ void run_store(const TeamDev &team, T *dest, const T *res, size_t lo, size_t n,
                                              size_t block, size_t total) {
  const int k = run_size(team), first = team.me - team.me % k;
  for (int j = 0; j < k; ++j) {
    const int m = first + j;
    const size_t olo = block ? static_cast<size_t>(m) * block : 0, ohi = block ? olo + block : total;
    const size_t a = lo > olo ? lo : olo, b = lo + n < ohi ? lo + n : ohi;
    if (a < b) routed_copy<S>(seg_peer(dest, team.pe(m)) + (a - olo), res + (a - lo), b - a);
  }
}

// acc = src[lo, lo + n) combined over this member's run in team order (this member's alone
// without node runs).
template <typename S, typename T, typename Op>
static __device__ __noinline__ void run_load(const TeamDev &team, T *acc, const T *src, size_t lo, size_t n) {
  routed_copy<S>(acc, src + lo, n);
  for (int j = 1; j < team.node_run; ++j)
    routed_combine<S, T, Op>(acc, seg_peer(src, team.pe(team.me + j)) + lo, n, true);
}

// A run member's entry into a reduction: true for a member other than the leader, which has
// announced itself and waited until its leader stored its result; the leader waits for the others.
template <typename S>
static __device__ __noinline__ bool run_enter(const TeamDev &team) {
  const int k = team.node_run, first = team.me - team.me % k;
  uint64_t *runs = routed_word(team.slot, 5);
  const uint64_t run = ld_volatile_u64(runs) + 1;
  S::sync();  // every thread read the count before rank 0 moves it
  if (team.me == first) {
    routed_wait<S>(routed_flag_off(team.slot, kRunArrive), run * static_cast<uint64_t>(k - 1));
    return false;
  }
  if (S::rank() == 0) {
    fence_release_sys();  // the scope's writes to src, before the leader reads it
    red_add_relaxed_sys_u64(reinterpret_cast<uint64_t *>(ctrl(team.pe(first), routed_flag_off(team.slot, kRunArrive))),
                            1);
  }
  routed_wait<S>(routed_flag_off(team.slot, kRunDone), run);
  if (S::rank() == 0) st_volatile_u64(runs, run);
  S::sync();
  return true;
}

// The leader's end of a reduction: its run's dests are written; release the run.
template <typename S>
static __device__ __noinline__ void run_leave(const TeamDev &team) {
  S::sync();
  if (S::rank() == 0) {
    uint64_t *runs = routed_word(team.slot, 5);
    st_volatile_u64(runs, ld_volatile_u64(runs) + 1);
    run_release(team, kRunDone);  // the stores into the run's dests, before their done flags
  }
  S::sync();
}

// The reduction family's rounds and buffers among the exchanging members t, one layout for the
// doubling and the halving (they share the flags, the buffers and the piece counter): L rounds
// among p2 = 2^L members, `extra` members folded; the slot's LL area holds acc, then
// [parity][index 0..L+1] buffers of P bytes.
struct RoutedFamily {
  int L = 0, p2, extra;
  uint32_t area;
  size_t P;
  __device__ explicit RoutedFamily(const TeamDev &t) {
    while ((2 << L) <= t.size) ++L;
    p2 = 1 << L;
    extra = t.size - p2;
    area = GSHMEM_DEV_CTRL_LL + static_cast<uint32_t>(t.slot) * 2u * GSHMEM_DEV_MAX_TEAM_PES * GSHMEM_DEV_LL_BYTES;
    P = (2ull * GSHMEM_DEV_MAX_TEAM_PES * GSHMEM_DEV_LL_BYTES / (1 + 2 * (L + 2))) & ~size_t{15};
  }
  __device__ uint32_t buf(int par, int idx) const {
    return area + static_cast<uint32_t>(P * (1 + par * (L + 2) + idx));
  }
};

// Recursive doubling over src[0, total) in pieces among the team's members, or, when the team has
// node runs, among the runs' leaders with each run's sources combined first (run_load) and the
// result stored into the run's dests (run_store). Member j's result is element i in [olo, ohi)
// stored at dest[i - olo]: all of them (block 0: a reduction) or [j * block, (j + 1) * block)
// (reduce-scatter).
template <typename S, typename T, typename Op>
static __device__ __noinline__ void reduce_doubling(const TeamDev &team, T *dest, const T *src, size_t total,
                                                    size_t block) {
  // The loop's state lives in local memory (its address escapes into an empty asm), so none of
  // it is held in registers across the calls below. ptxas gives a callee registers apart from
  // those its callers hold across the call, so each register held here would add to
  // routed_send's, and with it to the user's kernel's (tests/nvshmem/check_coll_registers.py).
  struct State {
    TeamDev t;  // the members that exchange
    RoutedFamily f;
    const TeamDev *team;
    T *dest;
    const T *src;
    T *acc;
    size_t total, block, per, lo;
    uint64_t m;
  };
  State v{run_leaders(team), RoutedFamily(run_leaders(team)), &team, dest, src, nullptr, total, block, 0, 0, 0};
  asm volatile("" ::"l"(&v) : "memory");
  const TeamDev &t = v.t;
  v.per = v.f.P / sizeof(T);
  v.acc = reinterpret_cast<T *>(ctrl(st().my_pe, v.f.area));
  v.m = ld_volatile_u64(routed_word(t.slot, 0));
  S::sync();  // every thread read the count before rank 0 moves it at the end
  for (v.lo = 0; v.lo < v.total; v.lo += v.per, ++v.m) {
    const size_t n = v.total - v.lo < v.per ? v.total - v.lo : v.per;
    const int par = static_cast<int>(v.m & 1);
    run_load<S, T, Op>(*v.team, v.acc, v.src, v.lo, n);
    if (t.me >= v.f.p2) {  // folded: send, then get the result back
      routed_send<S>(t, t.me - v.f.p2, 0, v.m, v.f.buf(par, 0), v.acc, n * sizeof(T));
      routed_recv<S>(t, v.f.L + 1, v.m);
      run_store<S, T>(*v.team, v.dest, reinterpret_cast<const T *>(ctrl(st().my_pe, v.f.buf(par, v.f.L + 1))), v.lo, n,
                      v.block, v.total);
      routed_ack<S>(t, t.me - v.f.p2, v.f.L + 1);
      continue;
    }
    if (t.me < v.f.extra) {
      routed_recv<S>(t, 0, v.m);
      routed_combine<S, T, Op>(v.acc, reinterpret_cast<const T *>(ctrl(st().my_pe, v.f.buf(par, 0))), n, true);
      routed_ack<S>(t, t.me + v.f.p2, 0);
    }
    for (int r = 0; r < v.f.L; ++r) {
      // n and par again from the state: kept from above, they would be held across the calls.
      const size_t nr = v.total - v.lo < v.per ? v.total - v.lo : v.per;
      const int pr = static_cast<int>(v.m & 1), q = t.me ^ (1 << r);
      routed_send<S>(t, q, 1 + r, v.m, v.f.buf(pr, 1 + r), v.acc, nr * sizeof(T));
      routed_recv<S>(t, 1 + r, v.m);
      routed_combine<S, T, Op>(v.acc, reinterpret_cast<const T *>(ctrl(st().my_pe, v.f.buf(pr, 1 + r))), nr, t.me < q);
      routed_ack<S>(t, q, 1 + r);
    }
    const size_t nr = v.total - v.lo < v.per ? v.total - v.lo : v.per;
    run_store<S, T>(*v.team, v.dest, v.acc, v.lo, nr, v.block, v.total);
    if (t.me < v.f.extra)
      routed_send<S>(t, t.me + v.f.p2, v.f.L + 1, v.m, v.f.buf(static_cast<int>(v.m & 1), v.f.L + 1), v.acc,
                     nr * sizeof(T));
  }
  S::sync();
  if (S::rank() == 0) st_volatile_u64(routed_word(t.slot, 0), v.m);
  S::sync();
}

// Reduce-scatter by recursive halving among the exchanging members (the runs' leaders, or every
// member): leader c's segment is its run's blocks, [c * k * block, (c + 1) * k * block). Each piece
// takes sub-piece j (w elements at j * q) of every segment; the accumulator holds them by chunk:
// chunk c (c < p2) is segment c, then segment c + p2 when that leader is folded (c < extra), and
// chunk c sits at position bitrev(c) (L bits), cw elements apart. In round r a member exchanges
// with member me ^ 2^r, as the doubling does (so both share the flags, acks and their order on
// every index), keeps the half of its positions whose chunks agree with its own bit r, and sends
// the other half: one contiguous slice, half as long as the round before. After L rounds it holds
// its own chunk; it stores its segment into its run's dests and sends the folded leader its
// segment (unfold). A leader moves (1 - 1 / p2) of the data across nodes where the doubling moves
// all of it in every round.
template <typename S, typename T, typename Op>
static __device__ __noinline__ void reduce_halving(const TeamDev &team, T *dest, const T *src, size_t total,
                                                   size_t block) {
  const TeamDev t = run_leaders(team);  // the members that exchange
  const RoutedFamily f(t);
  const int L = f.L, p2 = f.p2, extra = f.extra;
  const size_t slots = extra ? 2 : 1;  // segments per chunk
  const size_t q = f.P / sizeof(T) / (static_cast<size_t>(p2) * slots);
  if (L == 0 || q == 0) return reduce_doubling<S, T, Op>(team, dest, src, total, block);
  const size_t seg = total / static_cast<size_t>(t.size);  // a leader's segment
  auto buf = [&](int par, int idx) { return f.buf(par, idx); };
  auto pos = [&](int c) { return static_cast<size_t>(__brev(static_cast<unsigned>(c)) >> (32 - L)); };
  T *acc = reinterpret_cast<T *>(ctrl(st().my_pe, f.area));
  uint64_t *cnt = routed_word(t.slot, 0);
  const uint64_t first = ld_volatile_u64(cnt);
  S::sync();  // every thread read the count before rank 0 moves it at the end
  uint64_t m = first;
  for (size_t lo = 0; lo < seg; lo += q, ++m) {
    const size_t w = seg - lo < q ? seg - lo : q, cw = w * slots;
    const int par = static_cast<int>(m & 1);
    for (int c = 0; c < t.size; ++c) {  // every segment's sub-piece, combined over the run
      const int ch = c < p2 ? c : c - p2;
      run_load<S, T, Op>(team, acc + pos(ch) * cw + (c < p2 ? 0 : w), src, static_cast<size_t>(c) * seg + lo, w);
    }
    const size_t mine = static_cast<size_t>(t.me) * seg + lo;
    if (t.me >= p2) {  // folded: send, then get the own segment back
      routed_send<S>(t, t.me - p2, 0, m, buf(par, 0), acc, static_cast<size_t>(p2) * cw * sizeof(T));
      routed_recv<S>(t, L + 1, m);
      run_store<S, T>(team, dest, reinterpret_cast<const T *>(ctrl(st().my_pe, buf(par, L + 1))), mine, w, block,
                      total);
      routed_ack<S>(t, t.me - p2, L + 1);
      continue;
    }
    if (t.me < extra) {
      routed_recv<S>(t, 0, m);
      routed_combine<S, T, Op>(acc, reinterpret_cast<const T *>(ctrl(st().my_pe, buf(par, 0))),
                               static_cast<size_t>(p2) * cw, true);
      routed_ack<S>(t, t.me + p2, 0);
    }
    size_t plo = 0, half = static_cast<size_t>(p2);
    for (int r = 0; r < L; ++r) {
      const int partner = t.me ^ (1 << r);
      half /= 2;
      const bool upper = (t.me >> r) & 1;  // this member keeps the upper half of its positions
      const size_t keep = upper ? plo + half : plo, give = upper ? plo : plo + half;
      routed_send<S>(t, partner, 1 + r, m, buf(par, 1 + r), acc + give * cw, half * cw * sizeof(T));
      routed_recv<S>(t, 1 + r, m);
      routed_combine<S, T, Op>(acc + keep * cw, reinterpret_cast<const T *>(ctrl(st().my_pe, buf(par, 1 + r))),
                               half * cw, t.me < partner);
      routed_ack<S>(t, partner, 1 + r);
      plo = keep;
    }
    run_store<S, T>(team, dest, acc + plo * cw, mine, w, block, total);
    if (t.me < extra) routed_send<S>(t, t.me + p2, L + 1, m, buf(par, L + 1), acc + plo * cw + w, w * sizeof(T));
  }
  S::sync();
  if (S::rank() == 0) st_volatile_u64(cnt, m);
  S::sync();
}

// A routed reduction (reduce-scatter: block > 0, by halving), hierarchical with node runs.
template <typename S, typename T, typename Op>
__device__ __forceinline__ void reduce_routed(const TeamDev &team, T *dest, const T *src, size_t total, size_t block) {
  if (team.node_run > 1 && run_enter<S>(team)) return;
  if (block) reduce_halving<S, T, Op>(team, dest, src, total, block);
  else reduce_doubling<S, T, Op>(team, dest, src, total, block);
  if (team.node_run > 1) run_leave<S>(team);
}

// Prefix sums in team order (Mode kInscan or kExscan), Hillis-Steele rounds in pieces.
template <typename S, typename T, typename Op, int Mode>
static __device__ __noinline__ void scan_routed(const TeamDev &t, T *dest, const T *src, size_t total) {
  int K = 0;
  while ((1 << K) < t.size) ++K;
  // The slot's raw area: inclusive and exclusive partials, then [parity][round] buffers.
  const uint32_t area =
      GSHMEM_DEV_CTRL_RAW + static_cast<uint32_t>(t.slot) * 2u * GSHMEM_DEV_MAX_TEAM_PES * (GSHMEM_DEV_LL_BYTES / 2);
  const size_t P = (static_cast<size_t>(GSHMEM_DEV_MAX_TEAM_PES) * GSHMEM_DEV_LL_BYTES / (2 + 2 * K)) & ~size_t{15};
  const size_t per = P / sizeof(T);
  auto buf = [&](int par, int k) { return area + static_cast<uint32_t>(P * (2 + par * K + k)); };
  T *inc = reinterpret_cast<T *>(ctrl(st().my_pe, area));
  T *exc = reinterpret_cast<T *>(ctrl(st().my_pe, area + static_cast<uint32_t>(P)));
  uint64_t *cnt = routed_word(t.slot, 1);
  const uint64_t first = ld_volatile_u64(cnt);
  S::sync();
  uint64_t m = first;
  for (size_t lo = 0; lo < total; lo += per, ++m) {
    const size_t n = total - lo < per ? total - lo : per;
    const int par = static_cast<int>(m & 1);
    for (size_t i = S::rank(); i < n; i += S::size()) {
      inc[i] = src[lo + i];
      exc[i] = T{};
    }
    S::sync();
    for (int k = 0; k < K; ++k) {
      const int d = 1 << k;
      if (t.me + d < t.size) routed_send<S>(t, t.me + d, kScanIdx + k, m, buf(par, k), inc, n * sizeof(T));
      if (t.me >= d) {
        routed_recv<S>(t, kScanIdx + k, m);
        const T *x = reinterpret_cast<const T *>(ctrl(st().my_pe, buf(par, k)));
        for (size_t i = S::rank(); i < n; i += S::size()) {
          inc[i] = Op()(x[i], inc[i]);
          if (Mode == kExscan) exc[i] = k == 0 ? x[i] : Op()(x[i], exc[i]);  // every member past 0 gets round 0
        }
        routed_ack<S>(t, t.me - d, kScanIdx + k);
        S::sync();
      }
    }
    routed_copy<S>(dest + lo, Mode == kExscan ? exc : inc, n);
  }
  S::sync();
  if (S::rank() == 0) st_volatile_u64(cnt, m);
  S::sync();
}

// Copies [lo, hi) of this run leader's dest into the same bytes of its run's other members.
template <typename S>
__device__ __forceinline__ void run_pass_on(const TeamDev &t, void *dest, size_t lo, size_t hi) {
  if (lo >= hi) return;
  char *d = static_cast<char *>(dest);
  for (int j = 1; j < t.node_run; ++j) copy<S>(seg_peer(d, t.pe(t.me + j)) + lo, d + lo, hi - lo);
}

// With node runs, the root puts to its own run and to the other runs' leaders only (one transfer
// per node instead of one per member), and each other leader passes the data on to its run before
// the closing phase releases the run.
template <typename S>
static __device__ __noinline__ void broadcast_routed(const char *call, const TeamDev &t, void *dest, const void *src,
                                                     size_t bytes, int root) {
  const int k = run_size(t), root_run = root - root % k;
  phase_routed<S>(t);
  if (t.me == root && bytes)
    for (int i = 0; i < t.size; ++i) {
      const int j = (t.me + i) % t.size;
      if ((j == t.me && dest == src) || (j - j % k != root_run && j % k)) continue;
      put<S>(call, dest, src, bytes, t.pe(j), true);
    }
  phase_routed_hold<S>(t);
  if (run_leader(t) && t.me != root_run) run_pass_on<S>(t, dest, 0, bytes);
  phase_routed_end<S>(t);
}

// Puts bytes from src + j * src_step to dest on every member j (nbi), starting after this one.
template <typename S>
__device__ __forceinline__ void put_each(const char *call, const TeamDev &t, void *dest, const void *src,
                                         size_t src_step, size_t bytes) {
  if (!bytes) return;
  for (int k = 0; k < t.size; ++k) {
    const int j = (t.me + k) % t.size;
    put<S>(call, dest, static_cast<const char *>(src) + static_cast<size_t>(j) * src_step, bytes, t.pe(j), true);
  }
}

// With node runs, a member puts its block to its own run and to the other runs' leaders; each
// leader passes the other runs' blocks on to its run before the closing phase releases it (each
// block crosses to a node once instead of once per member there).
template <typename S>
static __device__ __noinline__ void fcollect_routed(const char *call, const TeamDev &t, void *dest, const void *src,
                                                    size_t bytes) {
  char *mine = static_cast<char *>(dest) + static_cast<size_t>(t.me) * bytes;
  const int k = run_size(t), run = t.me - t.me % k;  // without node runs: every member is a leader
  phase_routed<S>(t);
  if (bytes)
    for (int i = 0; i < t.size; ++i) {
      const int j = (t.me + i) % t.size;
      if (j - j % k == run || j % k == 0) put<S>(call, mine, src, bytes, t.pe(j), true);
    }
  phase_routed_hold<S>(t);
  if (run_leader(t)) {
    run_pass_on<S>(t, dest, 0, static_cast<size_t>(run) * bytes);
    run_pass_on<S>(t, dest, static_cast<size_t>(run + k) * bytes, static_cast<size_t>(t.size) * bytes);
  }
  phase_routed_end<S>(t);
}

template <typename S>
static __device__ __noinline__ void alltoall_routed(const char *call, const TeamDev &t, void *dest, const void *src,
                                                    size_t bytes) {
  phase_routed<S>(t);
  put_each<S>(call, t, static_cast<char *>(dest) + static_cast<size_t>(t.me) * bytes, src, bytes, bytes);
  phase_routed<S>(t);
}

// Element k of the block for member j: source[(j*nelems + k)*sst] to dest[(me*nelems + k)*dst] on
// j, one put per element (a proxied member gets one PUT trigger per element).
template <typename S>
static __device__ __noinline__ void alltoalls_routed(const char *call, const TeamDev &t, void *dest, const void *src,
                                                     ptrdiff_t dst, ptrdiff_t sst, size_t nelems, size_t elem) {
  const char *s = static_cast<const char *>(src);
  phase_routed<S>(t);
  for (int kk = 0; kk < t.size && nelems; ++kk) {
    const int j = (t.me + kk) % t.size;
    const int pe = t.pe(j);
    if (proxied(pe)) {
      S::sync();
      if (S::rank() == 0)
        for (size_t k = 0; k < nelems; ++k) {
          char *to =
              static_cast<char *>(dest) + ((static_cast<size_t>(t.me) * nelems + k) * static_cast<size_t>(dst)) * elem;
          const char *from = s + ((static_cast<size_t>(j) * nelems + k) * static_cast<size_t>(sst)) * elem;
          proxy_put_bytes(proxy_off(call, to, elem, pe), from, elem, pe);
        }
      S::sync();
      continue;
    }
    const size_t span = ((static_cast<size_t>(t.size) * nelems - 1) * static_cast<size_t>(dst) + 1) * elem;
    char *d = peer(call, dest, span, pe);
    for (size_t k = S::rank(); k < nelems; k += S::size()) {
      char *to = d + ((static_cast<size_t>(t.me) * nelems + k) * static_cast<size_t>(dst)) * elem;
      const char *from = s + ((static_cast<size_t>(j) * nelems + k) * static_cast<size_t>(sst)) * elem;
      for (size_t b = 0; b < elem; ++b) to[b] = from[b];
    }
  }
  phase_routed<S>(t);
}

// collect: this member's offset is the exclusive scan of the byte counts, the total their sum
// (words 2, 3 and 4 of the slot's routed words: count, offset, total).
template <typename S>
static __device__ __noinline__ void collect_routed(const char *call, const TeamDev &t, void *dest, const void *src,
                                                   size_t bytes) {
  using Sum = Reduce<GSHMEM_REDUCE_SUM>;
  uint64_t *w = routed_word(t.slot, 2);
  S::sync();
  if (S::rank() == 0) st_volatile_u64(w, bytes);
  S::sync();
  scan_routed<S, uint64_t, Sum, kExscan>(t, w + 1, w, 1);
  reduce_routed<S, uint64_t, Sum>(t, w + 2, w, 1, 0);
  const size_t off = static_cast<size_t>(ld_volatile_u64(w + 1)), all = static_cast<size_t>(ld_volatile_u64(w + 2));
  {  // always checked (also with device checks off): the members write all bytes here
    const uint64_t off0 = reinterpret_cast<uint64_t>(dest) - st().heap_base;
    if (all && (off0 >= st().heap_size || all > st().heap_size - off0))
      fail_value(call, "dest does not hold the collected bytes in the symmetric heap; total bytes",
                 static_cast<long long>(all));
  }
  put_each<S>(call, t, static_cast<char *>(dest) + off, src, 0, bytes);
  phase_routed<S>(t);
}

}  // namespace gshmem::dev
