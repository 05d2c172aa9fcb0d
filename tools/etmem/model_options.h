// Owns: the options that pick one (release, target) model and how the runner calls
// load_method, for the verbs that need exactly one pair (header, diff), and building a report
// with them the way `etmem analyze` does. Not: any verb's own options or output.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "etmem/pte/program_view.h"
#include "etmem/report/report.h"
#include "etmem/abi/abi.h"
#include "etmem/runtime/release.h"

namespace etmem::cli {

struct ModelArgs {
  std::string runtime = runtime::ReleaseVersions().back();  // the newest modelled
  std::string target = "cortex-m";
  std::optional<uint32_t> pool_align;
  std::string temp = "runner";
  bool external_data = false;
  std::vector<std::string> backends;  // --backend ID=BYTES[:ALIGN]
  std::string runner;                 // --runner NAME[+OPTION...] | FILE.json[+OPTION...]
};

// Registers --runtime, --target, --pool-align, --temp, --external-data, --backend and --runner
// on `cmd`.
// `all_allowed`: whether --runtime/--target accept "all" (analyze does).
void AddModelOptions(CLI::App* cmd, ModelArgs& args, bool all_allowed = false);

// The report options for one (release, target) pair, as every verb builds them.
Result<report::ReportOptions> MakeReportOptions(const ModelArgs& args,
                                                const runtime::RuntimeTraits& release,
                                                const abi::Abi& target);

// The report of `program` for the one release and target in `args` ("all" is refused).
Result<report::Report> BuildSingleReport(const pte::ProgramView& program, const ModelArgs& args,
                                         const std::string& method = "");

// Prints "etmem: <message>" on stderr and returns kExitInvalid.
int FailInvalid(const std::string& message);

// Prints one line per refused method on stderr; true when there was one.
bool ReportRefusals(const report::Report& report);

}  // namespace etmem::cli
