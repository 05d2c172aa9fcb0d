// Owns: FitRegionsHtml, a board fit region by region in the plan's HTML page (see fit_render.h).
#include "etmem/report/fit_render.h"

#include <fmt/format.h>

#include "etmem/report/html_report.h"

namespace etmem::report {

std::string FitRegionsHtml(const board::ProgramFit& fit) {
  std::string o = fmt::format("<section class=\"board\"><h2>Board {}: method '{}' ({})</h2>\n",
                              HtmlEscape(fit.board.name), HtmlEscape(fit.method),
                              fit.result.best.fits() ? "fits" : "does not fit");
  for (size_t r = 0; r < fit.regions.size(); ++r) {
    o += fmt::format(
        "<h3>{} ({} B free before, {} B used)</h3>\n<table><tr><th>offset</th>"
        "<th>bytes</th><th>piece</th></tr>\n",
        HtmlEscape(fit.regions[r].name), fit.regions[r].free, fit.result.best.used[r]);
    for (const board::Placed& p : board::InRegion(fit, r))
      o += fmt::format("<tr><td>+{}</td><td>{}</td><td>{}</td></tr>\n", p.offset, p.bytes,
                       HtmlEscape(board::PieceLabel(fit, p)));
    o += "</table>\n";
  }
  return o + "</section>\n";
}

}  // namespace etmem::report
