// Owns: ReleaseRange and the resolvers of a --runtime spec (see release_range.h).
#include "etmem/runtime/release_range.h"

#include <optional>

#include "etmem/base/version.h"

namespace etmem::runtime {

bool ReleaseRange::Contains(std::string_view version) const {
  const std::optional<Version> v = Version::Parse(version);
  if (!v) return false;
  // "main" as a first release: every snapshot of main (a delta that came after the last
  // release, on main).
  if (first == "main") {
    if (!v->snapshot()) return false;
  } else {
    const std::optional<Version> from = Version::Parse(first);
    if (!from || *v < *from) return false;
  }
  if (last.empty()) return true;
  const std::optional<Version> to = Version::Parse(last);
  return to && *v <= *to;
}

Result<std::vector<const RuntimeTraits*>> ReleasesIn(const std::string& spec) {
  std::vector<const RuntimeTraits*> out;
  if (spec == "all") {
    for (const RuntimeTraits& r : AllReleases()) out.push_back(&r);
    return out;
  }
  ETMEM_TRY(const RuntimeTraits* newest, FindRelease(spec));
  const std::optional<Version> line = Version::Parse(spec);
  if (!line || line->snapshot() || line->numbers != 2) return std::vector{newest};
  // A minor line ("1.4"): every modelled release of it (FindRelease found its newest).
  for (const RuntimeTraits& r : AllReleases()) {
    const std::optional<Version> v = Version::Parse(r.version);
    if (v && v->major == line->major && v->minor == line->minor) out.push_back(&r);
  }
  return out;
}

}  // namespace etmem::runtime
