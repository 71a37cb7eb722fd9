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
