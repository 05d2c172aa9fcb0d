// `etmem check`: compares a device log (written on the firmware by
// include/etmem/recording_allocator.h, holding ExecuTorch's "Memory allocation failed" line, or
// a runner's memory report) with etmem's prediction for the same model options: same calls and
// bytes, or the first difference; then, when they differ or the pool size is not known,
// searches the assumptions the user did not pin for every combination that reproduces the log.
// Exit 0 the given assumptions reproduce the log, 1 they do not, 2 invalid input.
// Not: the comparison, the search (api::Check, include/etmem/etmem.h) or their text and JSON
// (src/etmem/analysis/check_report.h).
#include <iostream>
#include <memory>

#include "commands.h"
#include "model_options.h"

namespace etmem::cli {
namespace {

struct CheckArgs {
  std::string program;
  std::string log;
  ModelArgs model;
  std::string method;
  std::optional<uint64_t> pool;
  std::string format = "text";
  CLI::App* cmd = nullptr;  // to tell the options given from the defaults
};

int RunCheck(const CheckArgs& args) {
  const api::Program program = api::Program::Open(args.program);
  api::CheckOptions options;
  options.model = ToApiOptions(args.model);
  if (args.cmd->count("--runtime") == 0) options.model.runtime.clear();  // not pinned
  options.model.method = args.method;
  options.temp_given = args.cmd->count("--temp") > 0;
  options.pool = args.pool;
  options.format = args.format == "json" ? api::Format::kJson : api::Format::kText;
  const api::CheckResult result = api::Check(program, args.log, options);
  std::cout << result.output;
  if (!result.error.empty()) FailInvalid(result.error);
  return ExitFor(api::Judge(result));
}

}  // namespace

static Run DefineCheck(CLI::App* cmd) {
  auto args = std::make_shared<CheckArgs>();
  args->cmd = cmd;
  cmd->add_option("program", args->program, "the ExecuTorch program (.pte)")->required();
  cmd->add_option("log", args->log, "the device log")->required();
  AddModelOptions(cmd, args->model, /*all_allowed=*/true);
  cmd->add_option("--method", args->method,
                  "the method the device loaded (default: the program's only method)");
  Bytes(cmd->add_option("--pool", args->pool,
                        "the device's method pool in bytes (default: the log's ETMEM P record, "
                        "else derived from the failure line by the search)"));
  cmd->add_option("--format", args->format, "text or json")
      ->check(CLI::IsMember(api::FormatNames("check")))
      ->capture_default_str();
  return [args]() { return Guarded([&] { return RunCheck(*args); }); };
}

const Verb kCheckVerb{"check",
                      "Compare a device log (recording_allocator.h, or the runtime's allocation "
                      "failure line) with etmem's prediction",
                      DefineCheck};

}  // namespace etmem::cli
