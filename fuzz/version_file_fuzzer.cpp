// Owns: the fuzz target of the release line `etmem measure` reads from a user's ExecuTorch tree
// (the first line of version.txt, or a git tag). Text -> measure::ReleaseInVersionText; an
// accepted line must give "X.Y.Z" of at most three digits each, which VersionNumber turns into
// major*10000 + minor*100 + patch, and reading it back must give itself. A crash, a hang or a
// sanitizer report is a finding.
#include <cstdint>
#include <string>
#include <string_view>

#include "etmem/measure/build.h"
#include "fuzz_checks.h"

const char* const etmem::fuzz::kTargetName = "version_file_fuzzer";

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace etmem;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  const auto release = measure::ReleaseInVersionText(text);
  if (!release) return 0;
  int dots = 0;
  for (char c : *release) {
    fuzz::Require(c == '.' || (c >= '0' && c <= '9'), "not a release: " + *release);
    dots += c == '.';
  }
  fuzz::Require(dots == 2, "not three numbers: " + *release);
  const auto number = measure::VersionNumber(*release);
  fuzz::Require(number.has_value() && *number >= 0 && *number <= 999 * 10000 + 999 * 100 + 999,
                "no version number for " + *release);
  fuzz::Require(measure::ReleaseInVersionText(*release) == release, "not stable: " + *release);
  return 0;
}
