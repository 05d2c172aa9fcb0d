// `etmem replan IN.pte -o OUT.pte [--format text|json]`: re-plans every method's planned memory
// and writes a program that differs from the input only in planned offsets and
// planned_buffer_sizes. The output is read back and checked before the saving is reported.
// Not: re-planning, writing or its text (api::Replan, api::WriteReplanned, api::Render;
// report/replan_text.h).
#include <iostream>
#include <memory>
#include <string>

#include "commands.h"
#include "model_options.h"

namespace etmem::cli {
namespace {

struct ReplanArgs {
  std::string input;
  std::string output;
  uint64_t alignment = 16;
  std::string format = "text";
};

int RunReplan(const ReplanArgs& args) {
  const api::Replanned replanned = api::Replan(api::Program::Open(args.input), args.alignment);
  std::cout << api::Render(api::WriteReplanned(replanned, args.output),
                           args.format == "json" ? api::Format::kJson : api::Format::kText);
  return kExitOk;
}

}  // namespace

static Run DefineReplan(CLI::App* cmd) {
  auto args = std::make_shared<ReplanArgs>();
  cmd->add_option("program", args->input, "the ExecuTorch program (.pte)")->required();
  cmd->add_option("-o,--output", args->output, "where to write the re-planned program")
      ->required();
  Bytes(cmd->add_option("--alignment", args->alignment,
                        "offsets are multiples of this (power of two)"))
      ->check(PowerOfTwoUpTo4096())
      ->capture_default_str();
  cmd->add_option("--format", args->format, "text (default) or json")
      ->check(CLI::IsMember(api::FormatNames("replan")));
  return [args]() { return Guarded([&] { return RunReplan(*args); }); };
}

const Verb kReplanVerb{"replan", "Write a copy of a program with a smaller memory plan (only planned offsets and "
    "buffer sizes change)", DefineReplan};

}  // namespace etmem::cli
