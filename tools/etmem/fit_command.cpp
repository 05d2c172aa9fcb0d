// `etmem fit PROGRAM.pte --board NAME|FILE [--reserve REGION=BYTES]... [model options]
// [-o FITTED.pte]`: places the method pool, the temp pool and each planned buffer (with a runner,
// the runner's pools) in the board's regions, splitting a planned buffer over several regions
// when it fits none whole, and writes the re-planned program. Exit 0 fits, 1 does not, 2 bad
// input. Not: the search (src/etmem/board/fit.h) or the board files (src/etmem/board/boards/).
#include <fmt/format.h>

#include <fstream>
#include <iostream>
#include <memory>

#include "commands.h"
#include "etmem/board/fit_program.h"
#include "etmem/plan/check.h"
#include "etmem/plan/lifetimes.h"
#include "etmem/plan/rewrite.h"
#include "etmem/pte/mapped_file.h"
#include "etmem/pte/read_program.h"
#include "fit_output.h"
#include "model_options.h"

namespace etmem::cli {
namespace {

struct FitArgs {
  std::string program;
  ModelArgs model;
  BoardArgs board;
  std::string method;
  std::string output;
};

Status WriteFile(const std::string& path, std::span<const uint8_t> bytes) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  if (!f) return MakeError(ErrorCode::kIo, path + ": cannot write the program");
  return Ok{};
}

// The written program must read back, its plans be sound, and its method pool be what the
// original's was (only planned offsets, memory ids and buffer sizes changed).
Status CheckFitted(const std::string& path, const FitArgs& args, uint64_t method_pool) {
  const api::Program fitted = api::Program::Open(path);
  for (const pte::MethodView& m : api::Internal(fitted).methods) {
    ETMEM_TRY(plan::Lifetimes l, plan::ComputeLifetimes(m));
    if (!plan::Validate(l).sound())
      return MakeError(
          ErrorCode::kInvalidProgram,
          path + ": the fitted method '" + std::string(m.name) + "' is not sound (a bug in etmem)");
  }
  const api::Report again = BuildSingleReport(fitted, args.model, args.method);
  for (const report::MethodReport& m : api::Internal(again).methods)
    if ((args.method.empty() || m.method->name == args.method) && m.method_bytes != method_pool)
      return MakeError(
          ErrorCode::kInvalidProgram,
          path + ": the fitted program needs a different method pool (a bug in etmem)");
  return Ok{};
}

int RunFit(const FitArgs& args) {
  const api::Program program = api::Program::Open(args.program);
  const api::Report report = BuildSingleReport(program, args.model, args.method);
  const report::Report& r = api::Internal(report);
  if (ReportRefusals(r)) return kExitInvalid;
  auto board = LoadBoard(args.board);
  if (!board) return FailInvalid(board.error().message);
  auto fit = board::FitProgram(r, *board, args.method);
  if (!fit) return FailInvalid(fit.error().message);
  std::cout << FitText(r, *fit);
  if (!args.output.empty()) {
    std::vector<uint8_t> bytes;
    const pte::ProgramView& view = api::Internal(program);
    if (fit->edit) {
      auto written = plan::RewritePlan(view, {*fit->edit});
      if (!written) return FailInvalid(written.error().message);
      bytes = std::move(*written);
    } else {
      std::span<const uint8_t> in = view.file->bytes();
      bytes.assign(in.begin(), in.end());
    }
    if (auto s = WriteFile(args.output, bytes); !s) return FailInvalid(s.error().message);
    uint64_t method_pool = 0;
    for (const report::MethodReport& m : r.methods)
      if (m.method->name == fit->method) method_pool = m.method_bytes;
    if (auto s = CheckFitted(args.output, args, method_pool); !s)
      return FailInvalid(s.error().message);
    std::cout << fmt::format(
        "wrote {} ({} bytes): {}\n", args.output, bytes.size(),
        fit->edit ? "planned buffers re-planned as above, plan sound, method pool unchanged"
                  : "no buffer split, the program unchanged");
  }
  return fit->result.best.fits() ? kExitOk : kExitDoesNotFit;
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
  return [args]() { return Guarded([&] { return RunFit(*args); }); };
}

const Verb kFitVerb{"fit",
                    "Place a program's pools and planned buffers in a board's memory regions "
                    "(splitting a plan too large for any one region)",
                    DefineFit};

}  // namespace etmem::cli
