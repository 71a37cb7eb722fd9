#include "coll/groups.hpp"

#include <atomic>
#include <cstring>
#include <memory>

#include "coll/env.hpp"
#include "coll/team_coll.hpp"
#include "common/fatal.hpp"
#include "common/wait.hpp"
#include "gshmem/constants.h"

namespace gshmem::coll {

namespace {
Env* g_env = nullptr;

// Callers validated the range on this PE; the same offset exists on every PE.
heap::Target where(const char* call, const void* sym, size_t n, int pe) {
  heap::Target t = g_env->heap->translate(sym, n, pe);
  if (t.error != heap::Target::Error::none) fatal(call, "%p (%zu bytes) is not symmetric", sym, n);
  return t;
}
transport::Transport& via(const char* call, int pe) {
  transport::Transport* t = (*g_env->routes)[static_cast<size_t>(pe)].transport;
  if (!t) fatal(call, "pe %d is not reachable from this PE", pe);
  return *t;
}
void check(const char* call, transport::Transport& t, const transport::Result& res) {
  (void)t;
  if (!res.ok()) fatal(call, "%s", res.what().c_str());
}
}  // namespace

void set_env(Env* e) { g_env = e; }
Env& env(const char* call) {
  if (!g_env) fatal(call, "called before shmem_init or after shmem_finalize");
  return *g_env;
}
bool gpu_pe() {
#if GSHMEM_HAVE_CUDA
  return g_env && g_env->ops;
#else
  return false;
#endif
}

void read_sym(const char* call, void* dst, const void* sym, size_t n, int pe) {
  const heap::Target t = where(call, sym, n, pe);
  if (t.p) {
    memcpy(dst, t.p, n);
    return;
  }
  transport::Transport& x = via(call, pe);
  check(call, x, x.get(pe, static_cast<transport::Seg>(t.seg), t.off, dst, n));
}

void write_sym(const char* call, void* sym, const void* src, size_t n, int pe) {
  const heap::Target t = where(call, sym, n, pe);
  if (t.p) {
    memcpy(t.p, src, n);
    return;
  }
  transport::Transport& x = via(call, pe);
  check(call, x, x.put(pe, static_cast<transport::Seg>(t.seg), t.off, src, n));
}

team::Team& team_for(const char* call, int handle) {
  team::Team* t = env(call).teams->get(handle);
  if (!t) fatal(call, "team %d is not a valid team handle", handle);
  if (t->my_index < 0) fatal(call, "this PE is not a member of team %d", handle);
  return *t;
}

void check_sym(const char* call, const void* p, size_t bytes, const char* what) {
  if (!bytes) return;
  if (!p) fatal(call, "%s is NULL with %zu bytes", what, bytes);
  Env& e = env(call);
  const heap::Target t = e.heap->translate(p, bytes, e.my_pe);
  if (t.error != heap::Target::Error::none)
    fatal(call, "%s %p (%zu bytes) %s (heap %p + %zu)", what, p, bytes,
          t.error == heap::Target::Error::past_end ? "extends past the end of its symmetric segment"
                                                   : "is not a symmetric address",
          static_cast<void*>(e.heap->base()), e.heap->size());
  if (t.device)
    fatal(call, "%s %p is GPU memory: host-side collectives on the device heap are not supported yet", what, p);
}

void check_no_overlap(const char* call, const void* d, size_t dbytes, const void* s, size_t sbytes) {
  const auto dl = reinterpret_cast<uintptr_t>(d), sl = reinterpret_cast<uintptr_t>(s);
  if (dbytes && sbytes && dl < sl + sbytes && sl < dl + dbytes)
    fatal(call, "dest [%p, +%zu) overlaps source [%p, +%zu)", d, dbytes, s, sbytes);
}

Group team_group(const char* call, team::Team& t) {
  (void)call;
  Env& e = env(call);
  Group g;
  g.pes = t.pes;
  g.me = t.my_index;
  team::Team* tp = &t;
  g.sync = [tp, &e] {
    e.transport_quiet();  // writes through the transport land before the members are released
    e.teams->sync_serialized(*tp);
  };
  auto seq = std::make_shared<uint64_t>(0);
  g.publish = [tp, seq, &e](uint64_t v) {
    const uint64_t s = ++tp->seq;
    *seq = s;
    heap::TeamSlot& slot = tp->slot_of(*e.heap, e.my_pe);
    slot.pub[s & 1][0] = v;
    slot.pub_seq[s & 1].store(s, std::memory_order_release);
  };
  g.published = [tp, seq, &e](int i) -> uint64_t {
    const heap::TeamSlot& mine = tp->slot_of(*e.heap, e.my_pe);
    const int pe = tp->pes[static_cast<size_t>(i)];
    uint64_t their_seq = 0, v = 0;
    e.teams->read_control(pe, &mine.pub_seq[*seq & 1], &their_seq, sizeof their_seq);
    e.teams->read_control(pe, &mine.pub[*seq & 1][0], &v, sizeof v);
    if (their_seq != *seq) fatal("shmem collective", "pe %d of team %d is in a different collective", pe, tp->handle);
    return v;
  };
  g.read = [](void* dst, const void* sym, size_t n, int pe) { read_sym("shmem collective", dst, sym, n, pe); };
  g.write = [](void* sym, const void* src, size_t n, int pe) { write_sym("shmem collective", sym, src, n, pe); };
  return g;
}

// Deprecated active sets: pSync[k] (k < 32) are dissemination counters (the sender adds 1, the
// receiver waits for >= 1 and takes it back, so pSync returns to SHMEM_SYNC_VALUE = 0);
// pSync[kPub] carries a member's published word.
constexpr int kPub = 64;

Group active_set_group(const char* call, int start, int log_stride, int size, long* pSync) {
  Env& e = env(call);
  if (!pSync) fatal(call, "pSync is NULL");
  check_sym(call, pSync, SHMEM_SYNC_SIZE * sizeof(long), "pSync");
  if (size < 1 || start < 0 || log_stride < 0 || log_stride > 30 ||
      start + static_cast<long long>(size - 1) * (1LL << log_stride) >= e.npes)
    fatal(call, "active set (PE_start %d, logPE_stride %d, PE_size %d) does not fit %d PEs", start, log_stride, size,
          e.npes);
  Group g;
  g.me = -1;
  for (int i = 0; i < size; ++i) {
    const int pe = start + i * (1 << log_stride);
    if (pe == e.my_pe) g.me = i;
    g.pes.push_back(pe);
  }
  if (g.me < 0)
    fatal(call, "this PE is not in the active set (PE_start %d, logPE_stride %d, PE_size %d)", start, log_stride, size);
  std::vector<int> pes = g.pes;
  const int me = g.me;
  g.sync = [pes, me, pSync, &e] {
    const int n = static_cast<int>(pes.size());
    Backoff b;
    e.transport_quiet();
    for (int k = 0, d = 1; d < n; ++k, d <<= 1) {
      const int to_pe = pes[static_cast<size_t>((me + d) % n)];
      const heap::Target t = where("shmem active-set sync", &pSync[k], sizeof(long), to_pe);
      if (t.p) {
        __atomic_fetch_add(reinterpret_cast<long*>(t.p), 1L, __ATOMIC_RELEASE);
      } else {
        transport::Transport& x = via("shmem active-set sync", to_pe);
        check("shmem active-set sync", x,
              x.amo(to_pe, static_cast<transport::Seg>(t.seg), t.off, GSHMEM_AMO_ADD, sizeof(long), 1, 0, nullptr));
      }
      for (Backoff::State s; __atomic_load_n(&pSync[k], __ATOMIC_ACQUIRE) < 1;) b(s);
      __atomic_fetch_sub(&pSync[k], 1L, __ATOMIC_RELAXED);
    }
  };
  g.publish = [pSync](uint64_t v) { __atomic_store_n(&pSync[kPub], static_cast<long>(v), __ATOMIC_RELEASE); };
  g.published = [pes, pSync](int i) -> uint64_t {
    long v = 0;
    read_sym("shmem collective", &v, &pSync[kPub], sizeof v, pes[static_cast<size_t>(i)]);
    return static_cast<uint64_t>(v);
  };
  g.read = [](void* dst, const void* sym, size_t n, int pe) { read_sym("shmem collective", dst, sym, n, pe); };
  g.write = [](void* sym, const void* src, size_t n, int pe) { write_sym("shmem collective", sym, src, n, pe); };
  return g;
}

}  // namespace gshmem::coll
