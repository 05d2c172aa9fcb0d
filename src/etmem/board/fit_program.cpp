// Owns: FitProgram (see fit_program.h).
#include "etmem/board/fit_program.h"
#include "etmem/base/printable.h"

#include <fmt/format.h>

#include <algorithm>

#include "etmem/base/checked_math.h"
#include "etmem/plan/check.h"
#include "etmem/plan/lifetimes.h"
#include "etmem/analysis/figures.h"
#include "etmem/analysis/run_temp_text.h"
#include "etmem/analysis/runner_rows.h"
#include "etmem/runner/profile.h"

namespace etmem::board {
namespace {

// The run-time figure the temp pool is raised to, in the words every format uses.
std::string RunTempNote(const report::MethodReport& m) {
  return "temp allocator while running: " + report::RunTempLine(m);
}

std::string Identifier(std::string s) {
  for (char& c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9'))) c = '_';
  return s;
}

}  // namespace

uint32_t ProgramFit::MemoryIdOf(size_t piece, size_t part) const {
  const Piece& p = pieces[piece];
  if (p.memory_id == 0) return 0;
  if (part == 0) return p.memory_id;
  // Extra parts are numbered after the method's buffers, split by split, part by part.
  uint32_t next = 0;
  for (const Piece& q : pieces) next = std::max(next, q.memory_id);
  ++next;
  for (const Split& s : result.best.splits) {
    for (size_t k = 1; k < s.part_bytes.size(); ++k, ++next)
      if (s.piece == piece && k == part) return next;
  }
  return 0;
}

Result<ProgramFit> FitProgram(const report::Report& report, const Board& board,
                              const std::string& method,
                              const std::optional<report::Margin>& method_pool_margin) {
  const auto with_margin = [&](uint64_t bytes) {
    return method_pool_margin ? SaturatingAdd(bytes, method_pool_margin->For(bytes)) : bytes;
  };
  const report::MethodReport* m = nullptr;
  for (const report::MethodReport& mr : report.methods)
    if (method.empty() || mr.method->name == method) {
      m = &mr;
      break;
    }
  if (!m)
    return MakeError(ErrorCode::kInvalidArgument,
                     report.program->path + ": no method '" + Printable(method) + "'");
  ProgramFit fit;
  fit.board = board;
  fit.method = std::string(m->method->name);
  for (const Region& r : board.regions)
    fit.regions.push_back({r.name, r.free_bytes(), r.base_align});
  const report::Assumptions& a = report.assumptions;
  bool planned_apart = true;
  if (m->runner) {
    const report::RunnerReport& r = *m->runner;
    planned_apart = !report::RunnerHoldsPlannedBuffers(r);
    for (size_t i = 0; i < r.result.pools.size(); ++i) {
      const runner::PoolSpec& spec = r.pool_spec(r.result.pools[i].pool);
      Piece p;
      p.name = spec.macro.empty() ? spec.variable : spec.macro;
      p.bytes = report::RunnerPoolBytes(*m, r.result.pools[i]);  // a temp pool: load or run
      if (r.result.pools[i].pool == r.result.method_pool) p.bytes = with_margin(p.bytes);
      p.align = r.plan.pools[r.result.pools[i].pool].base_align;
      fit.pieces.push_back(p);
      fit.info.push_back({Identifier(spec.variable), spec.macro});
    }
    fit.notes.push_back("the runner's pools as it declares them, each at its minimum" +
                        std::string(planned_apart ? "" : " (its planned buffers inside its pool)") +
                        "; a temp pool at the larger of its load peak and the run-time peak" +
                        (m->plan.metadata.temp_floor_bytes > 0
                             ? fmt::format(" and, on this release, no smaller than {} B (below "
                                           "it a kernel call's operator metadata would move to "
                                           "the method pool)",
                                           m->plan.metadata.temp_floor_bytes)
                             : std::string()));
    fit.notes.push_back(RunTempNote(*m));
  } else {
    Piece pool;
    pool.name = "method allocator pool";
    pool.bytes = with_margin(m->method_bytes);
    pool.align = a.pool_align;
    fit.pieces.push_back(pool);
    fit.info.push_back({"method_allocator_pool", ""});
    if (a.temp_allocator) {
      Piece temp;
      temp.name = "temp allocator pool";
      temp.bytes = report::TempPoolBytes(*m);
      temp.align = a.pool_align;
      fit.pieces.push_back(temp);
      fit.info.push_back({"temp_allocator_pool", ""});
      fit.notes.push_back(fmt::format(
          "the temp allocator pool at the larger of its load_method peak ({} B) and its run-time "
          "peak ({} B)",
          m->temp_load_peak_bytes, m->run_temp.peak_bytes));
      fit.notes.push_back(RunTempNote(*m));
    }
  }
  if (planned_apart) {
    ETMEM_TRY(plan::Lifetimes l, plan::ComputeLifetimes(*m->method));
    const std::vector<plan::Storage> storages = plan::Storages(l);
    const bool sound = plan::Validate(l).sound();
    if (!sound) fit.notes.push_back("the program's plan is not sound: its buffers are not split");
    for (size_t id = 1; id < l.planned_buffer_sizes.size(); ++id) {
      Piece p;
      p.name = "planned buffer " + std::to_string(id);
      p.bytes = static_cast<uint64_t>(std::max<int64_t>(0, l.planned_buffer_sizes[id]));
      p.align = static_cast<uint32_t>(kPlannedAlign);
      p.memory_id = static_cast<uint32_t>(id);
      p.splittable = sound;
      for (const plan::Storage& s : storages) {
        if (s.memory_id != id) continue;
        // Keep each storage's offset modulo kPlannedAlign: its members keep their alignment.
        p.storage.push_back({s.bytes + s.offset % kPlannedAlign, s.used, s.first, s.last});
      }
      fit.pieces.push_back(p);
      fit.info.push_back({"planned_buffer_" + std::to_string(id), ""});
    }
    fit.result = Fit(fit.regions, fit.pieces);
    if (!fit.result.best.splits.empty()) {
      plan::PlanEdit e;
      e.method = static_cast<size_t>(m->method - report.program->methods.data());
      e.planned_buffer_sizes = l.planned_buffer_sizes;
      for (const Split& s : fit.result.best.splits)
        for (size_t k = 1; k < s.part_bytes.size(); ++k) e.planned_buffer_sizes.push_back(0);
      // Storage items, in the order FitProgram built them, per split buffer.
      for (const Split& s : fit.result.best.splits) {
        const uint32_t id = fit.pieces[s.piece].memory_id;
        if (s.part_bytes.empty()) continue;  // no region at all: nothing was placed
        e.planned_buffer_sizes[id] = static_cast<int64_t>(s.part_bytes[0]);
        size_t item = 0;
        for (const plan::Storage& st : storages) {
          if (st.memory_id != id) continue;
          const uint32_t new_id = fit.MemoryIdOf(s.piece, s.part_of[item]);
          const uint64_t base = st.offset - st.offset % kPlannedAlign;
          for (size_t member : st.members) {
            const plan::PlannedTensor& t = l.tensors[member];
            e.values.push_back(t.value);
            e.offsets.push_back(s.offset_of[item] + (t.offset - base));
            e.memory_ids.push_back(new_id);
          }
          ++item;
        }
        for (size_t k = 1; k < s.part_bytes.size(); ++k)
          e.planned_buffer_sizes[fit.MemoryIdOf(s.piece, k)] =
              static_cast<int64_t>(s.part_bytes[k]);
      }
      fit.edit = std::move(e);
    }
  } else {
    fit.result = Fit(fit.regions, fit.pieces);
  }
  return fit;
}

std::string PieceLabel(const ProgramFit& fit, const Placed& p) {
  const Piece& piece = fit.pieces[p.piece];
  bool split = false;
  for (const Split& s : fit.result.best.splits) split |= s.piece == p.piece;
  if (!split) return piece.name;
  return fmt::format("{}, part {} (memory id {})", piece.name, p.part + 1,
                     fit.MemoryIdOf(p.piece, p.part));
}

std::string SymbolOf(const ProgramFit& fit, const Placed& p) {
  bool split = false;
  for (const Split& s : fit.result.best.splits) split |= s.piece == p.piece;
  const std::string base = fit.info[p.piece].symbol;
  if (split) return fmt::format("etmem_planned_buffer_{}", fit.MemoryIdOf(p.piece, p.part));
  return "etmem_" + base;
}

std::vector<Placed> InRegion(const ProgramFit& fit, size_t r) {
  std::vector<Placed> out;
  for (const Placed& p : fit.result.best.placed)
    if (p.region == r) out.push_back(p);
  std::stable_sort(out.begin(), out.end(), [](const Placed& a, const Placed& b) {
    return a.offset < b.offset;
  });
  return out;
}

}  // namespace etmem::board
