// Owns: fitting one method of an analysed program onto a board: the pieces the firmware must
// place (the method allocator pool, the temp allocator pool, each planned buffer; with a runner,
// the runner's pools as it declares them, its planned buffers inside the pool that holds them),
// the placement, and the plan edit that splits a planned buffer over regions.
// Not: the search itself (fit.h), printing (report/fit_render.h), writing the program
// (plan/rewrite.h).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "etmem/base/result.h"
#include "etmem/board/board.h"
#include "etmem/board/fit.h"
#include "etmem/plan/rewrite.h"
#include "etmem/analysis/budget.h"
#include "etmem/analysis/report.h"

namespace etmem::board {

struct PieceInfo {
  std::string symbol;  // a C identifier for the header (e.g. "method_allocator_pool")
  std::string macro;   // the define that sizes it, when a runner names one
};

struct ProgramFit {
  Board board;
  std::string method;
  std::vector<RegionSpace> regions;  // one per board region, in its order
  std::vector<Piece> pieces;
  std::vector<PieceInfo> info;  // one per piece
  FitResult result;
  std::vector<std::string> notes;  // assumptions and what is not modelled
  // When the best placement splits a planned buffer: the edit that writes it, and the method's
  // new planned_buffer_sizes (index 0 reserved).
  std::optional<plan::PlanEdit> edit;
  // For every part of every piece: the memory id it has in the written program (0: a pool).
  uint32_t MemoryIdOf(size_t piece, size_t part) const;
};

// Fits `method` (empty: the report's first method) of `report` onto `board`. Fails when the
// method is refused by the release or its plan cannot be read.
// `method_pool_margin`: added to the method pool (the runner's, with a runner), as `etmem header
// --margin` declares it.
Result<ProgramFit> FitProgram(const report::Report& report, const Board& board,
                              const std::string& method = "",
                              const std::optional<report::Margin>& method_pool_margin = {});

// The words of a placement: a piece's label ("planned buffer 1, part 2 (memory id 3)" when it is
// split), its symbol in the firmware ("etmem_planned_buffer_3"), and the pieces placed in region
// `region`, lowest offset first.
std::string PieceLabel(const ProgramFit& fit, const Placed& p);
std::string SymbolOf(const ProgramFit& fit, const Placed& p);
std::vector<Placed> InRegion(const ProgramFit& fit, size_t region);

}  // namespace etmem::board
