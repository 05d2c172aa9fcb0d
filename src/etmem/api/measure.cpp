// Owns: api::Measure, `etmem measure` in order: the tree inspected and the modelled release
// chosen, the harness built in the work directory (never inside the tree), then each method
// analysed, run and compared (measure/measure.h), each part printed as report/measure_text.h
// renders it as soon as it is known (the build takes minutes), or with --format json the whole
// run once (report/measure_json.h). Not: the comparison
// (measure/), the text (report/), the command line's options (tools/etmem/measure_command.cpp).
#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <map>

#include "etmem/api/internal.h"
#include "etmem/measure/build.h"
#include "etmem/measure/execute.h"
#include "etmem/measure/measure.h"
#include "etmem/measure/process.h"
#include "etmem/report/measure_json.h"
#include "etmem/report/measure_text.h"
#include "etmem/runtime/release.h"

namespace etmem::api {
namespace {

[[noreturn]] void Refuse(const std::string& message) {
  throw Error(ErrorKind::kInvalidArgument, message);
}

// Removes a temporary work directory however the measurement ends.
struct TemporaryWork {
  std::string path;
  ~TemporaryWork() {
    std::error_code ec;
    if (!path.empty()) std::filesystem::remove_all(path, ec);
  }
};

}  // namespace

MeasureResult Measure(const std::string& program_path, const MeasureOptions& options,
                      const std::function<void(const std::string&)>& print) {
  namespace fs = std::filesystem;
  if (options.format != Format::kText && options.format != Format::kJson)
    Refuse("etmem measure renders text or JSON, not CSV or Markdown");
  const bool json = options.format == Format::kJson;
  // Text is printed part by part as it is known (the build takes minutes); JSON once, at the end.
  auto show = [&](const std::string& text) {
    if (!json) print(text);
  };
  auto value = std::make_shared<measure::MeasureRun>();
  measure::MeasureRun& run = *value;
  auto tree = measure::InspectTree(options.executorch);
  if (!tree) Refuse(tree.error().message);
  Options model = options.model;
  if (!model.runtime.empty()) {
    auto found = runtime::FindRelease(model.runtime);
    if (!found) Refuse(found.error().message);
    run.setup.release = (*found)->version;
    run.setup.why = "as --runtime asks";
  } else if (tree->version) {
    const measure::ReleaseChoice c = measure::ClosestRelease(*tree->version);
    run.setup.release = c.release;
    run.setup.why = c.why;
  } else {
    Refuse("--executorch " + tree->root + ": cannot tell its release (" + tree->version_source +
           "): give --runtime X.Y.Z");
  }
  run.setup.tree = tree->root;
  run.setup.version_source = tree->version_source;
  run.setup.commit = tree->commit;
  const int version_number =
      measure::VersionNumber(tree->version.value_or(run.setup.release)).value_or(0);
  model.runtime = run.setup.release;
  if (model.target.empty()) {
    model.target = measure::HostTarget();
    if (model.target.empty()) Refuse("unknown host ABI: give --target");
  }
  if (!model.pool_align) model.pool_align = 16;

  const Program opened = Program::Open(program_path);
  // What the user declared with --backend ID=BYTES[:ALIGN] (checked as Analyze checks it).
  std::map<std::string, runtime::DeclaredBackendInit> declared;
  for (const std::string& spec : model.backends) {
    auto d = ParseBackend(spec);
    if (!d) Throw(d.error());
    declared[d->first] = d->second;
  }
  const measure::HarnessStubs stubs = measure::StubKernelsAndBackends(Internal(opened), declared);
  for (const std::string& b : stubs.stubbed)
    if (std::none_of(model.backends.begin(), model.backends.end(), [&](const std::string& s) {
          return s.starts_with(b.substr(0, b.find('=') + 1));
        }))
      model.backends.push_back(b);

  // The work directory: never inside the tree.
  TemporaryWork temporary;
  std::string work = options.work;
  if (work.empty()) {
    std::string templ = (fs::temp_directory_path() / "etmem-measure-XXXXXX").string();
    if (!mkdtemp(templ.data())) Refuse("cannot create a temporary directory");
    work = temporary.path = templ;
  }
  std::error_code ec;
  const std::string work_abs = fs::weakly_canonical(fs::absolute(work), ec).string();
  if (!temporary.path.empty()) temporary.path = work_abs;
  if ((work_abs + "/").starts_with(tree->root + "/"))
    Refuse("--work " + work + ": inside the ExecuTorch tree (etmem measure writes nothing there)");
  fs::create_directories(work_abs, ec);
  std::string compiler = options.cxx;
  if (compiler.empty()) compiler = measure::Executable("c++") ? "c++" : "g++";
  show(report::MeasureSetupText(run.setup));
  measure::BuildOptions build{compiler, work_abs, options.jobs, version_number};
  // --external-data FILE.ptd: the harness passes that .ptd to load_method through the tree's
  // own data map (the prediction reads the same file); a bare --external-data names no file.
  const std::string& ptd = options.model.external_data_file;
  if (options.model.external_data && ptd.empty())
    Refuse("--external-data: etmem measure needs the .ptd file (--external-data FILE.ptd), "
           "which the harness passes to load_method");
  std::string ptd_step;
  if (!ptd.empty()) {
    if (options.execute) Refuse("--external-data FILE.ptd: not with --execute");
    const Status added = measure::AddFlatTensorDataMap(*tree, build);
    if (!added) Refuse(added.error().message);
    ptd_step = "ptd " + fs::absolute(ptd).string() + "\n";
  }
  auto built = measure::BuildHarness(*tree, build);
  if (!built) Refuse(built.error().message);
  measure::MeasureBuild& b = run.build.emplace();
  b.compiler = compiler;
  b.compiler_version = built->compiler_version;
  b.sources = built->sources.size();
  b.reused = built->reused;
  if (temporary.path.empty()) b.work = work_abs;
  b.stubbed = stubs.stubbed;
  b.pool_bytes = options.pool.value_or(measure::kDefaultPool);
  b.pool_align = *model.pool_align;
  show(report::MeasureBuildText(b));

  std::vector<std::string> methods;
  if (!options.method.empty())
    methods.push_back(options.method);
  else
    for (const pte::MethodView& m : Internal(opened).methods)
      // A runner loads a method by name, and the runtime finds the first plan of a name.
      if (std::find(methods.begin(), methods.end(), m.name) == methods.end())
        methods.emplace_back(m.name);
  const std::string program_abs = fs::absolute(program_path).string();
  for (const std::string& method : methods) {
    Options one = model;
    one.method = method;
    const Report analysed = Analyze(opened, one);
    auto measured = measure::MeasureMethod(Internal(analysed), *built, work_abs, program_abs,
                                           stubs.steps + ptd_step, options.pool);
    if (!measured) Refuse(measured.error().message);
    run.methods.push_back(std::move(*measured));
    show(report::MeasureMethodText(run.methods.back(), options.brief));
  }
  if (options.execute) {  // the real kernels run each method once (measure/execute.h)
    Options first = model;
    first.method = methods.front();
    const Report analysed = Analyze(opened, first);
    const Status executed = measure::MeasureExecution(
        *tree, measure::BuildOptions{compiler, work_abs, options.jobs, version_number},
        program_abs, Internal(opened), methods, Internal(analysed), options.no_heap,
        options.pool.value_or(measure::kDefaultPool), stubs.steps, run.execution);
    if (run.execution) show(report::MeasureExecutionText(*run.execution));
    if (!executed) Refuse(executed.error().message);
  }
  if (temporary.path.empty()) {
    run.kept_logs = work_abs;
    show(report::MeasureLogsText(work_abs));
  }
  if (json) print(report::MeasureJson(run));
  MeasureResult result;
  result.exit_code = run.exit_code();
  result.value = std::move(value);
  return result;
}

}  // namespace etmem::api

namespace etmem::api {

Verdict Judge(const MeasureResult& result) {
  return ToApi(report::OutcomeVerdict(
      result.exit_code == 0, "the real runtime's calls against the prediction",
      "a method's calls on the real runtime differ from the prediction"));
}

}  // namespace etmem::api
