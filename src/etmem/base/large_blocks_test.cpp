// Blocks from kArenaBlockBytes up are carved in order from huge-page chunks, the very large
// ones get a mapping of their own on a 2 MiB boundary, small ones come from operator new; a
// LargeArray behaves as the std::vector it is across all three.
#include "etmem/base/large_blocks.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

namespace etmem {
namespace {

constexpr size_t kHuge = size_t{2} << 20;

uintptr_t Address(const void* p) { return reinterpret_cast<uintptr_t>(p); }

TEST(LargeBlocksTest, EveryKindOfBlockHoldsItsBytes) {
  for (size_t bytes : {size_t{1}, size_t{4096}, kArenaBlockBytes - 1, kArenaBlockBytes,
                       kArenaBlockBytes + 1, 5 * kHuge + 12345, 40 * kHuge + 7}) {
    auto* p = static_cast<uint8_t*>(AllocateBlock(bytes));
    std::memset(p, 0xab, bytes);  // every byte is writable
    EXPECT_EQ(p[bytes - 1], 0xab) << bytes;
    FreeBlock(p, bytes);
  }
}

TEST(LargeBlocksTest, ArenaBlocksOfOneProgramShareHugePagesAndDoNotOverlap) {
  if (!kMapsLargeBlocks) GTEST_SKIP() << "under AddressSanitizer every block is operator new's";
  const size_t a_bytes = kArenaBlockBytes + 100, b_bytes = 3 * kArenaBlockBytes;
  auto* a = static_cast<uint8_t*>(AllocateBlock(a_bytes));
  auto* b = static_cast<uint8_t*>(AllocateBlock(b_bytes));
  EXPECT_EQ(Address(a) % 64, 0u);
  EXPECT_EQ(Address(b) % 64, 0u);
  // Carved one after the other: b starts where a ends, rounded to a cache line.
  EXPECT_EQ(Address(b), Address(a) + ((a_bytes + 63) & ~size_t{63}));
  std::memset(a, 1, a_bytes);
  std::memset(b, 2, b_bytes);
  EXPECT_EQ(a[a_bytes - 1], 1);
  // The last block freed first gives its bytes back: the next block takes its place.
  FreeBlock(b, b_bytes);
  auto* c = static_cast<uint8_t*>(AllocateBlock(b_bytes));
  EXPECT_EQ(c, b);
  FreeBlock(c, b_bytes);
  FreeBlock(a, a_bytes);
}

TEST(LargeBlocksTest, MiddleSizedBlocksJoinAChunkALargeBlockStarted) {
  // Before any chunk exists (each test runs in a process of its own under ctest) a middle-sized
  // block comes from operator new, and FreeBlock still frees it once a chunk exists.
  const size_t middle = kArenaJoinBytes + 100;
  auto* early = static_cast<uint8_t*>(AllocateBlock(middle));
  std::memset(early, 3, middle);
  if (!kMapsLargeBlocks) {
    FreeBlock(early, middle);
    GTEST_SKIP() << "under AddressSanitizer every block is operator new's";
  }
  const size_t large = kArenaBlockBytes;
  auto* a = static_cast<uint8_t*>(AllocateBlock(large));
  auto* b = static_cast<uint8_t*>(AllocateBlock(middle));
  EXPECT_EQ(Address(b), Address(a) + large) << "carved right after the large block";
  std::memset(b, 4, middle);
  EXPECT_EQ(early[middle - 1], 3);
  FreeBlock(early, middle);
  FreeBlock(b, middle);
  FreeBlock(a, large);
}

TEST(LargeBlocksTest, VeryLargeBlocksStartOnAHugePageBoundary) {
  if (!kMapsLargeBlocks) GTEST_SKIP() << "under AddressSanitizer every block is operator new's";
  const size_t bytes = 40 * kHuge + 1;
  void* p = AllocateBlock(bytes);
  EXPECT_EQ(Address(p) % kHuge, 0u);
  FreeBlock(p, bytes);
}

TEST(LargeBlocksTest, TwoThreadsAllocateAndFreeAtOnce) {
  auto churn = [](uint8_t fill) {
    for (int round = 0; round < 200; ++round) {
      std::vector<std::pair<uint8_t*, size_t>> blocks;
      for (size_t k = 1; k <= 4; ++k) {
        const size_t bytes = k * kArenaBlockBytes + fill;
        auto* p = static_cast<uint8_t*>(AllocateBlock(bytes));
        std::memset(p, fill, bytes);
        blocks.emplace_back(p, bytes);
      }
      for (auto& [p, bytes] : blocks) {
        ASSERT_EQ(p[0], fill);  // nobody else wrote into this block
        ASSERT_EQ(p[bytes - 1], fill);
        FreeBlock(p, bytes);
      }
    }
  };
  std::thread other(churn, uint8_t{7});
  churn(9);
  other.join();
}

TEST(LargeBlocksTest, ALargeArrayGrowsThroughEveryKindOfBlock) {
  LargeArray<uint64_t> a;
  const size_t n = 24 * kHuge / sizeof(uint64_t);  // ends in a mapping of its own
  for (size_t i = 0; i < n; ++i) a.push_back(i * 7);
  LargeArray<uint64_t> moved = std::move(a);
  ASSERT_EQ(moved.size(), n);
  for (size_t i = 0; i < n; i += 4099) EXPECT_EQ(moved[i], i * 7);
  moved.resize(1000);
  moved.shrink_to_fit();
  EXPECT_EQ(moved.back(), 999u * 7);
}

}  // namespace
}  // namespace etmem
