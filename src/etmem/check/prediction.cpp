// Owns: the prediction of one configuration without a runner profile: its plan (PlanConfig,
// the runner's requests planned beside it when it has one), load_method's calls in the method
// pool at a pool size (PredictMethodPool, PredictFromFailure), whether they reproduce a log, and
// the exact minimum. See prediction.h. Not: a runner's printout and lines
// (runner_prediction.cpp), the search (search.cpp).
#include <algorithm>
#include <array>

#include "etmem/check/prediction.h"
#include "etmem/sim/runner_sim.h"
#include "etmem/sim/simulate.h"

namespace etmem::check {

ConfigPlan PlanConfig(const pte::ProgramView& program, const pte::MethodView& method,
                      const ModelConfig& config, const runtime::LoadOptions& load) {
  ConfigPlan out;
  PlanConfig(program, method, config, load, out);
  return out;
}

// The runner's own requests around load_method's (a configuration with a runner profile).
void PlanConfigRunner(const pte::ProgramView& program, const pte::MethodView& method,
                      const ModelConfig& config, const runtime::RuntimeModel& model,
                      ConfigPlan& out) {
  out.runner.reset();
  out.runner_error.clear();
  if (!config.runner || !config.runner->profile) return;
  runner::RunnerSelection selection;
  selection.options = config.runner->options;
  selection.pool_align = config.pool_align;
  auto planned = runner::PlanRunner(*config.runner->profile, selection, program, method, model);
  if (planned)
    out.runner = std::move(*planned);
  else
    out.runner_error = planned.error().message;
}

void PlanConfig(const pte::ProgramView& program, const pte::MethodView& method,
                const ModelConfig& config, const runtime::LoadOptions& load, ConfigPlan& out) {
  runtime::LoadOptions o = load;
  o.temp_allocator = config.temp_allocator;
  const runtime::RuntimeModel model(*config.release, config.target);
  runtime::PlanMethodLoad(program, method, model, o, out.plan);
  // The runner's own allocations go around these requests, in the runner's order (placed by
  // sim::TraceMethodPool / SimulateRunner).
  PlanConfigRunner(program, method, config, model, out);
}

MethodPrediction PredictMethodPool(std::span<const runtime::AllocationRequest> requests,
                                   uint32_t pool_align, std::optional<uint64_t> pool,
                                   sim::SimResult* scratch) {
  sim::SimResult local;
  sim::SimResult& s = scratch ? *scratch : local;
  sim::Simulate(requests, {pool_align, pool}, {pool_align, std::nullopt}, s);
  MethodPrediction out;
  std::vector<size_t> call_of_request(requests.size(), 0);
  for (size_t i = 0; i < s.placements.size(); ++i) {
    if (requests[i].pool != runtime::PoolKind::kMethod) continue;
    call_of_request[i] = out.prediction.calls.size();
    out.request_of_call.push_back(i);
    const sim::Placement& p = s.placements[i];
    out.prediction.calls.push_back({requests[i].size, requests[i].align, p.offset, p.failed});
  }
  for (const sim::AllocationFailure& f : s.failures)
    if (requests[f.request].pool == runtime::PoolKind::kMethod)
      out.prediction.failures.push_back({f.requested, f.available, call_of_request[f.request]});
  out.prediction.used_bytes = s.method_bytes;
  return out;
}

std::optional<MethodPrediction> PredictFromFailure(
    std::span<const runtime::AllocationRequest> requests, const sim::SimResult& unbounded,
    size_t failing, size_t failing_call, uint32_t pool_align, uint64_t pool, bool with_calls,
    sim::SimResult* scratch) {
  const runtime::AllocationRequest& r = requests[failing];
  // A failed zero-size request the runtime ignores: the whole rest of the load follows.
  if (r.on_failure == runtime::OnFailure::kErrorUnlessEmpty && r.size == 0) return std::nullopt;
  const sim::Placement& at = unbounded.placements[failing];
  const uint64_t used_before = at.offset - at.padding;
  // At this pool every request before `failing` fits as in the unbounded run (the method
  // cursor only grows and never passes the pool) and leaves the cursor at `used_before`. So the
  // simulator is run on one request that moves the cursor there (align 1: no padding), then
  // `failing` and the two after it: after a failure the runtime makes at most one more request
  // (an unchecked pair), and the simulator decides which.
  std::array<runtime::AllocationRequest, 4> buffer{};
  buffer[0].size = used_before;
  buffer[0].align = 1;
  const size_t n = std::min<size_t>(requests.size() - failing, 3);
  std::copy_n(requests.begin() + static_cast<std::ptrdiff_t>(failing), n, buffer.begin() + 1);
  const std::span<const runtime::AllocationRequest> tail(buffer.data(), n + 1);
  sim::SimResult local;
  sim::SimResult& s = scratch ? *scratch : local;
  sim::Simulate(tail, {pool_align, pool}, {pool_align, std::nullopt}, s);
  MethodPrediction out;
  for (size_t i = 0; with_calls && i < failing; ++i) {
    if (requests[i].pool != runtime::PoolKind::kMethod) continue;
    out.request_of_call.push_back(i);
    out.prediction.calls.push_back(
        {requests[i].size, requests[i].align, unbounded.placements[i].offset, false});
  }
  size_t call = failing_call;
  std::vector<size_t> call_of_tail(tail.size(), 0);
  for (size_t k = 1; k < s.placements.size(); ++k) {
    const runtime::AllocationRequest& q = tail[k];
    if (q.pool != runtime::PoolKind::kMethod) continue;
    call_of_tail[k] = call++;
    if (!with_calls) continue;
    out.request_of_call.push_back(failing + k - 1);
    out.prediction.calls.push_back(
        {q.size, q.align, s.placements[k].offset, s.placements[k].failed});
  }
  for (const sim::AllocationFailure& f : s.failures)
    if (tail[f.request].pool == runtime::PoolKind::kMethod)
      out.prediction.failures.push_back({f.requested, f.available, call_of_tail[f.request]});
  out.prediction.used_bytes = s.method_bytes;
  return out;
}

bool Reproduces(const device::DeviceLog& log, const MethodPrediction& p) {
  if (device::Compare(log, p.prediction)) return false;
  return !device::FirstDifferingFigure(log,
                                       device::LoadMethodFigures(log, p.prediction.used_bytes));
}

bool HasPredictedEvidence(const device::DeviceLog& log) {
  if (!log.calls.empty() || log.totals || !log.failures.empty()) return true;
  return !device::LoadMethodFigures(log, 0).empty();
}

uint64_t MinimumOf(const ModelConfig& config, const ConfigPlan& plan) {
  if (plan.runner)
    return sim::SimulateRunner(*plan.runner, plan.plan.requests, std::nullopt).method().minimum;
  const sim::PoolConfig temp{config.pool_align, std::nullopt};
  const sim::SimResult unbounded =
      sim::Simulate(plan.plan.requests, {config.pool_align, std::nullopt}, temp);
  return sim::MinimumPool(plan.plan.requests, config.pool_align, temp, unbounded);
}
}  // namespace etmem::check
