// `etmem diff OLD NEW`: how the memory needs of a program changed between two builds, for the
// same release and target. Not: the comparison or its text (report/diff_report.cpp).
#include <iostream>
#include <memory>

#include "commands.h"
#include "etmem/pte/read_program.h"
#include "etmem/report/diff_report.h"
#include "model_options.h"

namespace etmem::cli {
namespace {

struct DiffArgs {
  std::string old_program;
  std::string new_program;
  ModelArgs model;
  std::string method;
  std::string format = "text";
};

void Print(const report::ProgramDiff& diff, const std::string& format) {
  if (format == "json")
    std::cout << report::DiffToJson(diff).dump(1, ' ', false,
                                               nlohmann::json::error_handler_t::replace)
              << "\n";
  else if (format == "md")
    std::cout << report::DiffToMarkdown(diff);
  else
    std::cout << report::DiffToText(diff);
}

int RunDiff(const DiffArgs& args) {
  auto old_program = pte::ReadProgram(args.old_program);
  if (!old_program) return FailInvalid(old_program.error().message);
  auto new_program = pte::ReadProgram(args.new_program);
  if (!new_program) return FailInvalid(new_program.error().message);
  auto old_report = BuildSingleReport(*old_program, args.model, args.method);
  if (!old_report) return FailInvalid(old_report.error().message);
  auto new_report = BuildSingleReport(*new_program, args.model, args.method);
  if (!new_report) return FailInvalid(new_report.error().message);
  Print(report::DiffReports(*old_report, *new_report), args.format);
  const bool refused_old = ReportRefusals(*old_report);
  const bool refused_new = ReportRefusals(*new_report);
  return refused_old || refused_new ? kExitInvalid : kExitOk;
}

}  // namespace

static Run DefineDiff(CLI::App* cmd) {
  auto args = std::make_shared<DiffArgs>();
  cmd->add_option("old", args->old_program, "the old program (.pte)")->required();
  cmd->add_option("new", args->new_program, "the new program (.pte)")->required();
  AddModelOptions(cmd, args->model);
  cmd->add_option("--method", args->method, "compare only this method (it must be in both)");
  cmd->add_option("--format", args->format, "text, json or md")
      ->check(CLI::IsMember({"text", "json", "md"}))
      ->capture_default_str();
  return [args]() { return RunDiff(*args); };
}

const Verb kDiffVerb{"diff", "Compare the memory needs of two programs for the same release and target", DefineDiff};

}  // namespace etmem::cli
