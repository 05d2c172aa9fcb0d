// etmem: how much memory an ExecuTorch program needs on a given target and release.
// Thin by design: parse, run the chosen verb, map its outcome to an exit code.
#include <iostream>

#include "commands.h"

int main(int argc, char** argv) {
  CLI::App app{"etmem: exact memory requirements of ExecuTorch programs (.pte), computed offline"};
  app.set_version_flag("--version", std::string("etmem ") + ETMEM_VERSION);
  app.require_subcommand(1);
  const etmem::cli::Command verbs[] = {
      etmem::cli::AddAnalyzeCommand(app),
      etmem::cli::AddListCommand(app),
      etmem::cli::AddPlanCommand(app),
      etmem::cli::AddReplanCommand(app),
      etmem::cli::AddSummaryCommand(app),
      etmem::cli::AddHeaderCommand(app),
      etmem::cli::AddDiffCommand(app),
      etmem::cli::AddProbeCommand(app),
      etmem::cli::AddCheckCommand(app),
  };
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);  // prints help / version / the usage error
    return code == 0 ? etmem::cli::kExitOk : etmem::cli::kExitInvalid;
  }
  for (const auto& verb : verbs)
    if (verb.app->parsed()) return verb.run();
  return etmem::cli::kExitInvalid;
}
