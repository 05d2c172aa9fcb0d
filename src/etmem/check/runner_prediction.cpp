// Owns: what a runner profile adds to a configuration's prediction: the runner's calls around
// load_method's (PredictConfig, placed by sim::TraceMethodPool), its printout's figures as the
// profile computes them, its failure lines, and the first way a log differs from that
// (RunnerDifference). See runner_prediction.h. Not: the runner's own requests (runner/), load_method's
// prediction (prediction.cpp), the search (search.cpp).
#include <algorithm>
#include <climits>
#include <string_view>

#include "etmem/check/runner_prediction.h"
#include "etmem/sim/runner_sim.h"

namespace etmem::check {
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
}  // namespace etmem::check
