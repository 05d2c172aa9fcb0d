// `etmem measure`: builds etmem's own harness against the user's ExecuTorch source tree with
// their compiler, loads the program on that real runtime with a recording method allocator
// (as the portable executor_runner does, or with --runner as that runner's profile does:
// its own requests replayed around load_method on the same allocator), and prints the
// measured calls beside etmem's prediction for the release the tree names (or the closest
// modelled one), with the first divergence. The harness writes the device log `etmem check`
// reads, and the comparison is device::Compare's. Exit 0 everything matches, 1 a divergence,
// 2 invalid input, a tree that is not ExecuTorch or does not build.
// Not: building and running the harness (measure/build.h), the log format (device/).
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <memory>
#include <optional>
#include <sstream>

#include "commands.h"
#include "etmem/api/internal.h"
#include "etmem/check/assumption_search.h"
#include "etmem/device/device_log.h"
#include "etmem/measure/build.h"
#include "etmem/measure/execute.h"
#include "etmem/measure/harness_output.h"
#include "etmem/measure/process.h"
#include "etmem/report/assumptions.h"
#include "model_options.h"

namespace etmem::cli {
namespace {
namespace fs = std::filesystem;

constexpr uint64_t kDefaultPool = 64ull << 20;  // unbounded for every program we know
constexpr uint64_t kPortableTemp = 1ull << 20;  // the portable runner's temp allocator

struct MeasureArgs {
  std::string program;
  std::string executorch;
  std::string cxx;
  std::string work;
  int jobs = 2;
  std::string method;
  std::optional<uint64_t> pool;
  bool brief = false;
  bool execute = false, no_heap = false;  // --execute, --no-heap (measure/execute.h)
  ModelArgs model;
  CLI::App* cmd = nullptr;
  bool given(const char* option) const { return cmd->count(option) > 0; }
};

// The host's ABI among etmem's targets: the harness runs on this machine.
std::string HostTarget() {
#if defined(__x86_64__)
  return "x86_64";
#elif defined(__aarch64__)
  return "aarch64";
#else
  return "";
#endif
}

// The modelled release to compare with: the tree's own, else the newest modelled one before
// it (else the oldest), said in `why`.
std::string ClosestRelease(const std::string& version, std::string& why) {
  const std::vector<std::string>& modelled = runtime::ReleaseVersions();
  if (std::find(modelled.begin(), modelled.end(), version) != modelled.end()) {
    why = "the tree's release";
    return version;
  }
  const int wanted = measure::VersionNumber(version).value_or(0);
  std::string best;
  for (const std::string& v : modelled) {
    const auto n = measure::VersionNumber(v);
    if (n && *n <= wanted) best = v;
  }
  if (best.empty()) best = modelled.front();
  why = version + " is not a modelled release: the closest modelled one";
  return best;
}

// One call: "1056 8 @0", "48 4 FAIL".
std::string Cell(uint64_t size, uint64_t align, std::optional<uint64_t> offset) {
  return std::to_string(size) + " " + std::to_string(align) +
         (offset ? " @" + std::to_string(*offset) : std::string(" FAIL"));
}

// The calls etmem predicts on the method pool, in order, and what each is.
struct Expected {
  device::Prediction prediction;
  std::vector<std::string> what;
  std::string steps;          // the harness's steps after the kernels and backends
  uint32_t pool_align = 16;
  std::optional<uint64_t> temp_bytes;  // none: no temp allocator
  std::string layout;         // the runner's layout, in words
};

Expected Expect(const report::Report& r, const report::MethodReport& m,
                std::optional<uint64_t> pool) {
  Expected e;
  if (!m.runner) {
    e.pool_align = r.assumptions.pool_align;
    // The temp pool's size matters only where operator metadata falls back (main): then the
    // report's assumed size, else the portable runner's 1 MiB.
    if (r.assumptions.temp_allocator) e.temp_bytes = r.assumptions.temp_pool_bytes.value_or(kPortableTemp);
    e.steps = "planned heap\nload\n";
    e.layout = "the portable executor_runner's layout (planned buffers apart from the method pool)";
    check::MethodPrediction p = check::PredictMethodPool(m.plan.requests, e.pool_align, pool);
    e.prediction = std::move(p.prediction);
    for (size_t i : p.request_of_call) e.what.push_back(report::Describe(m, i));
    return e;
  }
  // A runner: its own requests on the method pool, replayed around load_method's.
  const runner::RunnerPlan& plan = m.runner->plan;
  e.pool_align = plan.pools[plan.method_pool].base_align;
  e.layout = r.assumptions.runner + "; its own allocations on the method pool "
             "replayed around load_method";
  std::vector<runtime::AllocationRequest> requests;
  std::vector<std::string> labels;  // by request
  bool planned_done = false;
  std::string last_planned_step;
  for (const runner::RunnerRequest& q : plan.requests) {
    const runner::StepSpec& step = plan.profile->steps[q.step];
    if (q.load_method) {
      if (!planned_done) e.steps += "planned heap\n";
      planned_done = true;
      e.steps += "load\n";
      if (q.temp_pool >= 0) {
        const uint64_t t = plan.pools[static_cast<size_t>(q.temp_pool)].spec->default_bytes;
        e.temp_bytes = r.assumptions.temp_pool_bytes.value_or(t ? t : kPortableTemp);
      }
      for (size_t i = 0; i < m.plan.requests.size(); ++i) {
        requests.push_back(m.plan.requests[i]);
        labels.push_back(m.plan.requests[i].pool == runtime::PoolKind::kMethod
                             ? report::Describe(m, i) : "");
      }
      if (m.plan.refusal) break;  // the runner stops when load_method fails
      continue;
    }
    const bool on_method_pool = q.pool == plan.method_pool;
    if (step.kind == runner::StepKind::kPlannedBuffers) {
      if (!planned_done)
        e.steps += on_method_pool ? "planned pool " + std::to_string(q.align) + "\n"
                                  : std::string("planned heap\n");
      planned_done = true;
    } else if (on_method_pool) {
      e.steps += "alloc " + std::to_string(q.size) + " " + std::to_string(q.align) + "\n";
    }
    if (!on_method_pool) continue;
    runtime::AllocationRequest a;
    a.size = q.size;
    a.align = static_cast<uint16_t>(q.align);
    a.pool = runtime::PoolKind::kMethod;
    requests.push_back(a);
    labels.push_back("the runner's " + q.what);
  }
  check::MethodPrediction p = check::PredictMethodPool(requests, e.pool_align, pool);
  e.prediction = std::move(p.prediction);
  for (size_t i : p.request_of_call) e.what.push_back(labels[i]);
  return e;
}

std::string KernelsAndBackends(const pte::ProgramView& program, const ModelArgs& model,
                               std::vector<std::string>& stubbed) {
  std::string steps;
  std::vector<std::string> kernels, backends;
  for (const pte::MethodView& m : program.methods) {
    for (const pte::OperatorView& op : m.operators)
      kernels.push_back(std::string(op.name) + (op.overload.empty() ? "" : ".") +
                        std::string(op.overload));
    for (const pte::DelegateView& d : m.delegates) backends.push_back(std::string(d.backend));
  }
  for (auto* v : {&kernels, &backends}) {
    std::sort(v->begin(), v->end());
    v->erase(std::unique(v->begin(), v->end()), v->end());
  }
  for (const std::string& k : kernels) steps += "kernel " + k + "\n";
  // What the user declared with --backend ID=BYTES[:ALIGN] (checked as the API checks it),
  // else nothing.
  std::map<std::string, runtime::DeclaredBackendInit> declared;
  for (const std::string& spec : model.backends) {
    auto d = api::ParseBackend(spec);
    if (!d) api::Throw(d.error());
    declared[d->first] = d->second;
  }
  for (const std::string& b : backends) {
    const auto it = declared.find(b);
    const uint64_t bytes = it == declared.end() ? 0 : it->second.bytes;
    const uint32_t align = it == declared.end() ? 1 : it->second.align;
    steps += "backend " + b + " " + std::to_string(bytes) + " " + std::to_string(align) + "\n";
    stubbed.push_back(b + "=" + std::to_string(bytes) +
                      (align == 1 ? "" : ":" + std::to_string(align)));
  }
  return steps;
}

int MeasureMethod(const MeasureArgs& args, const api::Program& opened, const std::string& method,
                  const ModelArgs& model, const measure::Built& built, const std::string& work,
                  const std::string& kernels_backends) {
  const api::Report analysed = BuildSingleReport(opened, model, method);
  const report::Report& r = api::Internal(analysed);
  const report::MethodReport& m = r.methods.front();
  const std::string name = std::string(m.method->name);
  const Expected e = Expect(r, m, args.pool);
  const uint64_t pool_bytes = args.pool.value_or(kDefaultPool);
  auto run = measure::RunHarness(built, work, fs::absolute(args.program).string(), name,
                                 pool_bytes, e.pool_align, e.temp_bytes, kernels_backends + e.steps);
  if (!run) return FailInvalid(run.error().message);
  const std::string log_path = (fs::path(work) / ("measured-" + name + ".log")).string();
  {
    std::ofstream out(log_path);
    out << run->output;
  }
  const measure::HarnessFacts facts = measure::ReadFacts(run->output);
  std::string etmem_verdict = m.plan.refusal ? m.plan.refusal->error : "Ok";
  if (!m.plan.refusal && !e.prediction.failures.empty()) etmem_verdict = "MemoryAllocationFailed";
  std::string measured = measure::Verdict(facts, run->status);
  if (measured == "the runner's own allocation failed" && !e.prediction.failures.empty())
    measured = etmem_verdict;  // a failed runner allocation is what etmem predicts as a failure
  std::cout << "method '" << name << "': " << e.layout << "\n";
  auto log = device::ParseDeviceLog(run->output, log_path);
  const bool verdicts_agree =
      measured == etmem_verdict ||
      (run->status >= 128 && etmem_verdict.find("crash") != std::string::npos);
  if (!log) {  // no record: the program or method never reached the allocator
    std::cout << "  real runtime: " << measured << "\n  etmem:        " << etmem_verdict
              << (m.plan.refusal ? " (" + m.plan.refusal->reason + ")" : "") << "\n"
              << (verdicts_agree ? "  verdicts agree\n" : "  verdicts differ\n");
    return verdicts_agree ? kExitOk : kExitDoesNotFit;
  }
  // The high-water mark: the T record, or the calls when the runtime crashed before it.
  uint64_t measured_bytes = 0;
  for (const device::CallRecord& c : log->calls)
    if (c.offset) measured_bytes = std::max(measured_bytes, *c.offset + c.size);
  if (log->totals) measured_bytes = log->totals->used_bytes;
  std::cout << "  real runtime: " << measured << ", " << log->calls.size() << " calls, "
            << measured_bytes << " B\n"
            << "  etmem:        " << etmem_verdict << ", " << e.prediction.calls.size()
            << " calls, " << e.prediction.used_bytes << " B\n";
  // The runtime's first error line (a failed allocation, a refusal), as it logged it.
  {
    std::istringstream lines(run->output);
    for (std::string line; std::getline(lines, line);)
      if (line.starts_with("E executorch:")) {
        std::cout << "  the runtime logged: " << line << "\n";
        break;
      }
  }
  const std::optional<device::Difference> d = device::Compare(*log, e.prediction);
  if (!args.brief) {
    std::cout << "  call  measured (size align @offset)   etmem\n";
    const size_t n = std::max(log->calls.size(), e.prediction.calls.size());
    for (size_t i = 0; i < n; ++i) {
      std::string left = "-", right = "-";
      if (i < log->calls.size()) left = Cell(log->calls[i].size, log->calls[i].align, log->calls[i].offset);
      if (i < e.prediction.calls.size()) {
        const device::PredictedCall& c = e.prediction.calls[i];
        right = Cell(c.size, c.align, c.failed ? std::nullopt : std::optional<uint64_t>(c.offset));
      }
      std::string row = std::to_string(i);
      row.resize(std::max<size_t>(row.size() + 1, 6), ' ');
      left.resize(std::max<size_t>(left.size() + 1, 32), ' ');
      std::cout << (left.substr(0, left.find_last_not_of(' ') + 1) == right ? "  " : "* ") << row
                << left << right << "\n";
    }
  }
  report::Assumptions measured_under = r.assumptions;
  measured_under.pool_align = e.pool_align;
  measured_under.temp_allocator = e.temp_bytes.has_value();
  measured_under.temp_pool_bytes = r.assumptions.temp_pool_bytes ? e.temp_bytes : std::nullopt;
  const std::string assuming =
      report::AssumptionSentence(measured_under, report::MeasureWording(args.pool));
  for (const auto& u : m.plan.unknowns)
    std::cout << "  note: etmem's figures are a lower bound: delegate " << u.delegate << " ("
              << u.backend << "): " << u.why << "\n";
  if (!d && verdicts_agree) {
    std::cout << "  matches etmem's prediction call for call (" << log->calls.size()
              << " calls) under " << assuming << "\n";
    return kExitOk;
  }
  if (d) {
    std::cout << "  first divergence" << (d->call ? " at call #" + std::to_string(*d->call) : "")
              << ": real runtime " << d->got << "; etmem " << d->predicted << "\n";
    if (d->call && *d->call < e.what.size() && !e.what[*d->call].empty())
      std::cout << "  etmem says call #" << *d->call << " is: " << e.what[*d->call] << "\n";
  } else {
    std::cout << "  the calls agree but the verdicts differ: real runtime " << measured
              << ", etmem " << etmem_verdict << "\n";
  }
  std::cout << "  under " << assuming << "\n";
  return kExitDoesNotFit;
}

// Every piece of the build: tree, release, work directory, harness. Then each method.
int RunMeasure(MeasureArgs args) {
  auto tree = measure::InspectTree(args.executorch);
  if (!tree) return FailInvalid(tree.error().message);
  std::string release, why;
  if (args.given("--runtime")) {
    auto found = runtime::FindRelease(args.model.runtime);
    if (!found) return FailInvalid(found.error().message);
    release = (*found)->version;
    why = "as --runtime asks";
  } else if (tree->version) {
    release = ClosestRelease(*tree->version, why);
  } else {
    return FailInvalid("--executorch " + tree->root + ": cannot tell its release (" +
                       tree->version_source + "): give --runtime X.Y.Z");
  }
  const int version_number =
      measure::VersionNumber(tree->version.value_or(release)).value_or(0);
  ModelArgs model = args.model;
  model.runtime = release;
  if (!args.given("--target")) {
    model.target = HostTarget();
    if (model.target.empty()) return FailInvalid("unknown host ABI: give --target");
  }
  if (!model.pool_align) model.pool_align = 16;

  const api::Program opened = api::Program::Open(args.program);
  const pte::ProgramView& program = api::Internal(opened);
  std::vector<std::string> stubbed;
  const std::string kernels_backends = KernelsAndBackends(program, model, stubbed);
  for (const std::string& b : stubbed)
    if (std::none_of(model.backends.begin(), model.backends.end(),
                     [&](const std::string& s) { return s.starts_with(b.substr(0, b.find('=') + 1)); }))
      model.backends.push_back(b);

  // The work directory: never inside the tree.
  bool temporary = args.work.empty();
  std::string work = args.work;
  if (temporary) {
    std::string templ = (fs::temp_directory_path() / "etmem-measure-XXXXXX").string();
    if (!mkdtemp(templ.data())) return FailInvalid("cannot create a temporary directory");
    work = templ;
  }
  std::error_code ec;
  const std::string work_abs = fs::weakly_canonical(fs::absolute(work), ec).string();
  if ((work_abs + "/").starts_with(tree->root + "/"))
    return FailInvalid("--work " + work + ": inside the ExecuTorch tree (etmem measure writes "
                       "nothing there)");
  fs::create_directories(work_abs, ec);
  std::string compiler = args.cxx;
  if (compiler.empty()) compiler = measure::Executable("c++") ? "c++" : "g++";
  measure::BuildOptions options{compiler, work_abs, args.jobs, version_number};
  std::cout << "etmem measure: ExecuTorch tree " << tree->root << " (" << tree->version_source
            << (tree->commit.empty() ? "" : ", commit " + tree->commit.substr(0, 12)) << ")\n"
            << "  compared with etmem's model of ExecuTorch " << release << " (" << why << ")\n"
            << std::flush;
  auto built = measure::BuildHarness(*tree, options);
  if (!built) {
    if (temporary) fs::remove_all(work_abs, ec);
    return FailInvalid(built.error().message);
  }
  std::cout << "  built with " << compiler << " (" << built->compiler_version << "): "
            << built->sources.size() << " runtime sources (" << built->reused
            << " reused), schema headers from flatc, harness in "
            << (temporary ? "a temporary directory" : work_abs) << "\n"
            << "  harness: kernels that do nothing under every operator name"
            << (stubbed.empty() ? "" : ", backends whose init allocates what --backend says "
                                       "(default nothing):")
            ;
  for (const std::string& b : stubbed) std::cout << " " << b;
  std::cout << "; a " << args.pool.value_or(kDefaultPool) << " B method pool whose base is "
            << "aligned to " << *model.pool_align << " B and not to twice that\n";

  std::vector<std::string> methods;
  if (!args.method.empty())
    methods.push_back(args.method);
  else
    for (const pte::MethodView& m : program.methods) methods.emplace_back(m.name);
  int exit = kExitOk;
  for (const std::string& method : methods) {
    const int code = MeasureMethod(args, opened, method, model, *built, work_abs, kernels_backends);
    if (code == kExitInvalid) {
      if (temporary) fs::remove_all(work_abs, ec);
      return code;
    }
    exit = std::max(exit, code);
  }
  if (args.execute) {  // the real kernels run each method once (measure/execute.h)
    const api::Report first = BuildSingleReport(opened, model, methods.front());
    auto code = measure::MeasureExecution(
        *tree, options, fs::absolute(args.program).string(), program, methods,
        api::Internal(first), args.no_heap, args.pool.value_or(kDefaultPool), kernels_backends,
        std::cout);
    if (!code && temporary) fs::remove_all(work_abs, ec);
    if (!code) return FailInvalid(code.error().message);
    exit = std::max(exit, *code);
  }
  if (temporary)
    fs::remove_all(work_abs, ec);
  else
    std::cout << "the measured logs are in " << work_abs << " (measured-METHOD.log; etmem check "
              << "reads them)\n";
  return exit;
}

}  // namespace

static Run DefineMeasure(CLI::App* cmd) {
  auto args = std::make_shared<MeasureArgs>();
  args->cmd = cmd;
  cmd->add_option("program", args->program, "the ExecuTorch program (.pte)")->required();
  cmd->add_option("--executorch", args->executorch,
                  "your ExecuTorch source tree (a release, main or a fork); nothing is written "
                  "into it")->required();
  cmd->add_option("--cxx", args->cxx, "the host C++ compiler (default: c++, else g++)");
  cmd->add_option("--work", args->work,
                  "build here and keep the build and the measured logs (default: a temporary "
                  "directory, removed); a rerun reuses the objects");
  Count(cmd->add_option("--jobs", args->jobs, "compiles at once"), INT32_MAX)->capture_default_str();
  cmd->add_option("--method", args->method, "measure only this method (default: every method)");
  Bytes(cmd->add_option("--pool", args->pool,
                        "the method pool in bytes (default 64 MiB, and etmem's prediction "
                        "unbounded)"));
  cmd->add_flag("--brief", args->brief, "omit the call-by-call table");
  cmd->add_flag("--execute", args->execute, "also run each method once with the tree's real "
                "portable kernels and compare the run-time temp trace with etmem's");
  cmd->add_flag("--no-heap", args->no_heap, "with --execute --temp null: no heap while executing")
      ->needs("--execute");
  AddModelOptions(cmd, args->model);
  return [args]() { return Guarded([&] { return RunMeasure(*args); }); };
}

const Verb kMeasureVerb{"measure",
                        "Load the program on your ExecuTorch source tree's real runtime (built "
                        "here with your compiler) and compare every allocation with etmem's",
                        DefineMeasure};

}  // namespace etmem::cli
