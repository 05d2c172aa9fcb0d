// Version: one parser, order and spelling for release names, --runtime, runner profile ranges
// and version.txt.
#include "etmem/base/version.h"

#include <gtest/gtest.h>

namespace etmem {
namespace version_test {

TEST(Version, ParsesReleasesAndSnapshots) {
  EXPECT_EQ(Version::Parse("1.4.1")->ToString(), "1.4.1");
  EXPECT_EQ(Version::Parse("v1.4.1")->ToString(), "1.4.1");
  EXPECT_EQ(Version::Parse("1.4")->numbers, 2);
  EXPECT_EQ(Version::Parse("1.4")->ToString(), "1.4");
  EXPECT_EQ(Version::Parse("main-20260822-cff6f4dd")->ToString(), "main-20260822-cff6f4dd");
  EXPECT_TRUE(Version::Parse("main-20260822-cff6f4dd")->snapshot());
  for (const char* bad : {"", "v", "1.", "1.2.", "1.2.3.", "1.2.3.4", "1..2", "1.2a", "x1.2",
                          "123456.0.0", "main-2026082-cff", "main-20260822-", "main-20260822-XYZ",
                          "main"})
    EXPECT_FALSE(Version::Parse(bad).has_value()) << bad;
}

TEST(Version, OrdersReleasesByNumberAndSnapshotsAfterThem) {
  auto v = [](const char* s) { return *Version::Parse(s); };
  EXPECT_LT(v("0.7.0"), v("1.0.0"));
  EXPECT_LT(v("1.3.1"), v("1.4.0"));
  EXPECT_LT(v("1.10.0"), v("10.0.0"));
  EXPECT_GT(v("1.10.0"), v("1.9.9"));
  EXPECT_EQ(v("1.4"), v("1.4.0"));
  EXPECT_LT(v("99.0.0"), v("main-20250101-abc"));
  EXPECT_LT(v("main-20250101-abc"), v("main-20260822-cff6f4dd"));
}

TEST(Version, ReadsVersionText) {
  EXPECT_EQ(Version::FromVersionText("0.3.0a0\n")->ToString(), "0.3.0");
  EXPECT_EQ(Version::FromVersionText("1.5\n")->ToString(), "1.5.0");
  EXPECT_EQ(Version::FromVersionText("1.2.3.4")->ToString(), "1.2.3");
  EXPECT_EQ(Version::FromVersionText("1.4.1")->Number(), 10401);
  EXPECT_FALSE(Version::FromVersionText("1234.1.0"));
  EXPECT_FALSE(Version::FromVersionText("release 1.0"));
  EXPECT_FALSE(Version::FromVersionText("1."));
}

}  // namespace version_test
}  // namespace etmem
