// Owns: the verbs of the etmem command line. Each verb registers its options on a CLI11 app and
// returns a function that runs it and yields the process exit code:
//   0 ok, 1 a requested pool (or budget) does not fit, 2 invalid input or usage.
#pragma once

#include <functional>

#include <CLI/CLI.hpp>

namespace etmem::cli {

using Run = std::function<int()>;

struct Command {
  CLI::App* app;  // the subcommand, to ask whether it was chosen
  Run run;
};

constexpr int kExitOk = 0;
constexpr int kExitDoesNotFit = 1;
constexpr int kExitInvalid = 2;

Command AddAnalyzeCommand(CLI::App& app);
Command AddListCommand(CLI::App& app);
Command AddPlanCommand(CLI::App& app);
Command AddReplanCommand(CLI::App& app);
Command AddSummaryCommand(CLI::App& app);
Command AddHeaderCommand(CLI::App& app);
Command AddDiffCommand(CLI::App& app);
Command AddProbeCommand(CLI::App& app);
Command AddCheckCommand(CLI::App& app);

}  // namespace etmem::cli
