// Owns: Search: every candidate configuration verified against the whole log, the pools derived
// from its failure line, the nearest miss; what the reproductions say (SeveralPools,
// ReproducingReleases) and which of them are the user's (Matching). See search.h. Not: the
// candidates (candidates.cpp), the predictions (prediction.cpp, runner_prediction.cpp), the text
// (report/search_text.h).
#include <algorithm>

#include "etmem/check/runner_prediction.h"
#include "etmem/check/search.h"
#include "etmem/runtime/labels.h"
#include "etmem/sim/simulate.h"

namespace etmem::check {
namespace {

bool LogShowsAFailure(const device::DeviceLog& log) {
  if (!log.failures.empty()) return true;
  return std::any_of(log.calls.begin(), log.calls.end(), [](const auto& c) { return !c.offset; });
}

// A pool at which request `request` of the method pool is the first to fail with the log's
// first failure line: its padding + size must be `requested`, and the pool is what was used
// before it plus `available`.
struct Candidate {
  size_t request = 0;
  size_t call = 0;  // its index among the method pool's calls
  uint64_t pool = 0;
};

std::vector<Candidate> DerivedPools(std::span<const runtime::AllocationRequest> requests,
                                    const sim::SimResult& unbounded,
                                    const device::FailureLine& line) {
  std::vector<Candidate> out;
  if (line.requested <= line.available) return out;  // not a failure the runtime can log
  size_t call = 0;
  for (size_t i = 0; i < unbounded.placements.size(); ++i) {
    if (requests[i].pool != runtime::PoolKind::kMethod) continue;
    const sim::Placement& p = unbounded.placements[i];
    const uint64_t pool = p.offset - p.padding + line.available;
    // MemoryAllocator's size is a uint32_t.
    if (p.consumed(requests[i].size) == line.requested && pool <= UINT32_MAX)
      out.push_back({i, call, pool});
    ++call;
  }
  // The method pool's cursor only grows, so the pools ascend with the requests (and differ).
  return out;
}

// Requests simulated per search before verifying a derived pool takes the unbounded run's
// prefix instead of simulating it again (PredictFromFailure): a failure line of a common size in
// a program of a million requests has hundreds of thousands of candidate pools.
constexpr uint64_t kSimulationBudget = uint64_t{1} << 23;

// How near a configuration comes to the log's first failure line, when none reproduces it.
// `at_pool`: the prediction at the given pool (when one was given).
void UpdateNearest(const ModelConfig& c, const runtime::LoadPlan& plan,
                   const pte::MethodView& method, const sim::SimResult& unbounded,
                   const device::DeviceLog& log, std::optional<uint64_t> pool,
                   const MethodPrediction* at_pool, NearestConfig& nearest) {
  if (log.failures.empty()) return;
  const device::FailureLine& want = log.failures.front();
  if (pool) {
    if (!at_pool || at_pool->prediction.failures.empty()) return;
    const MethodPrediction& p = *at_pool;
    const device::PredictedFailure& f = p.prediction.failures.front();
    const uint64_t d = (f.requested > want.requested ? f.requested - want.requested
                                                     : want.requested - f.requested) +
                       (f.available > want.available ? f.available - want.available
                                                     : want.available - f.available);
    if (d < nearest.distance) nearest = {d, c, pool, f.requested, f.available, {}};
    return;
  }
  for (size_t i = 0; i < unbounded.placements.size(); ++i) {
    const runtime::AllocationRequest& r = plan.requests[i];
    if (r.pool != runtime::PoolKind::kMethod) continue;
    const uint64_t consumed = unbounded.placements[i].consumed(r.size);
    const uint64_t d =
        consumed > want.requested ? consumed - want.requested : want.requested - consumed;
    if (d < nearest.distance)
      nearest = {d, c, std::nullopt, want.requested, 0,
                 NearestConfig::Closest{consumed, runtime::DescribeRequest(r, plan, method)}};
  }
}

}  // namespace

Result<SearchResult> Search(const pte::ProgramView& program, const pte::MethodView& method,
                            const device::DeviceLog& log, const SearchSpace& space) {
  SearchResult out;
  if (!HasPredictedEvidence(log) && (space.runners.empty() || log.runner_figures.empty())) {
    out.nothing_predicted = true;
    return out;
  }
  const bool derive = !space.pool && LogShowsAFailure(log);
  if (derive && log.failures.empty())
    return MakeError(ErrorCode::kInvalidArgument,
                     log.path +
                         ": the log shows a failed allocation but no 'Memory allocation "
                         "failed' line to derive the pool from; give the pool size with "
                         "--pool (or log the ETMEM P record)");
  const std::vector<ModelConfig> configs = CandidateConfigs(space);
  out.configs_tried = configs.size();
  const std::vector<std::string> templates =
      space.runners.empty() ? std::vector<std::string>{} : RunnerLineTemplates(space);
  const std::optional<uint64_t> printed_pool = PrintedPool(log);
  NearestConfig nearest;
  uint64_t simulated = 0;  // requests simulated to verify derived pools
  // Buffers reused from one simulation to the next (a large program's are megabytes).
  sim::SimResult unbounded, scratch;
  // Configurations that differ only in the pool alignment share one plan.
  std::optional<ConfigPlan> plan = ConfigPlan{};  // its buffers reused by each plan
  std::optional<MethodPrediction> at_pool;
  const ModelConfig* planned_for = nullptr;
  for (const ModelConfig& c : configs) {
    if (!planned_for || planned_for->release != c.release ||
        planned_for->target.name != c.target.name ||
        planned_for->temp_allocator != c.temp_allocator) {
      PlanConfig(program, method, c, space.load, *plan);
      planned_for = &c;
    }
    if (c.runner) {
      // A runner dimension: the runner's own requests (replanned: they depend on the pool's
      // alignment and the runner), its failure lines and its printout.
      const runtime::RuntimeModel model(*c.release, c.target);
      PlanConfigRunner(program, method, c, model, *plan);
      if (!plan->runner_error.empty()) continue;  // this runner cannot run this program
      Reproduction found{c, {}, MinimumOf(c, *plan), plan->plan.exact()};
      auto reproduces = [&](const MethodPrediction& p) {
        return !RunnerDifference(log, p, templates);
      };
      std::optional<uint64_t> pool = space.pool;
      if (!pool && printed_pool && c.runner->profile && c.runner->profile->printout &&
          c.runner->profile->printout->format ==
              device::PrintoutFormat(log.runner_figures.front().printout))
        pool = printed_pool;  // the runner's own printout says how large its pool is
      bool any = false;
      if (!derive) {
        any = reproduces(PredictConfig(c, *plan, pool, printed_pool));
        if (pool) found.pools.push_back(*pool);
      } else {
        const device::FailureLine& line = log.failures.front();
        const MethodPrediction unbounded_run = PredictConfig(c, *plan, std::nullopt);
        uint64_t cursor = 0;
        for (const device::PredictedCall& call : unbounded_run.prediction.calls) {
          // Each call's padding + size is what the runtime logs as requested if it fails.
          const uint64_t consumed = call.offset + call.size - cursor;
          const uint64_t candidate = cursor + line.available;
          if (line.requested > line.available && consumed == line.requested &&
              candidate <= UINT32_MAX &&
              (found.pools.empty() || found.pools.back() != candidate) &&
              reproduces(PredictConfig(c, *plan, candidate)))
            found.pools.push_back(candidate);
          cursor = std::max(cursor, call.offset + call.size);
        }
        any = !found.pools.empty();
      }
      if (any) out.reproductions.push_back(std::move(found));
      continue;
    }
    const auto& requests = plan->plan.requests;
    const sim::PoolConfig temp{c.pool_align, std::nullopt};
    sim::Simulate(requests, {c.pool_align, std::nullopt}, temp, unbounded);
    const uint64_t minimum = sim::MinimumPool(requests, c.pool_align, temp, unbounded);
    Reproduction found{c, {}, minimum, plan->plan.exact()};
    bool any = false;
    if (!derive) {
      at_pool = PredictMethodPool(requests, c.pool_align, space.pool, &scratch);
      any = Reproduces(log, *at_pool);
      if (space.pool) found.pools.push_back(*space.pool);
    } else {
      const bool need_calls = !log.calls.empty() || log.totals;
      for (const Candidate& k : DerivedPools(requests, unbounded, log.failures.front())) {
        // Verify: the whole load at this pool, the whole log compared.
        std::optional<MethodPrediction> p;
        if (simulated + requests.size() > kSimulationBudget)
          p = PredictFromFailure(requests, unbounded, k.request, k.call, c.pool_align, k.pool,
                                 need_calls, &scratch);
        if (!p) {
          simulated += requests.size();
          p = PredictMethodPool(requests, c.pool_align, k.pool, &scratch);
        }
        const bool reproduces = Reproduces(log, *p);
        if (reproduces) found.pools.push_back(k.pool);
      }
      any = !found.pools.empty();
    }
    if (any) out.reproductions.push_back(std::move(found));
    if (!any)
      UpdateNearest(c, plan->plan, method, unbounded, log, space.pool,
                    at_pool ? &*at_pool : nullptr, nearest);
  }
  if (out.reproductions.empty() && nearest.distance != UINT64_MAX) out.nearest = nearest;
  return out;
}

bool SeveralPools(const SearchResult& r) {
  return std::any_of(r.reproductions.begin(), r.reproductions.end(),
                     [](const Reproduction& x) { return x.pools.size() > 1; });
}

std::vector<std::string> ReproducingReleases(const SearchResult& r) {
  std::vector<std::string> out;
  for (const Reproduction& x : r.reproductions)
    if (std::find(out.begin(), out.end(), x.config.release->version) == out.end())
      out.push_back(x.config.release->version);
  return out;
}
std::vector<const Reproduction*> Matching(const SearchResult& r, const Given& g) {
  std::vector<const Reproduction*> out;
  for (const Reproduction& x : r.reproductions) {
    const ModelConfig& c = x.config;
    // A runner profile decides the temp allocator, and its pool's declared alignment is the
    // default.
    const runner::Profile* profile = c.runner ? c.runner->profile : nullptr;
    const uint32_t default_align =
        profile ? profile->FindPool(profile->LoadStep().pool)->base_align : c.target.malloc_align;
    if ((!g.release || g.release == c.release) && (!g.target || *g.target == c.target.name) &&
        (!g.runner || (c.runner && c.runner->Name() == *g.runner)) &&
        g.pool_align.value_or(default_align) == c.pool_align &&
        (profile || TempAllocatorOf(g.temp, *c.release) == c.temp_allocator) &&
        (!g.pool || x.pools.empty() || std::binary_search(x.pools.begin(), x.pools.end(), *g.pool)))
      out.push_back(&x);
  }
  return out;
}

}  // namespace etmem::check
