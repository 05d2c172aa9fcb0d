// ReleaseRange and ReleasesIn: one order of versions (runner profiles, kernel library deltas,
// firmware runner symbols, check's search) and the two readings of a --runtime spec.
#include "etmem/runtime/release_range.h"

#include <gtest/gtest.h>

#include "etmem/base/version.h"

namespace etmem::runtime {
namespace release_range_test {

TEST(ReleaseRange, HoldsItsBoundsAndWhatLiesBetweenInVersionOrder) {
  const ReleaseRange r{"1.0.0", "1.3.1"};
  EXPECT_TRUE(r.Contains("1.0.0"));
  EXPECT_TRUE(r.Contains("1.3.1"));
  EXPECT_TRUE(r.Contains("v1.2.0"));
  EXPECT_TRUE(r.Contains("1.2"));  // a minor line as its .0
  EXPECT_FALSE(r.Contains("0.7.0"));
  EXPECT_FALSE(r.Contains("1.10.0"));  // by number, not by text
  EXPECT_FALSE(r.Contains("main-20260822-cff6f4dd"));
  EXPECT_FALSE(r.Contains("not a version"));
  EXPECT_FALSE(r.Contains(""));
}

TEST(ReleaseRange, PutsSnapshotsOfMainAfterEveryRelease) {
  const ReleaseRange to_main{"1.4.0", "main-20260822-cff6f4dd"};
  EXPECT_TRUE(to_main.Contains("main-20260822-cff6f4dd"));
  EXPECT_TRUE(to_main.Contains("99.0.0"));
  EXPECT_FALSE(to_main.Contains("main-20270101-abc"));  // a later snapshot is past it
  EXPECT_FALSE(to_main.Contains("1.3.1"));
  const ReleaseRange from{"1.0.0", ""};  // a delta: from its release on
  EXPECT_TRUE(from.Contains("main-20270101-abc"));
  EXPECT_TRUE(from.Contains("1.0.0"));
  EXPECT_FALSE(from.Contains("0.7.0"));
  EXPECT_FALSE((ReleaseRange{"garbage", ""}.Contains("1.0.0")));
  EXPECT_FALSE((ReleaseRange{"1.0.0", "garbage"}.Contains("1.0.0")));
}

// The two readings: FindRelease's one release is the newest of ReleasesIn's line, for every
// modelled minor line (derived from the registry, not typed here).
TEST(ReleaseRange, AMinorLineIsEveryPatchReleaseInTheSearchAndItsNewestInAnAnalysis) {
  size_t lines = 0;
  for (const RuntimeTraits& release : AllReleases()) {
    const Version v = *Version::Parse(release.version);
    const std::string line = std::to_string(v.major) + "." + std::to_string(v.minor);
    auto every = ReleasesIn(line);
    ASSERT_TRUE(every.has_value()) << line;
    auto newest = FindRelease(line);
    ASSERT_TRUE(newest.has_value()) << line;
    EXPECT_EQ(every->back(), *newest) << line;
    size_t expected = 0;
    for (const RuntimeTraits& r : AllReleases()) {
      const Version w = *Version::Parse(r.version);
      if (w.major == v.major && w.minor == v.minor) ++expected;
    }
    EXPECT_EQ(every->size(), expected) << line;
    for (const RuntimeTraits* r : *every) EXPECT_TRUE(r->version.starts_with(line + ".")) << line;
    auto exact = ReleasesIn(release.version);
    ASSERT_TRUE(exact.has_value());
    ASSERT_EQ(exact->size(), 1u);
    EXPECT_EQ(exact->front()->version, release.version);
    ++lines;
  }
  EXPECT_GT(lines, 1u);
  EXPECT_EQ(ReleasesIn("all")->size(), AllReleases().size());
  const auto snapshots = AllSnapshots();
  if (!snapshots.empty()) {
    auto main = ReleasesIn("main");
    ASSERT_TRUE(main.has_value());
    ASSERT_EQ(main->size(), 1u);
    EXPECT_EQ(main->front(), snapshots.back());
  }
  EXPECT_FALSE(ReleasesIn("0.0").has_value());
  EXPECT_FALSE(ReleasesIn("nonsense").has_value());
}

}  // namespace release_range_test
}  // namespace etmem::runtime
