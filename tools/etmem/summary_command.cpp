// `etmem summary PROGRAM.pte [model options]`: one screen for a person: per method the RAM
// (method pool + planned buffers + temp load peak) and the file's flash, what `etmem replan`
// and the advisories would save (each re-planned, never estimated), the biggest single cost, and
// the temp allocator at run time where the program reveals it (Ethos-U scratch). The summary is
// the library's (api::Summary); this verb parses the options and prints it.
#include <iostream>
#include <memory>
#include <string>

#include "commands.h"
#include "model_options.h"

namespace etmem::cli {
namespace {

struct SummaryArgs {
  std::string program;
  std::string method;
  std::string format = "text";
  ModelArgs model;
};

int RunSummary(const SummaryArgs& args) {
  // The summary shows no single allocation: the report need not keep them (analyze's text
  // does not either), which is a sixth of the time on a large program.
  api::Options options = ToApiOptions(args.model);
  options.method = args.method;
  options.keep_allocations = false;
  const api::Report analysed = api::Analyze(api::Program::Open(args.program), options);
  if (!ReportRefusals(analysed))
    std::cout << api::Summary(analysed,
                              args.format == "json" ? api::Format::kJson : api::Format::kText);
  return ExitFor(analysed.verdict());
}

}  // namespace

static Run DefineSummary(CLI::App* cmd) {
  auto args = std::make_shared<SummaryArgs>();
  cmd->add_option("program", args->program, "the ExecuTorch program (.pte)")->required();
  cmd->add_option("--method", args->method, "only this method");
  cmd->add_option("--format", args->format, "text or json")
      ->check(CLI::IsMember(api::FormatNames("summary")))
      ->capture_default_str();
  AddModelOptions(cmd, args->model);
  return [args]() { return Guarded([&] { return RunSummary(*args); }); };
}

const Verb kSummaryVerb{"summary", "One screen: total RAM and flash, what re-planning and the advisories would "
    "save, and the biggest single cost", DefineSummary};

}  // namespace etmem::cli
