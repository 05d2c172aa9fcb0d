// Owns: AddBoardOptions and LoadBoard (see board_options.h).
#include "board_options.h"

namespace etmem::cli {

void AddBoardOptions(CLI::App* cmd, BoardArgs& args, bool required) {
  auto* o = cmd->add_option("--board", args.board,
                            "a built-in board (etmem list boards) or a board file (.json)");
  if (required) o->required();
  cmd->add_option(
         "--reserve", args.reserve,
         "REGION=BYTES: the rest of the firmware takes this much of a region (24K, 0x6000)")
      ->take_all();
}

api::Board LoadBoard(const BoardArgs& args) {
  api::Board board = api::Board::Open(args.board);
  for (const std::string& r : args.reserve) board = board.Reserve(r);
  return board;
}

}  // namespace etmem::cli
