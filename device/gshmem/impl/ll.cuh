// LL ("low latency") team collectives: small broadcasts, fcollects and reductions with no phase.
//
// An LL word is 8 bytes, {32-bit round sequence : 4 data bytes}, written by one store (two words
// per 16-byte store where the thread has two), so a receiver that sees this round's sequence in a
// word has that word's data, with no fence on either side. Per team slot and sender, every
// member's control block has a double-buffered area (parity = round & 1) of GSHMEM_DEV_LL_BYTES;
// the round number counts the slot's LL collectives (LL_CNT, local, the same on every member).
//
// Rounds are all-to-all: in every LL collective each member sends at least one word to every
// other member (its data, or a one-word token when it has none: a broadcast's non-roots) and
// waits for at least one word of this round from each. So a member that starts round c has seen
// every member's round c-1 words, which each sent only after finishing round c-2: the parity
// (c & 1) areas it is about to write are no longer read. (Each load of round c-2 has returned
// before its thread sends in round c-1: the loaded value was consumed, by a sequence check, a
// combine or a dest store, earlier in program order.) A member is at most one round ahead of any
// other, and then writes only the other parity.
//
// No closing phase: a member can return while another still reads its words and writes its own
// dest. Collectives that push into peers' dest without an opening phase (broadcast, fcollect,
// alltoall and alltoalls above the LL sizes) call settle_ll first: each member publishes, once,
// that it has finished the team's LL rounds so far (a release store into every other member's
// LL_DONE word) and waits for the others' words. Publishing on demand, not at the end of every
// round, keeps that system-scope release (which waits for the round's NVLink stores to be
// acknowledged) off the LL path.
//
// Sending: a thread loads the source words of up to 4 pairs before it stores any of them (a
// system-scope store is an asm statement the compiler may not move loads across, so loading
// word by word would pay one memory latency per word; measured: docs/perf/h100x2-perftest.md).
#pragma once
#include <type_traits>

#include "gshmem/impl/team.cuh"

namespace gshmem::dev {

constexpr size_t kLLPayload = GSHMEM_DEV_LL_BYTES / 2;  // data bytes per sender and round: 4 KiB
// Broadcast and fcollect go LL while each thread of the scope moves at most this many 16-byte
// pairs of words: a broadcast's pairs per peer, an fcollect's twice that (it sends its own and
// receives as many from each peer, in turn). So broadcast up to 128 bytes at thread scope and
// 4 KiB for a warp or block; fcollect up to 64 bytes per member at thread scope, 2 KiB for a warp
// and 4 KiB for a block. Each batch of pairs is one memory round trip on the thread's path: 4
// pairs a batch when sending, 8 when a thread receives alone (ll_recv); beyond 4 sending batches
// the push path's phase is cheaper (measured: docs/perf/h200x2-perftest.md).
constexpr size_t kLLMaxPairsPerThread = 16;

__device__ __forceinline__ uint64_t *ll_buf(int pe, int slot, int parity, int sender) {
  return reinterpret_cast<uint64_t *>(ctrl(pe, GSHMEM_DEV_CTRL_LL) +
                                      ((static_cast<size_t>(slot) * 2 + parity) * GSHMEM_DEV_MAX_TEAM_PES + sender) *
                                          GSHMEM_DEV_LL_BYTES);
}
__device__ __forceinline__ volatile uint64_t *ll_count(int slot) {
  return reinterpret_cast<volatile uint64_t *>(ctrl(st().my_pe, GSHMEM_DEV_CTRL_LL_CNT)) + slot;
}
// The last LL round this PE published in LL_DONE and saw every other member publish (settle_ll).
__device__ __forceinline__ volatile uint64_t *ll_published(int slot) {
  return reinterpret_cast<volatile uint64_t *>(ctrl(st().my_pe, GSHMEM_DEV_CTRL_LL_PUB)) + slot;
}
__device__ __forceinline__ uint64_t *ll_done(int pe, int slot, int idx) {
  return reinterpret_cast<uint64_t *>(ctrl(pe, GSHMEM_DEV_CTRL_LL_DONE)) +
         static_cast<size_t>(slot) * GSHMEM_DEV_MAX_TEAM_PES + idx;
}

__device__ __forceinline__ uint64_t ll_load(const uint64_t *buf, size_t w) {
  return sys_atomic<uint64_t>(*const_cast<uint64_t *>(buf + w)).load(cuda::memory_order_relaxed);
}
// Two words, each a single-copy-atomic 8-byte element of one 16-byte access.
__device__ __forceinline__ void ll_load2(const uint64_t *p, uint64_t &a, uint64_t &b) {
  asm volatile("ld.relaxed.sys.global.v2.b64 {%0, %1}, [%2];" : "=l"(a), "=l"(b) : "l"(p) : "memory");
}
__device__ __forceinline__ void ll_store2(uint64_t *p, uint64_t a, uint64_t b) {
  asm volatile("st.relaxed.sys.global.v2.b64 [%0], {%1, %2};" ::"l"(p), "l"(a), "l"(b) : "memory");
}

// A team whose members have LL areas for each other (and more than one member).
__device__ __forceinline__ bool ll_team(const TeamDev &t) {
  return t.size > 1 && t.size <= static_cast<int>(GSHMEM_DEV_MAX_TEAM_PES);
}

// Whether a broadcast (ways 1) or fcollect (ways 2) of bytes per member goes LL.
template <typename S>
__device__ __forceinline__ bool ll_fits(const TeamDev &t, size_t bytes, int nrows, size_t ways) {
  return nrows == 1 && ll_team(t) && bytes <= kLLPayload &&
         ways * ((bytes + 7) / 8) <= kLLMaxPairsPerThread * static_cast<size_t>(S::size());
}

struct LLRound {
  uint64_t c;    // round number (>= 1)
  uint32_t seq;  // its sequence in the words: never 0, so zeroed areas never match
  int par;
};

template <typename S>
__device__ __forceinline__ LLRound ll_begin(const TeamDev &t) {
  S::sync();  // the scope's leader wrote the count at the end of the last round
  const uint64_t c = *ll_count(t.slot) + 1;
  return {c, static_cast<uint32_t>(c) | 0x80000000u, static_cast<int>(c & 1)};
}

// nrows > 1: the round is shared by the rows (blocks) of an on-stream launch (large LL rounds).
// Each row adds itself to LL_BIG_ROWS when done with the round; the last one clears it and moves
// the count, so the count moves once, after every row (each read it when it began the round).
template <typename S>
__device__ __forceinline__ void ll_end(const TeamDev &t, const LLRound &q, int nrows = 1) {
  S::sync();
  if (S::rank() != 0) return;
  if (nrows > 1) {
    cuda::atomic_ref<uint32_t, cuda::thread_scope_device> done(
        *reinterpret_cast<uint32_t *>(ctrl(st().my_pe, GSHMEM_DEV_CTRL_LL_BIG_ROWS)));
    if (done.fetch_add(1, cuda::memory_order_acq_rel) != static_cast<uint32_t>(nrows - 1)) return;
    done.store(0, cuda::memory_order_relaxed);
  }
  *ll_count(t.slot) = q.c;
}

// 4 data bytes of word w of [0, bytes) (zero past the end).
__device__ __forceinline__ uint32_t ll_data(const unsigned char *s, size_t bytes, size_t w, bool aligned4) {
  if (aligned4 && 4 * w + 4 <= bytes) return *reinterpret_cast<const uint32_t *>(s + 4 * w);
  uint32_t d = 0;
  for (size_t b = 0; b < 4 && 4 * w + b < bytes; ++b) d |= static_cast<uint32_t>(s[4 * w + b]) << (8 * b);
  return d;
}

// Pairs of words a thread loads before it stores or waits on any: a block's threads have at most
// one pair each in the LL sizes (and a kernel of 1024 threads has 64 registers a thread).
template <typename S>
inline constexpr int ll_batch = std::is_same_v<S, Block> ? 1 : 4;

// Pairs of words carrying bytes (a token, one pair of zero data, when bytes is 0).
__device__ __forceinline__ size_t ll_pairs(size_t bytes) { return bytes ? (bytes + 7) / 8 : 1; }

// Sends [src, src + bytes) (nothing but a token when bytes is 0) as this round's LL words into
// this member's area on every other member.
template <typename S>
__device__ __forceinline__ void ll_send(const TeamDev &t, const LLRound &q, const void *src, size_t bytes) {
  constexpr int U = ll_batch<S>;
  const unsigned char *s = static_cast<const unsigned char *>(src);
  const size_t np = ll_pairs(bytes);
  const bool a8 = (reinterpret_cast<uintptr_t>(s) & 7) == 0, a4 = (reinterpret_cast<uintptr_t>(s) & 3) == 0;
  const uint64_t hi = static_cast<uint64_t>(q.seq) << 32;
  const size_t w = static_cast<size_t>(S::size());
  // Stores the batch at p0 (pair p0 + u * w from v[u]: its low 4 bytes in the pair's first word,
  // its high 4 in the second) into this member's area on every other member.
  auto push = [&](size_t p0, const uint64_t(&v)[U]) {
    for (int k = 1; k < t.size; ++k) {
      uint64_t *buf = ll_buf(t.pe((t.me + k) % t.size), t.slot, q.par, t.me);
#pragma unroll
      for (int u = 0; u < U; ++u)
        if (p0 + u * w < np) ll_store2(buf + 2 * (p0 + u * w), hi | static_cast<uint32_t>(v[u]), hi | (v[u] >> 32));
    }
  };
  size_t p0 = static_cast<size_t>(S::rank());
  // Whole batches of aligned 8-byte words: straight-line loads, none waiting for another, so a
  // batch costs one load latency. (With each load followed, inside its own branch, by the
  // register moves building the pair, every load would wait for the previous one.)
  if (std::is_same_v<S, Thread> && a8)
    for (; 8 * (p0 + (U - 1) * w) + 8 <= bytes; p0 += U * w) {
      uint64_t v[U];
#pragma unroll
      for (int u = 0; u < U; ++u) v[u] = *reinterpret_cast<const uint64_t *>(s + 8 * (p0 + u * w));
      push(p0, v);
    }
  // The rest: a partial batch, an unaligned source, bytes past the last whole word, or a token.
  for (; p0 < np; p0 += U * w) {
    uint64_t v[U];
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const size_t p = p0 + u * w;
      v[u] = 0;
      if (p < np && bytes) {
        if (a8 && 8 * p + 8 <= bytes) v[u] = *reinterpret_cast<const uint64_t *>(s + 8 * p);
        else v[u] = ll_data(s, bytes, 2 * p, a4) | static_cast<uint64_t>(ll_data(s, bytes, 2 * p + 1, a4)) << 32;
      }
    }
    push(p0, v);
  }
}

// Waits for this round's words from one sender's area and writes their bytes to dest (a token:
// bytes 0, dest unused).
template <typename S>
__device__ __forceinline__ void ll_recv(const uint64_t *buf, void *dest, size_t bytes, uint32_t seq) {
  // A thread alone takes 8 pairs per round trip here (the sender's 4 are off the other members'
  // path); the batch registers start at zero, so a predicated-off load does not make the compiler
  // keep their old values (kept, they spill at 8 pairs under 64 registers).
  constexpr int U = std::is_same_v<S, Thread> ? 8 : ll_batch<S>;
  unsigned char *d = static_cast<unsigned char *>(dest);
  const size_t np = ll_pairs(bytes);
  const bool a8 = (reinterpret_cast<uintptr_t>(d) & 7) == 0;
  const size_t w = static_cast<size_t>(S::size());
#pragma unroll 1
  for (size_t p0 = static_cast<size_t>(S::rank()); p0 < np; p0 += U * w) {
    uint64_t x[U] = {}, y[U] = {};
#pragma unroll
    for (int u = 0; u < U; ++u)
      if (p0 + u * w < np) ll_load2(buf + 2 * (p0 + u * w), x[u], y[u]);
#pragma unroll
    for (int u = 0; u < U; ++u) {
      const size_t p = p0 + u * w;
      if (p >= np) continue;
      while (static_cast<uint32_t>(x[u] >> 32) != seq || static_cast<uint32_t>(y[u] >> 32) != seq)
        ll_load2(buf + 2 * p, x[u], y[u]);
      if (!bytes) continue;
      const uint64_t v = static_cast<uint64_t>(static_cast<uint32_t>(y[u])) << 32 | static_cast<uint32_t>(x[u]);
      if (a8 && 8 * p + 8 <= bytes) {
        *reinterpret_cast<uint64_t *>(d + 8 * p) = v;
      } else {
        for (size_t b = 0; b < 8 && 8 * p + b < bytes; ++b) d[8 * p + b] = static_cast<unsigned char>(v >> (8 * b));
      }
    }
  }
}

// Before pushing into peers' dest with no opening phase: every member has finished the team's
// LL rounds so far (see the top of this file). Nothing to do when the team never ran one.
template <typename S>
__device__ __forceinline__ void settle_ll(const TeamDev &t) {
  if (!ll_team(t)) return;
  // Nothing to do when the team never ran an LL round, or every member is known to be past the
  // last one (this member published it and saw the others' words: ll_published).
  // The counters are loaded before the scope's barrier, which is the vote itself: the scope's
  // leader (rank 0) stored them last, at the end of the scope's last LL round or settle, so its own
  // loads see them; another thread may load older values, and older values can only make it vote
  // to settle when nothing is left, which republishes the same round (harmless). Both loads are
  // in flight together and overlap the barrier.
  // The scope decides as one (S::any): the rows of an on-stream launch all settle, and one row's
  // leader may store ll_published while another row's threads load it. Threads that decided apart
  // would pass different numbers of scope barriers; the barriers after would then pair out of
  // place, and a phase's flag update could leave before other warps of the scope had stored their
  // data.
  const uint64_t seen = *ll_count(t.slot), published = *ll_published(t.slot);
  if (!S::any(seen && published < seen)) return;
  // After the vote's barrier every thread reads the leader's count (only an LL round's end moves
  // it, and none runs between the scope's last round and here).
  const uint64_t c = *ll_count(t.slot);
  const int r = S::rank(), w = S::size(), me_w = t.pe(t.me);
  // release: orders the scope's dest stores of those rounds (after the scope barrier)
  for (int k = r; k < t.size - 1; k += w)
    sys_atomic<uint64_t>(*ll_done(t.pe((t.me + 1 + k) % t.size), t.slot, t.me)).store(c, cuda::memory_order_release);
  for (int k = r; k < t.size - 1; k += w) {
    const int j = (t.me + 1 + k) % t.size;
    while (load_acquire(ll_done(me_w, t.slot, j)) < c) {
    }
  }
  S::sync();  // every thread read ll_published above
  if (r == 0) *ll_published(t.slot) = c;
}

// Elements i0, i0 + step, ... (K of them, those below n) of the payload in an LL area, once the
// sequence of each word they lie in matches: whole words for 4-, 8- and 16-byte types, bytes of
// one word for 1- and 2-byte types (they never straddle a word). Every word's first load is issued
// before any is waited on, so a thread that combines many elements waits about one round trip per
// K elements instead of one per element.
template <typename T, int K>
__device__ __forceinline__ void ll_elems(const uint64_t *buf, size_t i0, size_t step, size_t n, uint32_t seq,
                                         T (&out)[K]) {
  constexpr int WPE = sizeof(T) % 4 == 0 ? static_cast<int>(sizeof(T) / 4) : 1;  // words per element
  auto word = [](size_t i, int q) -> size_t { return sizeof(T) % 4 == 0 ? i * WPE + q : i * sizeof(T) / 4; };
  uint64_t v[K * WPE];
#pragma unroll
  for (int k = 0; k < K; ++k)
#pragma unroll
    for (int q = 0; q < WPE; ++q)
      if (i0 + k * step < n) v[k * WPE + q] = ll_load(buf, word(i0 + k * step, q));
#pragma unroll
  for (int k = 0; k < K; ++k) {
    const size_t i = i0 + k * step;
    if (i >= n) continue;
    union {
      T v;
      uint32_t w[WPE];
      unsigned char c[sizeof(T)];
    } u;
#pragma unroll
    for (int q = 0; q < WPE; ++q) {
      uint64_t x = v[k * WPE + q];
      while (static_cast<uint32_t>(x >> 32) != seq) x = ll_load(buf, word(i, q));
      if constexpr (sizeof(T) % 4 == 0) {
        u.w[q] = static_cast<uint32_t>(x);
      } else {
        const size_t b0 = i * sizeof(T);
        for (size_t b = 0; b < sizeof(T); ++b) u.c[b] = static_cast<unsigned char>(x >> (8 * ((b0 + b) % 4)));
      }
    }
    out[k] = u.v;
  }
}

// What a combine over the members produces on member me: the reduction (all members), an
// inclusive scan (members 0..me) or an exclusive scan (members 0..me-1; zero on member 0).
enum ScanMode : int { kReduceAll = 0, kInscan = 1, kExscan = 2 };
// The number of leading members member me combines under Mode.
template <int Mode>
__device__ __forceinline__ int combined_members(const TeamDev &t) {
  return Mode == kReduceAll ? t.size : Mode == kInscan ? t.me + 1 : t.me;
}

// Reduction (or scan, Mode) of n elements (at most kLLPayload bytes): every member sends its
// source to every other, then combines the sources in team order, so all PEs get bit-identical
// results. A scan still waits for the words of the members it does not combine: every LL round
// is all-to-all (the parity argument at the top of this file).
template <typename S, typename T, typename Op, int Mode = kReduceAll>
__device__ __forceinline__ void reduce_ll(const TeamDev &t, T *dest, const T *src, size_t n) {
  const LLRound q = ll_begin<S>(t);
  ll_send<S>(t, q, src, n * sizeof(T));
  // In place, an element may be written by another thread than the one sending its words: every
  // word must be sent before any element is overwritten.
  S::sync();
  const int r = S::rank(), w = S::size(), me_w = t.pe(t.me);
  // A thread or warp takes K of its elements at a time (ll_elems); a block's threads have few
  // each, and a block of 1024 threads has no registers to spare. (A scan's block taking 4 was
  // slower for the sizes that fit one element per thread: docs/perf/scan.md.)
  constexpr int K = std::is_same_v<S, Block> ? 1 : (sizeof(T) > 8 ? 2 : 8);
  const size_t step = static_cast<size_t>(w);
  const int lim = combined_members<Mode>(t);
  for (size_t i0 = r; i0 < n; i0 += K * step) {
    T acc[K], v[K];
    for (int j = 0; j < t.size; ++j) {
      if (j == t.me) {
#pragma unroll
        for (int k = 0; k < K; ++k)
          if (i0 + k * step < n) v[k] = src[i0 + k * step];
      } else {
        ll_elems<T, K>(ll_buf(me_w, t.slot, q.par, j), i0, step, n, q.seq, v);
      }
      if (Mode == kReduceAll || j < lim)
#pragma unroll
        for (int k = 0; k < K; ++k) acc[k] = j == 0 ? v[k] : Op()(acc[k], v[k]);
    }
#pragma unroll
    for (int k = 0; k < K; ++k)
      if (i0 + k * step < n) dest[i0 + k * step] = Mode == kReduceAll || lim ? acc[k] : T{};
  }
  ll_end<S>(t, q);
}

// ---- large LL rounds: block-scope reductions above kLLPayload (team slot 0) ----
// Reduce-scatter + all-gather (impl/coll.cuh) puts an opening phase, remote loads of every
// member's slice, remote stores of the result and a closing phase, two system-scope releases and
// a remote-load round trip on the path, which costs well above LL words (measured:
// docs/perf/h200x2-perftest.md). A large LL round is the LL round with a bigger area
// (GSHMEM_DEV_CTRL_LL_BIG: 1 MiB per parity, for team slot 0 only): each member sends its whole
// source as LL words to every other member and combines in team order, with no phase and no
// remote load. Member j's words go to region (j - i - 1) mod size of member i's area, each region
// 1 KiB per 512 bytes of data. It counts as a round of the slot like any other (same count, same
// parity rule, so the argument at the top of this file holds; the layout may differ from round
// to round, since a member writes a parity only after every member finished reading all of it).
// gshmem_dev_ll_big_fits (device_host/state.h) says when it is taken: 16-byte aligned source, dest
// and size, and up to 16 KiB sent in all (bytes x (members - 1)) by one block, a parity's area
// (2 PEs: 512 KiB) by the several rows of an on-stream launch.
// Each thread owns the 16-byte chunks rank, rank + size, ... of its row's range: it sends them (a
// batch of 4 chunks loaded before any is stored) and later combines the same chunks, so an
// in-place reduction needs no barrier between the two (a chunk is read and written by one thread
// only).
// The area of a chunk's four LL words is laid out so that a warp's 32 consecutive chunks are one
// 1 KiB group: the first halves (two words, 16 bytes) of the 32 chunks, then the second halves. So
// each 16-byte store (and load) instruction of a warp covers 512 contiguous bytes. (With a chunk's
// four words together, each instruction would write every other 16 bytes of 1 KiB: partial
// sectors over NVLink, measured slower: docs/perf/h200x2-perftest.md.)
// One block moves about 10 GB/s of LL words to a peer, so one block's round grows by about 3.5 us
// per 16 KiB sent, and past 16 KiB reduce-scatter is faster: hence 16 KiB for one row (measured:
// docs/perf/h200x2-perftest.md). On stream, the rows split the chunks (ranges of whole warp
// groups) and each row sends and combines its own: one round in several blocks. The rows read the
// slot's count when they start, and ll_end moves it once every row of this member is done with
// the round, as the argument needs (a row whose range is empty sends nothing; the others' words
// stand for this member, whose rows all began the round after its previous round ended).
__device__ __forceinline__ uint64_t *ll_big_buf(int pe, int parity, int idx, size_t region) {
  return reinterpret_cast<uint64_t *>(ctrl(pe, GSHMEM_DEV_CTRL_LL_BIG) +
                                      static_cast<size_t>(parity) * GSHMEM_DEV_LL_BIG_AREA +
                                      static_cast<size_t>(idx) * region);
}
// Word offset of chunk c's half h (0 or 1) in an area.
__device__ __forceinline__ size_t ll_big_word(size_t c, int h) { return (c >> 5) * 128 + h * 64 + (c & 31) * 2; }

template <typename T, typename Op>
static __device__ __noinline__ void reduce_ll_big(const TeamDev &t, T *dest, const T *src, size_t n, int row,
                                                  int nrows) {
  const LLRound q = ll_begin<Block>(t);
  const size_t r = static_cast<size_t>(Block::rank()), w = static_cast<size_t>(Block::size());
  size_t b_lo, b_hi;
  row_range<512>(n * sizeof(T), row, nrows, &b_lo, &b_hi);  // whole warp groups of 32 chunks
  const size_t c_lo = b_lo / 16, nc = b_hi / 16;            // this row's chunks: [c_lo, nc)
  const size_t region = gshmem_dev_ll_big_groups(n * sizeof(T)) * 1024;
  const uint4 *s4 = reinterpret_cast<const uint4 *>(src);
  const uint64_t hi = static_cast<uint64_t>(q.seq) << 32;
  constexpr int SB = 4;  // chunks a thread loads before it stores any
#pragma unroll 1
  for (size_t c0 = c_lo + r; c0 < nc; c0 += SB * w) {
    uint4 v[SB];
#pragma unroll
    for (int u = 0; u < SB; ++u)
      if (c0 + u * w < nc) v[u] = s4[c0 + u * w];
#pragma unroll 1
    for (int k = 1; k < t.size; ++k) {
      uint64_t *buf = ll_big_buf(t.pe((t.me + k) % t.size), q.par, t.size - k - 1, region);
#pragma unroll
      for (int u = 0; u < SB; ++u) {
        const size_t c = c0 + u * w;
        if (c >= nc) continue;
        ll_store2(buf + ll_big_word(c, 0), hi | v[u].x, hi | v[u].y);
        ll_store2(buf + ll_big_word(c, 1), hi | v[u].z, hi | v[u].w);
      }
    }
  }
  constexpr size_t V = 16 / sizeof(T);
  union Vec {
    uint4 u;
    T e[V];
  };
  const int me_w = t.pe(t.me);
  constexpr int RB = 2;  // chunks a thread combines per round trip
#pragma unroll 1
  for (size_t c0 = c_lo + r; c0 < nc; c0 += RB * w) {
    Vec mine[RB], acc[RB];
#pragma unroll
    for (int u = 0; u < RB; ++u)
      if (c0 + u * w < nc) mine[u].u = s4[c0 + u * w];
#pragma unroll 1
    for (int j = 0; j < t.size; ++j) {
      Vec x[RB];
      if (j == t.me) {
#pragma unroll
        for (int u = 0; u < RB; ++u) x[u] = mine[u];
      } else {
        const uint64_t *buf = ll_big_buf(me_w, q.par, (j - t.me - 1 + t.size) % t.size, region);
        uint64_t a[RB], b[RB], c[RB], d[RB];
#pragma unroll
        for (int u = 0; u < RB; ++u) {
          a[u] = b[u] = c[u] = d[u] = 0;
          if (c0 + u * w < nc) {
            ll_load2(buf + ll_big_word(c0 + u * w, 0), a[u], b[u]);
            ll_load2(buf + ll_big_word(c0 + u * w, 1), c[u], d[u]);
          }
        }
#pragma unroll
        for (int u = 0; u < RB; ++u) {
          const size_t ch = c0 + u * w;
          if (ch >= nc) continue;
          const uint32_t seq = q.seq;
          while (static_cast<uint32_t>(a[u] >> 32) != seq || static_cast<uint32_t>(b[u] >> 32) != seq)
            ll_load2(buf + ll_big_word(ch, 0), a[u], b[u]);
          while (static_cast<uint32_t>(c[u] >> 32) != seq || static_cast<uint32_t>(d[u] >> 32) != seq)
            ll_load2(buf + ll_big_word(ch, 1), c[u], d[u]);
          x[u].u = make_uint4(static_cast<uint32_t>(a[u]), static_cast<uint32_t>(b[u]), static_cast<uint32_t>(c[u]),
                              static_cast<uint32_t>(d[u]));
        }
      }
#pragma unroll
      for (int u = 0; u < RB; ++u) {
        if (j == 0) {
          acc[u] = x[u];
        } else {
#pragma unroll
          for (size_t e = 0; e < V; ++e) acc[u].e[e] = Op()(acc[u].e[e], x[u].e[e]);
        }
      }
    }
    uint4 *d4 = reinterpret_cast<uint4 *>(dest);
#pragma unroll
    for (int u = 0; u < RB; ++u)
      if (c0 + u * w < nc) d4[c0 + u * w] = acc[u].u;
  }
  ll_end<Block>(t, q, nrows);
}

// Copies at most kLLPayload bytes (a member's own block, or a raw round's data). A thread loads
// up to 4 words before it stores any: the compiler cannot move a load above a store that may
// alias it, so a plain word loop pays one memory latency per word. (Also kept apart from the
// general copy<S>, which inlined a second time next to the push path costs registers a 1024-thread
// kernel lacks.)
template <typename S>
__device__ __forceinline__ void ll_copy_local(char *d, const char *s, size_t bytes) {
  constexpr unsigned U = std::is_same_v<S, Thread> ? 4 : 1;
  const size_t r = static_cast<size_t>(S::rank()), w = static_cast<size_t>(S::size());
  size_t done = 0;
  if (((reinterpret_cast<uintptr_t>(d) | reinterpret_cast<uintptr_t>(s)) & 7) == 0) {
    const size_t nw = bytes / 8;
    const uint64_t *sw = reinterpret_cast<const uint64_t *>(s);
    uint64_t *dw = reinterpret_cast<uint64_t *>(d);
    for (size_t i0 = r; i0 < nw; i0 += U * w) copy_batch<uint64_t, U>(dw, sw, i0, w, nw);
    done = nw * 8;
  }
  for (size_t i = done + r; i < bytes; i += w) d[i] = s[i];
}

// ---- raw rounds: thread-scope reductions of 33 bytes to 4 KiB ----
// One thread's LL words cost a sequence check per word on both sides (measured:
// docs/perf/h100x2-perftest.md). A raw round moves this member's bytes with weak stores into its
// raw area (GSHMEM_DEV_CTRL_RAW, the LL area's layout with 4 KiB per sender) on every other
// member, then stores the round number into its raw flag there with release order; a receiver
// waits for each flag with an acquire load and reads the data with plain loads. It is a round
// like the LL ones (same count, all-to-all), so the argument at the top of this file holds for it
// too; the flag's release also orders this member's loads of the round before. The raw reduction
// is out of line: inlined next to the LL path it costs the kernel registers.
// Broadcast and fcollect stay LL / push at thread scope: as raw rounds (one copy into the raw
// area, one out of it) they are slower (measured: docs/perf/h100x2-perftest.md).
// From 33 bytes: 64 bytes as LL words take two sending batches, slower than a raw round (measured:
// docs/perf/h200x2-perftest.md).
constexpr size_t kRawMinBytes = 32;

template <typename S>
__device__ __forceinline__ bool raw_fits(const TeamDev &t, size_t bytes, int nrows) {
  return std::is_same_v<S, Thread> && nrows == 1 && ll_team(t) && bytes > kRawMinBytes && bytes <= kLLPayload;
}

__device__ __forceinline__ char *raw_buf(int pe, int slot, int parity, int sender) {
  return ctrl(pe, GSHMEM_DEV_CTRL_RAW) +
         ((static_cast<size_t>(slot) * 2 + parity) * GSHMEM_DEV_MAX_TEAM_PES + sender) * kLLPayload;
}
__device__ __forceinline__ uint64_t *raw_flag(int pe, int slot, int sender) {
  return reinterpret_cast<uint64_t *>(ctrl(pe, GSHMEM_DEV_CTRL_RAW_FLAGS)) +
         static_cast<size_t>(slot) * GSHMEM_DEV_MAX_TEAM_PES + sender;
}

// A thread's copy into a raw area: 4 x 16 bytes per memory round trip when both ends are 16-byte
// aligned (the raw areas are), else ll_copy_local's 4 x 8. Full batches carry no predicates: a
// predicated load into a batch register makes the compiler keep that register's old value.
__device__ __forceinline__ void raw_copy(char *d, const char *s, size_t bytes) {
  size_t done = 0;
  if (((reinterpret_cast<uintptr_t>(d) | reinterpret_cast<uintptr_t>(s)) & 15) == 0) {
    const uint4 *s4 = reinterpret_cast<const uint4 *>(s);
    uint4 *d4 = reinterpret_cast<uint4 *>(d);
    const size_t nq = bytes / 16;
    size_t i = 0;
#pragma unroll 1
    for (; i + 4 <= nq; i += 4) {
      const uint4 a = s4[i], b = s4[i + 1], c = s4[i + 2], e = s4[i + 3];
      d4[i] = a;
      d4[i + 1] = b;
      d4[i + 2] = c;
      d4[i + 3] = e;
    }
#pragma unroll 1
    for (; i < nq; ++i) d4[i] = s4[i];
    done = nq * 16;
  }
  ll_copy_local<Thread>(d + done, s + done, bytes - done);
}

// One thread: sends bytes of src to every other member.
__device__ __forceinline__ void raw_send(const TeamDev &t, const LLRound &q, const void *src, size_t bytes) {
#pragma unroll 1
  for (int k = 1; k < t.size; ++k)
    raw_copy(raw_buf(t.pe((t.me + k) % t.size), t.slot, q.par, t.me), static_cast<const char *>(src), bytes);
#pragma unroll 1
  for (int k = 1; k < t.size; ++k)
    sys_atomic<uint64_t>(*raw_flag(t.pe((t.me + k) % t.size), t.slot, t.me)).store(q.c, cuda::memory_order_release);
}

// Waits for member j's flag of this round (an acquire: its data in this PE's raw area is visible).
__device__ __forceinline__ void raw_wait(const TeamDev &t, const LLRound &q, int j) {
  const int me_w = t.pe(t.me);
  while (load_acquire(raw_flag(me_w, t.slot, j)) < q.c) {
  }
}

// Every member's flag first, then the combine: in team order, like reduce_ll (bit-identical
// results everywhere), K elements at a time with every load of the K issued before the first
// store (a dest store may alias the next loads, so each K costs one memory round trip), the
// remainder one element at a time. Member j's source is arithmetic on the raw area's base, not a
// table (one indexed by member lives in local memory). Out of line, and a kernel that calls two
// out-of-line collectives can be given 32 registers by ptxas (the perftest reduction kernel is):
// full batches without predicates keep it from spilling. In place is fine: every word was sent
// before, and element i of src is read before dest[i] is written.
template <typename T, typename Op>
static __device__ __noinline__ void reduce_raw(const TeamDev &t, T *dest, const T *src, size_t n) {
  const LLRound q = ll_begin<Thread>(t);
  raw_send(t, q, src, n * sizeof(T));
#pragma unroll 1
  for (int j = 0; j < t.size; ++j)
    if (j != t.me) raw_wait(t, q, j);
  const T *raw0 = reinterpret_cast<const T *>(raw_buf(t.pe(t.me), t.slot, q.par, 0));
  constexpr size_t kStride = kLLPayload / sizeof(T);  // elements from one sender's area to the next
  auto from = [&](int j) { return j == t.me ? src : raw0 + static_cast<size_t>(j) * kStride; };
  constexpr int K = sizeof(T) >= 8 ? 4 : 8;
  size_t i0 = 0;
#pragma unroll 1
  for (; i0 + K <= n; i0 += K) {
    T acc[K], v[K];
    const T *f0 = from(0) + i0;
#pragma unroll
    for (int k = 0; k < K; ++k) acc[k] = f0[k];
#pragma unroll 1
    for (int j = 1; j < t.size; ++j) {
      const T *fj = from(j) + i0;
#pragma unroll
      for (int k = 0; k < K; ++k) v[k] = fj[k];
#pragma unroll
      for (int k = 0; k < K; ++k) acc[k] = Op()(acc[k], v[k]);
    }
#pragma unroll
    for (int k = 0; k < K; ++k) dest[i0 + k] = acc[k];
  }
#pragma unroll 1
  for (; i0 < n; ++i0) {
    T acc = from(0)[i0];
#pragma unroll 1
    for (int j = 1; j < t.size; ++j) acc = Op()(acc, from(j)[i0]);
    dest[i0] = acc;
  }
  ll_end<Thread>(t, q);
}

// A reduction of at most kLLPayload bytes, no phase: LL words, or a raw round at thread scope.
template <typename S, typename T, typename Op>
__device__ __forceinline__ void reduce_small(const TeamDev &t, T *dest, const T *src, size_t n) {
  if constexpr (std::is_same_v<S, Thread>)
    if (raw_fits<S>(t, n * sizeof(T), 1)) return reduce_raw<T, Op>(t, dest, src, n);
  reduce_ll<S, T, Op>(t, dest, src, n);
}

// Waits for this round's token (one word) from every other member but skip. The senders are
// split over the scope's threads, so the tokens cost about one load latency, not one per sender:
// at thread scope the one thread loads the first word of each sender before it waits on any; a
// warp's lanes take one sender each; a block's threads take the senders in turn (a block may
// have fewer threads than senders, and a kernel of 1024 threads has 64 registers a thread).
template <typename S>
__device__ __forceinline__ void ll_wait_tokens(const TeamDev &t, const LLRound &q, int skip) {
  const int me_w = t.pe(t.me), r = S::rank();
  if constexpr (std::is_same_v<S, Block>) {
    for (int k = 1 + r; k < t.size; k += S::size()) {
      const int j = (t.me + k) % t.size;
      if (j == skip) continue;
      while (static_cast<uint32_t>(ll_load(ll_buf(me_w, t.slot, q.par, j), 0) >> 32) != q.seq) {
      }
    }
    return;
  }
  constexpr int M = std::is_same_v<S, Thread> ? static_cast<int>(GSHMEM_DEV_MAX_TEAM_PES) - 1 : 1;
  static_assert(std::is_same_v<S, Thread> || GSHMEM_DEV_MAX_TEAM_PES <= 32, "a warp's lanes cover the senders");
  uint64_t x[M] = {};
#pragma unroll
  for (int u = 0; u < M; ++u) {
    const int k = 1 + r + u * S::size(), j = (t.me + k) % t.size;
    if (k < t.size && j != skip) x[u] = ll_load(ll_buf(me_w, t.slot, q.par, j), 0);
  }
#pragma unroll
  for (int u = 0; u < M; ++u) {
    const int k = 1 + r + u * S::size(), j = (t.me + k) % t.size;
    if (k < t.size && j != skip)
      while (static_cast<uint32_t>(x[u] >> 32) != q.seq) x[u] = ll_load(ll_buf(me_w, t.slot, q.par, j), 0);
  }
}

// Broadcast of bytes from member root: the root sends its source, every other member a token.
template <typename S>
__device__ __forceinline__ void broadcast_ll(const TeamDev &t, void *dest, const void *src, size_t bytes, int root) {
  const LLRound q = ll_begin<S>(t);
  ll_send<S>(t, q, src, t.me == root ? bytes : 0);
  // The root copies its own dest after sending, off the other members' path: they wait only for
  // its words. (Writing it from the send registers instead is slower; measured:
  // docs/perf/h200x2-perftest.md.)
  if (t.me == root && dest != src) {
    S::sync();  // dest may overlap src: every word sent first
    ll_copy_local<S>(static_cast<char *>(dest), static_cast<const char *>(src), bytes);
  }
  // The root's data, then every other member's token.
  if (t.me != root) ll_recv<S>(ll_buf(t.pe(t.me), t.slot, q.par, root), dest, bytes, q.seq);
  ll_wait_tokens<S>(t, q, root);
  ll_end<S>(t, q);
}

// fcollect of bytes per member: member j's block lands at dest + j * bytes everywhere.
template <typename S>
__device__ __forceinline__ void fcollect_ll(const TeamDev &t, void *dest, const void *src, size_t bytes) {
  const LLRound q = ll_begin<S>(t);
  ll_send<S>(t, q, src, bytes);
  S::sync();  // dest may overlap src: every word sent first
  char *d = static_cast<char *>(dest);
  if (d + static_cast<size_t>(t.me) * bytes != src)
    ll_copy_local<S>(d + static_cast<size_t>(t.me) * bytes, static_cast<const char *>(src), bytes);
  const int me_w = t.pe(t.me);
  for (int k = 1; k < t.size; ++k) {
    const int j = (t.me + k) % t.size;
    ll_recv<S>(ll_buf(me_w, t.slot, q.par, j), d + static_cast<size_t>(j) * bytes, bytes, q.seq);
  }
  ll_end<S>(t, q);
}

}  // namespace gshmem::dev
