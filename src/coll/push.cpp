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
  // SHMEM_TEAM_WORLD's large boxes take pieces of kPushBytesWorld, one pushed reduction each: any
  // size up to 4 members (each member sends what a pulled reduction moves), up to one piece past
  // that (recursive doubling sends the whole piece every round: log2(n) times the data, where the
  // pulled slices move it about twice).
  const size_t piece = t.slot == 0 ? heap::kPushBytesWorld : heap::kPushBytes;
  if (bytes > piece && (t.slot != 0 || n > 4)) return false;
  if (piece % elem) return false;
  check_sym(call, d, bytes, "dest");
  check_sym(call, s, bytes, "source");
  Env& e = env(call);
  const bool checks = e.cfg->GSHMEM_COLL_CHECKS;
  const int rem = n - p, me = t.my_index;
  const auto member = [&](int r) { return r < rem ? 2 * r + 1 : r + rem; };
  alignas(64) char acc[heap::kPushBytesWorld];
  for (size_t off = 0; off < bytes; off += piece) {
    const size_t len = std::min(piece, bytes - off);
    const uint64_t seq = ++t.push_seq;
    char* out = static_cast<char*>(d) + off;
    memcpy(acc, static_cast<const char*>(s) + off, len);  // before out is written: in place is fine
    const auto send = [&](int idx, int step) {
      e.teams->push(t, t.pes[static_cast<size_t>(idx)], step, seq, op_reduce, bytes, acc, len);
    };
    const auto recv = [&](int idx, int step) -> const char* {
      const int pe = t.pes[static_cast<size_t>(idx)];
      const heap::PushHead& b = e.teams->wait_push(call, t, step, seq, len, pe);
      if (checks && (b.op != op_reduce || b.bytes != bytes))
        fatal(call,
              "arguments differ between PEs (mismatch): pe %d passed (%llu, %llu), pe %d passed (%llu, %llu) in "
              "team %d",
              pe, static_cast<unsigned long long>(b.op), static_cast<unsigned long long>(b.bytes), e.my_pe,
              static_cast<unsigned long long>(op_reduce), static_cast<unsigned long long>(bytes), handle);
      return heap::push_data(b);
    };
    if (me < 2 * rem && me % 2 == 0) {  // folds into me + 1 and gets the result back
      send(me + 1, 0);
      memcpy(out, recv(me + 1, rounds + 1), len);
      continue;
    }
    int rank = me - rem;  // among the p members of the doubling rounds
    if (me < 2 * rem) {
      combine(acc, recv(me - 1, 0), acc, len);
      rank = me / 2;
    }
    for (int k = 0; k < rounds; ++k) {
      const int partner = rank ^ (1 << k);
      send(member(partner), 1 + k);
      const char* in = recv(member(partner), 1 + k);
      if (partner < rank) combine(acc, in, acc, len);
      else combine(acc, acc, in, len);
    }
    if (me < 2 * rem) send(me - 1, rounds + 1);
    memcpy(out, acc, len);
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
