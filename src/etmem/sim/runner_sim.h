// Owns: a runner's whole sequence placed on its pools - its own allocations and load_method's
// requests, in the runner's order, one bump allocator per pool, so that what the runner takes
// before load_method shifts load_method's padding - and, for a method pool of a given size, the
// first failure (the runtime's line, then the runner's own) or the bytes the runner writes past
// the pool's end. Not: which requests happen (runner/, runtime/).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "etmem/runner/runner_plan.h"
#include "etmem/sim/simulate.h"

namespace etmem::sim {

// One line of a pool's breakdown: one of the runner's own allocations, or load_method's
// requests in this pool taken together.
struct RunnerEntry {
  size_t request = 0;  // index into RunnerPlan::requests
  bool load_method = false;
  // Where it starts, from the pool base: a runner allocation's first byte (after its padding);
  // load_method's cursor before its first request (its padding included in `bytes`).
  uint64_t offset = 0;
  uint64_t first = 0;    // the first allocation's first byte (= offset for the runner's)
  uint64_t bytes = 0;    // size (load_method: consumed, padding included, of all its requests)
  uint32_t padding = 0;  // skipped before it (load_method: all its requests' padding)
  uint32_t align = 1;
  uint64_t written = 0;      // the runner's allocations: bytes written from `offset`
  uint32_t allocations = 1;  // load_method: how many of its requests landed in this pool
  uint64_t end = 0;          // the pool's cursor after it (load_method: after its last request)
};

struct RunnerPoolResult {
  size_t pool = 0;                   // index into RunnerPlan::pools
  std::vector<RunnerEntry> entries;  // in the runner's order
  uint64_t high_water = 0;           // the first size through which every allocation succeeds
  // The smallest pool with nothing written past its end: high_water, or more when the runner
  // writes past its last allocation.
  uint64_t minimum = 0;
  bool temp_role = false;  // load_method's temp allocator: `minimum` is its peak during load
};

struct RunnerFailure {
  size_t request = 0;                  // index into RunnerPlan::requests
  std::optional<size_t> load_request;  // load_method's: index of its failing request
  uint64_t requested = 0;              // padding + size
  uint64_t available = 0;
  std::vector<std::string> log;  // the runtime's line, then the runner's
  std::string consequence;       // what happens next, in words
};

struct RunnerCheck {
  uint64_t pool_bytes = 0;
  bool gets_through = true;                   // every allocation succeeds (or fails harmlessly)
  uint64_t overwritten_bytes = 0;             // written past the pool's end by the runner
  std::optional<size_t> overwriting_request;  // the runner allocation that writes past it
  std::optional<RunnerFailure> failure;       // the first failure that stops or corrupts
  std::vector<RunnerFailure> tolerated;       // failures the runner or runtime goes on after
  bool fits() const { return gets_through && overwritten_bytes == 0; }
};

struct RunnerResult {
  std::vector<RunnerPoolResult> pools;  // one per RunnerPlan::pools, in order
  std::vector<std::string> bugs;        // known runner bugs that apply to this program
  std::vector<std::string> refusals;    // the runner's own refusals of this program (RunnerPlan)
  std::optional<RunnerCheck> check;     // for a method pool of the asked size
  size_t method_pool = 0;               // the pool load_method's method allocator uses
  const RunnerPoolResult& method() const { return pools[method_pool]; }
};

// One allocate() on the method pool, in order: one of the runner's own, or one of load_method's.
struct MethodPoolCall {
  size_t request = 0;                  // index into RunnerPlan::requests
  std::optional<size_t> load_request;  // load_method's: index into its requests
  uint64_t size = 0;
  uint32_t align = 1;
  uint64_t offset = 0;  // from the pool base
  uint32_t padding = 0;
  bool failed = false;
};

// The method pool's calls of one run, for comparing with what a device logged.
struct RunnerTrace {
  std::vector<MethodPoolCall> calls;  // until the run stops
  // Every failed allocate() in the run that the log shows, in order: those the runner or the
  // runtime goes on after, then the one that stops it (if any).
  std::vector<RunnerFailure> failures;
  bool gets_through = true;   // no failure stopped the run
  uint64_t method_bytes = 0;  // the method pool's high-water mark
};

// The run of `plan` with a method pool of `method_pool_bytes` (empty: unbounded), call by call.
// The same sequence SimulateRunner places (a test holds them equal).
RunnerTrace TraceMethodPool(const runner::RunnerPlan& plan,
                            std::span<const runtime::AllocationRequest> load,
                            std::optional<uint64_t> method_pool_bytes);

// Places `plan` with `load` (load_method's requests, in order) on unbounded pools, finds each
// pool's minimum, and checks a method pool of `method_pool_bytes` when given.
RunnerResult SimulateRunner(const runner::RunnerPlan& plan,
                            std::span<const runtime::AllocationRequest> load,
                            std::optional<uint64_t> method_pool_bytes);

}  // namespace etmem::sim
