// Owns: FitText and FitRegionsText, a board fit in text (see fit_render.h).
#include "etmem/report/fit_render.h"

#include <fmt/format.h>

#include "etmem/analysis/assumptions.h"
#include "etmem/base/printable.h"

namespace etmem::report {

std::string FitText(const Report& report, const board::ProgramFit& fit) {
  std::string o;
  o += fmt::format("{}: method '{}' on board {} ({})\n", report.program->path, Printable(fit.method),
                   fit.board.name, fit.board.file);
  o += "  assuming " + AssumptionSentence(report.assumptions, FitWording()) + "\n";
  o += "  layout: from each region's base, larger alignment first; a piece aligned more than its "
       "region's base pays the worst-case padding\n";
  for (const std::string& n : fit.notes) o += "  note: " + n + "\n";
  o += "Regions:\n";
  for (const board::Region& r : fit.board.regions) {
    std::string reserved;
    for (const board::Reservation& res : r.reserved)
      reserved += fmt::format("{}{} {} B", reserved.empty() ? "" : ", ", res.name, res.bytes);
    o += fmt::format("  {:<10} {:>10} B, {} B free{}, base aligned {}{}\n", r.name, r.size,
                     r.free_bytes(), reserved.empty() ? "" : " (reserved: " + reserved + ")",
                     r.base_align, r.section.empty() ? "" : ", section " + r.section);
  }
  o += "Placement:\n";
  for (const board::Placed& p : fit.result.best.placed) {
    o += fmt::format("  {:<44} {:>10} B, align {:>2} -> {} at +{}{}\n", board::PieceLabel(fit, p), p.bytes,
                     p.align, fit.regions[p.region].name, p.offset,
                     p.padding ? fmt::format(" (after {} B padding)", p.padding) : "");
  }
  for (const board::Split& s : fit.result.best.splits)
    o += fmt::format(
        "  {} is re-planned into {} buffer{} ({} bytes in all, was {})\n", fit.pieces[s.piece].name,
        s.part_bytes.size(), s.part_bytes.size() == 1 ? "" : "s",
        [&] {
          uint64_t t = 0;
          for (uint64_t b : s.part_bytes) t += b;
          return t;
        }(),
        fit.pieces[s.piece].bytes);
  o += "Free after placement:\n";
  for (size_t r = 0; r < fit.regions.size(); ++r) {
    const uint64_t used = fit.result.best.used[r], free = fit.regions[r].free;
    o += used <= free ? fmt::format("  {:<10} {:>10} B free of {} B\n", fit.regions[r].name,
                                    free - used, free)
                      : fmt::format("  {:<10} {:>10} B OVER its {} B\n", fit.regions[r].name,
                                    used - free, free);
  }
  if (fit.result.best.fits()) {
    o += "fits\n";
  } else {
    o += fmt::format("does not fit: {} bytes short in the best placement found\n",
                     fit.result.best.short_bytes);
    if (fit.result.bound.short_bytes > 0)
      o += fmt::format("lower bound: no placement can exist, at least {} bytes short: {}\n",
                       fit.result.bound.short_bytes, fit.result.bound.reason);
    else
      o += "lower bound: does not rule a placement out (the search splits greedily and may have "
           "missed one)\n";
  }
  return o;
}

std::string FitRegionsText(const board::ProgramFit& fit) {
  std::string o = fmt::format("Board {}: method '{}', region by region ({})\n", fit.board.name,
                              Printable(fit.method), fit.result.best.fits() ? "fits" : "does not fit");
  for (size_t r = 0; r < fit.regions.size(); ++r) {
    o += fmt::format("  {} ({} B free before, {} B used):\n", fit.regions[r].name,
                     fit.regions[r].free, fit.result.best.used[r]);
    for (const board::Placed& p : board::InRegion(fit, r))
      o += fmt::format("    +{:<8} {:>10} B  {}\n", p.offset, p.bytes, board::PieceLabel(fit, p));
  }
  return o;
}

}  // namespace etmem::report
