// Owns: the printing side of fit_output.h.
#include "fit_output.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>

namespace etmem::cli {
namespace {

std::string PieceLabel(const board::ProgramFit& fit, const board::Placed& p) {
  const board::Piece& piece = fit.pieces[p.piece];
  bool split = false;
  for (const board::Split& s : fit.result.best.splits) split |= s.piece == p.piece;
  if (!split) return piece.name;
  return fmt::format("{}, part {} (memory id {})", piece.name, p.part + 1,
                     fit.MemoryIdOf(p.piece, p.part));
}

std::string Assumptions(const report::Report& r) {
  const report::Assumptions& a = r.assumptions;
  std::string s = fmt::format(
      "ExecuTorch {}, target {}, pool base aligned to {} B, {}", a.runtime, a.target, a.pool_align,
      a.temp_allocator ? "a temp allocator is passed" : "no temp allocator is passed");
  if (!a.runner.empty()) s += ", " + a.runner;
  return s;
}

std::string HtmlEscape(const std::string& s) {
  std::string o;
  for (char c : s) {
    if (c == '<')
      o += "&lt;";
    else if (c == '>')
      o += "&gt;";
    else if (c == '&')
      o += "&amp;";
    else if (c == '"')
      o += "&quot;";
    else
      o += c;
  }
  return o;
}

std::string SymbolOf(const board::ProgramFit& fit, const board::Placed& p) {
  bool split = false;
  for (const board::Split& s : fit.result.best.splits) split |= s.piece == p.piece;
  const std::string base = fit.info[p.piece].symbol;
  if (split) return fmt::format("etmem_planned_buffer_{}", fit.MemoryIdOf(p.piece, p.part));
  return "etmem_" + base;
}

std::string Upper(std::string s) {
  for (char& c : s)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return s;
}

}  // namespace

void AddBoardOptions(CLI::App* cmd, BoardArgs& args, bool required) {
  auto* o = cmd->add_option("--board", args.board,
                            "a built-in board (etmem list boards) or a board file (.json)");
  if (required) o->required();
  cmd->add_option(
         "--reserve", args.reserve,
         "REGION=BYTES: the rest of the firmware takes this much of a region (24K, 0x6000)")
      ->take_all();
}

Result<board::Board> LoadBoard(const BoardArgs& args) {
  ETMEM_TRY(board::Board b, board::SelectBoard(args.board));
  for (const std::string& r : args.reserve)
    if (auto s = board::AddReservation(b, r); !s) return s.error();
  return b;
}

std::string FitText(const report::Report& report, const board::ProgramFit& fit) {
  std::string o;
  o += fmt::format("{}: method '{}' on board {} ({})\n", report.program->path, fit.method,
                   fit.board.name, fit.board.file);
  o += "  assuming " + Assumptions(report) + "\n";
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
    o += fmt::format("  {:<44} {:>10} B, align {:>2} -> {} at +{}{}\n", PieceLabel(fit, p), p.bytes,
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

// The placed pieces of region `r`, lowest offset first.
static std::vector<board::Placed> InRegion(const board::ProgramFit& fit, size_t r) {
  std::vector<board::Placed> out;
  for (const board::Placed& p : fit.result.best.placed)
    if (p.region == r) out.push_back(p);
  std::stable_sort(out.begin(), out.end(), [](const board::Placed& a, const board::Placed& b) {
    return a.offset < b.offset;
  });
  return out;
}

std::string RegionsText(const board::ProgramFit& fit) {
  std::string o = fmt::format("Board {}: method '{}', region by region ({})\n", fit.board.name,
                              fit.method, fit.result.best.fits() ? "fits" : "does not fit");
  for (size_t r = 0; r < fit.regions.size(); ++r) {
    o += fmt::format("  {} ({} B free before, {} B used):\n", fit.regions[r].name,
                     fit.regions[r].free, fit.result.best.used[r]);
    for (const board::Placed& p : InRegion(fit, r))
      o += fmt::format("    +{:<8} {:>10} B  {}\n", p.offset, p.bytes, PieceLabel(fit, p));
  }
  return o;
}

std::string RegionsHtml(const board::ProgramFit& fit) {
  std::string o = fmt::format("<section class=\"board\"><h2>Board {}: method '{}' ({})</h2>\n",
                              HtmlEscape(fit.board.name), HtmlEscape(fit.method),
                              fit.result.best.fits() ? "fits" : "does not fit");
  for (size_t r = 0; r < fit.regions.size(); ++r) {
    o += fmt::format(
        "<h3>{} ({} B free before, {} B used)</h3>\n<table><tr><th>offset</th>"
        "<th>bytes</th><th>piece</th></tr>\n",
        HtmlEscape(fit.regions[r].name), fit.regions[r].free, fit.result.best.used[r]);
    for (const board::Placed& p : InRegion(fit, r))
      o += fmt::format("<tr><td>+{}</td><td>{}</td><td>{}</td></tr>\n", p.offset, p.bytes,
                       HtmlEscape(PieceLabel(fit, p)));
    o += "</table>\n";
  }
  return o + "</section>\n";
}

std::string HeaderBoardSection(const board::ProgramFit& fit) {
  std::string o =
      fmt::format("\n/* Board {} ({}): where each pool goes (etmem fit: {}). */\n", fit.board.name,
                  fit.board.file, fit.result.best.fits() ? "fits" : "DOES NOT FIT");
  for (const board::Placed& p : fit.result.best.placed) {
    const board::Region& region = fit.board.regions[p.region];
    const std::string sym = SymbolOf(fit, p);
    o += fmt::format("#define {}_REGION \"{}\"\n", Upper(sym), region.name);
    o += fmt::format("#define {}_BYTES {}u\n", Upper(sym), p.bytes);
    o += fmt::format("#define {}_ALIGN {}u\n", Upper(sym), p.align);
    if (!region.section.empty())
      o += fmt::format("#define {}_ATTRIBUTES __attribute__((section(\"{}\"), aligned({})))\n",
                       Upper(sym), region.section, p.align);
    else
      o += fmt::format("#define {}_ATTRIBUTES __attribute__((aligned({})))\n", Upper(sym), p.align);
  }
  o += "#ifdef ETMEM_DEFINE_BOARD_POOLS\n";
  for (const board::Placed& p : fit.result.best.placed) {
    const std::string sym = SymbolOf(fit, p);
    o += fmt::format("static unsigned char {}[{}_BYTES] {}_ATTRIBUTES;\n", sym, Upper(sym),
                     Upper(sym));
  }
  o += "#endif\n";
  return o;
}

std::string LinkerFragment(const board::ProgramFit& fit) {
  std::string o = fmt::format(
      "/* etmem fit: board {} ({}), method '{}'. Output sections for the "
      "regions etmem placed pools in; MEMORY names are the board's. */\n",
      fit.board.name, fit.board.file, fit.method);
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

}  // namespace etmem::cli
