// `etmem fit PROGRAM.pte --board NAME|FILE [--reserve REGION=BYTES]... [model options]
// [-o FITTED.pte] [--format text|json]`: places the method pool, the temp pool and each planned
// buffer (with a runner, the runner's pools) in the board's regions, splitting a planned buffer
// over several regions when it fits none whole, and writes the re-planned program. Exit 0 fits,
// 1 does not, 2 bad input. Not: the fit, its text or JSON, writing the program (api::Fit,
// api::BoardFit, include/etmem/etmem.h), the board files.
#include <iostream>
#include <memory>
#include <optional>

#include "board_options.h"
#include "commands.h"
#include "model_options.h"

namespace etmem::cli {
namespace {

struct FitArgs {
  std::string program;
  ModelArgs model;
  BoardArgs board;
  std::string method;
  std::string output;
  std::string format = "text";
};

int RunFit(const FitArgs& args) {
  const api::Program program = api::Program::Open(args.program);
  const api::Board board = LoadBoard(args.board);
  const api::Report report = BuildSingleReport(program, args.model, args.method, &board);
  if (ReportRefusals(report)) return ExitFor(report.verdict());
  const api::BoardFit fit = api::Fit(report, board, args.method);
  std::optional<api::BoardFit::Written> written;
  if (!args.output.empty()) written = fit.Write(args.output);
  std::cout << fit.Render(args.format == "json" ? api::Format::kJson : api::Format::kText, written);
  return ExitFor(api::Judge(fit));
}

}  // namespace

static Run DefineFit(CLI::App* cmd) {
  auto args = std::make_shared<FitArgs>();
  cmd->add_option("program", args->program, "the ExecuTorch program (.pte)")->required();
  AddBoardOptions(cmd, args->board, /*required=*/true);
  AddModelOptions(cmd, args->model);
  cmd->add_option("--method", args->method, "the method to fit (default: the first)");
  cmd->add_option("-o,--output", args->output,
                  "write the program, its planned buffers split as placed");
  cmd->add_option("--format", args->format, "text (default) or json")
      ->check(CLI::IsMember(api::FormatNames("fit")));
  return [args]() { return Guarded([&] { return RunFit(*args); }); };
}

const Verb kFitVerb{"fit",
                    "Place a program's pools and planned buffers in a board's memory regions "
                    "(splitting a plan too large for any one region)",
                    DefineFit};

}  // namespace etmem::cli
