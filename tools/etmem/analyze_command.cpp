// `etmem analyze`: the method-allocator requirement of a program for one or all (release,
// target) pairs, through the public API (include/etmem/etmem.h). Owns reading the budget and the
// refusal and budget lines on stderr. Not: building or printing the reports, or the verdict the
// exit status comes from (api::Judge).
#include <iostream>
#include <memory>

#include "commands.h"
#include "model_options.h"

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
  bool per_op = false;      // --per-op: the per-operator table instead of the report
  std::string sort = "index";  // --sort COLUMN (with --per-op)
};

// Every (release, target) pair asked for, analysed over the one parsed program. A table of
// many pairs, or one pair in text, needs only totals and the largest allocations; JSON and
// --allocations print every allocation.
std::vector<api::Report> AnalyzeAll(const api::Program& program, const AnalyzeArgs& args,
                                   const std::optional<api::Budget>& budget) {
  api::Options o = ToApiOptions(args.model);
  o.budget = budget;
  o.pool = args.pool;
  o.method = args.method;
  const bool single = args.model.runtime != "all" && args.model.target != "all";
  o.keep_allocations = !args.per_op && (args.format == "json" || (single && args.allocations));
  return api::AnalyzeAll(program, o);
}

api::Format FormatOf(const std::string& name) {
  if (name == "json") return api::Format::kJson;
  if (name == "csv") return api::Format::kCsv;
  if (name == "md") return api::Format::kMarkdown;
  return api::Format::kText;
}

// The budget, or its error's message.
std::optional<api::Budget> LoadBudget(const AnalyzeArgs& args, std::string& error) {
  if (args.budget.empty() && args.budget_file.empty()) return std::nullopt;
  try {
    return args.budget.empty() ? api::ReadBudgetFile(args.budget_file)
                               : api::ParseBudget(args.budget);
  } catch (const api::Error& e) {
    error = e.what();
    return std::nullopt;
  }
}

// Prints a line per exceeded item on stderr (the verdict holds them too).
void PrintOverBudget(const std::vector<api::Report>& reports, const api::Budget& budget) {
  for (const api::BudgetItem& c : api::CheckBudget(reports, budget))
    if (c.over) std::cerr << "etmem: " << c.message << "\n";
}

int RunAnalyze(const AnalyzeArgs& args) {
  if (args.per_op && (args.model.runtime == "all" || args.model.target == "all"))
    return FailInvalid("--per-op: one release and one target at a time (not 'all')");
  const api::Program program = api::Program::Open(args.program);
  // The budget is read before the pairs are analysed, its error reported after theirs.
  std::string budget_error;
  const std::optional<api::Budget> budget = LoadBudget(args, budget_error);
  const std::vector<api::Report> analysed = AnalyzeAll(program, args, budget);
  if (!budget_error.empty()) return FailInvalid(budget_error);
  if (args.per_op)
    std::cout << api::RenderPerOp(analysed.front(), FormatOf(args.format), args.sort);
  else
    std::cout << api::Render(analysed, FormatOf(args.format), {.all_allocations = args.allocations});
  // A refusal is one line on stderr (whatever the number of releases); the budget's lines when
  // every method has figures to hold to it.
  if (!ReportRefusals(analysed) && budget) PrintOverBudget(analysed, *budget);
  return ExitFor(api::Judge(analysed));
}

}  // namespace

static Run DefineAnalyze(CLI::App* cmd) {
  auto args = std::make_shared<AnalyzeArgs>();
  cmd->add_option("program", args->program, "the ExecuTorch program (.pte)")->required();
  AddModelOptions(cmd, args->model, /*all_allowed=*/true);
  Bytes(cmd->add_option("--pool", args->pool,
                        "check whether a method-allocator pool of this many bytes loads (with "
                        "--runner: the runner's method pool)"));
  cmd->add_option("--method", args->method, "analyze only this method");
  cmd->add_option("--format", args->format,
                  "text, json, csv or md (csv, md: one row per runtime, target and method)")
      ->check(CLI::IsMember(api::FormatNames("analyze")))
      ->capture_default_str();
  auto* budget = cmd->add_option(
      "--budget", args->budget,
      "exit 1 when over budget: ram=SIZE (per method: pool + planned + temp load peak), "
      "flash=SIZE (the file); sizes like 64K, 1M (1024-based)");
  cmd->add_option("--budget-file", args->budget_file,
                  "the budget from a file of 'ram = 64K' / 'flash = 256K' lines")
      ->excludes(budget);
  auto* allocations =
      cmd->add_flag("--allocations", args->allocations, "text: list every allocation in order");
  auto* per_op = cmd->add_flag(
      "--per-op", args->per_op,
      "instead of the report, per method one row per instruction: kind, operator, kernel library, "
      "planned bytes live across it, temp request while running, constant bytes read (every "
      "--format)");
  per_op->excludes(allocations);
  cmd->add_option("--sort", args->sort,
                  "with --per-op: index (execution order), or live, temp, constant, stack "
                  "(largest first)")
      ->check(CLI::IsMember({"index", "live", "temp", "constant", "stack"}))
      ->needs(per_op)
      ->capture_default_str();
  return [args]() { return Guarded([&] { return RunAnalyze(*args); }); };
}

const Verb kAnalyzeVerb{"analyze", "How many bytes the method allocator needs, and where they go", DefineAnalyze};

}  // namespace etmem::cli
