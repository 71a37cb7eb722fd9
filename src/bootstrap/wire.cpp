#include "bootstrap/wire.hpp"

#include <cstring>

#include "bootstrap/uid.hpp"

namespace gshmem::boot::wire {

const char* check_hello_header(const FrameHdr& h) {
  if (h.magic != kMagic) return "malformed hello frame (magic)";
  if (h.type != t_hello) return "malformed hello frame (type)";
  if (h.len != sizeof(Hello)) return "malformed hello frame (length)";
  return nullptr;
}

const char* check_hello(const Hello& h, const uint8_t secret[16], int nranks, bool (*rank_taken)(int, const void*),
                        const void* ctx) {
  if (!secret_equal(h.secret, secret)) return "wrong job secret";
  if (h.version != kVersion) return "protocol version mismatch";
  if (h.nranks != nranks) return "job size mismatch";
  if (h.rank <= 0 || h.rank >= nranks) return "rank out of range";
  if (rank_taken && rank_taken(h.rank, ctx)) return "duplicate rank";
  return nullptr;
}

bool is_control(const FrameHdr& h) { return h.magic == kMagic && (h.type == t_abort || h.type == t_exit); }

bool parse_control(const FrameHdr& h, const void* p, size_t len, int nranks, AbortMsg* out) {
  *out = AbortMsg{};
  out->status = 1;
  out->from_rank = -1;
  if (!is_control(h) || h.len != sizeof(AbortMsg) || len != sizeof(AbortMsg) || !p) return false;
  AbortMsg m;
  memcpy(&m, p, sizeof m);
  m.text[sizeof m.text - 1] = 0;
  if (m.from_rank < -1 || m.from_rank >= nranks) m.from_rank = -1;  // who sent it is unknown
  // An abort always ends the job with a failure; an exit status is any int (shmem_global_exit).
  if (h.type == t_abort && m.status == 0) m.status = 1;
  *out = m;
  return true;
}

const char* check_allgather(const FrameHdr& h, uint64_t want) {
  if (h.magic != kMagic) return "frame without the bootstrap magic";
  if (h.type != t_allgather) return "unexpected frame type in a collective";
  if (h.len != want) return "collective sizes differ between PEs";
  return nullptr;
}

Reply classify_reply(const FrameHdr& h) {
  if (h.magic != kMagic) return Reply::malformed;
  if (h.type == t_welcome && h.len == 0) return Reply::welcome;
  if (h.type == t_reject && h.len <= kMaxReject) return Reply::reject;
  return Reply::malformed;
}

}  // namespace gshmem::boot::wire
