#include <arpa/inet.h>
#include <gtest/gtest.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <random>
#include <thread>
#include <vector>

#include "bootstrap/tcp.hpp"
#include "bootstrap/uid.hpp"
#include "thread_pes.hpp"

using namespace gshmem;
using namespace gshmem::boot;

TEST(UniqueId, RoundTripAndMalformed) {
  UniqueId id;
  int fd = -1;
  ASSERT_EQ(uid_create_listener(true, "", &id, &fd), Status::ok);
  close(fd);
  UniqueId back;
  ASSERT_EQ(uid_parse(uid_to_string(id).c_str(), &back), Status::ok);
  EXPECT_EQ(back.ip_be, id.ip_be);
  EXPECT_EQ(back.port, id.port);
  EXPECT_TRUE(secret_equal(back.secret, id.secret));
  for (const char* bad : {"", "gshmem1:", "gshmem1:127.0.0.1:0:00112233445566778899aabbccddeeff",
                          "gshmem1:127.0.0.1:80:0011", "gshmem2:127.0.0.1:80:00112233445566778899aabbccddeeff",
                          "gshmem1:999.0.0.1:80:00112233445566778899aabbccddeeff"})
    EXPECT_NE(uid_parse(bad, &back), Status::ok) << bad;
}

namespace {
// Runs nranks bootstraps as threads of this process and has each check allgather results.
void run_job(int nranks, int rounds) {
  std::vector<int> ok(static_cast<size_t>(nranks), 0);
  const uint64_t salt = std::random_device{}();
  gshmem::test::run_pes(nranks, [&](int r, Bootstrap& b) {
    bool good = b.rank() == r && b.size() == nranks;
    for (int k = 0; k < rounds && good; ++k) {
      std::vector<uint64_t> v(static_cast<size_t>(nranks) * 3, 0xA5A5A5A5A5A5A5A5ull);
      for (int j = 0; j < 3; ++j) v[static_cast<size_t>(r) * 3 + j] = salt ^ (uint64_t(r) << 32) ^ (k * 7 + j);
      if (b.allgather(v.data(), 3 * sizeof(uint64_t)) != Status::ok) good = false;
      for (int q = 0; q < nranks; ++q)
        for (int j = 0; j < 3; ++j) good &= v[static_cast<size_t>(q) * 3 + j] == (salt ^ (uint64_t(q) << 32) ^ (k * 7 + j));
      good &= b.barrier() == Status::ok;
    }
    ok[static_cast<size_t>(r)] = good;
  });
  for (int r = 0; r < nranks; ++r) EXPECT_TRUE(ok[static_cast<size_t>(r)]) << "rank " << r;
}

int raw_connect(const UniqueId& id) {
  int s = socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in sa{};
  sa.sin_family = AF_INET;
  sa.sin_addr.s_addr = id.ip_be;
  sa.sin_port = htons(id.port);
  EXPECT_EQ(connect(s, reinterpret_cast<sockaddr*>(&sa), sizeof sa), 0);
  return s;
}
}  // namespace

TEST(TcpBootstrap, AllgatherAndBarrier) {
  run_job(2, 20);
  run_job(5, 10);
}

TEST(TcpBootstrap, RejectsWrongSecretAndGarbage) {
  UniqueId id;
  int lfd = -1;
  ASSERT_EQ(uid_create_listener(true, "", &id, &lfd), Status::ok);
  std::unique_ptr<Bootstrap> root;
  Status root_st = Status::internal_error;
  std::thread t([&] {
    TcpOptions o;
    o.timeout_s = 20;
    o.listen_fd = lfd;
    root_st = tcp_create(id, 0, 2, o, &root);
  });
  // 1: garbage bytes instead of a frame.
  int g = raw_connect(id);
  const char junk[64] = "GET / HTTP/1.0\r\n\r\n";
  ASSERT_EQ(send(g, junk, sizeof junk, 0), (ssize_t)sizeof junk);
  char c;
  EXPECT_LE(recv(g, &c, 1, 0), 0);  // dropped without a reply (EOF or reset)
  close(g);
  // 2: a well-formed hello with the wrong secret must be refused.
  UniqueId wrong = id;
  wrong.secret[3] ^= 0x40;
  std::unique_ptr<Bootstrap> intruder;
  TcpOptions o;
  o.timeout_s = 5;
  EXPECT_EQ(tcp_create(wrong, 1, 2, o, &intruder), Status::bootstrap_error);
  // 3: the real rank 1 still joins.
  std::unique_ptr<Bootstrap> leaf;
  EXPECT_EQ(tcp_create(id, 1, 2, o, &leaf), Status::ok);
  t.join();
  ASSERT_EQ(root_st, Status::ok);
  std::thread t2([&] { EXPECT_EQ(root->barrier(), Status::ok); });
  EXPECT_EQ(leaf->barrier(), Status::ok);
  t2.join();
}

TEST(TcpBootstrap, JoinTimesOutNamingMissingRanks) {
  UniqueId id;
  int lfd = -1;
  ASSERT_EQ(uid_create_listener(true, "", &id, &lfd), Status::ok);
  TcpOptions o;
  o.timeout_s = 1;
  o.listen_fd = lfd;
  std::unique_ptr<Bootstrap> root;
  EXPECT_EQ(tcp_create(id, 0, 3, o, &root), Status::timeout);
}

// The checks every received bootstrap frame passes (bootstrap/wire): each malformed field has its
// reason, and a control frame's payload is taken only when it is exactly an AbortMsg.
TEST(BootstrapWire, FrameChecksNameWhatIsWrong) {
  using namespace gshmem::boot::wire;
  EXPECT_EQ(check_hello_header(FrameHdr{kMagic, t_hello, 0, sizeof(Hello)}), nullptr);
  EXPECT_STREQ(check_hello_header(FrameHdr{kMagic + 1, t_hello, 0, sizeof(Hello)}), "malformed hello frame (magic)");
  EXPECT_STREQ(check_hello_header(FrameHdr{kMagic, t_welcome, 0, sizeof(Hello)}), "malformed hello frame (type)");
  EXPECT_STREQ(check_hello_header(FrameHdr{kMagic, t_hello, 0, 1ull << 40}), "malformed hello frame (length)");

  uint8_t secret[16];
  for (int i = 0; i < 16; ++i) secret[i] = static_cast<uint8_t>(i * 7 + 1);
  Hello h{kVersion, 2, 4, 0, {}};
  memcpy(h.secret, secret, 16);
  auto none = [](int, const void*) { return false; };
  auto two = [](int r, const void*) { return r == 2; };
  EXPECT_EQ(check_hello(h, secret, 4, none, nullptr), nullptr);
  EXPECT_STREQ(check_hello(h, secret, 4, two, nullptr), "duplicate rank");
  EXPECT_STREQ(check_hello(h, secret, 5, none, nullptr), "job size mismatch");
  Hello b = h;
  b.secret[3] ^= 1;
  EXPECT_STREQ(check_hello(b, secret, 4, none, nullptr), "wrong job secret");
  b = h;
  b.version = 99;
  EXPECT_STREQ(check_hello(b, secret, 4, none, nullptr), "protocol version mismatch");
  for (int r : {0, 4, -3}) {
    b = h;
    b.rank = r;
    EXPECT_STREQ(check_hello(b, secret, 4, none, nullptr), "rank out of range") << r;
  }

  AbortMsg m{};
  m.status = 0;
  m.from_rank = 9;
  memset(m.text, 'x', sizeof m.text);  // not terminated
  AbortMsg out{};
  EXPECT_TRUE(parse_control(FrameHdr{kMagic, t_abort, 0, sizeof m}, &m, sizeof m, 4, &out));
  EXPECT_EQ(out.status, 1);      // an abort never ends the job with 0
  EXPECT_EQ(out.from_rank, -1);  // 9 is no PE of a 4-PE job
  EXPECT_EQ(strlen(out.text), sizeof out.text - 1);
  m.status = 3;
  m.from_rank = 2;
  EXPECT_TRUE(parse_control(FrameHdr{kMagic, t_exit, 0, sizeof m}, &m, sizeof m, 4, &out));
  EXPECT_EQ(out.status, 3);
  EXPECT_EQ(out.from_rank, 2);
  EXPECT_FALSE(parse_control(FrameHdr{kMagic, t_abort, 0, 7}, &m, 7, 4, &out));
  EXPECT_EQ(out.status, 1);
  EXPECT_FALSE(parse_control(FrameHdr{kMagic, t_allgather, 0, sizeof m}, &m, sizeof m, 4, &out));

  EXPECT_EQ(check_allgather(FrameHdr{kMagic, t_allgather, 0, 64}, 64), nullptr);
  EXPECT_NE(check_allgather(FrameHdr{kMagic, t_allgather, 0, 65}, 64), nullptr);
  EXPECT_NE(check_allgather(FrameHdr{kMagic, t_hello, 0, 64}, 64), nullptr);
  EXPECT_EQ(classify_reply(FrameHdr{kMagic, t_welcome, 0, 0}), Reply::welcome);
  EXPECT_EQ(classify_reply(FrameHdr{kMagic, t_reject, 0, 20}), Reply::reject);
  EXPECT_EQ(classify_reply(FrameHdr{kMagic, t_reject, 0, 1ull << 33}), Reply::malformed);
  EXPECT_EQ(classify_reply(FrameHdr{kMagic, t_welcome, 0, 5}), Reply::malformed);
}
