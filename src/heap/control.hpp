// Per-PE control block at the start of every PE's host segment, written by peers. Versioned and
// size-checked because every PE of a node maps every other PE's block.
#pragma once
#include <atomic>
#include <cstddef>
#include <cstdint>

namespace gshmem::heap {

constexpr size_t kControlBytes = 2 * 1024 * 1024;  // reserved in front of the user heap (sparse)
// The user heap starts on this boundary on every PE, so an offset aligned to any power of two up
// to it is an equally aligned address everywhere (shmem_align).
constexpr size_t kHeapBaseAlign = size_t(256) << 20;
constexpr uint64_t kControlMagic = 0x67736873686d656dull;  // "gshshmem"
constexpr uint32_t kControlVersion = 6;
constexpr int kMaxBarrierRounds = 32;  // dissemination: ceil(log2(npes)) rounds
constexpr int kMaxTeams = 64;          // team slots; WORLD, SHARED and NODE take 0, 1, 2
constexpr int kTeamPubWords = 8;

struct alignas(64) Flag {
  std::atomic<uint64_t> v;
  char pad[56];
};
static_assert(sizeof(Flag) == 64);

// Arguments of a collective call published for cross-checking (double-buffered by sequence).
struct alignas(64) CollCheck {
  std::atomic<uint64_t> seq;
  uint64_t op;
  uint64_t a;
  uint64_t b;
  char pad[32];
};
static_assert(sizeof(CollCheck) == 64);

// Everything one team needs on each member: dissemination flags (round k written by the round-k
// partner with its epoch), argument checks, and a few published words (e.g. element counts of
// collect), double-buffered by the team's collective sequence number. A split of this team
// publishes each member's free-slot mask in split_mask (also by sequence), so splits of
// different parents running at the same time never see each other's masks.
struct alignas(64) TeamSlot {
  Flag barrier[kMaxBarrierRounds];
  CollCheck check[2];
  std::atomic<uint64_t> pub_seq[2];
  uint64_t pub[2][kTeamPubWords];
  std::atomic<uint64_t> split_seq[2];
  uint64_t split_mask[2];
  char pad[16];
};
static_assert(sizeof(TeamSlot) % 64 == 0);

// shmemx_team_init's rendezvous (team/team.cpp): a PE making a team from a unique id publishes
// what it brings here; the other members find it by reading every PE's record (there is no parent
// team to agree through). phase 0: nothing published; 1: published; 2: this PE has read every
// member's record (after that the record may change).
// Peers read it while its owner writes it (and reject torn reads), so every field is a whole
// 64-bit word, written atomically.
struct alignas(64) TeamInitRecord {
  std::atomic<uint64_t> phase;
  std::atomic<uint64_t> uid;
  std::atomic<uint64_t> npes;
  std::atomic<uint64_t> idx;
  std::atomic<uint64_t> free_mask;  // team slots free on this PE
  char pad[24];
};
static_assert(sizeof(TeamInitRecord) == 64);

// Small team reductions pushed to their members (coll/push.cpp): in every step of the algorithm a
// member receives at most one message, which lands in its box for (step, sequence parity): the
// sender's check words and data, then seq raised to the collective's sequence number. A sender
// writes a box of parity p again only two collectives later, after its partner has used it.
// Every team has boxes of kPushBytes; SHMEM_TEAM_WORLD (slot 0) also of kPushBytesWorld, used for
// its reductions past kPushBytes (the sequence is the team's, whichever box a reduction uses).
// A reduction larger than kPushBytesWorld (SHMEM_TEAM_WORLD of at most kPushDeepMembers) is pushed
// in pieces, one sequence number each, with up to kPushWindow pieces in flight; those teams use
// the large boxes as kPushDepth sequences x kPushDeepSteps steps (fold, two doubling rounds,
// unfold) instead of 2 x kPushSteps: a sender is then at most 2 x kPushWindow sequences ahead of
// what its partner has read (coll/push.cpp).
constexpr int kPushSteps = 18;             // fold, up to 16 doubling rounds (65536 members), unfold
constexpr size_t kPushBytes = 256;         // largest pushed reduction on any team
constexpr size_t kPushBytesWorld = 32768;  // largest pushed reduction piece on SHMEM_TEAM_WORLD
constexpr int kPushDeepMembers = 4;
constexpr int kPushDeepSteps = 4;
constexpr int kPushWindow = 4;
constexpr int kPushDepth = 2 * kPushWindow;
static_assert(kPushDepth * kPushDeepSteps <= 2 * kPushSteps, "the deep layout reuses the large boxes");
struct alignas(64) PushHead {  // followed by the data
  std::atomic<uint64_t> seq;
  char pad[40];
  uint64_t op, bytes;  // the sender's collective, checked by the receiver
};
static_assert(sizeof(PushHead) == 64);
inline char* push_data(PushHead& h) { return reinterpret_cast<char*>(&h + 1); }
inline const char* push_data(const PushHead& h) { return reinterpret_cast<const char*>(&h + 1); }
template <size_t N>
struct PushBox {
  PushHead head;
  char data[N];
};
struct TeamInbox {
  PushBox<kPushBytes> box[2][kPushSteps];
};

struct ControlBlock {
  uint64_t magic;
  uint32_t version;
  uint32_t reserved;
  char pad[48];
  TeamSlot teams[kMaxTeams];
  TeamInitRecord team_init;
  TeamInbox inbox[kMaxTeams];
  PushBox<kPushBytesWorld> world_box[2 * kPushSteps];  // indexed by team.cpp's box_in
};
static_assert(sizeof(ControlBlock) <= kControlBytes);
static_assert(std::atomic<uint64_t>::is_always_lock_free, "cross-process atomics need lock-free 64-bit");

}  // namespace gshmem::heap
