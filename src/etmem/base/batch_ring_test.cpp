// The ring hands every batch over in order, and neither side waits forever for one that stopped.
#include "etmem/base/batch_ring.h"

#include <gtest/gtest.h>

#include <stdexcept>
#include <thread>
#include <vector>

namespace etmem {
namespace {

using Ring = BatchRing<uint64_t>;

// Pushes `count` numbers in batches of 1 to 700 items (larger than a slot, too), then closes.
void Produce(Ring& ring, uint64_t count) {
  Ring::Closer done(ring);
  std::vector<uint64_t> batch;
  for (uint64_t next = 0, size = 1; next < count; size = size % 700 + 37) {
    batch.clear();
    for (uint64_t i = 0; i < size && next < count; ++i) batch.push_back(next++);
    ring.Push(batch);
  }
}

TEST(BatchRing, HandsOverEveryItemInOrder) {
  Ring ring;
  constexpr uint64_t kCount = 300'000;  // many times round the ring
  std::thread producer([&] { Produce(ring, kCount); });
  std::vector<uint64_t> got;
  ring.Drain([&](std::span<const uint64_t> b) {
    EXPECT_LE(b.size(), Ring::kBatch);
    got.insert(got.end(), b.begin(), b.end());
  });
  producer.join();
  ASSERT_EQ(got.size(), kCount);
  for (uint64_t i = 0; i < kCount; ++i) ASSERT_EQ(got[i], i);
}

TEST(BatchRing, AProducerThatThrowsStillEndsTheDrain) {
  Ring ring;
  std::thread producer([&] {
    try {
      Ring::Closer done(ring);
      const uint64_t one = 7;
      ring.Push({&one, 1});
      throw std::runtime_error("planner failed");
    } catch (const std::runtime_error&) {
    }
  });
  size_t items = 0;
  ring.Drain([&](std::span<const uint64_t> b) { items += b.size(); });
  producer.join();
  EXPECT_EQ(items, 1u);
}

TEST(BatchRing, AConsumerThatStopsLetsTheProducerFinish) {
  Ring ring;
  std::thread producer([&] { Produce(ring, 100'000); });  // far more than the ring holds
  EXPECT_THROW(ring.Drain([](std::span<const uint64_t>) { throw std::runtime_error("full"); }),
               std::runtime_error);
  producer.join();  // returns: the producer's batches are dropped once nobody reads them
}

}  // namespace
}  // namespace etmem
