// Owns: the --board / --reserve options shared by fit, header and plan, and the text of a fit
// (placement, free bytes, verdict), the header's board section and the linker fragment.
// Not: the search (src/etmem/board/).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "etmem/base/result.h"
#include "etmem/board/fit_program.h"
#include "etmem/report/report.h"

namespace etmem::cli {

struct BoardArgs {
  std::string board;                 // --board NAME|FILE.json
  std::vector<std::string> reserve;  // --reserve REGION=BYTES
};

void AddBoardOptions(CLI::App* cmd, BoardArgs& args, bool required);
Result<board::Board> LoadBoard(const BoardArgs& args);

// What `etmem fit` prints (before any "wrote" line).
std::string FitText(const report::Report& report, const board::ProgramFit& fit);

// The placement of every piece, region by region (`etmem plan --board`): text or HTML.
std::string RegionsText(const board::ProgramFit& fit);
std::string RegionsHtml(const board::ProgramFit& fit);

// `etmem header --board`: each placed piece as a section-attributed, aligned array, and a GNU ld
// fragment with one output section per region used.
std::string HeaderBoardSection(const board::ProgramFit& fit);
std::string LinkerFragment(const board::ProgramFit& fit);

}  // namespace etmem::cli
