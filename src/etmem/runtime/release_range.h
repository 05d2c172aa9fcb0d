// Owns: the one release-range type and the one resolver of a --runtime spec: where a version
// lies among the modelled ones (published releases by number, snapshots of ExecuTorch's main
// after every release, by date: Version's order), whether a range of them (a runner profile's
// releases, a kernel library's delta from its release on, a runner's pool symbols) holds it,
// and what a spec names. A spec has two readings with two names: FindRelease (release.h: "1.4"
// is the newest 1.4.x, the one release an analysis needs) and ReleasesIn ("1.4" is every 1.4.x:
// check's search). Not: the releases themselves (release.h, releases/).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "etmem/base/result.h"
#include "etmem/runtime/release.h"

namespace etmem::runtime {

// The versions from `first` through `last`, both included; an empty `last`: every version
// from `first` on (a delta applies from its release on). Versions are Version's spellings:
// "1.4.1", "v1.4.1", "1.4" (as 1.4.0), "main-20260822-cff6f4dd"; a `first` of "main" means
// every snapshot of main (what a delta written on main, after the last release, applies to).
struct ReleaseRange {
  std::string first, last;

  // Whether `version` lies in the range, in Version's order. A version, or a bound, that is
  // not a version (Version::Parse fails) lies in no range and bounds none.
  bool Contains(std::string_view version) const;
};

// Every release a spec names: "all" every published release (oldest first), "1.4" every
// modelled 1.4.x, anything else FindRelease's one release. Unknown specs are FindRelease's
// error.
Result<std::vector<const RuntimeTraits*>> ReleasesIn(const std::string& spec);

}  // namespace etmem::runtime
