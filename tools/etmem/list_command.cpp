// `etmem list runtimes|targets`: the tables the code runs on.
#include <iostream>

#include <fmt/format.h>

#include "commands.h"
#include "etmem/etmem.h"

namespace etmem::cli {

static Run DefineList(CLI::App* cmd) {
  auto what = std::make_shared<std::string>();
  cmd->add_option("what", *what, "runtimes | targets")->required()->check(CLI::IsMember({"runtimes", "targets"}));
  return [what]() {
    if (*what == "runtimes") {
      for (const api::ReleaseInfo& r : api::Releases())
        std::cout << fmt::format("{:<8} {}\n", r.version, r.summary);
    } else {
      for (const api::TargetInfo& t : api::Targets())
        std::cout << fmt::format("{:<10} {} (pointer {}, int64 align {}, default pool align {})\n",
                                 t.name, t.description, t.pointer_bytes, t.int64_align,
                                 t.default_pool_align);
    }
    return kExitOk;
  };
}

const Verb kListVerb{"list", "List the modelled ExecuTorch releases or the built-in targets", DefineList};

}  // namespace etmem::cli
