// Owns: the assumption search of `etmem check`: which ExecuTorch release, target, pool base
// alignment, temp allocator and pool size reproduce a device log exactly, each with the exact
// minimum method pool under it. The candidate configurations come from one function
// (CandidateConfigs); for each, the pool size is derived from the log's failure line (the
// failing request's padding + size must be the line's `requested`, and the pool is what was
// used before it plus the line's `available`), and every candidate is then verified by
// simulating the whole load at that pool and comparing the whole log. Also the prediction of
// one configuration as device::Prediction numbers, and the grouped text of the result.
// Not: reading the log (device/), the command line (tools/etmem/check_command.cpp).
//
//   SearchSpace space{.releases = *MatchingReleases("all"), .targets = {cortex_m}};
//   auto found = Search(program, program.methods[0], log, space);
//   for (const std::string& line : GroupedLines(*found)) puts(line.c_str());
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "etmem/abi/abi.h"
#include "etmem/base/result.h"
#include "etmem/device/device_log.h"
#include "etmem/pte/program_view.h"
#include "etmem/runtime/load_plan.h"
#include "etmem/runtime/release.h"
#include "etmem/sim/simulate.h"

namespace etmem::check {

// How the temp allocator is chosen: none, one, or what the release's portable executor_runner
// does (--temp runner).
enum class TempChoice : uint8_t { kNull, kNonNull, kRunner };

// One set of assumptions under which etmem predicts a load. (A runner dimension belongs here:
// see CandidateConfigs.)
struct ModelConfig {
  const runtime::RuntimeTraits* release = nullptr;
  abi::Abi target;
  uint32_t pool_align = 8;  // the pool base is aligned to this, not to twice this
  bool temp_allocator = false;
};

// What the search may vary. A dimension the user pinned holds one value.
struct SearchSpace {
  std::vector<const runtime::RuntimeTraits*> releases;  // oldest first
  std::vector<abi::Abi> targets;
  std::vector<uint32_t> pool_aligns;  // empty: 4, 8, 16 and each target's malloc alignment
  std::vector<TempChoice> temps;      // empty: without a temp allocator, then with one
  std::optional<uint64_t> pool;       // empty: derived from the log's failure line
  runtime::LoadOptions load;          // the rest of what load_method gets (temp_allocator unused)
};

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
};
ConfigPlan PlanConfig(const pte::ProgramView& program, const pte::MethodView& method,
                      const ModelConfig& config, const runtime::LoadOptions& load);
// The same into `out`, reusing its buffers.
void PlanConfig(const pte::ProgramView& program, const pte::MethodView& method,
                const ModelConfig& config, const runtime::LoadOptions& load, ConfigPlan& out);

// The prediction for a pool of `pool` bytes (empty: unbounded) as plain numbers, and which plan
// request each predicted call is. `scratch`: a result whose buffers the simulation reuses.
struct MethodPrediction {
  device::Prediction prediction;
  std::vector<size_t> request_of_call;
};
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

struct SearchResult {
  size_t configs_tried = 0;
  std::vector<Reproduction> reproductions;  // in CandidateConfigs order
  bool nothing_predicted = false;           // the log holds nothing etmem predicts
  std::string nearest;                      // when none reproduces: the closest, in words
};

// Fails when the pool cannot be known: a failed call in the log, no failure line to derive the
// pool from, and no pool given.
Result<SearchResult> Search(const pte::ProgramView& program, const pte::MethodView& method,
                            const device::DeviceLog& log, const SearchSpace& space);

// "ExecuTorch 0.3.0, cortex-m, pool base aligned to 4 B, no temp allocator, a 4096 B pool"
std::string DescribeAssumptions(const ModelConfig& c, std::optional<uint64_t> pool);
// What was searched, in words (one line, without a leading "searched: ").
std::string DescribeSpace(const SearchSpace& space, const device::DeviceLog& log);

// One line per group of reproductions, deterministic: a configuration's pools share a line
// (ascending; past `per_line_pools` the rest are counted), both temp allocators with the same
// pools and minimum share one, then alignments alike, then releases alike. Each ends
// "-> minimum N B under these assumptions".
std::vector<std::string> GroupedLines(const SearchResult& r, size_t per_line_pools = 12);

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
};
// The reproductions under exactly the given assumptions (none: they do not reproduce the log).
std::vector<const Reproduction*> Matching(const SearchResult& r, const Given& given);

}  // namespace etmem::check
