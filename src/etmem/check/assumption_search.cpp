// Owns: Search and its helpers (see assumption_search.h).
#include "etmem/check/assumption_search.h"

#include <algorithm>
#include <array>
#include <climits>
#include <cstdlib>
#include <map>
#include <set>
#include <tuple>

#include "etmem/runtime/labels.h"
#include "etmem/sim/simulate.h"

namespace etmem::check {
namespace {

bool TempOf(TempChoice t, const runtime::RuntimeTraits& release) {
  return t == TempChoice::kRunner ? release.runner_passes_temp : t == TempChoice::kNonNull;
}

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

std::vector<ModelConfig> CandidateConfigs(const SearchSpace& space) {
  std::vector<ModelConfig> out;
  const std::vector<TempChoice> temps =
      space.temps.empty() ? std::vector{TempChoice::kNull, TempChoice::kNonNull} : space.temps;
  for (const abi::Abi& target : space.targets) {
    std::vector<uint32_t> aligns = space.pool_aligns;
    if (aligns.empty()) aligns = {4, 8, 16, target.malloc_align};
    std::sort(aligns.begin(), aligns.end());
    aligns.erase(std::unique(aligns.begin(), aligns.end()), aligns.end());
    for (const runtime::RuntimeTraits* release : space.releases) {
      // load_method alone in its pool: each temp allocator, each alignment.
      auto alone = [&](const std::optional<ConfigRunner>& runner) {
        std::vector<bool> seen;
        for (TempChoice t : temps) {
          const bool temp = TempOf(t, *release);
          if (std::find(seen.begin(), seen.end(), temp) != seen.end()) continue;
          seen.push_back(temp);
          for (uint32_t a : aligns) out.push_back({release, target, a, temp, runner});
        }
      };
      if (space.runners.empty()) {
        alone(std::nullopt);
        continue;
      }
      for (const runner::RunnerSelection& selection : space.runners) {
        if (selection.empty()) {
          alone(ConfigRunner{});
          continue;
        }
        // A runner profiled for this release: its temp allocator; its pool's declared alignment
        // or more (unless the alignment was pinned).
        auto found = runner::ProfileFor(selection, release->version);
        if (!found) continue;
        const runner::Profile& profile = **found;
        const runner::StepSpec& load = profile.LoadStep();
        const uint32_t declared =
            selection.pool_align.value_or(profile.FindPool(load.pool)->base_align);
        std::vector<uint32_t> runner_aligns;
        for (uint32_t a : aligns)
          if (!space.pool_aligns.empty() || a >= declared) runner_aligns.push_back(a);
        if (runner_aligns.empty()) runner_aligns.push_back(declared);
        for (uint32_t a : runner_aligns)
          out.push_back({release, target, a, !load.temp_pool.empty(),
                         ConfigRunner{&profile, selection.options}});
      }
    }
  }
  return out;
}

std::string ConfigRunner::Name() const {
  if (!profile) return "portable";
  std::string s = profile->name;
  for (const std::string& o : options) s += "+" + o;
  return s;
}

std::string SelectionName(const runner::RunnerSelection& s) {
  if (s.empty()) return "portable";
  std::string name = s.candidates.front()->name;
  for (const std::string& o : s.options) name += "+" + o;
  return name;
}

std::vector<runner::RunnerSelection> AllRunners() {
  std::vector<runner::RunnerSelection> out{runner::RunnerSelection{}};
  const auto& all = runner::BuiltinProfiles();  // in name order
  for (size_t i = 0; i < all.size();) {
    runner::RunnerSelection s;
    size_t k = i;
    for (; k < all.size() && all[k]->name == all[i]->name; ++k) s.candidates.push_back(all[k]);
    i = k;
    // The options that add allocations to the pool load_method uses (others change nothing
    // check can see).
    std::vector<std::string> options;
    for (const auto& p : s.candidates) {
      const std::string& method_pool = p->LoadStep().pool;
      for (const runner::StepSpec& step : p->steps)
        // (A step that runs without an option, "!OPTION", adds nothing the option would.)
        if (!step.when.empty() && !step.when.starts_with('!') && step.pool == method_pool &&
            std::find(options.begin(), options.end(), step.when) == options.end())
          options.push_back(step.when);
    }
    const size_t n = std::min<size_t>(options.size(), 4);
    for (uint32_t mask = 0; mask < (1u << n); ++mask) {
      runner::RunnerSelection with = s;
      for (size_t b = 0; b < n; ++b)
        if (mask & (1u << b)) with.options.push_back(options[b]);
      out.push_back(std::move(with));
    }
  }
  return out;
}

Result<std::vector<const runtime::RuntimeTraits*>> MatchingReleases(const std::string& spec) {
  std::vector<const runtime::RuntimeTraits*> out;
  if (spec == "all") {
    for (const runtime::RuntimeTraits& r : runtime::AllReleases()) out.push_back(&r);
    return out;
  }
  ETMEM_TRY(const runtime::RuntimeTraits* newest, runtime::FindRelease(spec));
  const std::string want = spec.starts_with("v") ? spec.substr(1) : spec;
  if (std::count(want.begin(), want.end(), '.') >= 2) return std::vector{newest};
  for (const runtime::RuntimeTraits& r : runtime::AllReleases())
    if (r.version.starts_with(want + ".")) out.push_back(&r);
  if (out.empty()) out.push_back(newest);
  return out;
}

ConfigPlan PlanConfig(const pte::ProgramView& program, const pte::MethodView& method,
                      const ModelConfig& config, const runtime::LoadOptions& load) {
  ConfigPlan out;
  PlanConfig(program, method, config, load, out);
  return out;
}

namespace {

// The runner's own requests around load_method's (a configuration with a runner profile).
void PlanRunnerOf(const pte::ProgramView& program, const pte::MethodView& method,
                  const ModelConfig& config, const runtime::RuntimeModel& model, ConfigPlan& out) {
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

}  // namespace

void PlanConfig(const pte::ProgramView& program, const pte::MethodView& method,
                const ModelConfig& config, const runtime::LoadOptions& load, ConfigPlan& out) {
  runtime::LoadOptions o = load;
  o.temp_allocator = config.temp_allocator;
  const runtime::RuntimeModel model(*config.release, config.target);
  runtime::PlanMethodLoad(program, method, model, o, out.plan);
  // The runner's own allocations go around these requests, in the runner's order (placed by
  // sim::TraceMethodPool / SimulateRunner).
  PlanRunnerOf(program, method, config, model, out);
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

namespace {

// What a step counts, in words: its label or its kind.
std::string StepWords(const runner::StepSpec& step) {
  if (!step.label.empty()) return step.label;
  if (step.kind == runner::StepKind::kLoadMethod) return "load_method";
  std::string k = runner::StepKindName(step.kind);
  std::replace(k.begin(), k.end(), '_', ' ');
  return k;
}

uint64_t Advance(uint64_t counter, const sim::MethodPoolCall& c, runner::Counter kind) {
  if (c.failed) return counter;
  if (kind == runner::Counter::kCursor) return std::max(counter, c.offset + c.size);
  return device::BookkeepingUsed({{c.size, c.align, c.offset, false}}, counter);
}

// The printout's figures as the profile computes them from the run.
void PredictFigures(const runner::RunnerPlan& rp, const sim::RunnerTrace& t,
                    std::optional<uint64_t> pool, MethodPrediction& out) {
  const runner::Profile& profile = *rp.profile;
  if (!profile.printout) return;
  const runner::PrintoutSpec& po = *profile.printout;
  if (!po.when.empty() && std::find(rp.options.begin(), rp.options.end(), po.when) ==
                              rp.options.end())
    return;
  out.printout_format = po.format;
  // The trace holds the pool load_method uses: the figures of another pool are not predicted.
  const bool counts_method = rp.pools[rp.method_pool].spec->id == po.pool;
  const size_t n = rp.requests.size();
  std::vector<uint64_t> before(n, 0), after(n, 0);
  uint64_t counter = 0;
  for (size_t r = 0, c = 0; r < n; ++r) {
    before[r] = counter;
    for (; c < t.calls.size() && t.calls[c].request == r; ++c)
      counter = Advance(counter, t.calls[c], po.counter);
    after[r] = counter;
  }
  const std::string counted =
      po.counter == runner::Counter::kCursor
          ? "the pool's cursor"
          : "the runner's own used-size counter (ArmMemoryAllocator's used_, not the cursor)";
  for (const runner::FigureSpec& f : po.figures) {
    switch (f.measure) {
      case runner::Measure::kSteps: {
        if (!counts_method) break;
        std::optional<size_t> first, last;
        std::string what;
        for (size_t r = 0; r < n; ++r) {
          const runner::StepSpec& step = profile.steps[rp.requests[r].step];
          if (step.figure != f.name) continue;
          if (!first) first = r;
          last = r;
          const std::string w = StepWords(step);
          if (what.find(w) == std::string::npos) what += (what.empty() ? "" : ", ") + w;
        }
        out.figures[f.name] = first ? after[*last] - before[*first] : 0;
        out.figure_meaning[f.name] =
            first ? "the growth of " + counted + " over: " + what
                  : "nothing the runner allocates from the pool before it prints";
        break;
      }
      case runner::Measure::kUsed:
        if (!counts_method) break;
        out.figures[f.name] = counter;
        out.figure_meaning[f.name] = counted + " after everything the runner allocates";
        break;
      case runner::Measure::kPoolSize:
        if (!pool || (!f.pool.empty() && f.pool != po.pool)) break;
        out.figures[f.name] = *pool;
        out.figure_meaning[f.name] = "the pool's size";
        break;
      case runner::Measure::kFree:
        if (!pool || !counts_method || *pool < counter) break;
        out.figures[f.name] = *pool - counter;
        out.figure_meaning[f.name] = "the pool's size minus " + counted;
        break;
    }
  }
}

// Whether `line` holds the template's text, its placeholders standing for any text.
bool MatchesTemplate(std::string_view line, std::string_view tmpl) {
  size_t at = 0, literal = 0;
  std::string_view rest = tmpl;
  while (!rest.empty()) {
    const size_t open = rest.find('{');
    const std::string_view piece = rest.substr(0, open);
    if (!piece.empty()) {
      const size_t found = line.find(piece, at);
      if (found == std::string_view::npos) return false;
      at = found + piece.size();
      literal += piece.size();
    }
    if (open == std::string_view::npos) break;
    const size_t close = rest.find('}', open);
    if (close == std::string_view::npos) return false;
    rest = rest.substr(close + 1);
  }
  return literal >= 8;  // a template of placeholders alone matches anything: not a runner line
}

// Whether a log line holds a predicted runner line (its unfilled placeholders match anything).
bool Holds(std::string_view text, const std::string& want) {
  if (want.find('{') != std::string::npos) return MatchesTemplate(text, want);
  return text.find(want) != std::string_view::npos;
}

}  // namespace

MethodPrediction PredictConfig(const ModelConfig& config, const ConfigPlan& plan,
                               std::optional<uint64_t> pool,
                               std::optional<uint64_t> printed_pool) {
  if (!plan.runner) {
    MethodPrediction p = PredictMethodPool(plan.plan.requests, config.pool_align, pool);
    p.gets_through = p.prediction.failures.empty();
    p.runner_lines.resize(p.prediction.failures.size());
    return p;
  }
  const runner::RunnerPlan& rp = *plan.runner;
  const sim::RunnerTrace t = sim::TraceMethodPool(rp, plan.plan.requests, pool);
  MethodPrediction out;
  for (const sim::MethodPoolCall& c : t.calls) {
    out.prediction.calls.push_back({c.size, c.align, c.offset, c.failed});
    out.request_of_call.push_back(c.load_request.value_or(kRunnerCall));
    out.runner_request_of_call.push_back(c.request);
  }
  size_t k = 0;
  for (const sim::RunnerFailure& f : t.failures) {
    while (k < t.calls.size() && !t.calls[k].failed) ++k;
    out.prediction.failures.push_back({f.requested, f.available, k});
    ++k;
    out.runner_lines.emplace_back(f.log.size() > 1 ? f.log.begin() + 1 : f.log.end(),
                                  f.log.end());
  }
  out.prediction.used_bytes = t.method_bytes;
  out.gets_through = t.gets_through;
  PredictFigures(rp, t, pool ? pool : printed_pool, out);
  return out;
}

uint64_t MinimumOf(const ModelConfig& config, const ConfigPlan& plan) {
  if (plan.runner)
    return sim::SimulateRunner(*plan.runner, plan.plan.requests, std::nullopt).method().minimum;
  const sim::PoolConfig temp{config.pool_align, std::nullopt};
  const sim::SimResult unbounded =
      sim::Simulate(plan.plan.requests, {config.pool_align, std::nullopt}, temp);
  return sim::MinimumPool(plan.plan.requests, config.pool_align, temp, unbounded);
}

std::vector<std::string> RunnerLineTemplates(const SearchSpace& space) {
  std::vector<std::string> out;
  auto add = [&](const runner::Profile& p) {
    for (const runner::StepSpec& step : p.steps)
      for (const std::string& line : step.on_failure.logs)
        if (std::find(out.begin(), out.end(), line) == out.end()) out.push_back(line);
  };
  for (const auto& p : runner::BuiltinProfiles()) add(*p);
  for (const runner::RunnerSelection& s : space.runners)
    for (const auto& p : s.candidates) add(*p);
  return out;
}

std::string FigureLabel(const device::RunnerFigure& f) {
  return f.label.ends_with(f.name) ? f.label : f.label + " [" + f.name + "]";
}

std::optional<uint64_t> PrintedPool(const device::DeviceLog& log) {
  for (const device::RunnerFigure& f : log.runner_figures)
    if (f.name == "pool") return f.bytes;
  return std::nullopt;
}

std::vector<device::FigureCheck> RunnerFigureChecks(const device::DeviceLog& log,
                                                    const MethodPrediction& p) {
  if (log.runner_figures.empty() || p.printout_format.empty() ||
      p.printout_format != device::PrintoutFormat(log.runner_figures.front().printout))
    return {};
  return device::CompareRunnerFigures(log, p.figures);
}

std::optional<device::Difference> RunnerDifference(const device::DeviceLog& log,
                                                   const MethodPrediction& p,
                                                   const std::vector<std::string>& templates) {
  if (auto d = device::Compare(log, p.prediction)) return d;
  // The runner's own lines after each failure line the log shows: any line a runner prints on
  // failure must be one predicted here, and those present must be the predicted ones in order
  // (a log cut after the runtime's line, or after some of them, still agrees).
  for (size_t i = 0; i < log.failures.size(); ++i) {
    const int from = log.failures[i].line;
    const int until = i + 1 < log.failures.size() ? log.failures[i + 1].line : INT_MAX;
    const std::vector<std::string> none;
    const std::vector<std::string>& want = i < p.runner_lines.size() ? p.runner_lines[i] : none;
    const std::optional<size_t> call =
        i < p.prediction.failures.size() ? std::optional(p.prediction.failures[i].call)
                                         : std::nullopt;
    size_t next = 0;
    for (const auto& entry : log.lines_after_failure) {
      // Named, not bound (`auto [line, text]`): clang 14, the fuzz build's compiler, does not
      // let a lambda capture a structured binding.
      const auto& line = entry.first;
      const std::string& text = entry.second;
      if (line <= from || line >= until) continue;
      const bool runner_line =
          std::any_of(templates.begin(), templates.end(),
                      [&](const std::string& t) { return MatchesTemplate(text, t); }) ||
          std::any_of(want.begin(), want.end(),
                      [&](const std::string& w) { return Holds(text, w); });
      if (!runner_line) continue;
      if (next < want.size() && Holds(text, want[next])) {
        ++next;
        continue;
      }
      return device::Difference{
          line, call, "'" + text + "'",
          next < want.size() ? "the runner's line '" + want[next] + "'"
          : want.empty()     ? std::string("no line of the runner's own after this failure")
                             : std::string("no further line of the runner's own")};
    }
  }
  if (log.runner_figures.empty()) return std::nullopt;
  const device::RunnerFigure& first = log.runner_figures.front();
  const std::string got = FigureLabel(first) + ": " + std::to_string(first.bytes) + " B";
  if (p.printout_format.empty())
    return device::Difference{first.line, std::nullopt, got,
                              "no printout: this runner prints none"};
  if (p.printout_format != device::PrintoutFormat(first.printout))
    return device::Difference{first.line, std::nullopt, got,
                              "this runner prints its " + p.printout_format + " instead"};
  if (!p.gets_through)
    return device::Difference{first.line, std::nullopt, got,
                              "no printout: the run stops at its failure"};
  for (const device::FigureCheck& c : RunnerFigureChecks(log, p))
    if (c.differs()) {
      const auto meaning = p.figure_meaning.find(c.figure->name);
      return device::Difference{
          c.figure->line, std::nullopt,
          FigureLabel(*c.figure) + ": " + std::to_string(c.figure->bytes) + " B",
          std::to_string(*c.predicted) + " B" +
              (meaning == p.figure_meaning.end() ? "" : " (" + meaning->second + ")")};
    }
  return std::nullopt;
}

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
      PlanRunnerOf(program, method, c, model, *plan);
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
        (profile || TempOf(g.temp, *c.release) == c.temp_allocator) &&
        (!g.pool || x.pools.empty() || std::binary_search(x.pools.begin(), x.pools.end(), *g.pool)))
      out.push_back(&x);
  }
  return out;
}

}  // namespace etmem::check
