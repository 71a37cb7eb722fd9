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
  setenv("SMA_SYMMETRIC_SIZE", "5M", 1);  // the deprecated name loses to the SHMEM_ one ...
  setenv("SMA_INFO", "1", 1);             // ... and is read when that is not set
  setenv("GSHMEM_WAIT_SPIN", "17", 1);
  const Config* c = nullptr;
  ASSERT_EQ(config_load(&c), Status::ok);
  EXPECT_EQ(c->SHMEM_SYMMETRIC_SIZE, 3ull << 20);
  EXPECT_EQ(c->GSHMEM_WAIT_SPIN, 17);
  EXPECT_TRUE(c->SHMEM_INFO);
  EXPECT_EQ(c->GSHMEM_BOOTSTRAP, "auto");
}

namespace {
const CfgRow& row(const char* name) {
  int n = 0;
  const CfgRow* rows = config_rows(&n);
  for (int i = 0; i < n; ++i)
    if (std::string(rows[i].name) == name) return rows[i];
  ADD_FAILURE() << "no row " << name;
  return rows[0];
}
}  // namespace

TEST(Config, EnumValuesAreCheckedAtLoad) {
  std::string why;
  EXPECT_TRUE(config_check_value(row("GSHMEM_HEAP_KIND"), "device", &why));
  EXPECT_TRUE(config_check_value(row("GSHMEM_PROXY_ENGINE"), "UCX", &why));  // ignoring case
  EXPECT_FALSE(config_check_value(row("GSHMEM_TRANSPORT"), "ib", &why));
  EXPECT_EQ(why, "is not one of auto, ucx or tcp");
  EXPECT_FALSE(config_check_value(row("GSHMEM_HEAP_KIND"), "gpu", &why));
  EXPECT_EQ(why, "is not one of auto, device or host");
  EXPECT_FALSE(config_check_value(row("GSHMEM_BOOTSTRAP"), "", &why));
  EXPECT_EQ(cfg_allowed_text(row("GSHMEM_DEBUG")), "NONE, WARN, INFO, DEBUG or TRACE");
}

TEST(Config, RangesAreCheckedAtLoad) {
  std::string why;
  const CfgRow& threads = row("GSHMEM_COLL_THREADS");
  EXPECT_TRUE(config_check_value(threads, "32", &why));
  EXPECT_TRUE(config_check_value(threads, "1024", &why));
  EXPECT_FALSE(config_check_value(threads, "1056", &why));
  EXPECT_FALSE(config_check_value(threads, "100", &why));  // not a multiple of 32
  EXPECT_EQ(why, "is out of range: allowed a multiple of 32 from 32 to 1024");
  EXPECT_FALSE(config_check_value(threads, "0x", &why));
  EXPECT_EQ(why, "is not a valid integer");
  const CfgRow& lanes = row("GSHMEM_PROXY_CE_STREAMS");
  EXPECT_FALSE(config_check_value(lanes, "0", &why));
  EXPECT_FALSE(config_check_value(lanes, "17", &why));
  EXPECT_TRUE(config_check_value(lanes, "16", &why));
  const CfgRow& size = row("SHMEM_SYMMETRIC_SIZE");
  EXPECT_TRUE(config_check_value(size, "4K", &why));
  EXPECT_FALSE(config_check_value(size, "1K", &why));
  EXPECT_EQ(why, "is out of range: allowed at least 4K");
  EXPECT_EQ(cfg_allowed_text(row("GSHMEM_WAIT_SPIN")), "at least 0");
  EXPECT_EQ(cfg_allowed_text(row("GSHMEM_BOOTSTRAP_UID")), "");
}

TEST(Config, EveryDefaultIsAllowed) {
  int n = 0;
  const CfgRow* rows = config_rows(&n);
  for (int i = 0; i < n; ++i) {
    std::string why;
    EXPECT_TRUE(config_check_value(rows[i], rows[i].def, &why)) << rows[i].name << ": " << why;
  }
}
