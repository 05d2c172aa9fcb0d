// Owns: running other programs for `etmem measure` (the compiler, flatc, git, the harness):
// start one with its output sent to files, wait for it, run a few at once. Processes only; no
// threads. Not: what to run (build.h), interpreting output.
#pragma once

#include <string>
#include <vector>

namespace etmem::measure {

// A started process; wait with Wait().
struct Child {
  int pid = -1;
};

// Starts argv[0] (searched in PATH) with stdout and stderr written to the files (an empty path:
// /dev/null) and stdin from /dev/null. pid -1 when it could not start.
Child Start(const std::vector<std::string>& argv, const std::string& out, const std::string& err);

// The exit status (0..255), or 127 when it could not start, 128 + signal when killed.
int Wait(Child child);

// Start then Wait.
int Run(const std::vector<std::string>& argv, const std::string& out, const std::string& err);

// Runs every command with at most `jobs` at once; results[i] is command i's status.
std::vector<int> RunAll(const std::vector<std::vector<std::string>>& commands,
                        const std::vector<std::string>& errs, int jobs);

// Whether `program` names an executable file (a path, or a name found in PATH).
bool Executable(const std::string& program);

std::string ReadText(const std::string& path);  // "" when unreadable

}  // namespace etmem::measure
