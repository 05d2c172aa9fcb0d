// Owns: the structural snapshot of every built-in runner profile as resolved (profile.h), so that
// rewriting the profile files (e.g. as deltas on their predecessor) provably leaves every field
// of every resolved profile as it was. The snapshot (runner/profiles_resolved.txt) was generated
// from the whole-copy files before they became deltas; regenerate it only on purpose, with
// ETMEM_UPDATE_PROFILE_SNAPSHOT=1, and say why in the commit.
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <sstream>

#include "etmem/runner/profile.h"

namespace etmem::runner {
namespace profile_snapshot_test {

std::string Quote(const std::string& s) {
  std::string out = "\"";
  for (char c : s) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + "\"";
}

std::string List(const std::vector<std::string>& v) {
  std::string out = "[";
  for (size_t i = 0; i < v.size(); ++i) out += (i ? ", " : "") + Quote(v[i]);
  return out + "]";
}

const char* AlignName(AlignRule r) {
  switch (r) {
    case AlignRule::kDefault: return "default";
    case AlignRule::kElement: return "element";
    case AlignRule::kFixed: return "fixed";
  }
  return "?";
}

const char* MeasureName(Measure m) {
  switch (m) {
    case Measure::kSteps: return "steps";
    case Measure::kUsed: return "used";
    case Measure::kPoolSize: return "pool_size";
    case Measure::kFree: return "free";
  }
  return "?";
}

// Every field of a resolved profile, one per line.
std::string Dump(const Profile& p) {
  std::ostringstream o;
  o << "profile " << Quote(p.name) << " file " << Quote(p.file) << "\n";
  o << "  description " << Quote(p.description) << "\n";
  o << "  source " << Quote(p.source_path) << " tags " << List(p.source_tags) << "\n";
  o << "  releases " << Quote(p.first_release) << " .. " << Quote(p.last_release) << "\n";
  o << "  methods " << (p.loads_first_method_only ? "first" : "all") << "\n";
  o << "  backends " << List(p.backends) << " if built " << List(p.backends_if_built) << "\n";
  for (const PoolSpec& s : p.pools)
    o << "  pool " << Quote(s.id) << " variable " << Quote(s.variable) << " macro "
      << Quote(s.macro) << " default_bytes " << s.default_bytes << " base_align " << s.base_align
      << " role " << Quote(s.role) << " when " << Quote(s.when) << "\n";
  for (const OptionSpec& s : p.options)
    o << "  option " << Quote(s.name) << " " << Quote(s.description) << "\n";
  for (const StepSpec& s : p.steps) {
    o << "  step " << StepKindName(s.kind) << " pool " << Quote(s.pool) << " temp_pool "
      << Quote(s.temp_pool) << " align " << AlignName(s.align_rule) << " " << s.align
      << " element " << Quote(s.element) << " writes " << Quote(s.writes) << " bytes " << s.bytes
      << " size_macro " << Quote(s.size_macro) << " label " << Quote(s.label) << " when "
      << Quote(s.when) << " bug " << Quote(s.bug) << " memory_ids [";
    for (size_t i = 0; i < s.memory_ids.size(); ++i) o << (i ? ", " : "") << s.memory_ids[i];
    o << "] skip_empty " << s.skip_empty << " figure " << Quote(s.figure) << "\n";
    o << "    on_failure logs " << List(s.on_failure.logs) << " aborts " << s.on_failure.aborts
      << " harmless " << s.on_failure.harmless << " then " << Quote(s.on_failure.then) << "\n";
  }
  if (p.printout) {
    const PrintoutSpec& s = *p.printout;
    o << "  printout " << Quote(s.format) << " pool " << Quote(s.pool) << " counter "
      << (s.counter == Counter::kCursor ? "cursor" : "arm_bookkeeping") << " when "
      << Quote(s.when) << "\n";
    for (const FigureSpec& f : s.figures)
      o << "    figure " << Quote(f.name) << " " << MeasureName(f.measure) << " pool "
        << Quote(f.pool) << "\n";
  }
  for (const RefusalSpec& r : p.refusals)
    o << "  refusal " << RefusalConditionName(r.condition) << " " << r.limit << " logs "
      << List(r.logs) << " then " << Quote(r.then) << " why " << Quote(r.why) << "\n";
  if (p.image) {
    const ImageSpec& i = *p.image;
    o << "  image tags " << List(i.tags) << " program " << Quote(i.program_symbol) << " section "
      << Quote(i.program_section) << " align " << i.program_align << " markers "
      << List(i.markers) << "\n";
    for (const ImageSpec::Pool& q : i.pools)
      o << "    pool " << Quote(q.id) << " section " << Quote(q.section) << "\n";
  }
  return o.str();
}

TEST(RunnerProfileSnapshot, EveryBuiltinProfileResolvesAsSnapshotted) {
  std::string all;
  for (const auto& p : BuiltinProfiles()) all += Dump(*p);
  const std::string path =
      std::string(ETMEM_SOURCE_DIR) + "/src/etmem/runner/profiles_resolved.txt";
  if (std::getenv("ETMEM_UPDATE_PROFILE_SNAPSHOT")) {
    std::ofstream(path, std::ios::binary) << all;
    GTEST_SKIP() << "wrote " << path;
  }
  std::ifstream in(path, std::ios::binary);
  ASSERT_TRUE(in) << path;
  std::stringstream want;
  want << in.rdbuf();
  EXPECT_EQ(all, want.str());
}

}  // namespace profile_snapshot_test
}  // namespace etmem::runner
