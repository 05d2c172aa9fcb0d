// Owns: the assumptions etmem check varies, as data: one configuration (ModelConfig: release,
// target, pool base alignment, temp allocator, runner), what the search may vary (SearchSpace),
// and THE one enumeration of candidate configurations (CandidateConfigs), with the runners
// `check --runner all` tries and the releases a --runtime value selects.
// Not: predicting a configuration (prediction.h, runner_prediction.h), the search (search.h).
//
// The assumption search of `etmem check` (which release, target, pool base alignment, temp
// allocator and pool size reproduce a device log exactly, each with the exact minimum method
// pool under it) is in four parts, by concern: these candidates; load_method's prediction under
// one of them (prediction.h); what a runner profile adds to it (runner_prediction.h); the search
// that verifies every candidate against the whole log (search.h). The text of the result is
// report/search_text.h and check_report.h, the command line tools/etmem/check_command.cpp.
//
//   SearchSpace space{.releases = *MatchingReleases("all"), .targets = {cortex_m}};
//   auto found = Search(program, program.methods[0], log, space);  // search.h
//   for (const std::string& line : report::GroupedLines(*found)) puts(line.c_str());
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>
#include "etmem/abi/abi.h"
#include "etmem/base/result.h"
#include "etmem/runner/profile.h"
#include "etmem/runtime/load_plan.h"
#include "etmem/runtime/release.h"

namespace etmem::check {

// How the temp allocator is chosen: none, one, or what the release's portable executor_runner
// does (--temp runner).
enum class TempChoice : uint8_t { kNull, kNonNull, kRunner };
// Whether a load at `release` gets a temp allocator under `t`.
bool TempAllocatorOf(TempChoice t, const runtime::RuntimeTraits& release);

// The runner of one configuration: a profile (built-in or the user's file) with the options
// turned on, or the portable executor_runner (no profile: load_method alone in its pool).
struct ConfigRunner {
  const runner::Profile* profile = nullptr;  // null: the portable executor_runner
  std::vector<std::string> options;
  // The runner's name and its options joined with '+', or "portable" for the portable
  // executor_runner.
  std::string Name() const;
  bool operator==(const ConfigRunner& o) const {
    return profile == o.profile && options == o.options;
  }
};

// One set of assumptions under which etmem predicts a load.
struct ModelConfig {
  const runtime::RuntimeTraits* release = nullptr;
  abi::Abi target;
  uint32_t pool_align = 8;  // the method pool's base is aligned to this, not to twice this
  bool temp_allocator = false;
  // Empty: no runner dimension (check without --runner: load_method alone, as before). Set: the
  // runner's own allocations go around load_method's, and its printout and failure lines are
  // predicted from its profile.
  std::optional<ConfigRunner> runner;
};

// What the search may vary. A dimension the user pinned holds one value.
struct SearchSpace {
  std::vector<const runtime::RuntimeTraits*> releases;  // oldest first
  std::vector<abi::Abi> targets;
  std::vector<uint32_t> pool_aligns;  // empty: 4, 8, 16 and each target's malloc alignment
  std::vector<TempChoice> temps;      // empty: without a temp allocator, then with one
  std::optional<uint64_t> pool;       // empty: derived from the log's failure line
  runtime::LoadOptions load;          // the rest of what load_method gets (temp_allocator unused)
  // Empty: no runner dimension. Else the runners to try: each a selection (every profile of one
  // runner, and its options); a selection without candidates is the portable executor_runner. A
  // runner's temp allocator is the profile's, and its pool alignments are those of the list at
  // or above the alignment its pool is declared with.
  std::vector<runner::RunnerSelection> runners;
};

// Every runner `check --runner all` tries: the portable executor_runner, then each built-in
// runner without options and with each combination of the options that add allocations to the
// pool load_method uses.
std::vector<runner::RunnerSelection> AllRunners();
// The selection's runner and options joined with '+', or "portable".
std::string SelectionName(const runner::RunnerSelection& s);

// The configurations the search tries, in order (target, release, temp allocator, alignment).
// THE one place that enumerates assumptions: a new dimension (a runner list) is added here and
// in ModelConfig, and PlanConfig applies it.
std::vector<ModelConfig> CandidateConfigs(const SearchSpace& space);

// Releases selected by a --runtime value: "all"; "1.4" (every modelled 1.4.x); "1.4.1" or
// "v1.4.1" (that one). An unknown version is an error listing the modelled ones. The search's
// reading of a spec, runtime::ReleasesIn (runtime/release_range.h; an analysis takes the one
// release FindRelease names: "1.4" is the newest 1.4.x there).
Result<std::vector<const runtime::RuntimeTraits*>> MatchingReleases(const std::string& spec);

}  // namespace etmem::check
