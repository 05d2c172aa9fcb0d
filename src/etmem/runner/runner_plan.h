// Owns: a runner profile sized for one method of one program on one release and ABI: every
// allocate() the runner makes, in order, with its size (from the program's planned buffers and
// inputs, and the release's type table on the target ABI), alignment and pool, and where
// load_method's own requests go. Not: placing them (sim/runner_sim.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "etmem/pte/program_view.h"
#include "etmem/runner/profile.h"
#include "etmem/runtime/load_plan.h"

namespace etmem::runner {

// One pool the runner has (with the options chosen), in the profile's order.
struct PlannedPool {
  const PoolSpec* spec = nullptr;
  uint32_t base_align = 8;  // the profile's, or --pool-align
};

// One allocate() of the runner's own, or the place of load_method.
struct RunnerRequest {
  size_t step = 0;  // index into Profile::steps
  size_t pool = 0;  // index into RunnerPlan::pools
  bool load_method = false;
  int64_t temp_pool = -1;  // load_method: index of the temp allocator's pool, -1 = none passed
  uint64_t size = 0;
  uint32_t align = 1;
  uint64_t written = 0;  // bytes the runner writes from the allocation's start (> size: a bug)
  std::string what;      // "planned buffer for memory id 1", "input EValue list (2 x 16 B)"
  std::vector<std::string> failure_logs;  // placeholders filled in
  bool aborts = true;
  bool harmless = false;  // the runner works without it (FailureBehaviour::harmless)
  std::string then;
  std::string bug;  // the step's known bug, when it applies to this request
};

struct RunnerPlan {
  const Profile* profile = nullptr;
  std::vector<std::string> options;  // turned on
  std::vector<PlannedPool> pools;
  std::vector<RunnerRequest> requests;  // in order; exactly one has load_method
  // The profile's refusals that apply to this method, each in one sentence (the runner stops
  // there whatever the pool sizes).
  std::vector<std::string> refusals;
  size_t method_pool = 0;               // the pool load_method's method allocator uses
  int64_t temp_pool = -1;
  bool passes_temp_allocator() const { return temp_pool >= 0; }
};

// The options of `selection` must be the profile's (ProfileFor checks). Fails when a step names
// a type the release's table does not have, or a size overflows.
Result<RunnerPlan> PlanRunner(const Profile& profile, const RunnerSelection& selection,
                              const pte::ProgramView& program, const pte::MethodView& method,
                              const runtime::RuntimeModel& model);

}  // namespace etmem::runner
