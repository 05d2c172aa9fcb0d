// `etmem list runtimes|targets|runners|boards|kernels|formats [--format text|json]`: the tables the code runs
// on. The listing is the library's (api::List); this verb parses the options and prints it.
#include <iostream>

#include "commands.h"
#include "etmem/etmem.h"

namespace etmem::cli {

static Run DefineList(CLI::App* cmd) {
  struct ListArgs {
    std::string what, format = "text";
  };
  auto args = std::make_shared<ListArgs>();
  cmd->add_option("what", args->what, "runtimes | targets | runners | boards | kernels | formats")
      ->required()
      ->check(CLI::IsMember({"runtimes", "targets", "runners", "boards", "kernels", "formats"}));
  cmd->add_option("--format", args->format, "text or json")
      ->check(CLI::IsMember(api::FormatNames("list")))
      ->capture_default_str();
  return [args]() {
    return Guarded([&] {
      std::cout << api::List(args->what,
                             args->format == "json" ? api::Format::kJson : api::Format::kText);
      return kExitOk;
    });
  };
}

const Verb kListVerb{
    "list", "List the modelled ExecuTorch releases, the built-in targets, the runner profiles, the boards, "
    "the kernel and delegate libraries or the output formats",
    DefineList};

}  // namespace etmem::cli
