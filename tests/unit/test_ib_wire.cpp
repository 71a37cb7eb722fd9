// The ib connection record (transport/ib_wire): written and read at any alignment, and every
// malformed field of a peer's record rejected with a reason before anything in it is used.
#include <gtest/gtest.h>

#include <cstring>
#include <random>
#include <vector>

#include "transport/ib_wire.hpp"

using namespace gshmem;
using namespace gshmem::transport::ib;

namespace {
QpInfo good_qp(uint32_t qpn) {
  QpInfo q{};
  q.version = kQpInfoVersion;
  q.qpn = qpn;
  q.psn = 0x123456;
  q.lid = 7;
  q.port = 1;
  q.mtu = 5;
  return q;
}

// A table of npes records starting at byte offset `skew` of a buffer (misaligned on purpose).
struct Table {
  int npes;
  size_t skew;
  std::vector<char> buf;
  Table(int n, size_t s) : npes(n), skew(s), buf(s + record_bytes(n) * static_cast<size_t>(n), 0) {}
  char* rec(int pe) { return buf.data() + skew + record_bytes(npes) * static_cast<size_t>(pe); }
};
}  // namespace

TEST(IbWire, RecordsRoundTripAtAnyAlignment) {
  std::mt19937_64 rng(std::random_device{}());
  for (int npes : {1, 2, 3, 7}) {
    for (size_t skew : {size_t{0}, size_t{1}, size_t{3}, size_t{5}}) {
      Table t(npes, skew);
      std::vector<RemoteSeg> segs(static_cast<size_t>(npes) * kSegs);
      for (int pe = 0; pe < npes; ++pe) {
        record_set_ok(t.rec(pe), true);
        for (int s = 0; s < kSegs; ++s) {
          RemoteSeg r{rng() >> 16, (rng() >> 20) + 1, static_cast<uint32_t>(rng()), 0};
          segs[static_cast<size_t>(pe * kSegs + s)] = r;
          record_set_seg(t.rec(pe), s, r);
        }
        for (int to = 0; to < npes; ++to) record_set_qp(t.rec(pe), to, good_qp(1000u * static_cast<uint32_t>(pe) + to + 1));
      }
      for (int pe = 0; pe < npes; ++pe) {
        EXPECT_TRUE(record_ok(t.rec(pe)));
        for (int me = 0; me < npes; ++me) {
          PeerRecord r{};
          std::string why;
          ASSERT_EQ(parse_record(t.rec(pe), record_bytes(npes), npes, me, &r, &why), Status::ok) << why;
          EXPECT_EQ(r.qp.qpn, 1000u * static_cast<uint32_t>(pe) + me + 1);
          for (int s = 0; s < kSegs; ++s) {
            EXPECT_EQ(r.segs[s].base, segs[static_cast<size_t>(pe * kSegs + s)].base);
            EXPECT_EQ(r.segs[s].len, segs[static_cast<size_t>(pe * kSegs + s)].len);
            EXPECT_EQ(r.segs[s].rkey, segs[static_cast<size_t>(pe * kSegs + s)].rkey);
          }
        }
      }
    }
  }
}

TEST(IbWire, MalformedRecordsAreRejectedWithAReason) {
  const int npes = 3;
  auto fresh = [&] {
    std::vector<char> r(record_bytes(npes) + 1, 0);
    char* p = r.data() + 1;
    record_set_ok(p, true);
    record_set_seg(p, 0, RemoteSeg{0x1000, 0x2000, 5, 0});
    for (int to = 0; to < npes; ++to) record_set_qp(p, to, good_qp(10u + static_cast<uint32_t>(to)));
    return r;
  };
  struct Case {
    const char* name;
    void (*corrupt)(char*);
    const char* why;
  };
  const Case cases[] = {
      {"ok flag 7", [](char* p) { record_set_ok(p, true), p[0] = 7; }, "set-up flag"},
      {"wrapping segment", [](char* p) { record_set_seg(p, 1, RemoteSeg{~0ull - 10, 100, 1, 0}); }, "wraps"},
      {"empty segment with a key", [](char* p) { record_set_seg(p, 2, RemoteSeg{0, 0, 9, 0}); }, "empty segment"},
      {"version", [](char* p) { QpInfo q = good_qp(11); q.version = 9; record_set_qp(p, 1, q); }, "version"},
      {"port 0", [](char* p) { QpInfo q = good_qp(11); q.port = 0; record_set_qp(p, 1, q); }, "port 0"},
      {"mtu 6", [](char* p) { QpInfo q = good_qp(11); q.mtu = 6; record_set_qp(p, 1, q); }, "MTU"},
      {"roce 2", [](char* p) { QpInfo q = good_qp(11); q.roce = 2; record_set_qp(p, 1, q); }, "RoCE"},
      {"qpn 0", [](char* p) { QpInfo q = good_qp(11); q.qpn = 0; record_set_qp(p, 1, q); }, "queue-pair number"},
      {"psn 2^24", [](char* p) { QpInfo q = good_qp(11); q.psn = 1u << 24; record_set_qp(p, 1, q); }, "sequence"},
  };
  for (const Case& c : cases) {
    std::vector<char> r = fresh();
    c.corrupt(r.data() + 1);
    PeerRecord out{};
    std::string why;
    EXPECT_EQ(parse_record(r.data() + 1, record_bytes(npes), npes, 1, &out, &why), Status::invalid_argument) << c.name;
    EXPECT_NE(why.find(c.why), std::string::npos) << c.name << ": " << why;
  }
  std::vector<char> r = fresh();
  PeerRecord out{};
  std::string why;
  EXPECT_EQ(parse_record(r.data() + 1, record_bytes(npes) - 1, npes, 1, &out, &why), Status::invalid_argument);
  EXPECT_NE(why.find("record size"), std::string::npos) << why;
  EXPECT_EQ(parse_record(r.data() + 1, record_bytes(npes), npes, 3, &out, &why), Status::invalid_argument);
  EXPECT_EQ(parse_record(r.data() + 1, record_bytes(npes), 0, 0, &out, &why), Status::invalid_argument);
  EXPECT_EQ(parse_record(r.data() + 1, record_bytes(npes), npes, 1, &out, &why), Status::ok) << why;
}

TEST(IbWire, ExtensionRecordsRoundTripAndMismatchesAreRejected) {
  alignas(8) char buf[kExtentBytes + 8];
  for (size_t skew = 0; skew < 8; ++skew) {
    char* e = buf + skew;
    const RemoteSeg r{0x7f0000001000ull, 65536, 77, 0};
    extent_set(e, true, 2, 1 << 20, r);
    bool ok = false;
    RemoteSeg out{};
    std::string why;
    ASSERT_EQ(parse_extent(e, 2, 1 << 20, 65536, &ok, &out, &why), Status::ok) << why;
    EXPECT_TRUE(ok);
    EXPECT_EQ(out.base, r.base);
    EXPECT_EQ(out.len, r.len);
    EXPECT_EQ(out.rkey, r.rkey);
    why.clear();
    EXPECT_EQ(parse_extent(e, 1, 1 << 20, 65536, &ok, &out, &why), Status::invalid_argument);
    EXPECT_NE(why.find("another segment"), std::string::npos) << why;
    why.clear();
    EXPECT_EQ(parse_extent(e, 2, 2 << 20, 65536, &ok, &out, &why), Status::invalid_argument);
    EXPECT_NE(why.find("another offset"), std::string::npos) << why;
    why.clear();
    EXPECT_EQ(parse_extent(e, 2, 1 << 20, 4096, &ok, &out, &why), Status::invalid_argument);
    EXPECT_NE(why.find("another length"), std::string::npos) << why;
    extent_set(e, false, 2, 1 << 20, RemoteSeg{0, 0, 0, 0});  // the peer could not register
    ASSERT_EQ(parse_extent(e, 2, 1 << 20, 65536, &ok, &out, &why), Status::ok);
    EXPECT_FALSE(ok);
    extent_set(e, true, 2, 1 << 20, RemoteSeg{0, 0, 0, 0});  // a PE without ib peers registers nothing
    ASSERT_EQ(parse_extent(e, 2, 1 << 20, 65536, &ok, &out, &why), Status::ok);
    EXPECT_TRUE(ok);
    EXPECT_EQ(out.len, 0u);
    extent_set(e, true, 2, 1 << 20, RemoteSeg{~0ull - 100, 65536, 1, 0});
    why.clear();
    EXPECT_EQ(parse_extent(e, 2, 1 << 20, 65536, &ok, &out, &why), Status::invalid_argument);
    EXPECT_NE(why.find("wraps"), std::string::npos) << why;
    memcpy(e, "\x07\0\0\0", 4);  // a flag that is neither 0 nor 1
    why.clear();
    EXPECT_EQ(parse_extent(e, 2, 1 << 20, 65536, &ok, &out, &why), Status::invalid_argument);
    EXPECT_FALSE(why.empty());
  }
}
