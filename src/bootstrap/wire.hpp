// The TCP bootstrap's wire format and the checks every received frame passes before anything in
// it is used (pure functions: tcp.cpp calls them on what it reads, the unit tests and the fuzzer
// call them on malformed input). A frame is a FrameHdr followed by len payload bytes.
#pragma once
#include <cstddef>
#include <cstdint>

namespace gshmem::boot::wire {

constexpr uint32_t kMagic = 0x47534842;  // "GSHB"
constexpr uint32_t kVersion = 1;
enum Type : uint16_t { t_hello = 1, t_welcome = 2, t_reject = 3, t_allgather = 4, t_abort = 5, t_exit = 6 };
struct FrameHdr {
  uint32_t magic;
  uint16_t type;
  uint16_t reserved;
  uint64_t len;
};
static_assert(sizeof(FrameHdr) == 16);
struct Hello {
  uint32_t version;
  int32_t rank;
  int32_t nranks;
  uint32_t reserved;
  uint8_t secret[16];
};
static_assert(sizeof(Hello) == 32);
struct AbortMsg {
  int32_t status;
  int32_t from_rank;
  char text[504];
};
static_assert(sizeof(AbortMsg) == 512);
constexpr uint64_t kMaxFrame = 1ull << 30;
constexpr uint64_t kMaxReject = 255;  // bytes of a reject frame's reason

// The root's checks of a joining rank, in order. nullptr: acceptable; otherwise the reason
// (a fixed string, also sent back in the reject frame). rank_taken(r): r already joined.
const char* check_hello_header(const FrameHdr& h);
const char* check_hello(const Hello& h, const uint8_t secret[16], int nranks, bool (*rank_taken)(int, const void*),
                        const void* ctx);

// Is h the start of a control frame (abort or global exit) from a peer?
bool is_control(const FrameHdr& h);
// A control frame's payload (len bytes at p) as an AbortMsg: false (and *out set to "status 1
// from an unknown PE") when it is malformed; the text is always NUL-terminated.
bool parse_control(const FrameHdr& h, const void* p, size_t len, int nranks, AbortMsg* out);

// A collective's frame: nullptr when h is an allgather frame of exactly want bytes, else the reason.
const char* check_allgather(const FrameHdr& h, uint64_t want);

// Whether a reply to a hello is a welcome, a reject with a readable reason, or malformed.
enum class Reply { welcome, reject, malformed };
Reply classify_reply(const FrameHdr& h);

}  // namespace gshmem::boot::wire
