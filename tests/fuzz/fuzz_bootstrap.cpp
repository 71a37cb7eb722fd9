// Fuzzes what the TCP bootstrap accepts from the network and the environment: frame headers and
// payloads as the root and the leaves check them (bootstrap/wire), and unique-id strings
// (GSHMEM_BOOTSTRAP_UID, shmemx unique ids). Properties: no crash or sanitizer report; an accepted
// hello has a rank in range and the job's secret; a parsed control message has a terminated text,
// a sender that is a PE of the job or -1, and an abort status that is not 0.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>

#include "bootstrap/uid.hpp"
#include "bootstrap/wire.hpp"

using namespace gshmem;
using namespace gshmem::boot;
using namespace gshmem::boot::wire;

namespace {
const uint8_t kSecret[16] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16};
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 1) return 0;
  const uint8_t what = data[0];
  ++data;
  --size;
  if (what % 3 == 2) {  // a unique-id string
    std::string text(reinterpret_cast<const char*>(data), size);
    UniqueId id{};
    if (uid_parse(text.c_str(), &id) == Status::ok && id.port == 0) abort();
    return 0;
  }
  if (size < sizeof(FrameHdr)) return 0;
  FrameHdr h;
  memcpy(&h, data, sizeof h);
  data += sizeof h;
  size -= sizeof h;
  const int nranks = 1 + (h.reserved % 64);
  if (what % 3 == 0) {  // a hello at the root
    if (check_hello_header(h) || size < sizeof(Hello)) return 0;
    Hello hello;
    memcpy(&hello, data, sizeof hello);
    if (what & 0x80) memcpy(hello.secret, kSecret, 16);  // reach the checks behind the secret
    const bool taken_odd = what & 0x40;
    auto taken = [](int r, const void* odd) { return *static_cast<const bool*>(odd) && (r & 1); };
    if (!check_hello(hello, kSecret, nranks, taken, &taken_odd)) {
      if (hello.rank <= 0 || hello.rank >= nranks || memcmp(hello.secret, kSecret, 16) || hello.version != kVersion)
        abort();
    }
    return 0;
  }
  // a control frame or a collective's frame at any PE
  AbortMsg m;
  if (parse_control(h, data, size, nranks, &m)) {
    if (strnlen(m.text, sizeof m.text) == sizeof m.text) abort();
    if (m.from_rank < -1 || m.from_rank >= nranks) abort();
    if (h.type == t_abort && m.status == 0) abort();
  } else if (m.status != 1 || m.from_rank != -1) {
    abort();
  }
  (void)check_allgather(h, size);
  (void)classify_reply(h);
  return 0;
}
