// Small team reductions pushed to the members (team_coll.hpp push_reduce). A pulled reduction
// (collectives.hpp) costs an entry sync, a get round trip, the puts of the results and an exit
// sync with their flush: about six network latencies across nodes. Pushed, each member sends its
// partial to one partner per step and waits for that partner's: recursive doubling, log2(members)
// latencies, no sync. Members past the largest power of two p fold in first (member 2i into
// 2i + 1 for i < members - p) and get the result back at the end.
// Every member combines a lower-ranked partial with a higher-ranked one as op(lower, higher), so
// every member computes the same tree and ends with the same bits (floating point included).
#include <algorithm>
#include <cstring>

#include "coll/env.hpp"
#include "coll/groups.hpp"
#include "coll/team_coll.hpp"
#include "gshmem/constants.h"
#include "heap/control.hpp"

namespace gshmem::coll {

bool push_reduce(const char* call, int handle, void* d, const void* s, size_t bytes, size_t elem,
                 const std::function<void(void* out, const void* lo, const void* hi, size_t bytes)>& combine) {
  if (bytes == 0) return false;
  team::Team& t = team_for(call, handle);
  const int n = t.size();
  int p = 1, rounds = 0;
  while (2 * p <= n) p *= 2, ++rounds;
  if (n < 2 || rounds + 2 > heap::kPushSteps) return false;
  // SHMEM_TEAM_WORLD's large boxes take pieces of kPushBytesWorld, one sequence number each: any
  // size up to kPushDeepMembers (each member sends what a pulled reduction moves), up to one piece past
  // that (recursive doubling sends the whole piece every round: log2(n) times the data, where the
  // pulled slices move it about twice).
  const size_t piece = t.slot == 0 ? heap::kPushBytesWorld : heap::kPushBytes;
  if (bytes > piece && (t.slot != 0 || n > heap::kPushDeepMembers)) return false;
  if (piece % elem) return false;
  check_sym(call, d, bytes, "dest");
  check_sym(call, s, bytes, "source");
  Env& e = env(call);
  const bool checks = e.cfg->GSHMEM_COLL_CHECKS;
  const int rem = n - p, me = t.my_index;
  const auto member = [&](int r) { return r < rem ? 2 * r + 1 : r + rem; };
  // Pieces are started up to kPushWindow ahead of the one being completed: starting a piece sends
  // its first message (the fold, or the first doubling round), completing it runs the rest. A
  // member sends piece s's first message only after it completed piece s - kPushWindow, which
  // took its partner's message of that piece, sent after the partner completed piece
  // s - 2 x kPushWindow: so at most 2 x kPushWindow pieces are unread in a box row (kPushDepth).
  // Later rounds' messages are sent while completing a piece, in order, one piece at a time.
  const size_t pieces = (bytes + piece - 1) / piece;
  const size_t window = pieces > 1 ? static_cast<size_t>(heap::kPushWindow) : 1;
  const uint64_t seq0 = t.push_seq + 1;
  t.push_seq += pieces;
  const bool folds = me < 2 * rem && me % 2 == 0;  // folds into me + 1 and gets the result back
  const bool absorbs = me < 2 * rem && me % 2 == 1;
  const int rank = absorbs ? me / 2 : me - rem;  // among the p members of the doubling rounds
  const auto src_of = [&](size_t i) { return static_cast<const char*>(s) + i * piece; };
  const auto len_of = [&](size_t i) { return std::min(piece, bytes - i * piece); };
  const auto send = [&](size_t i, int idx, int step, const char* data) {
    e.teams->push(t, t.pes[static_cast<size_t>(idx)], step, seq0 + i, op_reduce, bytes, data, len_of(i));
  };
  const auto recv = [&](size_t i, int idx, int step) -> const char* {
    const int pe = t.pes[static_cast<size_t>(idx)];
    const heap::PushHead& b = e.teams->wait_push(call, t, step, seq0 + i, bytes, pe);
    if (checks && (b.op != op_reduce || b.bytes != bytes))
      fatal(call,
            "arguments differ between PEs (mismatch): pe %d passed (%llu, %llu), pe %d passed (%llu, %llu) in "
            "team %d",
            pe, static_cast<unsigned long long>(b.op), static_cast<unsigned long long>(b.bytes), e.my_pe,
            static_cast<unsigned long long>(op_reduce), static_cast<unsigned long long>(bytes), handle);
    return heap::push_data(b);
  };
  // A piece's partial starts as the source piece and lives in the dest piece from the first
  // combine on (no copies of its own). In place is fine: a piece of the source is read (sent or
  // combined) before that piece of dest is first written, and pieces are disjoint; dest and
  // source are the same or disjoint (OpenSHMEM).
  const auto start = [&](size_t i) {
    if (folds) send(i, me + 1, 0, src_of(i));
    else if (!absorbs && rounds > 0) send(i, member(rank ^ 1), 1, src_of(i));
  };
  const auto complete = [&](size_t i) {
    const size_t len = len_of(i);
    char* out = static_cast<char*>(d) + i * piece;
    if (folds) {
      memcpy(out, recv(i, me + 1, rounds + 1), len);
      return;
    }
    const char* cur = src_of(i);
    if (absorbs) {
      combine(out, recv(i, me - 1, 0), cur, len);
      cur = out;
    }
    for (int k = 0; k < rounds; ++k) {
      const int partner = rank ^ (1 << k);
      if (k > 0 || absorbs) send(i, member(partner), 1 + k, cur);
      const char* in = recv(i, member(partner), 1 + k);
      if (partner < rank) combine(out, in, cur, len);
      else combine(out, cur, in, len);
      cur = out;
    }
    if (absorbs) send(i, me - 1, rounds + 1, out);
  };
  size_t started = 0;
  for (size_t i = 0; i < pieces; ++i) {
    for (; started < pieces && started < i + window; ++started) start(started);
    complete(i);
  }
  return true;
}

bool active_is_world(const char* call, int start, int log_stride, int size, long* pSync) {
  Env& e = env(call);
  if (start != 0 || log_stride != 0 || size != e.npes) return false;
  if (!pSync) fatal(call, "pSync is NULL");
  check_sym(call, pSync, SHMEM_SYNC_SIZE * sizeof(long), "pSync");
  return true;
}

}  // namespace gshmem::coll
