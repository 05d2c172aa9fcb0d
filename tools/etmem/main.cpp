// etmem: how much memory an ExecuTorch program needs on a given target and release.
// Thin by design: parse, run the chosen verb, map its outcome to an exit code.
#include <cstdio>
#include <cstring>
#include <new>
#include <string>

#include "commands.h"
#include "huge_pages.h"
#include "model_options.h"
#include "usage.h"

namespace etmem::cli {
extern const Verb kFirmwareVerb;  // firmware_command.cpp
}  // namespace etmem::cli

int main(int argc, char** argv) {
  using namespace etmem::cli;
  HeapInHugePages();
  // Named, so that help reads "Usage: etmem analyze [OPTIONS] program".
  CLI::App app{"etmem: exact memory requirements of ExecuTorch programs (.pte), computed offline",
               "etmem"};
  app.set_version_flag("--version", std::string("etmem ") + ETMEM_VERSION);
  app.require_subcommand(1);
  app.failure_message(UsageFailure);  // every usage error: one line, "etmem: ..."
  const Verb* verbs[] = {&kAnalyzeVerb, &kListVerb,  &kPlanVerb,  &kReplanVerb,  &kSummaryVerb,
                         &kHeaderVerb,  &kDiffVerb,  &kProbeVerb, &kCheckVerb,   &kMeasureVerb,
                         &kFitVerb,     &kFirmwareVerb};
  // Defining every verb costs more than analysing a small program: when the first argument
  // names a verb, only that one is defined; otherwise all of them, for help and for the error.
  const Verb* named = nullptr;
  for (const Verb* verb : verbs)
    if (argc > 1 && std::strcmp(argv[1], verb->name) == 0) named = verb;
  Run run;
  for (const Verb* verb : verbs) {
    if (named && verb != named) continue;
    CLI::App* cmd = app.add_subcommand(verb->name, verb->about);
    if (verb == named) run = verb->define(cmd);
  }
  try {
    app.parse(ParseArgs(argc, argv));  // "--external-data FILE.ptd" rewritten first
  } catch (const CLI::ParseError& e) {
    int code = app.exit(e);  // prints help / version / the usage error
    return code == 0 ? kExitOk : kExitInvalid;
  }
  if (!run) return kExitInvalid;
  // Memory is linear in the file, yet a huge program can exhaust a small machine: say so.
  try {
    return run();
  } catch (const std::bad_alloc&) {
    std::string command;
    for (int i = 1; i < argc; ++i) command += std::string(i > 1 ? " " : "") + argv[i];
    std::fprintf(stderr, "etmem %s: out of memory (the program is too large for this machine's "
                         "memory or address-space limit)\n", etmem::api::PrintableText(command, 400).c_str());
    return kExitInvalid;
  }
}
