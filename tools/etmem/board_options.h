// Owns: the --board / --reserve options shared by fit, header and plan, and the board they name
// (api::Board, include/etmem/etmem.h). Not: boards, the fit or its text (the public API).
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "etmem/etmem.h"

namespace etmem::cli {

struct BoardArgs {
  std::string board;                 // --board NAME|FILE.json
  std::vector<std::string> reserve;  // --reserve REGION=BYTES
};

void AddBoardOptions(CLI::App* cmd, BoardArgs& args, bool required);
// The board with every --reserve applied. Throws api::Error.
api::Board LoadBoard(const BoardArgs& args);

}  // namespace etmem::cli
