// Owns: api::Check, the result of `etmem check` as a structured value (analysis/check_report.h,
// rendered by report/check_render.h): a device log (written on the firmware by
// include/etmem/recording_allocator.h, holding ExecuTorch's "Memory allocation failed" line, or
// a runner's memory report) compared with etmem's prediction for the same model options (same
// calls and bytes, or the first difference); then, when they differ or the pool size is not
// known, the assumptions the user did not pin searched for every combination that reproduces
// the log. Not: the log format (device/), the search (check/search.h), the text and
// JSON (report/check_text.cpp, check_json.cpp), the command line's options and exit code
// (tools/etmem/check_command.cpp).
#include <fmt/format.h>

#include <memory>
#include <string_view>

#include "etmem/abi/abi.h"
#include "etmem/base/printable.h"
#include "etmem/api/internal.h"
#include "etmem/check/runner_prediction.h"
#include "etmem/check/search.h"
#include "etmem/device/device_log.h"
#include "etmem/kernels/run_temp.h"
#include "etmem/analysis/check_report.h"
#include "etmem/analysis/run_temp_text.h"
#include "etmem/analysis/runner_rows.h"
#include "etmem/report/check_render.h"
#include "etmem/runner/profile.h"
#include "etmem/runtime/labels.h"
#include "etmem/runtime/release.h"

namespace etmem::api {
namespace {

// A failure the command line reports as invalid input (exit 2).
[[noreturn]] void Fail(const std::string& message) {
  throw api::Error(ErrorKind::kInvalidArgument, message);
}

// What `etmem check` was given: the model options (runtime and target may be "all", runner
// "all"), which of them the user pinned, the method and the pool.
struct CheckArgs {
  std::string log;
  Options model;  // runtime: the newest modelled release when not given
  std::string method;
  std::optional<uint64_t> pool;
  bool runtime_given = false;
  bool temp_given = false;
  bool given(const char* option) const {
    return std::string_view(option) == "--runtime" ? runtime_given : temp_given;
  }
};

using Predicted = check::MethodPrediction;

Predicted Predict(const report::MethodReport& m, uint32_t pool_align,
                  std::optional<uint64_t> pool) {
  return check::PredictMethodPool(m.plan.requests, pool_align, pool);
}

bool LogShowsAFailure(const device::DeviceLog& log) {
  if (!log.failures.empty()) return true;
  for (const auto& c : log.calls)
    if (!c.offset) return true;
  return false;
}

etmem::Error TooManyMethods(size_t n, const std::string& path) {
  return MakeError(ErrorCode::kInvalidArgument,
                   path + ": the program has " + std::to_string(n) +
                       " methods; name the one the device loaded with --method");
}

Result<const report::MethodReport*> PickMethod(const report::Report& r, const std::string& path) {
  if (r.methods.size() == 1) return &r.methods.front();
  return TooManyMethods(r.methods.size(), path);
}

// The method, straight from the program (for --runtime all / --target all: no one report).
Result<const pte::MethodView*> PickProgramMethod(const pte::ProgramView& p,
                                                 const std::string& name) {
  for (const pte::MethodView& m : p.methods)
    if (name.empty() ? p.methods.size() == 1 : m.name == name) return &m;
  if (name.empty()) return TooManyMethods(p.methods.size(), p.path);
  return MakeError(ErrorCode::kInvalidArgument, p.path + ": no method named '" + Printable(name) + "'");
}

// The runner figures of a log compared with load_method's figures (no runner profile).
std::vector<report::CheckFigure> LoadMethodFigureRows(const device::DeviceLog& log,
                                                      const device::FigurePrediction& predicted) {
  std::vector<report::CheckFigure> out;
  for (const device::FigureCheck& c : device::CompareRunnerFigures(log, predicted)) {
    const device::RunnerFigure& f = *c.figure;
    out.push_back({f.line, f.label, f.name, f.bytes, c.predicted,
                   std::string(device::PrintoutName(f.printout)) +
                       "; what load_method takes from the pool"});
  }
  return out;
}

// A runner figure that differs, as a Difference; with what the Arm runner's bookkeeping counts.
device::Difference FigureDifference(const device::FigureCheck& c, const Predicted& p,
                                    report::CheckComparison& out) {
  const device::RunnerFigure& f = *c.figure;
  if (f.printout == device::Printout::kArmMemoryReport &&
      device::BookkeepingUsed(p.prediction.calls) == f.bytes)
    out.bookkeeping = report::CheckComparison::Bookkeeping{f.bytes, *c.predicted};
  return device::Difference{
      f.line, std::nullopt, f.label + ": " + std::to_string(f.bytes) + " B",
      std::to_string(*c.predicted) + " B (what load_method takes from the pool)"};
}

// What the search may vary: every assumption the user did not pin (the device's P record pins
// the pool and its alignment). `widen`: the user's pins on release, alignment and temp too.
Result<check::SearchSpace> MakeSpace(const CheckArgs& args, const device::DeviceLog& log,
                                     std::optional<uint64_t> pool, bool widen) {
  check::SearchSpace space;
  const Options& m = args.model;
  ETMEM_TRY(space.releases,
            check::MatchingReleases(args.given("--runtime") && !widen ? m.runtime : "all"));
  if (m.target == "all") {
    space.targets = abi::BuiltinTargets();
  } else {
    ETMEM_TRY(abi::Abi target, abi::ResolveTarget(m.target));
    space.targets.push_back(target);
  }
  if (m.pool_align && !widen)
    space.pool_aligns = {*m.pool_align};
  else if (log.pool)
    space.pool_aligns = {static_cast<uint32_t>(log.pool->base_align)};
  if (args.given("--temp") && !widen)
    space.temps = {m.temp == "null"      ? check::TempChoice::kNull
                   : m.temp == "nonnull" ? check::TempChoice::kNonNull
                                         : check::TempChoice::kRunner};
  space.pool = pool;
  if (!m.runner.empty()) {
    // --runner all (or a widened search): every runner; else the one named.
    std::optional<runner::RunnerSelection> pinned;
    if (m.runner != "all") {
      ETMEM_TRY(runner::RunnerSelection s, runner::SelectRunner(m.runner));
      pinned = std::move(s);
    }
    if (pinned && !widen) {
      space.runners.push_back(*pinned);
    } else {
      space.runners = check::AllRunners();
      if (pinned && !pinned->candidates.front()->file.starts_with("built-in"))
        space.runners.push_back(*pinned);  // the user's own runner file stays among them
    }
  }
  Options load_args = m;
  load_args.runner.clear();  // the runner's allocations are the search's, not load_method's
  ETMEM_TRY(report::ReportOptions o, MakeReportOptions(load_args,
                                                            *space.releases.front(),
                                                            space.targets.front()));
  space.load = o.load;
  return space;
}

check::Given GivenAssumptions(const CheckArgs& args, const check::SearchSpace& space,
                              std::optional<uint64_t> pool) {
  check::Given g;
  const Options& m = args.model;
  if (m.runtime != "all") g.release = *runtime::FindRelease(m.runtime);
  if (m.target != "all") g.target = space.targets.front().name;
  g.pool_align = m.pool_align;
  g.temp = m.temp == "null" ? check::TempChoice::kNull
           : m.temp == "nonnull" ? check::TempChoice::kNonNull : check::TempChoice::kRunner;
  g.pool = pool;
  if (!m.runner.empty() && m.runner != "all") {
    for (const runner::RunnerSelection& r : space.runners)
      if (!r.empty()) g.runner = check::SelectionName(r);
  }
  return g;
}

// The search's findings into `out.search`; true when the given assumptions are among the
// combinations that reproduce the log. An error leaves the search incomplete.
Result<bool> SearchInto(report::CheckReport& out, const CheckArgs& args,
                        const pte::ProgramView& program, const pte::MethodView& method) {
  const std::optional<uint64_t> pool = out.pool;
  report::CheckSearch& s = out.search.emplace();
  ETMEM_TRY(check::SearchSpace space, MakeSpace(args, out.log, pool, false));
  ETMEM_TRY(check::SearchResult found, check::Search(program, method, out.log, space));
  s.given = GivenAssumptions(args, space, pool);
  s.pinned = args.given("--runtime") || args.model.pool_align || args.given("--temp") ||
             (!args.model.runner.empty() && args.model.runner != "all");
  const bool widen = found.reproductions.empty() && s.pinned && !found.nothing_predicted;
  s.attempts.push_back({std::move(space), std::move(found)});
  if (s.attempts.back().found.nothing_predicted) {
    s.complete = true;
    return false;
  }
  if (widen) {
    ETMEM_TRY(check::SearchSpace wide, MakeSpace(args, out.log, pool, true));
    ETMEM_TRY(check::SearchResult again, check::Search(program, method, out.log, wide));
    s.attempts.push_back({std::move(wide), std::move(again)});
  }
  const check::SearchResult& last = s.attempts.back().found;
  for (const check::Reproduction* x : check::Matching(last, s.given))
    s.matching.push_back(static_cast<size_t>(x - last.reproductions.data()));
  s.complete = true;
  return !s.matching.empty();
}

// ---- With --runner: the runner's own allocations, failure lines and printout ----

// What call #i of a runner configuration's prediction is.
std::string DescribeRunnerCall(const check::ConfigPlan& plan, const pte::MethodView& method,
                               const check::MethodPrediction& p, size_t call) {
  if (call >= p.request_of_call.size()) return "?";
  if (p.request_of_call[call] != check::kRunnerCall)
    return "load_method's " +
           runtime::DescribeRequest(plan.plan.requests[p.request_of_call[call]], plan.plan, method);
  return "the runner's " + plan.runner->requests[p.runner_request_of_call[call]].what;
}

// Every figure of the runner's printout: as predicted, differing, or not predicted.
std::vector<report::CheckFigure> RunnerFigureRows(const device::DeviceLog& log,
                                                  const check::MethodPrediction& p) {
  std::vector<report::CheckFigure> out;
  for (const device::FigureCheck& c : check::RunnerFigureChecks(log, p)) {
    const device::RunnerFigure& f = *c.figure;
    const auto meaning = p.figure_meaning.find(f.name);
    out.push_back({f.line, check::FigureLabel(f), f.name, f.bytes, c.predicted,
                   meaning == p.figure_meaning.end() ? "" : meaning->second});
  }
  return out;
}

// The search alone (no one prediction to compare with): with --runtime, --target or --runner
// all, or a failure in the log and no pool size.
bool SearchOnly(report::CheckReport& out, const CheckArgs& args, const pte::ProgramView& program) {
  auto method = PickProgramMethod(program, args.method);
  if (!method) Throw(method.error());
  out.method = (*method)->name;
  auto included = SearchInto(out, args, program, **method);
  if (!included) Throw(included.error());
  return *included;
}

bool RunCheckWithRunner(report::CheckReport& out, const Program& opened, const CheckArgs& args) {
  const pte::ProgramView* program = &Internal(opened);
  const device::DeviceLog& log = out.log;
  const Options& m = args.model;
  const bool any = m.runner == "all" || m.runtime == "all" || m.target == "all";
  if (any || (!out.pool && LogShowsAFailure(log))) return SearchOnly(out, args, *program);
  auto method = PickProgramMethod(*program, args.method);
  if (!method) Throw(method.error());
  // One configuration: the options given, the runner's own defaults for the rest.
  auto space = MakeSpace(args, log, out.pool, false);
  if (!space) Throw(space.error());
  auto release = runtime::FindRelease(m.runtime);
  if (!release) Throw(release.error());
  const runner::RunnerSelection& selection = space->runners.front();
  auto profile = runner::ProfileFor(selection, (*release)->version);
  if (!profile) Throw(profile.error());
  const runner::StepSpec& load = (*profile)->LoadStep();
  const runner::PoolSpec& method_pool = *(*profile)->FindPool(load.pool);
  check::ModelConfig config{*release, space->targets.front(),
                            m.pool_align.value_or(method_pool.base_align), !load.temp_pool.empty(),
                            check::ConfigRunner{*profile, selection.options}};
  check::ConfigPlan plan;
  check::PlanConfig(*program, **method, config, space->load, plan);
  if (!plan.runner_error.empty()) Fail(plan.runner_error);
  const std::optional<uint64_t> printed = check::PrintedPool(log);
  std::optional<uint64_t> at = out.pool;
  if (!at && printed && (*profile)->printout && !log.runner_figures.empty() &&
      (*profile)->printout->format == device::PrintoutFormat(log.runner_figures.front().printout))
    at = printed;
  const check::MethodPrediction p = check::PredictConfig(config, plan, at, printed);
  out.method = (*method)->name;
  report::CheckComparison& c = out.comparison.emplace();
  c.difference = check::RunnerDifference(log, p, check::RunnerLineTemplates(*space));
  c.config = config;
  c.pool = at;
  c.minimum = check::MinimumOf(config, plan);
  c.minimum_pool_title = report::RunnerPoolTitle(method_pool);
  c.runner_figures = true;
  c.figures = RunnerFigureRows(log, p);
  if (!c.difference) {
    if (!log.failures.empty() && !p.prediction.failures.empty()) {
      const device::PredictedFailure& f = p.prediction.failures.front();
      c.failure = report::CheckComparison::Failure{
          f.call, DescribeRunnerCall(plan, **method, p, f.call), p.runner_lines.front()};
    }
    return true;
  }
  const device::Difference& d = *c.difference;
  if (d.call && *d.call < p.request_of_call.size())
    c.differing_call = DescribeRunnerCall(plan, **method, p, *d.call);
  auto included = SearchInto(out, args, *program, **method);
  if (!included) Throw(included.error());
  return false;
}

// Method::step's line for a kernel or delegate call that failed, after ExecuTorch's failure
// line: the failure came while the method ran (the load went through).
std::optional<std::pair<int, std::string>> StepFailureLine(const device::DeviceLog& log) {
  for (const auto& [line, text] : log.lines_after_failure)
    for (std::string_view key :
         {"KernelCall failed at instruction ", "CALL_DELEGATE execute failed at instruction "}) {
      const size_t at = text.find(key);
      if (at == std::string::npos) continue;
      std::string step = text.substr(at);
      while (!step.empty() && (step.back() == '\r' || step.back() == ' ')) step.pop_back();
      return std::make_pair(line, step);
    }
  return std::nullopt;
}

// The log's run-time failure against the run-time temp model under the user's assumptions: the
// temp pool sizes that give its failure line, and the one whose predicted lines are the log's.
bool RunCheckWhileRunning(report::CheckReport& out, const Program& opened, const CheckArgs& args,
                          const std::pair<int, std::string>& step) {
  if (args.model.runtime == "all" || args.model.target == "all")
    Fail("etmem check: a failure while the method runs is checked under one release and one "
         "target (--runtime all and --target all search the load only)");
  Options single = args.model;
  single.method = args.method;
  const Report analysed = Analyze(opened, single);
  auto method = PickMethod(Internal(analysed), opened.name());
  if (!method) Throw(method.error());
  const report::MethodReport& mr = **method;
  out.method = mr.method->name;
  report::CheckRunTime& c = out.run_time.emplace();
  c.assumptions = Internal(analysed).assumptions;
  c.step_line = step.first;
  c.step_text = step.second;
  c.requested = out.log.failures.front().requested;
  c.available = out.log.failures.front().available;
  c.load_peak_bytes = mr.temp_load_peak_bytes;
  c.run_peak_bytes = mr.run_temp.peak_bytes;
  c.run_summary = report::RunTempLine(mr);
  c.run_known = mr.run_temp.known();
  c.candidate_pools = kernels::TempPoolsLoggingFailure(mr.run_temp, c.requested, c.available,
                                                       c.assumptions.pool_align);
  // The lines the log shows from ExecuTorch's failure line to Method::step's.
  std::vector<std::string> shown = {fmt::format(
      "Memory allocation failed: {}B requested (adjusted for alignment), {}B available",
      c.requested, c.available)};
  for (const auto& [line, text] : out.log.lines_after_failure) {
    if (line > step.first) break;
    shown.push_back(line == step.first ? step.second : text);
  }
  for (uint64_t pool : c.candidate_pools) {
    Options at = single;
    at.temp_pool = pool;
    const Report r = Analyze(opened, at);
    auto m = PickMethod(Internal(r), opened.name());
    if (!m || !(*m)->run_temp.check || (*m)->run_temp.check->fits) continue;
    const kernels::TempPoolCheck& check = *(*m)->run_temp.check;
    auto keep = [&] {  // what etmem predicts at this pool
      c.predicted = check.log;
      if (!check.failing_call) return;
      const kernels::CallTemp& f = (*m)->run_temp.calls[*check.failing_call];
      c.failing_what = fmt::format("instruction {} ({}, {})", f.instruction, f.what, f.library);
    };
    if (c.predicted.empty()) keep();
    // Reproduced: the predicted lines appear in the log, in order, ending at Method::step's.
    size_t next = 0;
    for (const std::string& s : shown)
      if (next < check.log.size() && s.find(check.log[next]) != std::string::npos) ++next;
    if (next == check.log.size() && !check.log.empty() && check.log.back() == step.second) {
      c.pool = pool;
      keep();
      return true;
    }
  }
  return false;
}

bool RunCheck(report::CheckReport& out, const Program& opened, const CheckArgs& args) {
  if (!out.log.failures.empty())
    if (auto step = StepFailureLine(out.log)) return RunCheckWhileRunning(out, opened, args, *step);
  if (!args.model.runner.empty()) return RunCheckWithRunner(out, opened, args);
  const pte::ProgramView* program = &Internal(opened);
  const device::DeviceLog& log = out.log;
  const bool any_pair = args.model.runtime == "all" || args.model.target == "all";
  if (any_pair || (!out.pool && LogShowsAFailure(log))) return SearchOnly(out, args, *program);
  Options single = args.model;
  single.method = args.method;
  const Report analysed = Analyze(opened, single);
  const report::Report* report = &Internal(analysed);
  auto method = PickMethod(*report, opened.name());
  if (!method) Throw(method.error());
  const report::MethodReport& mr = **method;
  const Predicted p = Predict(mr, report->assumptions.pool_align, out.pool);
  const device::FigurePrediction figures = device::LoadMethodFigures(log, p.prediction.used_bytes);
  out.method = mr.method->name;
  report::CheckComparison& c = out.comparison.emplace();
  c.assumptions = report->assumptions;
  c.pool = out.pool;
  c.difference = device::Compare(log, p.prediction);
  if (!c.difference)
    if (auto f = device::FirstDifferingFigure(log, figures))
      c.difference = FigureDifference(*f, p, c);
  if (!c.difference) {
    if (LogShowsAFailure(log) && !p.prediction.failures.empty()) {
      const device::PredictedFailure& f = p.prediction.failures.front();
      c.failure = report::CheckComparison::Failure{
          f.call, report::Describe(mr, p.request_of_call[f.call]), {}};
    }
    c.figures = LoadMethodFigureRows(log, figures);
    return true;
  }
  const device::Difference& d = *c.difference;
  if (d.call && *d.call < p.request_of_call.size())
    c.differing_call = report::Describe(mr, p.request_of_call[*d.call]);
  if (log.pool && log.pool->base_align != report->assumptions.pool_align)
    c.device_pool_align = log.pool->base_align;
  c.unknowns = mr.plan.unknowns;
  auto included = SearchInto(out, args, *program, *mr.method);
  if (!included) Throw(included.error());
  return false;  // the log and the prediction under the given assumptions differ
}

}  // namespace

CheckResult Check(const Program& program, const std::string& log, const CheckOptions& options) {
  CheckArgs args;
  args.log = log;
  args.model = options.model;
  args.method = options.model.method;
  args.model.method.clear();
  args.pool = options.pool;
  args.runtime_given = !options.model.runtime.empty();
  args.temp_given = options.temp_given;
  if (args.model.runtime.empty()) args.model.runtime = runtime::ReleaseVersions().back();
  auto read = device::ReadDeviceLog(args.log);
  if (!read) Throw(read.error());
  auto value = std::make_shared<report::CheckReport>();
  report::CheckReport& r = *value;
  r.log_path = args.log;
  r.log = std::move(*read);
  r.pool = args.pool;
  if (!r.pool && r.log.pool) r.pool = r.log.pool->pool_bytes;
  if (options.format != Format::kText && options.format != Format::kJson)
    Fail("etmem check: the format must be text or json");
  CheckResult result;
  try {
    r.reproduced = RunCheck(r, program, args);
  } catch (const api::Error& e) {
    if (!r.comparison && !r.search) throw;  // nothing to show yet: an error as any other
    r.error = e.what();
  }
  result.reproduced = r.reproduced;
  result.error = r.error;
  result.output = options.format == Format::kJson ? report::CheckJson(r) : report::CheckText(r);
  result.value = std::move(value);
  return result;
}

}  // namespace etmem::api

namespace etmem::api {

Verdict Judge(const CheckResult& result) {
  return ToApi(report::OutcomeVerdict(
      result.reproduced, "the device log against the prediction",
      "the prediction for the given assumptions does not reproduce the log", result.error));
}

}  // namespace etmem::api
