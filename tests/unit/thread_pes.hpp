// Unit-test harness: PEs as threads of one process, each with its own tcp bootstrap.
#pragma once
#include <gtest/gtest.h>

#include <functional>
#include <memory>
#include <thread>
#include <vector>

#include "bootstrap/tcp.hpp"

namespace gshmem::test {

// Runs body(rank, bootstrap) on n threads, each a PE with its own bootstrap.
inline void run_pes(int n, const std::function<void(int, boot::Bootstrap&)>& body) {
  using namespace gshmem::boot;
  UniqueId id;
  int lfd = -1;
  ASSERT_EQ(uid_create_listener(true, "", &id, &lfd), Status::ok);
  std::vector<std::thread> th;
  for (int rank = 0; rank < n; ++rank)
    th.emplace_back([&, rank] {
      TcpOptions o;
      o.timeout_s = 30;
      o.listen_fd = rank == 0 ? lfd : -1;
      std::unique_ptr<Bootstrap> b;
      ASSERT_EQ(tcp_create(id, rank, n, o, &b), Status::ok);
      body(rank, *b);
      b->finalize();
    });
  for (auto& t : th) t.join();
}

}  // namespace gshmem::test
