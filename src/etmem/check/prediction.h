// Owns: the prediction of one candidate configuration (candidates.h) without a runner's
// printout: its plan (PlanConfig, the runner's own requests planned beside load_method's),
// load_method's calls in the method pool at a pool size (PredictMethodPool,
// PredictFromFailure), whether they reproduce a device log, and the exact minimum pool.
// Not: a runner's printout, figures and lines (runner_prediction.h), the search (search.h).
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <span>
#include <string>
#include <vector>
#include "etmem/check/candidates.h"
#include "etmem/device/device_log.h"
#include "etmem/pte/program_view.h"
#include "etmem/runner/runner_plan.h"
#include "etmem/runtime/load_plan.h"
#include "etmem/sim/simulate.h"

namespace etmem::check {

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

// The exact minimum method pool of a configuration (with a runner: the smallest pool with
// nothing written past its end).
uint64_t MinimumOf(const ModelConfig& config, const ConfigPlan& plan);

// Whether the log holds anything etmem predicts (else any configuration would "reproduce" it).
bool HasPredictedEvidence(const device::DeviceLog& log);

}  // namespace etmem::check
