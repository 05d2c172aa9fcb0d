// Owns: the assumption search of `etmem check`: which ExecuTorch release, target, pool base
// alignment, temp allocator and pool size reproduce a device log exactly, each with the exact
// minimum method pool under it. The candidate configurations come from one function
// (CandidateConfigs); for each, the pool size is derived from the log's failure line (the
// failing request's padding + size must be the line's `requested`, and the pool is what was
// used before it plus the line's `available`), and every candidate is then verified by
// simulating the whole load at that pool and comparing the whole log. Also the prediction of
// one configuration as device::Prediction numbers. In four files by concern: the candidates
// (candidates.cpp), load_method's prediction (prediction.cpp), what a runner profile adds to it
// (runner_prediction.cpp), the search (search.cpp). Not: reading the log (device/), the text of
// the result (report/search_text.h, check_report.h), the command line
// (tools/etmem/check_command.cpp).
//
//   SearchSpace space{.releases = *MatchingReleases("all"), .targets = {cortex_m}};
//   auto found = Search(program, program.methods[0], log, space);
//   for (const std::string& line : report::GroupedLines(*found)) puts(line.c_str());
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "etmem/abi/abi.h"
#include "etmem/base/result.h"
#include "etmem/device/device_log.h"
#include "etmem/pte/program_view.h"
#include "etmem/runner/profile.h"
#include "etmem/runner/runner_plan.h"
#include "etmem/runtime/load_plan.h"
#include "etmem/runtime/release.h"
#include "etmem/sim/runner_sim.h"
#include "etmem/sim/simulate.h"

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
// "v1.4.1" (that one). An unknown version is an error listing the modelled ones.
Result<std::vector<const runtime::RuntimeTraits*>> MatchingReleases(const std::string& spec);

// The method-pool allocate() calls of one configuration, in order, with what they are.
struct ConfigPlan {
  runtime::LoadPlan plan;  // every request (temp ones too), kept
  // With a runner profile: its own requests around load_method's (the order sim/runner_sim
  // places them in); empty with `runner_error` when the profile cannot be sized for the program.
  std::optional<runner::RunnerPlan> runner;
  std::string runner_error;
};
ConfigPlan PlanConfig(const pte::ProgramView& program, const pte::MethodView& method,
                      const ModelConfig& config, const runtime::LoadOptions& load);
// The same into `out`, reusing its buffers.
void PlanConfig(const pte::ProgramView& program, const pte::MethodView& method,
                const ModelConfig& config, const runtime::LoadOptions& load, ConfigPlan& out);
// Only the runner's own requests of `out` (config.runner's profile; none without one), planned
// again: they depend on the pool's alignment and the runner, not on load_method's plan.
void PlanConfigRunner(const pte::ProgramView& program, const pte::MethodView& method,
                      const ModelConfig& config, const runtime::RuntimeModel& model,
                      ConfigPlan& out);

// The prediction for a pool of `pool` bytes (empty: unbounded) as plain numbers, and which plan
// request each predicted call is. `scratch`: a result whose buffers the simulation reuses.
struct MethodPrediction {
  device::Prediction prediction;
  std::vector<size_t> request_of_call;  // load_method's request; kRunnerCall: the runner's own
  // With a runner profile:
  std::vector<size_t> runner_request_of_call;  // index into RunnerPlan::requests, per call
  // The runner's own lines after each failure's runtime line (one entry per failure).
  std::vector<std::vector<std::string>> runner_lines;
  bool gets_through = true;  // the run reaches the runner's printout
  // The runner's printout as the profile computes it: the format and the figures predicted (a
  // figure the firmware sets, such as another pool's size, is not predicted).
  std::string printout_format;          // "" = the runner prints none
  device::FigurePrediction figures;
  std::map<std::string, std::string> figure_meaning;  // what each figure counts, in words
};
inline constexpr size_t kRunnerCall = SIZE_MAX;
MethodPrediction PredictMethodPool(std::span<const runtime::AllocationRequest> requests,
                                   uint32_t pool_align, std::optional<uint64_t> pool,
                                   sim::SimResult* scratch = nullptr);

// The same at `pool`, given that method-pool request `failing` (method call `failing_call`) is
// the first to fail there (its used-before plus what the failure line says is available):
// the unbounded run `unbounded` up to `failing`, then the simulator on what follows the
// failure. Equal to PredictMethodPool at that pool (a test holds them equal), in time that does
// not grow with the program when `with_calls` is false (then only the failures and the
// high-water mark are filled: enough for a log without ETMEM A and T records). Empty when the
// runtime goes on loading after that failure (a zero-size request): simulate the whole load.
// `scratch`: a result whose buffers the short simulation reuses (optional).
std::optional<MethodPrediction> PredictFromFailure(
    std::span<const runtime::AllocationRequest> requests, const sim::SimResult& unbounded,
    size_t failing, size_t failing_call, uint32_t pool_align, uint64_t pool, bool with_calls,
    sim::SimResult* scratch = nullptr);

// Whether everything in the log that etmem predicts agrees with `p`: the calls, the totals, the
// runtime's failure lines, and the runner figures that count load_method's bytes.
bool Reproduces(const device::DeviceLog& log, const MethodPrediction& p);

// The prediction of a configuration with a runner dimension (its ConfigPlan from PlanConfig) for
// a method pool of `pool` bytes (empty: unbounded). `printed_pool`: the pool size the runner's
// printout gives, used for its free figure when `pool` is empty.
MethodPrediction PredictConfig(const ModelConfig& config, const ConfigPlan& plan,
                               std::optional<uint64_t> pool,
                               std::optional<uint64_t> printed_pool = std::nullopt);
// The exact minimum method pool of a configuration (with a runner: the smallest pool with
// nothing written past its end).
uint64_t MinimumOf(const ModelConfig& config, const ConfigPlan& plan);

// The failure lines the runners in `space` (and every built-in runner) print, as templates
// (docs/runner-profiles.md: {size}, {id}, ... stand for any text).
std::vector<std::string> RunnerLineTemplates(const SearchSpace& space);

// With a runner dimension, the first way the log differs from `p`: the calls and runtime
// failure lines (device::Compare), then the runner's own failure lines (each predicted one must
// follow its runtime line; a line any runner prints that is not predicted differs), then the
// printout (a log with figures needs a run that reaches the printout of the same format, and
// every predicted figure must be as printed).
std::optional<device::Difference> RunnerDifference(const device::DeviceLog& log,
                                                   const MethodPrediction& p,
                                                   const std::vector<std::string>& templates);
// The printout's figures compared one by one (empty when the format differs).
std::vector<device::FigureCheck> RunnerFigureChecks(const device::DeviceLog& log,
                                                    const MethodPrediction& p);
// How a figure is named in check's output: the runner's label, and which of the line's numbers
// it is when the line prints several ("method_allocator_used [pool]").
std::string FigureLabel(const device::RunnerFigure& f);
// The pool size a runner printout in the log gives (its "pool" figure), if any.
std::optional<uint64_t> PrintedPool(const device::DeviceLog& log);

// Whether the log holds anything etmem predicts (else any configuration would "reproduce" it).
bool HasPredictedEvidence(const device::DeviceLog& log);

struct Reproduction {
  ModelConfig config;
  // The pools it reproduces the log at, ascending; empty: any pool it loads in (the log shows
  // no failure and no pool was given).
  std::vector<uint64_t> pools;
  uint64_t minimum_pool = 0;  // the exact minimum method pool under `config`
  bool exact = true;          // false: a backend etmem cannot size; the minimum is a bound
};

// When no configuration reproduces the log: the one whose failure comes closest to the log's
// first failure line.
struct NearestConfig {
  uint64_t distance = UINT64_MAX;
  ModelConfig config;
  // Set (a pool was given): the configuration fails there, logging `requested` and `available`.
  std::optional<uint64_t> pool;
  uint64_t requested = 0;  // no pool: the log's failed request
  uint64_t available = 0;
  // No pool: the request closest to the log's, with its padding, and what it allocates.
  struct Closest {
    uint64_t bytes = 0;
    std::string what;
  } closest;
};

struct SearchResult {
  size_t configs_tried = 0;
  std::vector<Reproduction> reproductions;  // in CandidateConfigs order
  bool nothing_predicted = false;           // the log holds nothing etmem predicts
  std::optional<NearestConfig> nearest;     // when none reproduces: the closest
};

// Fails when the pool cannot be known: a failed call in the log, no failure line to derive the
// pool from, and no pool given.
Result<SearchResult> Search(const pte::ProgramView& program, const pte::MethodView& method,
                            const device::DeviceLog& log, const SearchSpace& space);

// Whether a configuration reproduces the log at more than one pool size (a failure line alone
// often does: any request of that size can be the one that failed).
bool SeveralPools(const SearchResult& r);

// The releases among the reproductions, oldest first ("0.3.0", "0.4.0").
std::vector<std::string> ReproducingReleases(const SearchResult& r);

// The assumptions the user runs etmem with (options given, defaults for the rest).
struct Given {
  const runtime::RuntimeTraits* release = nullptr;  // null: any (--runtime all)
  std::optional<std::string> target;                // empty: any (--target all)
  std::optional<uint32_t> pool_align;               // empty: the target's malloc alignment
  TempChoice temp = TempChoice::kRunner;
  std::optional<uint64_t> pool;  // empty: any
  std::optional<std::string> runner;  // ConfigRunner::Name(); empty: any (or no runner dimension)
};
// The reproductions under exactly the given assumptions (none: they do not reproduce the log).
std::vector<const Reproduction*> Matching(const SearchResult& r, const Given& given);

}  // namespace etmem::check
