#include "team/team.hpp"

#include <algorithm>
#include <cstring>

#include "common/fatal.hpp"
#include "common/log.hpp"
#include "team/barrier.hpp"

namespace gshmem::team {

int Team::index_of(int world_pe) const {
  for (size_t i = 0; i < pes.size(); ++i)
    if (pes[i] == world_pe) return static_cast<int>(i);
  return -1;
}

void Teams::read_control(int pe, const void* field, void* dst, size_t n) const {
  const uint64_t off = static_cast<uint64_t>(static_cast<const char*>(field) -
                                             reinterpret_cast<const char*>(heap_->control(my_pe_)));
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
          const uint64_t off = static_cast<uint64_t>(reinterpret_cast<char*>(&mine[k]) -
                                                     reinterpret_cast<char*>(h->control(my_pe_)));
          remote_.store64(pe, off, e);
        }
      },
      t.pes, t.my_index, ++t.epoch);
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
  for (size_t j = 0; j < members_of.size(); ++j) {
    if (members_of[j].empty()) continue;
    auto t = std::make_unique<Team>();
    t->slot = slots[j];
    t->pes = members_of[j];
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
    (*out)[j] = t->handle;
    if (t->handle == static_cast<int>(table_.size())) table_.push_back(std::move(t));
    else table_[static_cast<size_t>(t->handle)] = std::move(t);
  }
  return Status::ok;
}

Status Teams::destroy(Team& t) {
  if (t.predefined) return Status::invalid_argument;
  sync(t);
  // After the sync no member writes this PE's flags for this team any more (every flag it waits
  // for has arrived), so zeroing is safe; the slot is marked free only afterwards.
  heap::TeamSlot& s = t.slot_of(*heap_, my_pe_);
  for (auto& f : s.barrier) f.v.store(0, std::memory_order_relaxed);
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
