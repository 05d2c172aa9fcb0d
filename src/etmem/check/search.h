// Owns: the assumption search of `etmem check`: every candidate configuration (candidates.h)
// verified against the whole device log at the pools derived from its failure line (the failing
// request's padding + size must be the line's `requested`, and the pool is what was used before
// it plus the line's `available`), the nearest miss when none reproduces it, and what the
// reproductions say (SeveralPools, ReproducingReleases, the user's own: Matching).
// Not: the candidates (candidates.h), the predictions (prediction.h, runner_prediction.h), the
// text (report/search_text.h, analysis/check_report.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>
#include "etmem/base/result.h"
#include "etmem/check/candidates.h"
#include "etmem/device/device_log.h"
#include "etmem/pte/program_view.h"

namespace etmem::check {

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
