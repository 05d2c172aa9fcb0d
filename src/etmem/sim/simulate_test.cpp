// The bump-allocator arithmetic: padding by absolute address, zero-size requests, the failure
// line, the temp allocator's reset and peak, and the minimum pool.
#include "etmem/sim/simulate.h"

#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <span>
#include <utility>
#include <vector>

namespace etmem::sim {
namespace simulate_test {

using runtime::AllocationRequest;
using runtime::OnFailure;
using runtime::PoolKind;
using runtime::Site;

AllocationRequest Req(uint64_t size, uint32_t align, PoolKind pool = PoolKind::kMethod,
                      OnFailure f = OnFailure::kError) {
  AllocationRequest r{};
  r.site = Site::kValues;
  r.size = size;
  r.align = align;
  r.pool = pool;
  r.on_failure = f;
  return r;
}

TEST(Simulate, PaddingFollowsTheAbsoluteAddressOfThePoolBase) {
  std::vector<AllocationRequest> reqs = {Req(4, 4), Req(8, 8)};
  // Base aligned to 8: the 8-aligned request pads from offset 4 to 8.
  SimResult a8 = Simulate(reqs, {8, std::nullopt}, {8, std::nullopt});
  EXPECT_EQ(a8.placements[1].offset, 8u);
  EXPECT_EQ(a8.method_bytes, 16u);
  // Base aligned to 4 but not 8: base+4 is already 8-aligned, no padding.
  SimResult a4 = Simulate(reqs, {4, std::nullopt}, {4, std::nullopt});
  EXPECT_EQ(a4.placements[1].offset, 4u);
  EXPECT_EQ(a4.method_bytes, 12u);
}

TEST(Simulate, FirstAllocationPaysPaddingWhenTheBaseIsLessAligned) {
  SimResult r = Simulate(std::vector{Req(24, 8)}, {4, std::nullopt}, {4, std::nullopt});
  EXPECT_EQ(r.placements[0].offset, 4u);
  EXPECT_EQ(r.placements[0].consumed(24), 28u);
}

TEST(Simulate, ZeroSizeRequestsStillPayPadding) {
  SimResult r = Simulate(std::vector{Req(1, 1), Req(0, 4), Req(1, 1)}, {8, std::nullopt}, {8, std::nullopt});
  EXPECT_EQ(r.placements[1].offset, 4u);
  EXPECT_EQ(r.placements[1].consumed(0), 3u);
  EXPECT_EQ(r.placements[2].offset, 4u);
  EXPECT_EQ(r.method_bytes, 5u);
}

TEST(Simulate, FailureReportsPaddingPlusSizeAndWhatIsLeft) {
  SimResult r = Simulate(std::vector{Req(10, 1), Req(8, 8)}, {8, 16}, {8, std::nullopt});
  ASSERT_EQ(r.failures.size(), 1u);
  EXPECT_FALSE(r.loads);
  EXPECT_EQ(r.failures[0].request, 1u);
  EXPECT_EQ(r.failures[0].log,
            "Memory allocation failed: 14B requested (adjusted for alignment), 6B available");
}

TEST(Simulate, TempAllocatorResetsAfterEachOperatorAndReportsThePeak) {
  std::vector<AllocationRequest> reqs = {Req(24, 8, PoolKind::kTemp), Req(3, 1, PoolKind::kTemp),
                                         Req(48, 8, PoolKind::kTemp), Req(16, 8)};
  reqs[1].reset_temp_after = true;
  reqs[2].reset_temp_after = true;
  SimResult r = Simulate(reqs, {8, std::nullopt}, {8, std::nullopt});
  EXPECT_EQ(r.placements[2].offset, 0u);  // after the reset
  EXPECT_EQ(r.temp_peak_bytes, 48u);
  EXPECT_EQ(r.method_bytes, 16u);        // temp requests never touch the method pool
}

TEST(MinimumPool, IsTheHighWaterMarkWhenEveryFailureStopsTheLoad) {
  std::vector<AllocationRequest> reqs = {Req(5, 1), Req(0, 4)};
  EXPECT_EQ(MinimumPool(reqs, 8, {8, std::nullopt}, Simulate(reqs, {8, std::nullopt}, {8, std::nullopt})), 8u);
  EXPECT_FALSE(Simulate(reqs, {8, 7}, {8, std::nullopt}).loads);
}

TEST(MinimumPool, ShrinksWhenATrailingZeroSizeFailureIsTolerated) {
  // 0.4/0.5 macros ignore a failed zero-size request, so its padding need not fit.
  std::vector<AllocationRequest> reqs = {Req(5, 1), Req(0, 4, PoolKind::kMethod, OnFailure::kErrorUnlessEmpty)};
  EXPECT_EQ(MinimumPool(reqs, 8, {8, std::nullopt}, Simulate(reqs, {8, std::nullopt}, {8, std::nullopt})), 5u);
  SimResult at5 = Simulate(reqs, {8, 5}, {8, std::nullopt});
  EXPECT_TRUE(at5.loads);
  EXPECT_EQ(at5.failures.size(), 1u);  // the runtime still logs the failed allocate()
}

TEST(MinimumPool, AtMinimumLoadsAndOneByteLessDoesNot) {
  std::vector<AllocationRequest> reqs = {Req(7, 1), Req(16, 8), Req(3, 4), Req(0, 8), Req(2, 2)};
  const uint64_t min = MinimumPool(reqs, 4, {4, std::nullopt}, Simulate(reqs, {4, std::nullopt}, {4, std::nullopt}));
  EXPECT_TRUE(Simulate(reqs, {4, min}, {4, std::nullopt}).loads);
  EXPECT_FALSE(Simulate(reqs, {4, min - 1}, {4, std::nullopt}).loads);
}

}  // namespace simulate_test
}  // namespace etmem::sim

namespace etmem::sim {
namespace simulate_test {

// Measured on the real 1.4.1 runtime (x86-64, a 2000 B pool): a failed, unchecked EValue*[] of
// an IntList is followed by its int64_t[] request (a second failure line), then a crash.
TEST(Simulate, AnUncheckedFailureLetsOnlyItsPairedRequestFollow) {
  std::vector<AllocationRequest> reqs = {Req(8, 8), Req(16, 8, PoolKind::kMethod, OnFailure::kUnchecked),
                                         Req(16, 8, PoolKind::kMethod, OnFailure::kUnchecked),
                                         Req(24, 8)};
  reqs[1].subject = reqs[2].subject = 7;
  SimResult r = Simulate(reqs, {8, 16}, {8, std::nullopt});
  EXPECT_FALSE(r.loads);
  EXPECT_EQ(r.placements.size(), 3u);  // the paired request is made; the next one is not
  ASSERT_EQ(r.failures.size(), 2u);
  EXPECT_EQ(r.failures[0].request, 1u);
  EXPECT_EQ(r.failures[1].request, 2u);
}

// PlaceBatch keeps the cursors in locals while no pool can fail: it must place every request
// where Place does, on unbounded pools and on small ones that fail part way.
TEST(LoadSimulator, PlaceBatchPlacesAsPlaceDoes) {
  std::mt19937 rng(30112026);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<AllocationRequest> requests;
    for (int k = 0; k < 300; ++k) {
      AllocationRequest r = Req(rng() % 200, 1u << (rng() % 4),
                                rng() % 4 == 0 ? PoolKind::kTemp : PoolKind::kMethod,
                                rng() % 5 == 0 ? OnFailure::kUnchecked : OnFailure::kError);
      r.reset_temp_after = rng() % 3 == 0;
      r.subject = static_cast<int32_t>(k / 2);
      requests.push_back(r);
    }
    const std::optional<uint64_t> capacity =
        trial % 2 ? std::optional<uint64_t>() : std::optional<uint64_t>(rng() % 20000);
    const PoolConfig method{8, capacity}, temp{8, std::nullopt};
    SimResult one, batched;
    std::vector<std::pair<size_t, uint64_t>> by_one, by_batch;
    LoadSimulator a(method, temp, one), b(method, temp, batched);
    Placement p;
    for (size_t i = 0; i < requests.size(); ++i) {
      if (!a.Place(requests[i], p)) break;
      by_one.emplace_back(i, p.offset * 2 + p.failed);
    }
    for (size_t at = 0; at < requests.size(); at += 37)  // batches of uneven size
      b.PlaceBatch(std::span(requests).subspan(at, std::min<size_t>(37, requests.size() - at)),
                   [&](size_t i, const AllocationRequest&, const Placement& q) {
                     by_batch.emplace_back(i, q.offset * 2 + q.failed);
                   });
    a.Finish();
    b.Finish();
    ASSERT_EQ(by_batch, by_one) << "trial " << trial;
    EXPECT_EQ(batched.method_bytes, one.method_bytes);
    EXPECT_EQ(batched.temp_peak_bytes, one.temp_peak_bytes);
    EXPECT_EQ(batched.failures.size(), one.failures.size());
    EXPECT_EQ(batched.loads, one.loads);
  }
}

}  // namespace simulate_test
}  // namespace etmem::sim
