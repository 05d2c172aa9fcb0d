// Owns: the boards and fits of include/etmem/etmem.h (Board, Boards, Fit, BoardFit) over
// src/etmem/board/: the fit made and kept, the header's board section as a value (HeaderBoard),
// and the fitted program read back and checked. Not: the search or the board files
// (src/etmem/board/), the text, HTML, JSON and ld fragment of a fit (report/fit_render.h,
// report/fit_json.h), the options and files of the command line (tools/etmem).
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
#include "etmem/report/fit_json.h"
#include "etmem/report/fit_render.h"
#include "etmem/plan/lifetimes.h"
#include "etmem/plan/rewrite.h"
#include "etmem/pte/mapped_file.h"
#include "etmem/pte/read_program.h"

namespace etmem::api {
namespace {

std::string FitUpper(std::string s) {
  for (char& c : s)
    if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
  return s;
}

}  // namespace

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

Board Board::Reserve(const std::string& region, uint64_t bytes) const {
  board::Board b = impl_->board;
  if (auto s = board::AddReservation(b, region, bytes); !s) Throw(s.error());
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
    out.push_back({board::PieceLabel(fit, p), fit.regions[p.region].name, p.offset, p.padding, p.bytes,
                   p.align, fit.MemoryIdOf(p.piece, p.part), board::SymbolOf(fit, p)});
  return out;
}

std::vector<FitRegion> BoardFit::regions() const {
  const board::ProgramFit& fit = impl_->fit;
  std::vector<FitRegion> out;
  for (size_t r = 0; r < fit.regions.size(); ++r)
    out.push_back({fit.regions[r].name, fit.regions[r].free, fit.result.best.used[r]});
  return out;
}

std::string BoardFit::Render() const {
  return report::FitText(Internal(impl_->report), impl_->fit);
}

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

JsonValue FitJson(const BoardFit& fit, const std::optional<BoardFit::Written>& written) {
  auto dom = std::make_shared<const nlohmann::ordered_json>(
      report::FitDom(ValuesOf(fit), Internal(fit.impl().report), written));
  return MakeJsonValue([dom](JsonVisitor& v) { report::VisitDom(*dom, v); });
}

BoardFit::Written BoardFit::Write(const std::string& path) const {
  const std::vector<std::byte> bytes = FittedProgram();
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  f.close();
  if (!f) throw api::Error(ErrorKind::kIo, Printable(path, kShownPathBytes) + ": cannot write the program");
  return {path, bytes.size()};
}

std::string BoardFit::LinkerScript() const { return report::FitLinkerScript(impl_->fit); }

std::string HeaderLinkerScript(const Report& report, const HeaderOptions& header) {
  if (!header.board) throw api::Error(ErrorKind::kInvalidArgument, "--linker-script needs --board");
  return report::FitLinkerScript(HeaderFit(report, header));
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
