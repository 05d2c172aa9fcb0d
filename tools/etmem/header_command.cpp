// `etmem header`: a C/C++ header with the pool sizes of a program for one (release, target), for
// firmware builds to include (and, with --define-pools, to take the pools from). Not: the
// header's text (report/c_header.cpp).
#include <filesystem>
#include <fstream>
#include <iostream>
#include <memory>
#include <sstream>

#include "commands.h"
#include "etmem/base/sha256.h"
#include "etmem/pte/mapped_file.h"
#include "etmem/pte/read_program.h"
#include "etmem/report/c_header.h"
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

Result<report::CHeaderOptions> HeaderOptions(const HeaderArgs& args,
                                             const pte::ProgramView& program) {
  report::CHeaderOptions o;
  o.etmem_version = ETMEM_VERSION;
  o.program_sha256 = Sha256Hex(program.file->bytes());
  o.define_pools = args.define_pools;
  o.section = args.section;
  if (!args.margin.empty()) {
    ETMEM_TRY(report::Margin margin, report::ParseMargin(args.margin));
    o.margin = margin;
  }
  return o;
}

int RunHeader(const HeaderArgs& args) {
  if (!args.section.empty() && !args.define_pools)
    return FailInvalid("--section places the pools --define-pools defines; add --define-pools");
  auto program = pte::ReadProgram(args.program);
  if (!program) return FailInvalid(program.error().message);
  auto options = HeaderOptions(args, *program);
  if (!options) return FailInvalid(options.error().message);
  auto report = BuildSingleReport(*program, args.model, args.method);
  if (!report) return FailInvalid(report.error().message);
  if (ReportRefusals(*report)) return kExitInvalid;
  auto text = report::ToCHeader(*report, *options);
  if (!text) return FailInvalid(text.error().message);
  return Write(*text, args.output);
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
                "also define aligned static arrays for the method pools and planned buffers");
  cmd->add_option("--section", args->section, "linker section for the arrays of --define-pools");
  cmd->add_option("-o,--output", args->output, "the header to write, - for stdout")
      ->capture_default_str();
  return [args]() { return RunHeader(*args); };
}

const Verb kHeaderVerb{"header", "Write a C/C++ header with the pool sizes (and optionally the pools) of a program", DefineHeader};

}  // namespace etmem::cli
