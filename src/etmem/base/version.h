// Owns: Version, the one reader, order and spelling of ExecuTorch version names: a release
// ("1.4.1", "v1.4.1", "1.4": two or three numbers), a snapshot of ExecuTorch's main branch
// ("main-20260822-cff6f4dd": after every release, ordered by date), and the first line of a
// source tree's version.txt ("0.3.0a0"). Every place that reads a version (release names, the
// --runtime option, runner profiles' release ranges, measure's version.txt) uses it.
#pragma once

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace etmem {

struct Version {
  uint32_t major = 0, minor = 0, patch = 0;
  uint8_t numbers = 3;  // how many numbers were written: "1.4" has 2 (a release's minor line)
  // A snapshot of main: its date (YYYYMMDD) and commit; empty for a release.
  std::string snapshot_date, snapshot_commit;

  // "1.4.1", "v1.4.1", "1.4", "main-20260822-cff6f4dd". Each number at most 5 digits; nothing
  // else around it.
  static std::optional<Version> Parse(std::string_view text);
  // The release a version.txt's first line (or a git tag) names: "0.3.0a0" -> 0.3.0, "v1.4.1",
  // "1.5" -> 1.5.0; two or three dot-separated numbers of at most three digits each, then
  // anything that is not a digit.
  static std::optional<Version> FromVersionText(std::string_view text);

  bool snapshot() const { return !snapshot_date.empty(); }
  // "1.4.1" (or "1.4" as written), "main-20260822-cff6f4dd".
  std::string ToString() const;
  // major*10000 + minor*100 + patch (a release; snapshots: 0).
  int Number() const;

  // Releases by their numbers ("1.4" as 1.4.0), then snapshots by date and commit.
  std::strong_ordering operator<=>(const Version& o) const;
  bool operator==(const Version& o) const { return (*this <=> o) == 0; }
};

}  // namespace etmem
