// `etmem diff OLD NEW`: how the memory needs of a program changed between two builds, for the
// same release and target. Not: the comparison or its text (report/diff_report.cpp).
#include <iostream>
#include <memory>

#include "commands.h"
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

int RunDiff(const DiffArgs& args) {
  const api::Program old_program = api::Program::Open(args.old_program);
  const api::Program new_program = api::Program::Open(args.new_program);
  const api::Report old_report = BuildSingleReport(old_program, args.model, args.method);
  const api::Report new_report = BuildSingleReport(new_program, args.model, args.method);
  const api::Format format = args.format == "json" ? api::Format::kJson
                             : args.format == "md" ? api::Format::kMarkdown
                                                   : api::Format::kText;
  std::cout << api::Diff(old_report, new_report, format);
  const std::vector<api::Report> both = {old_report, new_report};
  ReportRefusals(both);
  return ExitFor(api::Judge(both));
}

}  // namespace

static Run DefineDiff(CLI::App* cmd) {
  auto args = std::make_shared<DiffArgs>();
  cmd->add_option("old", args->old_program, "the old program (.pte)")->required();
  cmd->add_option("new", args->new_program, "the new program (.pte)")->required();
  AddModelOptions(cmd, args->model);
  cmd->add_option("--method", args->method, "compare only this method (it must be in both)");
  cmd->add_option("--format", args->format, "text, json or md")
      ->check(CLI::IsMember(api::FormatNames("diff")))
      ->capture_default_str();
  return [args]() { return Guarded([&] { return RunDiff(*args); }); };
}

const Verb kDiffVerb{"diff", "Compare the memory needs of two programs for the same release and target", DefineDiff};

}  // namespace etmem::cli
