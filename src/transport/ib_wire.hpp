// The ib transport's connection record: what every PE publishes through the bootstrap allgather
// (whether its set-up worked, its registered segments, and one queue-pair record per PE). The
// table is a byte array, records_bytes(npes) per PE, so no field is at a known alignment: every
// field is written and read with common/bytes.hpp. parse_record validates a peer's record before
// anything in it is used (no verbs needed here: the unit tests and the fuzzer use it directly).
#pragma once
#include <cstddef>
#include <cstdint>
#include <string>

#include "common/status.hpp"

namespace gshmem::transport::ib {

// What a peer needs to connect its QP to this one.
struct QpInfo {
  uint32_t version;
  uint32_t qpn;
  uint32_t psn;
  uint16_t lid;
  uint8_t port;
  uint8_t mtu;  // ibv_mtu: 1 (256 bytes) .. 5 (4096 bytes)
  uint8_t gid[16];
  uint8_t roce;
  uint8_t pad[3];
};
static_assert(sizeof(QpInfo) == 36, "QpInfo is a wire format");
constexpr uint32_t kQpInfoVersion = 1;

// A registered segment as peers address it.
struct RemoteSeg {
  uint64_t base;
  uint64_t len;
  uint32_t rkey;
  uint32_t pad;
};
static_assert(sizeof(RemoteSeg) == 24, "RemoteSeg is a wire format");

constexpr int kSegs = 3;  // Seg::host, data, device

// Record layout: int32 ok, int32 pad, RemoteSeg segs[kSegs], then QpInfo for PE 0 .. npes-1.
constexpr size_t kHeadBytes = 8 + kSegs * sizeof(RemoteSeg);
constexpr size_t record_bytes(int npes) { return kHeadBytes + static_cast<size_t>(npes) * sizeof(QpInfo); }

void record_set_ok(char* rec, bool ok);
void record_set_seg(char* rec, int seg, const RemoteSeg& s);
void record_set_qp(char* rec, int pe, const QpInfo& q);

// The ok flag of a record (false when it is not 0 or 1: a malformed record is not ok).
bool record_ok(const char* rec);

// What this PE takes from peer's record: its segments and the queue pair it made for `me`.
struct PeerRecord {
  RemoteSeg segs[kSegs];
  QpInfo qp;
};
// invalid_argument with *why when rec (rec_bytes long) is not a well-formed record of an npes-PE
// job, or its queue-pair record for me is malformed (version, port, MTU, segment ranges).
Status parse_record(const char* rec, size_t rec_bytes, int npes, int me, PeerRecord* out, std::string* why);

// A segment's extension (the device heap grew, or a buffer joined it symmetrically): what every
// PE publishes through the bootstrap when it registers the new part. Layout (kExtentBytes):
// int32 ok, int32 seg, uint64 offset in the segment, RemoteSeg (len 0: this PE has no ib peers
// and registered nothing).
constexpr size_t kExtentBytes = 16 + sizeof(RemoteSeg);
void extent_set(char* rec, bool ok, int seg, uint64_t off, const RemoteSeg& r);
// A peer's extension record for (seg, off, len): *ok false when the peer could not register it;
// invalid_argument with *why when the record is malformed or describes another extension.
Status parse_extent(const char* rec, int seg, uint64_t off, uint64_t len, bool* ok, RemoteSeg* out, std::string* why);

}  // namespace gshmem::transport::ib
