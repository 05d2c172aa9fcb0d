// Owns: FitLinkerScript, the GNU ld fragment of a board fit (see fit_render.h).
#include "etmem/report/fit_render.h"

#include <algorithm>
#include <vector>

#include <fmt/format.h>

#include "etmem/base/printable.h"

namespace etmem::report {

std::string FitLinkerScript(const board::ProgramFit& fit) {
  std::string o = fmt::format(
      "/* etmem fit: board {} ({}), method '{}'. Output sections for the "
      "regions etmem placed pools in; MEMORY names are the board's. */\n",
      fit.board.name, fit.board.file, Printable(fit.method));
  std::vector<bool> used(fit.regions.size(), false);
  std::vector<uint32_t> align(fit.regions.size(), 1);
  for (const board::Placed& p : fit.result.best.placed) {
    used[p.region] = true;
    align[p.region] = std::max(align[p.region], p.align);
  }
  o += "MEMORY\n{\n";
  for (size_t r = 0; r < fit.regions.size(); ++r) {
    const board::Region& region = fit.board.regions[r];
    if (!used[r]) continue;
    if (region.origin)
      o += fmt::format("  {} (rw) : ORIGIN = 0x{:08x}, LENGTH = 0x{:x}\n", region.name,
                       *region.origin, region.size);
    else
      o += fmt::format("  /* {}: the board file gives no origin; declare it yourself */\n",
                       region.name);
  }
  o += "}\nSECTIONS\n{\n";
  for (size_t r = 0; r < fit.regions.size(); ++r) {
    const board::Region& region = fit.board.regions[r];
    if (!used[r] || region.section.empty()) continue;
    o += fmt::format("  {} (NOLOAD) : ALIGN({})\n  {{\n    KEEP(*({}))\n  }} > {}\n",
                     region.section, align[r], region.section, region.name);
  }
  return o + "}\n";
}

}  // namespace etmem::report
