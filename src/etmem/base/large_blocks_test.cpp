// Large blocks are 2 MiB-aligned (so huge pages can back them), small ones come from operator
// new, and a LargeArray behaves as the std::vector it is across both.
#include "etmem/base/large_blocks.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>

namespace etmem {
namespace {

TEST(LargeBlocksTest, LargeBlocksStartOnAHugePageBoundaryAndHoldTheirBytes) {
  for (size_t bytes : {kLargeBlockBytes, kLargeBlockBytes + 1, 5 * kLargeBlockBytes + 12345}) {
    auto* p = static_cast<uint8_t*>(AllocateBlock(bytes));
    if (kMapsLargeBlocks) EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % kLargeBlockBytes, 0u) << bytes;
    std::memset(p, 0xab, bytes);  // every byte is writable
    EXPECT_EQ(p[bytes - 1], 0xab);
    FreeBlock(p, bytes);
  }
}

TEST(LargeBlocksTest, SmallBlocksWork) {
  for (size_t bytes : {size_t{1}, size_t{4096}, kLargeBlockBytes - 1}) {
    auto* p = static_cast<uint8_t*>(AllocateBlock(bytes));
    std::memset(p, 1, bytes);
    FreeBlock(p, bytes);
  }
}

TEST(LargeBlocksTest, ALargeArrayGrowsThroughBothKindsOfBlock) {
  LargeArray<uint64_t> a;
  const size_t n = 3 * kLargeBlockBytes / sizeof(uint64_t);  // ends in large blocks
  for (size_t i = 0; i < n; ++i) a.push_back(i * 7);
  LargeArray<uint64_t> moved = std::move(a);
  ASSERT_EQ(moved.size(), n);
  for (size_t i = 0; i < n; i += 4099) EXPECT_EQ(moved[i], i * 7);
  moved.shrink_to_fit();
  EXPECT_EQ(moved.back(), (n - 1) * 7);
}

}  // namespace
}  // namespace etmem
