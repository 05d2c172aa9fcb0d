// `etmem firmware APP.elf [PROGRAM.pte] [--runtime V] [--target T] [--runner NAME] [--board B]
// [--method M] [--format text|json] [--no-components] [--no-stack] [--stack-usage DIR]`: a linked image checked against what its
// program needs: the pools the runner declares, found by symbol, each with a verdict. Exit 0
// fits, 1 a pool is too small (or the release refuses a method), 2 bad input. Not: the checks
// or their text (api::CheckFirmware and api::Render, include/etmem/etmem.h).
#include <iostream>
#include <memory>

#include "board_options.h"
#include "commands.h"
#include "model_options.h"

namespace etmem::cli {
namespace {

struct FirmwareArgs {
  std::string image;
  std::string program;
  api::FirmwareOptions options;  // model: --runtime, --target, --runner, --temp, --method, --kernels
  BoardArgs board;
  std::string format = "text";
  bool no_components = false;
  bool no_stack = false;
  std::string stack_usage;
};

int RunFirmware(const FirmwareArgs& args) {
  api::FirmwareOptions o = args.options;
  o.program_path = args.program;
  o.components = !args.no_components;
  o.stack = !args.no_stack;
  o.stack_usage = args.stack_usage;
  if (!args.board.board.empty()) o.board = LoadBoard(args.board);
  const api::FirmwareReport r = api::CheckFirmware(args.image, o);
  std::cout << api::Render(r, args.format == "json" ? api::Format::kJson : api::Format::kText);
  return ExitFor(api::Judge(r));
}

}  // namespace

static Run DefineFirmware(CLI::App* cmd) {
  auto args = std::make_shared<FirmwareArgs>();
  cmd->add_option("image", args->image, "the linked firmware (ELF executable)")->required();
  cmd->add_option("program", args->program,
                  "the ExecuTorch program (.pte), when the firmware reads it at run time "
                  "instead of embedding it");
  AddModelOptions(
      cmd, args->options.model,
      {.only = {"runtime", "target", "runner", "temp", "kernels", "method"},
       .defaults = {{"runtime", "(required: an image does not show it beyond doubt)"},
                    {"target", "(default: from the ELF header)"},
                    {"runner", "(default: the one whose pool symbols the image has)"}}});
  AddBoardOptions(cmd, args->board, /*required=*/false);
  cmd->add_option("--format", args->format, "text (default) or json")
      ->check(CLI::IsMember(api::FormatNames("firmware")));
  cmd->add_flag("--no-components", args->no_components, "leave out the flash and RAM table");
  cmd->add_flag("--no-stack", args->no_stack,
                "leave out the worst-case stack (as the page does: it has no disassembler)");
  cmd->add_option("--stack-usage", args->stack_usage,
                  "a directory of GCC's -fstack-usage (.su) and -fcallgraph-info=su (.ci) files "
                  "of the image's build: their frame sizes replace the disassembly's in the "
                  "worst-case stack");
  return [args]() { return Guarded([&] { return RunFirmware(*args); }); };
}

extern const Verb kFirmwareVerb;  // declared for main.cpp, which names it
const Verb kFirmwareVerb{"firmware",
                         "Check a linked firmware image: its embedded program against the pools "
                         "its runner declares (sizes and addresses from the symbols), and flash "
                         "and RAM by component",
                         DefineFirmware};

}  // namespace etmem::cli
