// mem::resident_blocks: how many blocks of an on-stream collective every GPU PE may launch so that
// the grids of all PEs sharing a GPU fit at once (one block per SM), the same value on every PE.
#include <gtest/gtest.h>

#include <vector>

#include "mem/gpu.hpp"

using gshmem::mem::GpuRecord;
using gshmem::mem::resident_blocks;

namespace {
GpuRecord rec(uint64_t host, uint64_t gpu, int sms) { return GpuRecord{host, gpu, sms, 0}; }
}  // namespace

TEST(GpuSurvey, OnePePerGpuKeepsEverySm) {
  EXPECT_EQ(resident_blocks({rec(1, 10, 132), rec(1, 11, 132), rec(2, 10, 132), rec(2, 11, 132)}), 132);
}

TEST(GpuSurvey, PesSharingAGpuSplitItsSms) {
  // four PEs on one GPU without an MPS share: 132 SMs among four
  EXPECT_EQ(resident_blocks({rec(1, 10, 132), rec(1, 10, 132), rec(1, 10, 132), rec(1, 10, 132)}), 33);
  // MPS clients of 25% each: their shares may overlap, so the 32 SMs any of them sees are split too
  EXPECT_EQ(resident_blocks({rec(1, 10, 32), rec(1, 10, 32), rec(1, 10, 32), rec(1, 10, 32)}), 8);
  // unequal shares: the largest share is what the clients could all crowd into
  EXPECT_EQ(resident_blocks({rec(1, 10, 66), rec(1, 10, 32)}), 33);
}

TEST(GpuSurvey, TheJobTakesTheLeastAndSkipsCpuPes) {
  // host 1 shares GPU 10 among three PEs (132 / 3 = 44); host 2 has a PE alone on GPU 10 (the same
  // PCI address on another machine is another GPU) and a CPU PE (sms 0, not counted)
  EXPECT_EQ(resident_blocks({rec(1, 10, 132), rec(1, 10, 132), rec(1, 10, 132), rec(2, 10, 132), rec(2, 0, 0)}), 44);
  EXPECT_EQ(resident_blocks({rec(1, 0, 0), rec(2, 0, 0)}), 0);
  // more sharers than SMs still leaves every PE one block
  std::vector<GpuRecord> many(10, rec(1, 10, 4));
  EXPECT_EQ(resident_blocks(many), 1);
}
