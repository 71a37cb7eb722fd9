#include "team/team.hpp"

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <cstring>

#include "common/fatal.hpp"
#include "common/log.hpp"
#include "common/wait.hpp"
#include "team/barrier.hpp"

namespace gshmem::team {

int Team::index_of(int world_pe) const {
  for (size_t i = 0; i < pes.size(); ++i)
    if (pes[i] == world_pe) return static_cast<int>(i);
  return -1;
}

void Teams::read_control(int pe, const void* field, void* dst, size_t n) const {
  const uint64_t off =
      static_cast<uint64_t>(static_cast<const char*>(field) - reinterpret_cast<const char*>(heap_->control(my_pe_)));
  if (const heap::ControlBlock* c = heap_->control(pe)) memcpy(dst, reinterpret_cast<const char*>(c) + off, n);
  else remote_.read(pe, off, dst, n);
}

Status Teams::init(const heap::SymmetricHeap* h, int my_pe, int npes, const std::vector<int>& shared,
                   const std::vector<int>& node) {
  heap_ = h;
  my_pe_ = my_pe;
  auto make = [&](int handle, std::vector<int> pes) {
    auto team = std::make_unique<Team>();
    team->handle = handle;
    team->slot = handle;
    team->pes = std::move(pes);
    team->my_index = team->index_of(my_pe);
    team->predefined = true;
    used_slots_ |= 1ull << handle;
    table_.push_back(std::move(team));
  };
  std::vector<int> world(static_cast<size_t>(npes));
  for (int i = 0; i < npes; ++i) world[static_cast<size_t>(i)] = i;
  make(kWorld, world);
  make(kShared, shared);  // PEs that can load/store each other's memory
  make(kNode, node);
  return Status::ok;
}

Team* Teams::get(int handle) {
  std::lock_guard<std::mutex> lock(mu_);
  if (handle < 0 || handle >= static_cast<int>(table_.size())) return nullptr;
  return table_[static_cast<size_t>(handle)].get();
}

void Teams::sync(Team& t) {
  const int slot = t.slot;
  const heap::SymmetricHeap* h = heap_;
  heap::Flag* mine = h->control(my_pe_)->teams[slot].barrier;
  dissemination_barrier(
      mine,
      [&](int pe, int k, uint64_t e) {
        if (heap::ControlBlock* c = h->control(pe)) {
          c->teams[slot].barrier[k].v.store(e, std::memory_order_release);
        } else {
          const uint64_t off =
              static_cast<uint64_t>(reinterpret_cast<char*>(&mine[k]) - reinterpret_cast<char*>(h->control(my_pe_)));
          remote_.store64(pe, off, e);
        }
      },
      t.pes, t.my_index, ++t.epoch);
}

namespace {
// pe's box (step, seq) for a piece of a pushed reduction of n bytes in all, in control block c:
// SHMEM_TEAM_WORLD's large boxes past heap::kPushBytes (push_reduce keeps larger ones to that team),
// else the team's own. Every piece of one reduction takes the same box class, a short last one too.
heap::PushHead& box_in(heap::ControlBlock* c, const Team& t, int step, uint64_t seq, size_t n) {
  if (n > heap::kPushBytes) {
    const uint64_t i = t.size() <= heap::kPushDeepMembers ? seq % heap::kPushDepth * heap::kPushDeepSteps
                                                          : (seq & 1) * heap::kPushSteps;
    return c->world_box[i + static_cast<uint64_t>(step)].head;
  }
  return c->inbox[t.slot].box[seq & 1][step].head;
}
// The box a message of the other size class would have landed in (none for teams without large ones).
const heap::PushHead* other_box(heap::ControlBlock* c, const Team& t, int step, uint64_t seq, size_t n) {
  if (n > heap::kPushBytes) return &c->inbox[t.slot].box[seq & 1][step].head;
  return t.slot == 0 ? &box_in(c, t, step, seq, heap::kPushBytes + 1) : nullptr;
}
}  // namespace

void Teams::push(Team& t, int pe, int step, uint64_t seq, uint64_t op, uint64_t bytes, const void* data, size_t n) {
  if (heap::ControlBlock* c = heap_->control(pe)) {
    heap::PushHead& b = box_in(c, t, step, seq, bytes);
    b.op = op;
    b.bytes = bytes;
    if (n) memcpy(heap::push_data(b), data, n);
    raise_to(b.seq, seq);
    return;
  }
  // The same box of this PE's block gives the offsets (every PE's control block has one layout).
  heap::ControlBlock* me = heap_->control(my_pe_);
  const heap::PushHead& mine = box_in(me, t, step, seq, bytes);
  const uint64_t check[2] = {op, bytes};  // the box's check words, in front of the data
  const auto off_of = [&](const void* field) {
    return static_cast<uint64_t>(static_cast<const char*>(field) - reinterpret_cast<const char*>(me));
  };
  remote_.put_flag(pe, off_of(&mine.op), check, sizeof check, data, n, off_of(&mine.seq), seq);
}

const heap::PushHead& Teams::wait_push(const char* call, Team& t, int step, uint64_t seq, size_t bytes, int from_pe) {
  heap::ControlBlock* me = heap_->control(my_pe_);
  const heap::PushHead& b = box_in(me, t, step, seq, bytes);
  if (b.seq.load(std::memory_order_acquire) >= seq) return b;
  // A partner that passed a size of the other class pushed into the other box.
  const heap::PushHead* other = other_box(me, t, step, seq, bytes);
  const auto t0 = std::chrono::steady_clock::now();
  auto next_warn = t0 + std::chrono::seconds(10), next_look = t0 + std::chrono::seconds(1);
  bool suspect = false;
  Backoff backoff;
  for (Backoff::State s; b.seq.load(std::memory_order_acquire) < seq;) {
    backoff(s);
    if ((s.iter & 1023) != 0) continue;
    if (other && other->seq.load(std::memory_order_acquire) >= seq)
      fatal(call, "arguments differ between PEs (mismatch): pe %d passed %llu bytes, pe %d passed %zu bytes in team %d",
            from_pe, static_cast<unsigned long long>(other->bytes), my_pe_, bytes, t.handle);
    const auto now = std::chrono::steady_clock::now();
    if (now > next_look) {
      // A member that took a checked (pulled) collective instead, e.g. a reduction of other size,
      // has published more argument checks than this PE: it waits in that collective's sync.
      // (Reported at the second look that sees it: a message sent just before its sender went on
      // gets a second to arrive.)
      next_look = now + std::chrono::seconds(1);
      const heap::TeamSlot& mine = t.slot_of(*heap_, my_pe_);
      bool ahead = false;
      for (const heap::CollCheck& c : mine.check) {
        struct {
          uint64_t seq, op, a, b;
        } theirs;
        read_control(from_pe, &c, &theirs, sizeof theirs);
        ahead |= theirs.seq > t.seq;
        if (theirs.seq > t.seq && suspect)
          fatal(call,
                "collective calls differ between PEs: pe %d is in another collective (op %llu, %llu bytes) than pe "
                "%d (a reduction pushed to its members; arguments mismatch)",
                from_pe, static_cast<unsigned long long>(theirs.op), static_cast<unsigned long long>(theirs.a), my_pe_);
      }
      suspect = ahead;
    }
    if (now > next_warn) {
      GSHMEM_WARN(Subsys::coll,
                  "%s: pe %d waited %lld s for pe %d (team %d, step %d): every member must call the team's "
                  "collectives in the same order",
                  call, my_pe_,
                  static_cast<long long>(
                      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - t0).count()),
                  from_pe, t.handle, step);
      next_warn += std::chrono::seconds(30);
    }
  }
  return b;
}

void Teams::sync_serialized(Team& t) {
  std::lock_guard<std::mutex> lock(t.mu);
  sync(t);
}

void Teams::check_args_or_fail(const char* call, Team& t, uint64_t op, uint64_t a, uint64_t b) {
  int bad = -1;
  uint64_t ba = 0, bb = 0;
  bool ok;
  {
    std::lock_guard<std::mutex> lock(t.mu);
    ok = check_args(t, op, a, b, &bad, &ba, &bb);
  }
  if (ok) return;
  if (bb == ~0ull)
    fatal(call, "collective calls differ between PEs: pe %d is in another collective (op %llu) than pe %d (op %llu)",
          bad, (unsigned long long)ba, my_pe_, (unsigned long long)op);
  fatal(call, "arguments differ between PEs (mismatch): pe %d passed (%llu, %llu), pe %d passed (%llu, %llu)", bad,
        (unsigned long long)ba, (unsigned long long)bb, my_pe_, (unsigned long long)a, (unsigned long long)b);
}

bool Teams::check_args(Team& t, uint64_t op, uint64_t a, uint64_t b, int* bad_pe, uint64_t* bad_a, uint64_t* bad_b) {
  const uint64_t seq = ++t.seq;
  heap::CollCheck& mine = t.slot_of(*heap_, my_pe_).check[seq & 1];
  mine.op = op;
  mine.a = a;
  mine.b = b;
  mine.seq.store(seq, std::memory_order_release);
  sync(t);
  // Double-buffered: no member can publish seq+2 before every member passed the sync of seq+1,
  // which comes after this read.
  for (int pe : t.pes) {
    struct {
      uint64_t seq, op, a, b;
    } c;
    read_control(pe, &mine, &c, sizeof c);  // the record's layout: seq, op, a, b
    if (c.seq != seq || c.op != op || c.a != a || c.b != b) {
      *bad_pe = pe;
      *bad_a = c.op != op ? c.op : c.a;
      *bad_b = c.op != op ? ~0ull : c.b;
      return false;
    }
  }
  return true;
}

Status Teams::split(Team& parent, const std::vector<std::vector<int>>& members_of, int num_contexts,
                    std::vector<int>* out) {
  heap::TeamSlot& me = parent.slot_of(*heap_, my_pe_);
  const uint64_t seq = ++parent.seq;
  {
    std::lock_guard<std::mutex> lock(mu_);
    me.split_mask[seq & 1] = ~used_slots_;
  }
  me.split_seq[seq & 1].store(seq, std::memory_order_release);
  sync(parent);
  // Double-buffered like check_args: no member publishes seq+2 before every member passed the
  // sync of seq+1, which comes after these reads.
  uint64_t common = ~0ull;
  for (int pe : parent.pes) {
    uint64_t their_seq = 0, mask = 0;
    read_control(pe, &me.split_seq[seq & 1], &their_seq, sizeof their_seq);
    read_control(pe, &me.split_mask[seq & 1], &mask, sizeof mask);
    if (their_seq != seq) {
      GSHMEM_WARN(Subsys::coll, "team split: pe %d is not in the same split (sequence mismatch)", pe);
      return Status::invalid_argument;
    }
    common &= mask;
  }
  std::vector<int> slots;
  for (int s = 0; s < heap::kMaxTeams && slots.size() < members_of.size(); ++s)
    if (common >> s & 1) slots.push_back(s);
  out->assign(members_of.size(), -1);
  if (slots.size() < members_of.size()) {
    GSHMEM_INFO(Subsys::coll, "team split: no free team slot (all %d in use on some parent member)", heap::kMaxTeams);
    return Status::out_of_memory;
  }
  std::lock_guard<std::mutex> lock(mu_);
  for (size_t j = 0; j < members_of.size(); ++j)
    if (!members_of[j].empty()) (*out)[j] = add_team_locked(members_of[j], slots[j], num_contexts);
  return Status::ok;
}

int Teams::add_team_locked(std::vector<int> pes, int slot, int num_contexts) {
  auto t = std::make_unique<Team>();
  t->slot = slot;
  t->pes = std::move(pes);
  t->my_index = t->index_of(my_pe_);
  t->num_contexts = num_contexts;
  t->handle = static_cast<int>(table_.size());
  // reuse a destroyed handle's entry if any
  for (size_t i = 3; i < table_.size(); ++i)
    if (!table_[i]) {
      t->handle = static_cast<int>(i);
      break;
    }
  used_slots_ |= 1ull << t->slot;
  const int handle = t->handle;
  if (handle == static_cast<int>(table_.size())) table_.push_back(std::move(t));
  else table_[static_cast<size_t>(handle)] = std::move(t);
  return handle;
}

Teams::InitView Teams::read_init(int pe) const {
  static_assert(sizeof(InitView) == offsetof(heap::TeamInitRecord, pad));
  const heap::TeamInitRecord& field = heap_->control(my_pe_)->team_init;
  InitView a{}, b{};
  read_control(pe, &field, &a, sizeof a);
  for (;;) {
    read_control(pe, &field, &b, sizeof b);
    if (memcmp(&a, &b, sizeof a) == 0) return a;
    a = b;
  }
}

Status Teams::init_from_uid(uint64_t uid, int npes, int idx, int num_contexts, int* handle, std::string* bad) {
  *handle = -1;
  heap::TeamInitRecord& rec = heap_->control(my_pe_)->team_init;
  uint64_t mask;
  {
    std::lock_guard<std::mutex> lock(mu_);
    mask = ~used_slots_;
  }
  // Publish: phase 0 while the fields change, so no reader takes a half-written record.
  rec.phase.store(0, std::memory_order_release);
  rec.uid.store(uid, std::memory_order_relaxed);
  rec.npes.store(static_cast<uint64_t>(npes), std::memory_order_relaxed);
  rec.idx.store(static_cast<uint64_t>(idx), std::memory_order_relaxed);
  rec.free_mask.store(mask, std::memory_order_relaxed);
  rec.phase.store(1, std::memory_order_release);
  const int world = static_cast<int>(table_[kWorld]->pes.size());
  std::vector<int> pes(static_cast<size_t>(npes), -1);
  pes[static_cast<size_t>(idx)] = my_pe_;
  std::vector<char> found(static_cast<size_t>(world), 0);
  found[static_cast<size_t>(my_pe_)] = 1;
  int nfound = 1;
  uint64_t common = mask;
  auto fail = [&](std::string why) {
    *bad = std::move(why);
    rec.phase.store(2, std::memory_order_release);  // nobody waits on a failed member's record
    return Status::invalid_argument;
  };
  // 1. Find every member's record (any order; PEs of other teams being made are skipped).
  const auto t0 = std::chrono::steady_clock::now();
  auto next_warn = t0 + std::chrono::seconds(10);
  Backoff backoff;
  Backoff::State bs;
  while (nfound < npes) {
    for (int pe = 0; pe < world && nfound < npes; ++pe) {
      if (found[static_cast<size_t>(pe)]) continue;
      const InitView v = read_init(pe);
      if (v.phase == 0 || v.uid != uid) continue;
      char b[200];
      if (v.npes != static_cast<uint64_t>(npes)) {
        snprintf(b, sizeof b, "pe %d passed npes %lld, pe %d passed npes %d for team id 0x%llx", pe,
                 static_cast<long long>(v.npes), my_pe_, npes, static_cast<unsigned long long>(uid));
        return fail(b);
      }
      if (v.idx >= static_cast<uint64_t>(npes) || pes[static_cast<size_t>(v.idx)] != -1) {
        snprintf(b, sizeof b, "pe %d and pe %d both passed pe_idx_in_team %lld for team id 0x%llx", pe,
                 v.idx < static_cast<uint64_t>(npes) ? pes[static_cast<size_t>(v.idx)] : -1,
                 static_cast<long long>(v.idx), static_cast<unsigned long long>(uid));
        return fail(b);
      }
      pes[static_cast<size_t>(v.idx)] = pe;
      found[static_cast<size_t>(pe)] = 1;
      common &= v.free_mask;
      ++nfound;
    }
    if (nfound == npes) break;
    if (std::chrono::steady_clock::now() > next_warn) {
      std::string missing;
      for (int i = 0; i < npes; ++i)
        if (pes[static_cast<size_t>(i)] < 0) missing += (missing.empty() ? "" : ", ") + std::to_string(i);
      GSHMEM_WARN(Subsys::coll,
                  "team init (id 0x%llx, %d PEs): pe %d waited %lld s; found %d members, none yet with index %s",
                  static_cast<unsigned long long>(uid), npes, my_pe_,
                  static_cast<long long>(
                      std::chrono::duration_cast<std::chrono::seconds>(std::chrono::steady_clock::now() - t0).count()),
                  nfound, missing.c_str());
      next_warn += std::chrono::seconds(30);
    }
    backoff(bs);
  }
  // 2. Read everything: say so, and wait until every member has (a member whose record shows
  // another id or none has moved on, which it does only after reading this PE's).
  rec.phase.store(2, std::memory_order_release);
  for (int pe : pes) {
    if (pe == my_pe_) continue;
    wait_for([&] {
      const InitView v = read_init(pe);
      return v.uid != uid || v.phase != 1;
    });
  }
  // 3. Every member computed the same mask: the same slot, or the same failure.
  int slot = -1;
  for (int s = 0; s < heap::kMaxTeams && slot < 0; ++s)
    if (common >> s & 1) slot = s;
  if (slot < 0) return Status::out_of_memory;
  std::lock_guard<std::mutex> lock(mu_);
  *handle = add_team_locked(pes, slot, num_contexts);
  return Status::ok;
}

Status Teams::destroy(Team& t) {
  if (t.predefined) return Status::invalid_argument;
  sync(t);
  // After the sync no member writes this PE's flags or boxes for this team any more (every one it
  // waits for has arrived), so zeroing is safe; the slot is marked free only afterwards.
  heap::TeamSlot& s = t.slot_of(*heap_, my_pe_);
  for (auto& f : s.barrier) f.v.store(0, std::memory_order_relaxed);
  for (auto& parity : heap_->control(my_pe_)->inbox[t.slot].box)  // every pushed message was taken
    for (auto& b : parity) b.head.seq.store(0, std::memory_order_relaxed);
  for (auto& c : s.check) c.seq.store(0, std::memory_order_relaxed);
  for (auto& q : s.pub_seq) q.store(0, std::memory_order_relaxed);
  for (auto& q : s.split_seq) q.store(0, std::memory_order_relaxed);
  std::atomic_thread_fence(std::memory_order_seq_cst);
  std::lock_guard<std::mutex> lock(mu_);
  used_slots_ &= ~(1ull << t.slot);
  table_[static_cast<size_t>(t.handle)].reset();
  return Status::ok;
}

}  // namespace gshmem::team
