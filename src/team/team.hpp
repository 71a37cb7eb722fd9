// Teams: ordered sets of PEs with their own synchronisation slot in every member's control
// block. Handles are small integers, the same in device code (coll/dev_teams.cpp publishes each
// team to the GPU: device/gshmem/impl/team.cuh): 0 WORLD, 1 SHARED (PEs that share memory: the
// node), 2 NODE. A split agrees on a slot free on every parent member (AND of the published free
// masks); destroy syncs the team and zeroes this PE's slot before freeing it, so a reused slot
// always starts from zero flags.
#pragma once
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "common/status.hpp"
#include "heap/heap.hpp"

namespace gshmem::team {

constexpr int kWorld = 0, kShared = 1, kNode = 2;

struct Team {
  int handle = -1;
  int slot = -1;
  std::vector<int> pes;  // world PE of each team index
  int my_index = -1;
  uint64_t epoch = 0;     // sync epochs on this slot
  uint64_t seq = 0;       // collective sequence (argument checks, publications)
  uint64_t push_seq = 0;  // pushed collectives (Teams::push): the value their boxes are raised to
  int num_contexts = 0;
  bool predefined = false;
  bool dev_routed = false;  // its device collectives take the routed paths (coll/dev_teams.cpp sets it)
  std::mutex mu;            // serialises this team's collectives when threads share it
  int size() const { return static_cast<int>(pes.size()); }
  int index_of(int world_pe) const;
  heap::TeamSlot& slot_of(const heap::SymmetricHeap& h, int world_pe) const { return h.control(world_pe)->teams[slot]; }
};

// How to reach the control block of a PE that is not mapped (set by the runtime when a transport
// is up): offsets are from the start of that PE's control block.
struct RemoteControl {
  std::function<void(int pe, uint64_t off, uint64_t v)> store64;
  std::function<void(int pe, uint64_t off, void* dst, size_t n)> read;
  // nh bytes of head and n of src at off, then the word at flag_off raised to v (the transport's put_flag).
  std::function<void(int pe, uint64_t off, const void* head, size_t nh, const void* src, size_t n, uint64_t flag_off,
                     uint64_t v)>
      put_flag;
};

class Teams {
 public:
  // shared: the PEs that map each other's memory (SHMEM_TEAM_SHARED); node: the node's PEs (NODE).
  Status init(const heap::SymmetricHeap* h, int my_pe, int npes, const std::vector<int>& shared,
              const std::vector<int>& node);
  void set_remote(RemoteControl r) { remote_ = std::move(r); }
  // Reads n bytes at offset off of pe's control block (mapped or through the transport).
  void read_control(int pe, const void* field_in_my_block, void* dst, size_t n) const;
  Team* get(int handle);
  // Collective over parent: for each of nsplit new teams, members_of[j] lists the world PEs of
  // the j-th team this PE belongs to (empty: not a member). out[j] gets the handle or -1.
  // On failure (no free slot) every parent member returns the same error.
  Status split(Team& parent, const std::vector<std::vector<int>>& members_of, int num_contexts, std::vector<int>* out);
  // Collective over the npes PEs that pass uid (shmemx_team_init), not over any parent: this PE
  // is index idx of the new team. The members find each other through their control blocks.
  // *handle gets the team; out_of_memory (the same on every member) when no slot is free on all
  // of them; invalid_argument with *bad naming the PEs when members disagree (npes, an index
  // claimed twice). Waiting for members warns after 10 s, then every 30 s, naming the missing indices.
  Status init_from_uid(uint64_t uid, int npes, int idx, int num_contexts, int* handle, std::string* bad);
  Status destroy(Team& t);
  // The team's dissemination barrier; sync_serialized holds the team's lock (threads sharing a team).
  void sync(Team& t);
  void sync_serialized(Team& t);
  // Pushed collectives: a piece of n bytes (at most heap::kPushBytes; on SHMEM_TEAM_WORLD
  // heap::kPushBytesWorld) of a collective of `bytes` in all, with the check words (op, bytes), into
  // box (step, seq) of member world_pe, whose seq is then raised to seq; and this PE's box (step,
  // seq) of a collective of `bytes` once it arrived (a wait that warns after 10 s, then every 30 s,
  // naming from_pe, and ends the job when from_pe is found in another collective or pushed a size of
  // the other box class; `bytes` picks the box class). heap::push_data gives the bytes.
  void push(Team& t, int world_pe, int step, uint64_t seq, uint64_t op, uint64_t bytes, const void* data, size_t n);
  const heap::PushHead& wait_push(const char* call, Team& t, int step, uint64_t seq, size_t bytes, int from_pe);
  // check_args under the team's lock; on a mismatch ends the job with a message naming call, the
  // differing PE and both PEs' values.
  void check_args_or_fail(const char* call, Team& t, uint64_t op, uint64_t a, uint64_t b);
  // Publishes (op, a, b) and checks every member published the same; false + the first
  // differing member and its values when not. Includes a team sync.
  bool check_args(Team& t, uint64_t op, uint64_t a, uint64_t b, int* bad_pe, uint64_t* bad_a, uint64_t* bad_b);

 private:
  // Adds a team on slot with these members; returns its handle (a destroyed one's reused). mu_ held.
  int add_team_locked(std::vector<int> pes, int slot, int num_contexts);
  struct InitView {
    uint64_t phase, uid, npes, idx, free_mask;
  };
  // pe's team-init record, read twice until both reads agree (a peer may be writing it).
  InitView read_init(int pe) const;
  const heap::SymmetricHeap* heap_ = nullptr;
  RemoteControl remote_;
  int my_pe_ = 0;
  std::mutex mu_;
  std::vector<std::unique_ptr<Team>> table_;
  uint64_t used_slots_ = 0;
};

}  // namespace gshmem::team
