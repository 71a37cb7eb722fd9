#include <gtest/gtest.h>

#include "common/config.hpp"

using namespace gshmem;

TEST(Config, ParseSize) {
  uint64_t v = 0;
  EXPECT_TRUE(parse_size("4096", &v));
  EXPECT_EQ(v, 4096u);
  EXPECT_TRUE(parse_size("1G", &v));
  EXPECT_EQ(v, 1ull << 30);
  EXPECT_TRUE(parse_size("512m", &v));
  EXPECT_EQ(v, 512ull << 20);
  EXPECT_TRUE(parse_size("1.5K", &v));
  EXPECT_EQ(v, 1536u);
  EXPECT_TRUE(parse_size("2GiB", &v));
  EXPECT_EQ(v, 2ull << 30);
  EXPECT_FALSE(parse_size("", &v));
  EXPECT_FALSE(parse_size("12Q", &v));
  EXPECT_FALSE(parse_size("-1", &v));
  EXPECT_FALSE(parse_size("1GX", &v));
}

TEST(Config, ParseBool) {
  bool b = false;
  EXPECT_TRUE(parse_bool("yes", &b));
  EXPECT_TRUE(b);
  EXPECT_TRUE(parse_bool("0", &b));
  EXPECT_FALSE(b);
  EXPECT_FALSE(parse_bool("maybe", &b));
}

TEST(Config, TableHasStandardVariables) {
  int n = 0;
  const CfgRow* rows = config_rows(&n);
  bool sym = false, dbg = false, info = false, ver = false;
  for (int i = 0; i < n; ++i) {
    EXPECT_NE(std::string(rows[i].help), "");
    std::string name = rows[i].name;
    sym |= name == "SHMEM_SYMMETRIC_SIZE";
    dbg |= name == "SHMEM_DEBUG";
    info |= name == "SHMEM_INFO";
    ver |= name == "SHMEM_VERSION";
  }
  EXPECT_TRUE(sym && dbg && info && ver);
}

TEST(Config, EnvironmentIsReadAndValidated) {
  // The table is parsed once per process; this test owns the first parse.
  setenv("SHMEM_SYMMETRIC_SIZE", "3M", 1);
  setenv("GSHMEM_WAIT_SPIN", "17", 1);
  const Config* c = nullptr;
  ASSERT_EQ(config_load(&c), Status::ok);
  EXPECT_EQ(c->SHMEM_SYMMETRIC_SIZE, 3ull << 20);
  EXPECT_EQ(c->GSHMEM_WAIT_SPIN, 17);
  EXPECT_EQ(c->GSHMEM_BOOTSTRAP, "auto");
}
