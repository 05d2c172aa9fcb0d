// Owns: api::Check, what `etmem check` prints: a device log (written on the firmware by
// include/etmem/recording_allocator.h, holding ExecuTorch's "Memory allocation failed" line, or
// a runner's memory report) compared with etmem's prediction for the same model options (same
// calls and bytes, or the first difference); then, when they differ or the pool size is not
// known, the assumptions the user did not pin searched for every combination that reproduces
// the log. Not: the log format (device/), the search (check/assumption_search.h), the command
// line's options and exit code (tools/etmem/check_command.cpp).
#include <algorithm>
#include <ostream>
#include <sstream>
#include <string_view>

#include "etmem/abi/abi.h"
#include "etmem/base/printable.h"
#include "etmem/api/internal.h"
#include "etmem/check/assumption_search.h"
#include "etmem/device/device_log.h"
#include "etmem/report/assumptions.h"
#include "etmem/report/runner_rows.h"
#include "etmem/report/search_text.h"
#include "etmem/runner/profile.h"
#include "etmem/runtime/labels.h"
#include "etmem/runtime/release.h"
#include "etmem/sim/simulate.h"

namespace etmem::api {
namespace {

constexpr int kReproduced = 0, kDiffers = 1;

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

std::string Assuming(const report::Assumptions& a, std::optional<uint64_t> pool) {
  return report::AssumptionSentence(a, report::CheckWording(pool));
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

// The runner figures of a log that matched: which agree, which etmem does not predict.
void PrintFigures(std::ostream& out, const device::DeviceLog& log, const device::FigurePrediction& predicted) {
  std::string unpredicted;
  for (const device::FigureCheck& c : device::CompareRunnerFigures(log, predicted)) {
    const device::RunnerFigure& f = *c.figure;
    if (c.matches())
      out << "  line " << f.line << ": " << f.label << " " << f.bytes
                << " B: as etmem predicts (" << device::PrintoutName(f.printout)
                << "; what load_method takes from the pool)\n";
    else
      unpredicted +=
          (unpredicted.empty() ? "" : ", ") + f.name + " " + std::to_string(f.bytes) + " B";
  }
  if (!unpredicted.empty())
    out << "  not compared (they count the runner's own allocations or pools, which etmem "
                 "does not model without a runner profile): " << unpredicted << "\n";
}

// A runner figure that differs, as a Difference; with what the Arm runner's bookkeeping counts.
device::Difference FigureDifference(const device::FigureCheck& c, const Predicted& p,
                                    std::string& note) {
  const device::RunnerFigure& f = *c.figure;
  if (f.printout == device::Printout::kArmMemoryReport &&
      device::BookkeepingUsed(p.prediction.calls) == f.bytes)
    note = "  note: " + std::to_string(f.bytes) + " B is what the Arm runner's ArmMemoryAllocator "
           "(v0.5.0 to v1.3.x) counts in used_size() for exactly these calls: its bookkeeping "
           "skips padding and rounds odd sizes up, so the figure is not the bytes the load "
           "took (" + std::to_string(*c.predicted) + " B)\n";
  return device::Difference{
      f.line, std::nullopt, f.label + ": " + std::to_string(f.bytes) + " B",
      std::to_string(*c.predicted) + " B (what load_method takes from the pool)"};
}

void PrintMatch(std::ostream& out, const CheckArgs& args, const device::DeviceLog& log, const report::Report& r,
                const report::MethodReport& m, const Predicted& p, std::optional<uint64_t> pool) {
  out << Printable(args.log, kShownPathBytes) << ": matches etmem's prediction for method '"
      << Printable(m.method->name) << "'";
  if (!log.calls.empty()) out << ", call for call (" << log.calls.size() << " calls)";
  if (log.totals)
    out << ", totals " << log.totals->used_bytes << " B in " << log.totals->calls
              << " calls";
  out << "\n  assuming " << Assuming(r.assumptions, pool) << "\n";
  if (LogShowsAFailure(log) && !p.prediction.failures.empty()) {
    const device::PredictedFailure& f = p.prediction.failures.front();
    out << "  the failure is exactly the one etmem predicts for a " << pool.value_or(0)
              << " B pool: call #" << f.call << ", "
              << report::Describe(m, p.request_of_call[f.call]) << "\n";
  }
}

void PrintDifference(std::ostream& out, const CheckArgs& args, const device::DeviceLog& log,
                     const report::Report& r, const report::MethodReport& m, const Predicted& p,
                     const device::Difference& d, std::optional<uint64_t> pool) {
  out << Printable(args.log, kShownPathBytes) << (d.line ? ":" + std::to_string(d.line) : "")
      << ": differs from etmem's prediction for method '" << Printable(m.method->name) << "'";
  if (d.call) out << " at call #" << *d.call;
  out << "\n  device: " << d.got << "\n  etmem:  " << d.predicted << "\n";
  if (d.call && *d.call < p.request_of_call.size())
    out << "  etmem says call #" << *d.call << " is: "
              << report::Describe(m, p.request_of_call[*d.call]) << "\n";
  out << "  assuming " << Assuming(r.assumptions, pool) << "\n";
  if (log.pool && log.pool->base_align != r.assumptions.pool_align)
    out << "  note: the device's pool base is aligned to " << log.pool->base_align
              << " B, etmem modelled " << r.assumptions.pool_align << " B: try --pool-align "
              << std::min<uint64_t>(log.pool->base_align, 4096) << "\n";
  for (const auto& u : m.plan.unknowns) {
    out << "  note: etmem's figures are a lower bound: ";
    if (u.delegate >= 0) out << "delegate " << u.delegate << " (" << u.backend << "): ";
    out << u.why << "\n";
  }
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

std::string DescribeGiven(const check::Given& g, const check::SearchSpace& space) {
  const abi::Abi& t = space.targets.front();
  if (g.runner) {  // a runner profile: its pool's declared alignment and its temp allocator
    return "ExecuTorch " + (g.release ? g.release->version : std::string("(any)")) + ", " +
           (g.target ? *g.target : std::string("any target")) + ", runner " + *g.runner +
           ", pool base aligned to " +
           (g.pool_align ? std::to_string(*g.pool_align) + " B"
                         : std::string("the alignment the runner declares")) +
           ", the runner's temp allocator" +
           (g.pool ? ", a " + std::to_string(*g.pool) + " B pool" : std::string());
  }
  if (!space.runners.empty()) {  // --runner all: any runner, each with its own defaults
    return "ExecuTorch " + (g.release ? g.release->version : std::string("(any)")) + ", " +
           (g.target ? *g.target : std::string("any target")) + ", any runner, pool base aligned to " +
           (g.pool_align ? std::to_string(*g.pool_align) + " B"
                         : std::string("the alignment each runner declares (the target's malloc "
                                       "alignment for the portable executor_runner)")) +
           ", each runner's temp allocator" +
           (g.pool ? ", a " + std::to_string(*g.pool) + " B pool" : std::string());
  }
  std::string s =
      "ExecuTorch " + (g.release ? g.release->version : std::string("(any)")) + ", " +
      (g.target ? *g.target : std::string("any target")) + ", pool base aligned to " +
      (g.pool_align || g.target ? std::to_string(g.pool_align.value_or(t.malloc_align)) + " B"
                                : std::string("the target's malloc alignment")) +
      ", " +
      (g.temp == check::TempChoice::kRunner ? "the temp allocator of the release's executor_runner"
       : g.temp == check::TempChoice::kNull ? "no temp allocator"
                                            : "a temp allocator");
  return g.pool ? s + ", a " + std::to_string(*g.pool) + " B pool" : s;
}

// Prints the search's findings (each line indented by `indent`); true when the given
// assumptions are among the combinations that reproduce the log.
Result<bool> SearchAndPrint(std::ostream& out, const CheckArgs& args, const pte::ProgramView& program,
                            const pte::MethodView& method, const device::DeviceLog& log,
                            std::optional<uint64_t> pool, const std::string& indent) {
  ETMEM_TRY(check::SearchSpace space, MakeSpace(args, log, pool, false));
  ETMEM_TRY(check::SearchResult found, check::Search(program, method, log, space));
  const check::Given given = GivenAssumptions(args, space, pool);
  out << indent << "etmem searched " << report::DescribeSpace(space, log) << ": "
            << found.configs_tried << " combinations\n";
  if (found.nothing_predicted) {
    out << indent << "nothing in this log is predicted without a model of the runner's "
                           "own allocations: no combination can be told apart\n";
    return false;
  }
  const bool pinned = args.given("--runtime") || args.model.pool_align || args.given("--temp") ||
                      (!args.model.runner.empty() && args.model.runner != "all");
  if (found.reproductions.empty() && pinned) {
    out << indent << "no combination under the assumptions you gave reproduces the log\n";
    ETMEM_TRY(space, MakeSpace(args, log, pool, true));
    ETMEM_TRY(found, check::Search(program, method, log, space));
    out << indent << "etmem searched " << report::DescribeSpace(space, log) << ": "
              << found.configs_tried << " combinations\n";
  }
  if (found.reproductions.empty()) {
    out << indent << "no modelled combination reproduces the log exactly\n";
    if (found.nearest) out << indent << "nearest: " << report::DescribeNearest(*found.nearest) << "\n";
    out << indent << "your assumptions: " << DescribeGiven(given, space) << "\n";
    return false;
  }
  out << indent << "reproduced exactly by:\n";
  for (const std::string& line : report::GroupedLines(found))
    out << indent << "  " << line << "\n";
  if (check::SeveralPools(found))
    out << indent
              << "the line alone fits several pool sizes (each request of that size "
                 "with its padding can be the one that failed): give --pool to narrow it\n";
  const std::vector<std::string> releases = check::ReproducingReleases(found);
  if (releases.size() > 1) {
    std::string list;
    for (size_t i = 0; i < releases.size(); ++i)
      list += (i == 0 ? "" : i + 1 == releases.size() ? " and " : ", ") + releases[i];
    out << indent << releases.size() << " releases give this log (" << list
              << "): the log alone does not tell them apart\n";
  }
  const std::vector<const check::Reproduction*> mine = check::Matching(found, given);
  out << indent << "your assumptions (" << DescribeGiven(given, space) << ") "
            << (mine.empty() ? "do not reproduce it" : "are among them");
  // Which pools, when the log does not say: every one (the user's firmware has one of them).
  std::vector<uint64_t> pools;
  for (const check::Reproduction* x : mine)
    if (!pool) pools.insert(pools.end(), x->pools.begin(), x->pools.end());
  constexpr size_t kListed = 24;
  for (size_t i = 0; i < pools.size() && i < kListed; ++i)
    out << (i == 0 ? ", with a " : i + 1 == pools.size() ? " or " : ", ") << pools[i]
              << (i + 1 == pools.size() ? " B pool" : "");
  if (pools.size() > kListed)
    out << " B pool or " << pools.size() - kListed << " other sizes";
  out << "\n";
  return !mine.empty();
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
void PrintRunnerFigures(std::ostream& out, const device::DeviceLog& log, const check::MethodPrediction& p) {
  std::string unpredicted;
  for (const device::FigureCheck& c : check::RunnerFigureChecks(log, p)) {
    const device::RunnerFigure& f = *c.figure;
    const auto meaning = p.figure_meaning.find(f.name);
    const std::string why = meaning == p.figure_meaning.end() ? "" : " (" + meaning->second + ")";
    if (c.matches())
      out << "  line " << f.line << ": " << check::FigureLabel(f) << " " << f.bytes
                << " B: as etmem predicts" << why << "\n";
    else if (c.differs())
      out << "  line " << f.line << ": " << check::FigureLabel(f) << " " << f.bytes
                << " B: DIFFERS, etmem predicts " << *c.predicted << " B" << why << "\n";
    else
      unpredicted +=
          (unpredicted.empty() ? "" : ", ") + f.name + " " + std::to_string(f.bytes) + " B";
  }
  if (!unpredicted.empty())
    out << "  not predicted (the firmware's own settings): " << unpredicted << "\n";
}

int RunCheckWithRunner(std::ostream& out, const Program& opened, const CheckArgs& args) {
  const pte::ProgramView* program = &Internal(opened);
  auto log = device::ReadDeviceLog(args.log);
  if (!log) Throw(log.error());
  auto method = PickProgramMethod(*program, args.method);
  if (!method) Throw(method.error());
  std::optional<uint64_t> pool = args.pool;
  if (!pool && log->pool) pool = log->pool->pool_bytes;
  const Options& m = args.model;
  const bool any = m.runner == "all" || m.runtime == "all" || m.target == "all";
  if (any || (!pool && LogShowsAFailure(*log))) {
    out << args.log << ": method '" << (*method)->name << "'"
              << (pool ? "" : ": the log does not give the pool size") << "\n";
    auto included = SearchAndPrint(out, args, *program, **method, *log, pool, "  ");
    if (!included) Throw(included.error());
    return *included ? kReproduced : kDiffers;
  }
  // One configuration: the options given, the runner's own defaults for the rest.
  auto space = MakeSpace(args, *log, pool, false);
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
  const std::optional<uint64_t> printed = check::PrintedPool(*log);
  std::optional<uint64_t> at = pool;
  if (!at && printed && (*profile)->printout && !log->runner_figures.empty() &&
      (*profile)->printout->format == device::PrintoutFormat(log->runner_figures.front().printout))
    at = printed;
  const check::MethodPrediction p = check::PredictConfig(config, plan, at, printed);
  const std::optional<device::Difference> d =
      check::RunnerDifference(*log, p, check::RunnerLineTemplates(*space));
  const std::string assuming = report::DescribeAssumptions(config, at);
  const uint64_t minimum = check::MinimumOf(config, plan);
  const std::string pool_title = report::RunnerPoolTitle(method_pool);
  if (!d) {
    out << args.log << ": matches etmem's prediction for method '" << (*method)->name
              << "'";
    if (!log->calls.empty()) out << ", call for call (" << log->calls.size() << " calls)";
    out << "\n  assuming " << assuming << "\n";
    if (!log->failures.empty() && !p.prediction.failures.empty()) {
      const device::PredictedFailure& f = p.prediction.failures.front();
      out << "  the failure is exactly the one etmem predicts for a " << at.value_or(0)
                << " B pool: call #" << f.call << ", " << DescribeRunnerCall(plan, **method, p, f.call)
                << "\n";
      for (const std::string& line : p.runner_lines.front())
        out << "  then the runner prints: " << line << "\n";
    }
    PrintRunnerFigures(out, *log, p);
    out << "  the exact minimum under these assumptions: " << pool_title << " " << minimum
              << " B\n";
    return kReproduced;
  }
  out << args.log << (d->line ? ":" + std::to_string(d->line) : "")
            << ": differs from etmem's prediction for method '" << (*method)->name << "'";
  if (d->call) out << " at call #" << *d->call;
  out << "\n  device: " << d->got << "\n  etmem:  " << d->predicted << "\n";
  if (d->call && *d->call < p.request_of_call.size())
    out << "  etmem says call #" << *d->call
              << " is: " << DescribeRunnerCall(plan, **method, p, *d->call) << "\n";
  out << "  assuming " << assuming << "\n";
  PrintRunnerFigures(out, *log, p);
  out << "  the exact minimum under these assumptions: " << pool_title << " " << minimum
            << " B\n";
  auto included = SearchAndPrint(out, args, *program, **method, *log, pool, "  ");
  if (!included) Throw(included.error());
  return kDiffers;
}

int RunCheck(std::ostream& out, const Program& opened, const CheckArgs& args) {
  if (!args.model.runner.empty()) return RunCheckWithRunner(out, opened, args);
  const pte::ProgramView* program = &Internal(opened);
  auto log = device::ReadDeviceLog(args.log);
  if (!log) Throw(log.error());
  std::optional<uint64_t> pool = args.pool;
  if (!pool && log->pool) pool = log->pool->pool_bytes;
  const bool any_pair = args.model.runtime == "all" || args.model.target == "all";
  if (any_pair || (!pool && LogShowsAFailure(*log))) {
    // No one prediction to compare with: search what is open.
    auto method = PickProgramMethod(*program, args.method);
    if (!method) Throw(method.error());
    out << args.log << ": method '" << (*method)->name << "'"
              << (pool ? "" : ": the log does not give the pool size") << "\n";
    auto included = SearchAndPrint(out, args, *program, **method, *log, pool, "  ");
    if (!included) Throw(included.error());
    return *included ? kReproduced : kDiffers;
  }
  Options single = args.model;
  single.method = args.method;
  const Report analysed = Analyze(opened, single);
  const report::Report* report = &Internal(analysed);
  auto method = PickMethod(*report, opened.name());
  if (!method) Throw(method.error());
  const Predicted p = Predict(**method, report->assumptions.pool_align, pool);
  const device::FigurePrediction figures = device::LoadMethodFigures(*log, p.prediction.used_bytes);
  std::string note;
  std::optional<device::Difference> d = device::Compare(*log, p.prediction);
  if (!d)
    if (auto f = device::FirstDifferingFigure(*log, figures)) d = FigureDifference(*f, p, note);
  if (!d) {
    PrintMatch(out, args, *log, *report, **method, p, pool);
    if (!log->runner_figures.empty()) PrintFigures(out, *log, figures);
    return kReproduced;
  }
  PrintDifference(out, args, *log, *report, **method, p, *d, pool);
  out << note;
  auto included = SearchAndPrint(out, args, *program, *(*method)->method, *log, pool, "  ");
  if (!included) Throw(included.error());
  return kDiffers;  // 1: the log and the prediction under the given assumptions differ
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
  std::ostringstream out;
  CheckResult result;
  try {
    result.reproduced = RunCheck(out, program, args) == kReproduced;
  } catch (const api::Error& e) {
    if (out.str().empty()) throw;  // nothing printed yet: an error as any other
    result.error = e.what();
  }
  result.output = out.str();
  return result;
}

}  // namespace etmem::api
