// Owns: the verbs of the etmem command line. Each verb is a name, a one-line description, and a
// function that adds its options to its CLI11 subcommand and returns what runs it. main()
// defines the options of the chosen verb only: the others just name themselves in --help.
// A verb's run yields the process exit code:
//   0 ok, 1 a requested pool (or budget) does not fit, 2 invalid input or usage.
#pragma once

#include <functional>

#include <CLI/CLI.hpp>

namespace etmem::cli {

using Run = std::function<int()>;

struct Verb {
  const char* name;
  const char* about;
  Run (*define)(CLI::App* cmd);
};

constexpr int kExitOk = 0;
constexpr int kExitDoesNotFit = 1;
constexpr int kExitInvalid = 2;

extern const Verb kAnalyzeVerb, kListVerb, kPlanVerb, kReplanVerb, kSummaryVerb, kHeaderVerb,
    kDiffVerb, kProbeVerb, kCheckVerb, kMeasureVerb, kFitVerb;

}  // namespace etmem::cli
