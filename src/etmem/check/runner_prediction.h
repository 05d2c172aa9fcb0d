// Owns: what a runner profile adds to a configuration's prediction (prediction.h): the
// runner's calls around load_method's, its printout's figures as the profile computes them, its
// failure lines, and the first way a device log differs from that (RunnerDifference).
// Not: the runner's own requests (runner/), load_method's prediction (prediction.h), the
// search (search.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>
#include "etmem/check/prediction.h"
#include "etmem/device/device_log.h"

namespace etmem::check {

// The prediction of a configuration with a runner dimension (its ConfigPlan from PlanConfig) for
// a method pool of `pool` bytes (empty: unbounded). `printed_pool`: the pool size the runner's
// printout gives, used for its free figure when `pool` is empty.
MethodPrediction PredictConfig(const ModelConfig& config, const ConfigPlan& plan,
                               std::optional<uint64_t> pool,
                               std::optional<uint64_t> printed_pool = std::nullopt);

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

}  // namespace etmem::check
