// `etmem header`: a C/C++ header with the pool sizes of a program for one (release, target), for
// firmware builds to include (and, with --define-pools, to take the pools from). Not: the
// header's text (report/c_header.cpp).
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "commands.h"
#include "board_options.h"
#include "model_options.h"

namespace etmem::cli {
namespace {

struct HeaderArgs {
  std::string program;
  ModelArgs model;
  std::string method;
  std::string margin;
  bool define_pools = false;
  std::string section;
  std::string output = "-";
  BoardArgs board;            // --board: each pool's region, section and alignment
  std::string linker_script;  // --linker-script: the ld fragment for the regions used
};

std::string ReadWhole(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// Leaves an identical file alone, so its timestamp does not trigger a firmware rebuild.
int Write(const std::string& text, const std::string& path) {
  if (path == "-") {
    std::cout << text;
    return kExitOk;
  }
  if (std::filesystem::exists(path) && ReadWhole(path) == text) return kExitOk;
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out << text;
  out.close();
  if (!out) return FailInvalid(path + ": cannot write the header");
  return kExitOk;
}

int RunHeader(const HeaderArgs& args) {
  if (!args.section.empty() && !args.define_pools)
    return FailInvalid("--section places the pools --define-pools defines; add --define-pools");
  const api::Program program = api::Program::Open(args.program);
  api::HeaderOptions options{args.margin, args.define_pools, args.section, {}};
  api::CheckHeaderOptions(options);
  if (!args.board.board.empty()) {
    options.board = LoadBoard(args.board);
  } else if (!args.linker_script.empty()) {
    return FailInvalid("--linker-script needs --board");
  }
  const api::Report report = BuildSingleReport(program, args.model, args.method,
                                               options.board ? &*options.board : nullptr);
  if (ReportRefusals(report)) return ExitFor(report.verdict());
  const std::string text = api::Header(report, options);
  if (!args.linker_script.empty())
    if (int rc = Write(api::HeaderLinkerScript(report, options), args.linker_script);
        rc != kExitOk)
      return rc;
  if (int rc = Write(text, args.output); rc != kExitOk) return rc;
  return ExitFor(report.verdict());
}

}  // namespace

static Run DefineHeader(CLI::App* cmd) {
  auto args = std::make_shared<HeaderArgs>();
  cmd->add_option("program", args->program, "the ExecuTorch program (.pte)")->required();
  AddModelOptions(cmd, args->model);
  cmd->add_option("--method", args->method, "only this method (default: every method)");
  cmd->add_option("--margin", args->margin,
                  "add this to each method pool: bytes (512, 4K) or a percentage (10%)");
  cmd->add_flag("--define-pools", args->define_pools,
                "also define aligned static arrays for the pools (method pool, temp pool, "
                "planned buffers), each once");
  cmd->add_option("--section", args->section, "linker section for the arrays of --define-pools");
  AddBoardOptions(cmd, args->board, /*required=*/false);
  cmd->add_option("--linker-script", args->linker_script,
                  "with --board: write a GNU ld fragment for the regions used to this file");
  cmd->add_option("-o,--output", args->output, "the header to write, - for stdout")
      ->capture_default_str();
  return [args]() { return Guarded([&] { return RunHeader(*args); }); };
}

const Verb kHeaderVerb{"header", "Write a C/C++ header with the pool sizes (and optionally the pools) of a program", DefineHeader};

}  // namespace etmem::cli
