// Owns: the proof that fit's buffer splitter, which finds the items an item meets through
// plan::MeetingBuffers (issue 38), splits exactly as the all-pairs splitter it replaced did. The
// all-pairs splitter is kept here as it was (board/fit.cpp before issue 38) and compared with
// the library's split on random buffers: one splittable buffer on a board where it fits no
// region whole, so fit splits it over the regions' whole free space.
#include <algorithm>
#include <numeric>
#include <random>

#include <gtest/gtest.h>

#include "etmem/base/checked_math.h"
#include "etmem/board/fit.h"

namespace etmem::board {
namespace fit_scaling_test {

bool OldConflict(const StorageItem& a, const StorageItem& b) {
  return a.used && b.used && a.first <= b.last && b.first <= a.last;
}

// The splitter as it was: every item's lowest offset from every item already in the bin.
Split OldSplitBuffer(const Piece& piece, const std::vector<uint64_t>& capacity) {
  std::vector<size_t> bins(capacity.size());
  std::iota(bins.begin(), bins.end(), size_t{0});
  std::stable_sort(bins.begin(), bins.end(),
                   [&](size_t a, size_t b) { return capacity[a] > capacity[b]; });
  const std::vector<StorageItem>& s = piece.storage;
  std::vector<size_t> order(s.size());
  std::iota(order.begin(), order.end(), size_t{0});
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    if (s[a].used != s[b].used) return s[a].used;
    return s[a].bytes > s[b].bytes;
  });
  std::vector<std::vector<size_t>> in_bin(bins.size());
  std::vector<size_t> bin_of(s.size(), 0);
  std::vector<uint64_t> offset(s.size(), 0), end(bins.size(), 0);
  auto lowest = [&](size_t bin, size_t item) {
    std::vector<std::pair<uint64_t, uint64_t>> taken;
    for (size_t other : in_bin[bin])
      if (OldConflict(s[item], s[other]))
        taken.emplace_back(offset[other], offset[other] + s[other].bytes);
    std::sort(taken.begin(), taken.end());
    uint64_t at = 0;
    for (const auto& [lo, hi] : taken) {
      if (at + s[item].bytes <= lo || s[item].bytes == 0) break;
      if (hi > at) at = AlignUp(hi, kPlannedAlign);
    }
    return at;
  };
  for (size_t item : order) {
    bool placed = false;
    for (size_t b = 0; b < bins.size() && !placed; ++b) {
      const uint64_t at = lowest(b, item);
      if (at + s[item].bytes <= capacity[bins[b]]) {
        offset[item] = at;
        bin_of[item] = b;
        placed = true;
      }
    }
    if (!placed) {
      offset[item] = lowest(0, item);
      bin_of[item] = 0;
    }
    in_bin[bin_of[item]].push_back(item);
    end[bin_of[item]] = std::max(end[bin_of[item]], offset[item] + s[item].bytes);
  }
  Split split;
  std::vector<size_t> part_of_bin(bins.size(), SIZE_MAX);
  for (size_t b = 0; b < bins.size(); ++b) {
    if (in_bin[b].empty()) continue;
    part_of_bin[b] = split.part_bytes.size();
    split.part_bytes.push_back(end[b]);
  }
  split.part_of.resize(s.size());
  split.offset_of = offset;
  for (size_t i = 0; i < s.size(); ++i) split.part_of[i] = part_of_bin[bin_of[i]];
  return split;
}

// Random storage: mostly short live ranges over `instructions`, some long ones, some unused,
// some empty, sizes multiples of 16 and not.
Piece RandomBuffer(std::mt19937_64& rng, size_t items, int64_t instructions) {
  Piece p;
  p.name = "planned buffer 1";
  p.memory_id = 1;
  p.splittable = true;
  p.align = 16;
  for (size_t i = 0; i < items; ++i) {
    StorageItem s;
    s.bytes = rng() % 7 == 0 ? 0 : 1 + rng() % 4096;
    s.used = rng() % 11 != 0;
    s.first = static_cast<int64_t>(rng() % static_cast<uint64_t>(instructions));
    const uint64_t span = rng() % 5 == 0 ? static_cast<uint64_t>(instructions) : 1 + rng() % 8;
    s.last = std::min<int64_t>(instructions - 1, s.first + static_cast<int64_t>(rng() % span));
    p.storage.push_back(s);
  }
  return p;
}

TEST(FitScaling, TheSplitterSplitsRandomBuffersAsTheAllPairsSplitterDid) {
  std::mt19937_64 rng(38);
  size_t compared = 0, several_parts = 0;
  for (int round = 0; round < 300; ++round) {
    const size_t items = 1 + rng() % (round < 250 ? 60 : 1500);
    Piece p = RandomBuffer(rng, items, 1 + static_cast<int64_t>(rng() % 200));
    // The buffer as the program plans it: every item at its own offset (its whole size).
    for (const StorageItem& s : p.storage) p.bytes += AlignUp(s.bytes, kPlannedAlign);
    if (p.bytes < 64) continue;
    // Two to four regions, each 40-80% of the peak of live bytes (so the buffer fits none whole
    // and is split over several), based at 16 so that a region's capacity is its free space.
    std::vector<uint64_t> live(256, 0);
    for (const StorageItem& s : p.storage)
      if (s.used)
        for (int64_t i = s.first; i <= s.last; ++i) live[static_cast<size_t>(i)] += s.bytes;
    const uint64_t peak = *std::max_element(live.begin(), live.end());
    std::vector<RegionSpace> regions;
    const size_t m = 2 + rng() % 3;
    for (size_t r = 0; r < m; ++r)
      regions.push_back({"R" + std::to_string(r), 16 + peak * (40 + rng() % 41) / 100, 16});
    const FitResult fit = Fit(regions, {p});
    if (fit.best.splits.empty()) continue;  // the split placed nothing better than whole
    std::vector<uint64_t> capacity;
    for (const RegionSpace& r : regions) capacity.push_back(r.free);
    const Split old = OldSplitBuffer(p, capacity);
    const Split& now = fit.best.splits[0];
    ASSERT_EQ(now.part_of, old.part_of) << "round " << round;
    ASSERT_EQ(now.offset_of, old.offset_of) << "round " << round;
    ASSERT_EQ(now.part_bytes, old.part_bytes) << "round " << round;
    ++compared;
    several_parts += now.part_bytes.size() >= 2;
  }
  EXPECT_GE(compared, 200u);
  EXPECT_GE(several_parts, 150u);
}

}  // namespace fit_scaling_test
}  // namespace etmem::board
