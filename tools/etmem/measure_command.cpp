// `etmem measure`: builds etmem's own harness against the user's ExecuTorch source tree with
// their compiler, loads the program on that real runtime with a recording method allocator
// (as the portable executor_runner does, or with --runner as that runner's profile does:
// its own requests replayed around load_method on the same allocator), and prints the
// measured calls beside etmem's prediction for the release the tree names (or the closest
// modelled one), with the first divergence. The harness writes the device log `etmem check`
// reads, and the comparison is device::Compare's. Exit 0 everything matches, 1 a divergence,
// 2 invalid input, a tree that is not ExecuTorch or does not build.
// Not: measuring and its text (api::Measure, include/etmem/etmem.h; src/etmem/measure/,
// report/measure_text.h).
#include <iostream>
#include <memory>
#include <optional>

#include "commands.h"
#include "model_options.h"

namespace etmem::cli {
namespace {

struct MeasureArgs {
  std::string program;
  std::string executorch;
  std::string cxx;
  std::string work;
  int jobs = 2;
  std::string method;
  std::optional<uint64_t> pool;
  bool brief = false;
  bool execute = false, no_heap = false;  // --execute, --no-heap
  std::string format = "text";
  ModelArgs model;
  CLI::App* cmd = nullptr;
  bool given(const char* option) const { return cmd->count(option) > 0; }
};

int RunMeasure(const MeasureArgs& args) {
  api::MeasureOptions options;
  options.executorch = args.executorch;
  options.cxx = args.cxx;
  options.work = args.work;
  options.jobs = args.jobs;
  options.method = args.method;
  options.pool = args.pool;
  options.brief = args.brief;
  options.execute = args.execute;
  options.no_heap = args.no_heap;
  options.format = args.format == "json" ? api::Format::kJson : api::Format::kText;
  options.model = ToApiOptions(args.model);
  if (!args.given("--runtime")) options.model.runtime.clear();  // the tree's release
  if (!args.given("--target")) options.model.target.clear();    // the host's
  const api::MeasureResult result = api::Measure(
      args.program, options, [](const std::string& text) { std::cout << text << std::flush; });
  return ExitFor(api::Judge(result));
}

}  // namespace

static Run DefineMeasure(CLI::App* cmd) {
  auto args = std::make_shared<MeasureArgs>();
  args->cmd = cmd;
  cmd->add_option("program", args->program, "the ExecuTorch program (.pte)")->required();
  cmd->add_option("--executorch", args->executorch,
                  "your ExecuTorch source tree (a release, main or a fork); nothing is written "
                  "into it")->required();
  cmd->add_option("--cxx", args->cxx,
                  "the host C++ compiler, with any arguments of its own (\"g++ -m32\"; default: "
                  "c++, else g++)");
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
  cmd->add_option("--format", args->format,
                  "text (default: printed as it is known) or json (one object at the end)")
      ->check(CLI::IsMember(api::FormatNames("measure")));
  AddModelOptions(cmd, args->model);
  return [args]() { return Guarded([&] { return RunMeasure(*args); }); };
}

const Verb kMeasureVerb{"measure",
                        "Load the program on your ExecuTorch source tree's real runtime (built "
                        "here with your compiler) and compare every allocation with etmem's",
                        DefineMeasure};

}  // namespace etmem::cli
