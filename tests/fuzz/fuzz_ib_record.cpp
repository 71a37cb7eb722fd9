// Fuzzes the ib connection-record parser (transport/ib_wire) with raw and mutated records of jobs
// of 1..8 PEs at any alignment, and the same bytes as a heap-extension record (parse_extent). Properties: no crash or sanitizer report; a rejected record always
// comes with a reason; an accepted one satisfies every documented range.
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "transport/ib_wire.hpp"

using namespace gshmem;
using namespace gshmem::transport::ib;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 3) return 0;
  const int npes = 1 + data[0] % 8, me = data[1] % (npes + 1) - (data[1] & 0x80 ? 1 : 0);  // me may be out of range
  const bool mutate = data[2] & 1;
  const size_t skew = (data[2] >> 1) & 7;
  data += 3;
  size -= 3;
  std::vector<char> buf(skew + record_bytes(npes) + 8, 0);
  char* rec = buf.data() + skew;
  size_t rec_bytes = record_bytes(npes);
  if (mutate) {  // a well-formed record with the input XORed over it
    record_set_ok(rec, true);
    for (int s = 0; s < kSegs; ++s) record_set_seg(rec, s, RemoteSeg{0x10000u * (s + 1), 4096, 7u + s, 0});
    for (int pe = 0; pe < npes; ++pe) {
      QpInfo q{};
      q.version = kQpInfoVersion;
      q.qpn = 100u + pe;
      q.psn = 5;
      q.port = 1;
      q.mtu = 5;
      record_set_qp(rec, pe, q);
    }
    for (size_t i = 0; i < size && i < rec_bytes; ++i) rec[i] ^= static_cast<char>(data[i]);
  } else {  // raw bytes, any length up to a record and a little more
    rec_bytes = size < rec_bytes + 8 ? size : rec_bytes + 8;
    memcpy(rec, data, rec_bytes);
  }
  {  // the first kExtentBytes as an extension record of (device segment, 1 MiB, 64 KiB)
    const uint64_t off = 1 << 20, len = 64 << 10;
    std::vector<char> ebuf(skew + kExtentBytes, 0);
    char* e = ebuf.data() + skew;
    if (mutate) extent_set(e, true, 2, off, RemoteSeg{0x200000, len, 9, 0});
    for (size_t i = 0; i < size && i < kExtentBytes; ++i) e[i] = static_cast<char>(mutate ? e[i] ^ data[i] : data[i]);
    bool ok = false;
    RemoteSeg r{};
    std::string ewhy;
    if (parse_extent(e, 2, off, len, &ok, &r, &ewhy) != Status::ok) {
      if (ewhy.empty()) abort();
    } else if (ok && (r.len ? r.len != len || r.base + r.len < r.base : (r.base || r.rkey))) {
      abort();
    }
  }
  PeerRecord out{};
  std::string why;
  const Status st = parse_record(rec, rec_bytes, npes, me, &out, &why);
  if (st != Status::ok) {
    if (why.empty()) abort();  // every rejection names its reason
    return 0;
  }
  if (out.qp.version != kQpInfoVersion || out.qp.port == 0 || out.qp.mtu < 1 || out.qp.mtu > 5 || out.qp.qpn == 0 ||
      out.qp.qpn > 0xffffff || out.qp.psn > 0xffffff || out.qp.roce > 1)
    abort();
  for (const RemoteSeg& s : out.segs)
    if (s.len ? s.base + s.len < s.base : (s.base || s.rkey)) abort();
  (void)record_ok(rec);
  return 0;
}
