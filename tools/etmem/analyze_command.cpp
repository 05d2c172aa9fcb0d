// `etmem analyze`: the method-allocator requirement of a program for one or all (release,
// target) pairs. The program is read and verified once; each pair only re-plans and simulates.
#include <iostream>
#include <memory>

#include "commands.h"
#include "model_options.h"
#include "etmem/abi/abi.h"
#include "etmem/pte/read_program.h"
#include "etmem/report/budget.h"
#include "etmem/report/csv_report.h"
#include "etmem/report/json_report.h"
#include "etmem/report/markdown_report.h"
#include "etmem/report/text_report.h"
#include "etmem/runtime/release.h"

namespace etmem::cli {
namespace {

struct AnalyzeArgs {
  std::string program;
  ModelArgs model;
  std::optional<uint64_t> pool;
  std::string method;
  std::string format = "text";
  bool allocations = false;
  std::string budget;       // --budget ram=64K,flash=256K
  std::string budget_file;  // --budget-file FILE
};

Result<std::vector<const runtime::RuntimeTraits*>> SelectReleases(const std::string& v) {
  std::vector<const runtime::RuntimeTraits*> out;
  if (v == "all") {
    for (const auto& r : runtime::AllReleases()) out.push_back(&r);
    return out;
  }
  ETMEM_TRY(const runtime::RuntimeTraits* r, runtime::FindRelease(v));
  out.push_back(r);
  return out;
}

Result<std::vector<abi::Abi>> SelectTargets(const std::string& v) {
  if (v == "all") return abi::BuiltinTargets();
  ETMEM_TRY(abi::Abi a, abi::ResolveTarget(v));
  return std::vector<abi::Abi>{a};
}

// Every (release, target) pair asked for, analysed over the one parsed program. A table of
// many pairs, or one pair in text, needs only totals and the largest allocations; JSON and
// --allocations print every allocation.
Result<std::vector<report::Report>> AnalyzeAll(
    const pte::ProgramView& program, const std::vector<const runtime::RuntimeTraits*>& releases,
    const std::vector<abi::Abi>& targets, const AnalyzeArgs& args) {
  const bool single = releases.size() * targets.size() == 1;
  std::vector<report::PairRequest> pairs;
  for (const auto* release : releases)
    for (const auto& target : targets) {
      ETMEM_TRY(report::ReportOptions o, MakeReportOptions(args.model, *release, target));
      o.pool_bytes = args.pool;
      o.method = args.method;
      o.keep_allocations = args.format == "json" || (single && args.allocations);
      pairs.push_back({release, target, std::move(o)});
    }
  return report::BuildReports(program, pairs);
}

bool AnyDoesNotFit(const report::Report& r) {
  for (const auto& m : r.methods)
    if (m.pool_does_not_fit()) return true;
  return false;
}

void Print(const std::vector<report::Report>& reports, bool single, const AnalyzeArgs& args) {
  if (args.format == "json") {
    if (!single) std::cout << '[';
    for (size_t i = 0; i < reports.size(); ++i) {
      if (i > 0) std::cout << ",\n";
      report::WriteJson(std::cout, reports[i]);
    }
    std::cout << (single ? "\n" : "]\n");
  } else if (args.format == "csv") {
    std::cout << report::ToCsv(reports);
  } else if (args.format == "md") {
    std::cout << report::ToMarkdown(reports);
  } else if (single) {
    std::cout << report::ToText(reports.front(), {.all_allocations = args.allocations});
  } else {
    std::cout << report::ToTextMatrix(reports);
  }
}

Result<std::optional<report::Budget>> LoadBudget(const AnalyzeArgs& args) {
  if (args.budget.empty() && args.budget_file.empty()) return std::optional<report::Budget>();
  ETMEM_TRY(report::Budget budget, args.budget.empty() ? report::ReadBudgetFile(args.budget_file)
                                                       : report::ParseBudget(args.budget));
  return std::optional(budget);
}

// Prints a line per exceeded item on stderr; true when something is over budget.
bool OverBudget(const std::vector<report::Report>& reports, const report::Budget& budget) {
  bool over = false;
  for (const report::BudgetCheck& c : report::CheckBudget(reports, budget)) {
    if (!c.over()) continue;
    std::cerr << "etmem: " << report::OverBudgetMessage(c) << "\n";
    over = true;
  }
  return over;
}

int RunAnalyze(const AnalyzeArgs& args) {
  auto program = pte::ReadProgram(args.program);
  if (!program) return FailInvalid(program.error().message);
  auto releases = SelectReleases(args.model.runtime);
  if (!releases) return FailInvalid(releases.error().message);
  auto targets = SelectTargets(args.model.target);
  if (!targets) return FailInvalid(targets.error().message);
  auto budget = LoadBudget(args);
  if (!budget) return FailInvalid(budget.error().message);
  if (args.pool && *args.pool > UINT32_MAX)
    return FailInvalid("--pool " + std::to_string(*args.pool) +
                " is larger than any MemoryAllocator can be (its size is a uint32_t)");
  auto analysed = AnalyzeAll(*program, *releases, *targets, args);
  if (!analysed) return FailInvalid(analysed.error().message);
  const std::vector<report::Report>& reports = *analysed;
  const bool single = reports.size() == 1;
  Print(reports, single, args);
  bool refused = false;
  for (const auto& r : reports) refused |= ReportRefusals(r);
  if (refused) return kExitInvalid;
  const bool over_budget = *budget && OverBudget(reports, **budget);
  for (const auto& r : reports)
    if (AnyDoesNotFit(r)) return kExitDoesNotFit;
  return over_budget ? kExitDoesNotFit : kExitOk;
}

}  // namespace

static Run DefineAnalyze(CLI::App* cmd) {
  auto args = std::make_shared<AnalyzeArgs>();
  cmd->add_option("program", args->program, "the ExecuTorch program (.pte)")->required();
  AddModelOptions(cmd, args->model, /*all_allowed=*/true);
  cmd->add_option("--pool", args->pool,
                  "check whether a method-allocator pool of this many bytes loads (with "
                  "--runner: the runner's method pool)");
  cmd->add_option("--method", args->method, "analyze only this method");
  cmd->add_option("--format", args->format,
                  "text, json, csv or md (csv, md: one row per runtime, target and method)")
      ->check(CLI::IsMember({"text", "json", "csv", "md"}))
      ->capture_default_str();
  auto* budget = cmd->add_option(
      "--budget", args->budget,
      "exit 1 when over budget: ram=SIZE (per method: pool + planned + temp load peak), "
      "flash=SIZE (the file); sizes like 64K, 1M (1024-based)");
  cmd->add_option("--budget-file", args->budget_file,
                  "the budget from a file of 'ram = 64K' / 'flash = 256K' lines")
      ->excludes(budget);
  cmd->add_flag("--allocations", args->allocations, "text: list every allocation in order");
  return [args]() { return RunAnalyze(*args); };
}

const Verb kAnalyzeVerb{"analyze", "How many bytes the method allocator needs, and where they go", DefineAnalyze};

}  // namespace etmem::cli
