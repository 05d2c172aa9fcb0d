// `etmem plan`: the planned memory of a program made visible and checked, through the public
// API (api::Plan, src/etmem/api/plan_output.cpp, makes the text, JSON or HTML). Owns the
// options, the output file and the exit code (1 when a plan is unsound).
#include <fstream>
#include <iostream>
#include <memory>
#include <string>

#include "commands.h"
#include "board_options.h"
#include "model_options.h"

namespace etmem::cli {
namespace {

struct PlanArgs {
  std::string program;
  std::string method;
  std::string format = "text";
  std::string output;  // empty: stdout
  uint64_t alignment = 16;
  uint32_t columns = 64;
  ModelArgs model;     // for the method allocator breakdown of the HTML page
  BoardArgs board;     // --board: the placement region by region after the plan
};

// Sends std::cout to a file while alive (when a path is given).
class OutputTo {
 public:
  explicit OutputTo(const std::string& path) {
    if (path.empty()) return;
    file_.open(path, std::ios::binary | std::ios::trunc);
    if (file_) saved_ = std::cout.rdbuf(file_.rdbuf());
  }
  ~OutputTo() {
    if (saved_) std::cout.rdbuf(saved_);
  }
  bool ok() const { return !file_.is_open() || saved_ != nullptr; }

 private:
  std::ofstream file_;
  std::streambuf* saved_ = nullptr;
};

int RunPlan(const PlanArgs& args) {
  api::PlanOptions options;
  options.method = args.method;
  options.alignment = args.alignment;
  options.columns = args.columns;
  options.format = args.format == "html"   ? api::PlanFormat::kHtml
                   : args.format == "json" ? api::PlanFormat::kJson
                                           : api::PlanFormat::kText;
  options.model = ToApiOptions(args.model);
  if (!args.board.board.empty()) {
    if (args.format == "json") return FailInvalid("--board: only with --format text or html");
    options.board = LoadBoard(args.board);
  }
  const api::PlanResult plan = api::Plan(api::Program::Open(args.program), options);
  OutputTo out(args.output);
  if (!out.ok()) return FailInvalid(args.output + ": cannot write");
  std::cout << plan.output;
  return ExitFor(api::Judge(plan));
}

}  // namespace

static Run DefinePlan(CLI::App* cmd) {
  auto args = std::make_shared<PlanArgs>();
  cmd->add_option("program", args->program, "the ExecuTorch program (.pte)")->required();
  cmd->add_option("--method", args->method, "only this method");
  cmd->add_option("--format", args->format,
                  "text, json, or html (one self-contained page: timelines and the method "
                  "allocator by category for the model options)")
      ->check(CLI::IsMember(api::FormatNames("plan")))
      ->capture_default_str();
  cmd->add_option("-o,--output", args->output, "write to this file instead of stdout");
  AddModelOptions(cmd, args->model);
  AddBoardOptions(cmd, args->board, /*required=*/false);
  Bytes(cmd->add_option("--alignment", args->alignment,
                        "bytes each tensor is rounded up to in the lower bound"))
      ->check(PowerOfTwoUpTo4096())
      ->capture_default_str();
  Count(cmd->add_option("--columns", args->columns, "width of the map"), UINT32_MAX)
      ->check(CLI::Range(8, 512))
      ->capture_default_str();
  return [args]() { return Guarded([&] { return RunPlan(*args); }); };
}

const Verb kPlanVerb{"plan", "Show and check the planned memory: live ranges, overlaps, bounds, a map "
    "(exit 1 when the plan is unsound)", DefinePlan};

}  // namespace etmem::cli
