#include <gtest/gtest.h>

#include <random>
#include <vector>

#include "heap/allocator.hpp"

using gshmem::heap::Allocator;

TEST(Allocator, FirstFitAndCoalesce) {
  Allocator a(1 << 20);
  size_t x = a.alloc(100, 0), y = a.alloc(400, 0), z = a.alloc(64, 0);
  EXPECT_EQ(x, 0u);
  EXPECT_EQ(y, 128u);  // 100 rounds to 128
  EXPECT_EQ(z, 128u + 448u);
  EXPECT_EQ(a.free(y), 448u);
  EXPECT_EQ(a.alloc(256, 0), 128u);  // reuses the hole
  EXPECT_EQ(a.free(12345), 0u);      // not a block
  a.free(x);
  a.free(z);
  a.free(128);
  EXPECT_EQ(a.used(), 0u);
  EXPECT_EQ(a.largest_free(), size_t(1) << 20);  // fully coalesced
}

TEST(Allocator, Alignment) {
  Allocator a(16 << 20);
  a.alloc(64, 0);
  for (size_t al : {64ul, 4096ul, 1ul << 20}) {
    size_t o = a.alloc(10, al);
    ASSERT_NE(o, Allocator::kFail);
    EXPECT_EQ(o % al, 0u) << al;
  }
  EXPECT_EQ(a.alloc(10, 3 * 64), Allocator::kFail);  // not a power of two
}

// A bulk block starts on a 512-byte boundary after small blocks, the small ones keep filling the
// gaps, and an explicit larger alignment still wins.
TEST(Allocator, BulkBlocksStartOnBulkBoundaries) {
  Allocator a(1 << 20);
  const size_t s1 = a.alloc(8, 0), s2 = a.alloc(8, 0), big = a.alloc(32 << 10, 0);
  EXPECT_EQ(s1, 0u);
  EXPECT_EQ(s2, 64u);
  EXPECT_EQ(big, Allocator::kBulk);
  EXPECT_EQ(a.alloc(8, 0), 128u);                       // into the gap before the bulk block
  EXPECT_EQ(a.alloc(256, 0), 192u);                      // below the bulk size: granule aligned
  const size_t mid = a.alloc(Allocator::kBulk, 64);  // asked for 64: still bulk aligned
  EXPECT_EQ(mid % Allocator::kBulk, 0u);
  const size_t rounded = a.alloc(Allocator::kBulk - 1, 0);  // rounds up to a bulk-size block
  EXPECT_EQ(rounded % Allocator::kBulk, 0u);
  const size_t page = a.alloc(4096, 4096);
  EXPECT_EQ(page % 4096, 0u);
  // a small block off a bulk boundary is not grown in place to bulk size (realloc moves it to a
  // new, bulk-aligned block); below that size it grows in place
  Allocator b(1 << 20);
  b.alloc(64, 0);
  const size_t small = b.alloc(64, 0);
  EXPECT_EQ(small, 64u);
  EXPECT_EQ(b.resize_in_place(small, 256), small);
  EXPECT_EQ(b.resize_in_place(small, Allocator::kBulk), Allocator::kFail);
  EXPECT_EQ(b.block_size(small), 256u);
  const size_t on = b.alloc(Allocator::kBulk, 0);
  EXPECT_EQ(b.resize_in_place(on, 4 * Allocator::kBulk), on);  // already on a boundary
}

TEST(Allocator, ExhaustionAndResize) {
  Allocator a(4096);
  EXPECT_EQ(a.alloc(8192, 0), Allocator::kFail);
  EXPECT_EQ(a.alloc(SIZE_MAX / 2, 0), Allocator::kFail);
  size_t o = a.alloc(1024, 0);
  EXPECT_EQ(a.resize_in_place(o, 2048), o);  // grows into the free neighbour
  EXPECT_EQ(a.block_size(o), 2048u);
  size_t p = a.alloc(2048, 0);
  EXPECT_NE(p, Allocator::kFail);
  EXPECT_EQ(a.resize_in_place(o, 4096), Allocator::kFail);  // neighbour taken
  EXPECT_EQ(a.resize_in_place(o, 64), o);                    // shrink
  EXPECT_EQ(a.used(), 64u + 2048u);
}

TEST(Allocator, DeterministicRandomSequence) {
  // Two allocators fed the same calls give the same offsets: the basis of symmetric addresses.
  std::mt19937_64 rng(std::random_device{}());
  Allocator a(64 << 20), b(64 << 20);
  std::vector<size_t> live;
  for (int i = 0; i < 5000; ++i) {
    if (!live.empty() && rng() % 3 == 0) {
      size_t k = rng() % live.size();
      EXPECT_EQ(a.free(live[k]), b.free(live[k]));
      live.erase(live.begin() + static_cast<long>(k));
    } else {
      size_t sz = 1 + rng() % 100000, al = size_t(64) << (rng() % 6);
      size_t x = a.alloc(sz, al), y = b.alloc(sz, al);
      ASSERT_EQ(x, y);
      if (x != Allocator::kFail) {
        EXPECT_EQ(x % al, 0u);
        live.push_back(x);
      }
    }
  }
  EXPECT_EQ(a.used(), b.used());
}

TEST(Allocator, RemembersFreedBlocksUntilTheirBytesAreTakenAgain) {
  Allocator a(1 << 20);
  const size_t x = a.alloc(4096, 0), y = a.alloc(64, 0);
  EXPECT_FALSE(a.was_freed(x));
  EXPECT_EQ(a.free(x), 4096u);
  EXPECT_TRUE(a.was_freed(x));   // a second free of x is a double free
  EXPECT_FALSE(a.was_freed(x + 64));  // inside the block: never a block of its own
  const size_t z = a.alloc(8192, 0);  // does not fit x's hole: x stays freed
  EXPECT_NE(z, x);
  EXPECT_TRUE(a.was_freed(x));
  const size_t w = a.alloc(128, 0);  // first fit: takes x's first bytes
  EXPECT_EQ(w, x);
  EXPECT_FALSE(a.was_freed(x));
  EXPECT_EQ(a.free(y), 64u);
  EXPECT_EQ(a.resize_in_place(w, 4096 + 64), w);  // grows over y's freed bytes
  EXPECT_FALSE(a.was_freed(y));
}
