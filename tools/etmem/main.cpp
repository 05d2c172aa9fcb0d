// etmem: how much memory an ExecuTorch program needs on a given target and release.
// Thin by design: parse, run the chosen verb, map its outcome to an exit code.
#include <cstring>

#include "commands.h"

int main(int argc, char** argv) {
  using namespace etmem::cli;
  CLI::App app{"etmem: exact memory requirements of ExecuTorch programs (.pte), computed offline"};
  app.set_version_flag("--version", std::string("etmem ") + ETMEM_VERSION);
  app.require_subcommand(1);
  const Verb* verbs[] = {&kAnalyzeVerb, &kListVerb,  &kPlanVerb,  &kReplanVerb, &kSummaryVerb,
                         &kHeaderVerb,  &kDiffVerb,  &kProbeVerb, &kCheckVerb};
  // Defining every verb's options costs more than analysing a small program: define the one
  // named on the command line (the verb is always the first argument).
  Run run;
  for (const Verb* verb : verbs) {
    CLI::App* cmd = app.add_subcommand(verb->name, verb->about);
    if (argc > 1 && std::strcmp(argv[1], verb->name) == 0) run = verb->define(cmd);
  }
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);  // prints help / version / the usage error
    return code == 0 ? kExitOk : kExitInvalid;
  }
  return run ? run() : kExitInvalid;
}
