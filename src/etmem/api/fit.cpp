// Owns: the boards and fits of include/etmem/etmem.h (Board, Boards, Fit, BoardFit) over
// src/etmem/board/, and their text: what `etmem fit` prints, the placement region by region
// (`plan --board`), the header's board section and the GNU ld fragment (`header --board
// --linker-script`), and the fitted program read back and checked. Not: the search or the board
// files (src/etmem/board/), the options and files of the command line (tools/etmem).
#include <fmt/format.h>

#include <algorithm>
#include <cstring>
#include <fstream>
#include <map>

#include "etmem/api/internal.h"
#include "etmem/base/printable.h"
#include "etmem/board/board.h"
#include "etmem/board/fit_program.h"
#include "etmem/plan/check.h"
#include "etmem/analysis/assumptions.h"
#include "etmem/report/fit_json.h"
#include "etmem/report/html_report.h"
#include "etmem/plan/lifetimes.h"
#include "etmem/plan/rewrite.h"
#include "etmem/pte/mapped_file.h"
#include "etmem/pte/read_program.h"

namespace etmem::api {
namespace {

std::string PieceLabel(const board::ProgramFit& fit, const board::Placed& p) {
  const board::Piece& piece = fit.pieces[p.piece];
  bool split = false;
  for (const board::Split& s : fit.result.best.splits) split |= s.piece == p.piece;
  if (!split) return piece.name;
  return fmt::format("{}, part {} (memory id {})", piece.name, p.part + 1,
                     fit.MemoryIdOf(p.piece, p.part));
}

std::string SymbolOf(const board::ProgramFit& fit, const board::Placed& p) {
  bool split = false;
  for (const board::Split& s : fit.result.best.splits) split |= s.piece == p.piece;
  const std::string base = fit.info[p.piece].symbol;
  if (split) return fmt::format("etmem_planned_buffer_{}", fit.MemoryIdOf(p.piece, p.part));
  return "etmem_" + base;
}

std::string FitUpper(std::string s) {
  for (char& c : s)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return s;
}

}  // namespace

static std::string FitText(const report::Report& report, const board::ProgramFit& fit) {
  std::string o;
  o += fmt::format("{}: method '{}' on board {} ({})\n", report.program->path, Printable(fit.method),
                   fit.board.name, fit.board.file);
  o += "  assuming " + report::AssumptionSentence(report.assumptions, report::FitWording()) + "\n";
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

std::string FitRegionsText(const board::ProgramFit& fit) {
  std::string o = fmt::format("Board {}: method '{}', region by region ({})\n", fit.board.name,
                              Printable(fit.method), fit.result.best.fits() ? "fits" : "does not fit");
  for (size_t r = 0; r < fit.regions.size(); ++r) {
    o += fmt::format("  {} ({} B free before, {} B used):\n", fit.regions[r].name,
                     fit.regions[r].free, fit.result.best.used[r]);
    for (const board::Placed& p : InRegion(fit, r))
      o += fmt::format("    +{:<8} {:>10} B  {}\n", p.offset, p.bytes, PieceLabel(fit, p));
  }
  return o;
}

std::string FitRegionsHtml(const board::ProgramFit& fit) {
  std::string o = fmt::format("<section class=\"board\"><h2>Board {}: method '{}' ({})</h2>\n",
                              report::HtmlEscape(fit.board.name), report::HtmlEscape(fit.method),
                              fit.result.best.fits() ? "fits" : "does not fit");
  for (size_t r = 0; r < fit.regions.size(); ++r) {
    o += fmt::format(
        "<h3>{} ({} B free before, {} B used)</h3>\n<table><tr><th>offset</th>"
        "<th>bytes</th><th>piece</th></tr>\n",
        report::HtmlEscape(fit.regions[r].name), fit.regions[r].free, fit.result.best.used[r]);
    for (const board::Placed& p : InRegion(fit, r))
      o += fmt::format("<tr><td>+{}</td><td>{}</td><td>{}</td></tr>\n", p.offset, p.bytes,
                       report::HtmlEscape(PieceLabel(fit, p)));
    o += "</table>\n";
  }
  return o + "</section>\n";
}

board::ProgramFit HeaderFit(const Report& report, const HeaderOptions& header) {
  const report::Report& r = Internal(report);
  const std::string& method = report.impl().options.method;
  for (const report::MethodReport& m : r.methods)
    if (m.plan.refusal && (method.empty() || m.method->name == method))
      throw api::Error(ErrorKind::kUnsupported, RefusalLine(r, m));
  std::optional<report::Margin> margin;
  if (!header.margin.empty()) margin = Take(report::ParseMargin(header.margin));
  board::ProgramFit fit = Take(board::FitProgram(r, header.board->impl().board, method, margin));
  if (fit.edit)
    throw api::Error(ErrorKind::kInvalidArgument,
                     r.program->path + ": its planned buffers fit board " + header.board->name() +
                         " only split: run etmem fit -o FITTED.pte and make the header of that");
  return fit;
}

report::CHeaderBoard HeaderBoard(const board::ProgramFit& fit, bool runner) {
  using Pool = report::CHeaderPlacement::Pool;
  report::CHeaderBoard out{fit.board.name, fit.board.file, fit.method, fit.result.best.fits(), {}};
  size_t runner_pool = 0;
  for (size_t piece = 0; piece < fit.pieces.size(); ++piece) {
    report::CHeaderPlacement pl;
    const board::Piece& p = fit.pieces[piece];
    if (p.memory_id != 0) {
      pl.pool = Pool::kPlannedBuffer;
      pl.memory_id = p.memory_id;
    } else if (runner) {
      pl.pool = Pool::kRunnerPool;
      pl.runner_pool = runner_pool++;
    } else {
      pl.pool = fit.info[piece].symbol == "temp_allocator_pool" ? Pool::kTempPool : Pool::kMethodPool;
    }
    for (const board::Placed& placed : fit.result.best.placed) {
      if (placed.piece != piece) continue;
      const board::Region& region = fit.board.regions[placed.region];
      pl.bytes = placed.bytes;
      pl.region = region.name;
      pl.section = region.section;
      pl.align = placed.align;
      out.pools.push_back(pl);
    }
  }
  return out;
}

static std::string LinkerFragment(const board::ProgramFit& fit) {
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


// --- Board ---

namespace {

Board WrapBoard(board::Board b) {
  return Board(std::make_shared<const Board::Impl>(Board::Impl{std::move(b)}));
}

}  // namespace

Board Board::Open(const std::string& name_or_path) {
  return WrapBoard(Take(board::SelectBoard(name_or_path)));
}

Board Board::FromJson(std::string_view json, const std::string& name) {
  board::Board b = Take(board::ParseBoard(json, name));
  b.file = name;  // as a board file read from a path is named by it
  return WrapBoard(std::move(b));
}

Board Board::Reserve(const std::string& spec) const {
  board::Board b = impl_->board;
  if (auto s = board::AddReservation(b, spec); !s) Throw(s.error());
  return WrapBoard(std::move(b));
}

const std::string& Board::name() const { return impl_->board.name; }
const std::string& Board::description() const { return impl_->board.description; }
const std::string& Board::file() const { return impl_->board.file; }
std::vector<std::string> Board::sources() const { return impl_->board.sources; }
std::string Board::core() const { return impl_->board.core ? impl_->board.core->name : ""; }
std::string Board::core_m_extension() const {
  return impl_->board.core ? abi::MExtensionName(impl_->board.core->m_extension) : "";
}

std::vector<BoardRegion> Board::regions() const {
  std::vector<BoardRegion> out;
  for (const board::Region& r : impl_->board.regions) {
    BoardRegion o{r.name, r.origin, r.size, r.base_align, r.section, {}, r.free_bytes(), r.comment};
    for (const board::Reservation& res : r.reserved) o.reserved.push_back({res.name, res.bytes});
    out.push_back(std::move(o));
  }
  return out;
}

std::vector<Board> Boards() {
  std::vector<Board> out;
  for (const auto& b : board::BuiltinBoards()) out.push_back(WrapBoard(*b));
  return out;
}

// --- Fit ---

BoardFit Fit(const Report& report, const Board& board, const std::string& method) {
  const report::Report& r = Internal(report);
  for (const report::MethodReport& m : r.methods)
    if (m.plan.refusal && (method.empty() || m.method->name == method))
      throw api::Error(ErrorKind::kUnsupported, RefusalLine(r, m));
  board::ProgramFit fit = Take(board::FitProgram(r, board.impl().board, method));
  return BoardFit(std::make_shared<const BoardFit::Impl>(
      BoardFit::Impl{report, board, std::move(fit)}));
}

const std::string& BoardFit::method() const { return impl_->fit.method; }
const Board& BoardFit::board() const { return impl_->board; }
bool BoardFit::fits() const { return impl_->fit.result.best.fits(); }
uint64_t BoardFit::short_bytes() const { return impl_->fit.result.best.short_bytes; }
uint64_t BoardFit::lower_bound_short_bytes() const { return impl_->fit.result.bound.short_bytes; }
std::string BoardFit::lower_bound_reason() const { return impl_->fit.result.bound.reason; }
std::vector<std::string> BoardFit::notes() const { return impl_->fit.notes; }
bool BoardFit::splits() const { return impl_->fit.edit.has_value(); }

std::vector<FitPlacement> BoardFit::placement() const {
  const board::ProgramFit& fit = impl_->fit;
  std::vector<FitPlacement> out;
  for (const board::Placed& p : fit.result.best.placed)
    out.push_back({PieceLabel(fit, p), fit.regions[p.region].name, p.offset, p.padding, p.bytes,
                   p.align, fit.MemoryIdOf(p.piece, p.part), SymbolOf(fit, p)});
  return out;
}

std::vector<FitRegion> BoardFit::regions() const {
  const board::ProgramFit& fit = impl_->fit;
  std::vector<FitRegion> out;
  for (size_t r = 0; r < fit.regions.size(); ++r)
    out.push_back({fit.regions[r].name, fit.regions[r].free, fit.result.best.used[r]});
  return out;
}

std::string BoardFit::Render() const { return FitText(Internal(impl_->report), impl_->fit); }

namespace {
report::FitValues ValuesOf(const BoardFit& f) {
  return {f.method(), f.board().name(),  f.board().file(), f.fits(),
          f.splits(), f.short_bytes(),   f.lower_bound_short_bytes(),
          f.lower_bound_reason(),        f.regions(),      f.placement(),
          f.notes()};
}
}  // namespace

Verdict Judge(const BoardFit& fit) {
  return ToApi(report::JudgeFit(ValuesOf(fit), Internal(fit.impl().report)));
}

std::string BoardFit::Render(Format format, const std::optional<Written>& written) const {
  switch (format) {
    case Format::kText: return Render() + (written ? report::FitWrittenLine(splits(), *written) : "");
    case Format::kJson: return report::FitJson(ValuesOf(*this), Internal(impl_->report), written);
    case Format::kCsv:
    case Format::kMarkdown: break;
  }
  throw api::Error(ErrorKind::kInvalidArgument, "etmem fit renders text or JSON, not CSV or Markdown");
}

BoardFit::Written BoardFit::Write(const std::string& path) const {
  const std::vector<std::byte> bytes = FittedProgram();
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  f.close();
  if (!f) throw api::Error(ErrorKind::kIo, Printable(path, kShownPathBytes) + ": cannot write the program");
  return {path, bytes.size()};
}

std::string BoardFit::LinkerScript() const { return LinkerFragment(impl_->fit); }

std::string HeaderLinkerScript(const Report& report, const HeaderOptions& header) {
  if (!header.board) throw api::Error(ErrorKind::kInvalidArgument, "--linker-script needs --board");
  return LinkerFragment(HeaderFit(report, header));
}

std::vector<std::byte> BoardFit::FittedProgram() const {
  const board::ProgramFit& fit = impl_->fit;
  const Program& program = impl_->report.impl().program;
  const pte::ProgramView& view = Internal(program);
  std::vector<uint8_t> bytes;
  if (fit.edit) {
    bytes = Take(plan::RewritePlan(view, {*fit.edit}));
  } else {
    std::span<const uint8_t> in = view.file->bytes();
    bytes.assign(in.begin(), in.end());
  }
  // Read back: every plan sound, and the fitted method's pool what the original's was (only
  // planned offsets, memory ids and buffer sizes changed).
  const std::string name = view.path + " (fitted)";
  const Program back = Program::FromBytes(bytes.data(), bytes.size(), name);
  for (const pte::MethodView& m : Internal(back).methods) {
    const plan::Lifetimes l = Take(plan::ComputeLifetimes(m));
    if (!plan::Validate(l).sound())
      throw api::Error(ErrorKind::kInvalidProgram, name + ": the fitted method '" +
                                                       Printable(m.name) +
                                                       "' is not sound (a bug in etmem)");
  }
  Options options = impl_->report.impl().options;
  options.method = fit.method;
  uint64_t before = 0, after = 0;
  for (const report::MethodReport& m : Internal(impl_->report).methods)
    if (m.method->name == fit.method) before = m.method_bytes;
  const Report again = Analyze(back, options, impl_->board);
  for (const report::MethodReport& m : Internal(again).methods)
    if (m.method->name == fit.method) after = m.method_bytes;
  if (before != after)
    throw api::Error(ErrorKind::kInvalidProgram,
                     name + ": the fitted program needs a different method pool (a bug in etmem)");
  std::vector<std::byte> out(bytes.size());
  std::memcpy(out.data(), bytes.data(), bytes.size());
  return out;
}

}  // namespace etmem::api
