#include "transport/ib_wire.hpp"

#include <cstdio>

#include "common/bytes.hpp"

namespace gshmem::transport::ib {
namespace {
constexpr size_t kSegOffset = 8;
size_t qp_offset(int pe) { return kHeadBytes + static_cast<size_t>(pe) * sizeof(QpInfo); }
Status bad(std::string* why, const char* what, unsigned long long v) {
  char b[160];
  snprintf(b, sizeof b, "%s (%llu)", what, v);
  *why = b;
  return Status::invalid_argument;
}
}  // namespace

void record_set_ok(char* rec, bool ok) { store_unaligned<int32_t>(rec, ok ? 1 : 0); }
void record_set_seg(char* rec, int seg, const RemoteSeg& s) {
  store_unaligned(rec + kSegOffset + static_cast<size_t>(seg) * sizeof(RemoteSeg), s);
}
void record_set_qp(char* rec, int pe, const QpInfo& q) { store_unaligned(rec + qp_offset(pe), q); }

bool record_ok(const char* rec) { return load_unaligned<int32_t>(rec) == 1; }

Status parse_record(const char* rec, size_t rec_bytes, int npes, int me, PeerRecord* out, std::string* why) {
  if (npes < 1 || npes > (1 << 20)) return bad(why, "job size out of range", static_cast<unsigned>(npes));
  if (me < 0 || me >= npes) return bad(why, "own pe out of range", static_cast<unsigned>(me));
  if (rec_bytes != record_bytes(npes)) return bad(why, "record size does not match the job size", rec_bytes);
  const int32_t ok = load_unaligned<int32_t>(rec);
  if (ok != 0 && ok != 1) return bad(why, "set-up flag is neither 0 nor 1", static_cast<uint32_t>(ok));
  for (int s = 0; s < kSegs; ++s) {
    const RemoteSeg r = load_unaligned<RemoteSeg>(rec + kSegOffset + static_cast<size_t>(s) * sizeof(RemoteSeg));
    if (r.len && r.base + r.len < r.base) return bad(why, "segment wraps around the address space", r.base);
    if (!r.len && (r.base || r.rkey)) return bad(why, "empty segment with an address or key", static_cast<unsigned>(s));
    out->segs[s] = r;
  }
  const QpInfo q = load_unaligned<QpInfo>(rec + qp_offset(me));
  if (q.version != kQpInfoVersion) return bad(why, "queue-pair record version", q.version);
  if (q.port == 0) return bad(why, "queue-pair record names port 0", 0);
  if (q.mtu < 1 || q.mtu > 5) return bad(why, "queue-pair record MTU is not an ibv_mtu", q.mtu);
  if (q.roce > 1) return bad(why, "queue-pair record RoCE flag", q.roce);
  if (q.qpn == 0 || q.qpn > 0xffffff) return bad(why, "queue-pair number out of range", q.qpn);
  if (q.psn > 0xffffff) return bad(why, "packet sequence number out of range", q.psn);
  out->qp = q;
  return Status::ok;
}

void extent_set(char* rec, bool ok, int seg, uint64_t off, const RemoteSeg& r) {
  store_unaligned<int32_t>(rec, ok ? 1 : 0);
  store_unaligned<int32_t>(rec + 4, seg);
  store_unaligned<uint64_t>(rec + 8, off);
  store_unaligned(rec + 16, r);
}

Status parse_extent(const char* rec, int seg, uint64_t off, uint64_t len, bool* ok, RemoteSeg* out, std::string* why) {
  const int32_t flag = load_unaligned<int32_t>(rec);
  if (flag != 0 && flag != 1) return bad(why, "extension flag is neither 0 nor 1", static_cast<uint32_t>(flag));
  const int32_t s = load_unaligned<int32_t>(rec + 4);
  if (s != seg) return bad(why, "extension of another segment", static_cast<uint32_t>(s));
  const uint64_t o = load_unaligned<uint64_t>(rec + 8);
  if (o != off) return bad(why, "extension at another offset", o);
  const RemoteSeg r = load_unaligned<RemoteSeg>(rec + 16);
  *ok = flag == 1;
  if (!*ok) return Status::ok;
  if (r.len && r.len != len) return bad(why, "extension of another length", r.len);
  if (r.len && r.base + r.len < r.base) return bad(why, "extension wraps around the address space", r.base);
  if (!r.len && (r.base || r.rkey)) return bad(why, "empty extension with an address or key", r.base);
  *out = r;
  return Status::ok;
}

}  // namespace gshmem::transport::ib
