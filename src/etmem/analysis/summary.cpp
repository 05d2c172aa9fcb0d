// Owns: SummaryFigures, SummaryOfProgram and BiggestCost (see summary.h).
#include "etmem/analysis/summary.h"

#include <fmt/format.h>

#include "etmem/analysis/figures.h"
#include "etmem/plan/advise.h"
#include "etmem/plan/duplicate_constants.h"
#include "etmem/plan/lifetimes.h"
#include "etmem/plan/replan.h"
#include "etmem/runtime/labels.h"

namespace etmem::report {
namespace {

std::string BufferName(const MethodReport& m, uint32_t id) {
  return PlannedBuffers(m).size() == 1 ? "the planned buffer"
                                       : fmt::format("planned buffer {}", id);
}

constexpr uint64_t kAlignment = 16;  // what `etmem replan` aligns offsets to by default

}  // namespace

Result<MethodSummaryFigures> SummaryFigures(const pte::ProgramView& p, const MethodReport& m) {
  Result<plan::Lifetimes> lifetimes = plan::ComputeLifetimes(*m.method);
  if (!lifetimes) return MakeError(ErrorCode::kInvalidProgram, p.path + ": " + lifetimes.error().message);
  const plan::Lifetimes& l = *lifetimes;
  MethodSummaryFigures f;
  f.report = &m;
  const plan::MethodReplan replanned = plan::ReplanMethod(l, kAlignment);
  for (const plan::BufferReplan& b : replanned.buffers) {
    f.buffers.push_back({b.memory_id, b.before, b.after});
    f.replanned_total += b.after;
  }
  const std::vector<plan::Advice> advice = plan::Advise(*m.method, l, &replanned, kAlignment);
  for (const plan::Advice& a : advice)
    f.advice.push_back({plan::AdviceKindName(a.kind), a.value, a.bytes, a.op, a.instruction,
                        a.planned_saving(), a.memory_id, a.replanned, a.replanned_without,
                        a.cut_short});
  const std::vector<int64_t> advised =
      plan::ReplannedSizesWithout(l, replanned, plan::AdvisedValues(advice), kAlignment);
  for (size_t i = 1; i < advised.size(); ++i) f.advised_total += advised[i];
  return f;
}

ProgramSummary SummaryOfProgram(const Report& r) {
  const pte::ProgramView& program = *r.program;
  ProgramSummary s;
  s.report = &r;
  s.path = program.path;
  const std::vector<plan::DuplicateConstants> duplicates = plan::FindDuplicateConstants(program);
  for (const plan::DuplicateConstants& g : duplicates) s.duplicate_flash_bytes += g.flash_saving();
  s.duplicate_groups = duplicates.size();
  s.duplicate_ram_note = plan::DuplicateConstantsRam();
  return s;
}

// The largest of the method pool, each planned buffer and the temp allocator's peaks.
SummaryCost BiggestCost(const MethodSummaryFigures& f) {
  const MethodReport& m = *f.report;
  size_t top = 0;
  for (size_t c = 1; c < m.by_category.size(); ++c)
    if (m.by_category[c].bytes > m.by_category[top].bytes) top = c;
  SummaryCost cost{"method allocator pool", m.method_bytes,
                   fmt::format("the method allocator pool: {}{} B (largest part: {}, {} B)",
                               m.plan.exact() ? "" : "at least ", m.method_bytes,
                               runtime::CategoryName(static_cast<runtime::Category>(top)),
                               m.by_category[top].bytes)};
  for (const SummaryBuffer& b : f.buffers) {
    if (b.before < 0 || static_cast<uint64_t>(b.before) <= cost.bytes) continue;
    cost = {fmt::format("planned buffer {}", b.memory_id), static_cast<uint64_t>(b.before),
            fmt::format("{}: {} B", BufferName(m, b.memory_id), b.before)};
    if (b.after < b.before) cost.text += fmt::format(", {} B after etmem replan", b.after);
  }
  if (m.temp_load_peak_bytes > cost.bytes)
    cost = {"temp load peak", m.temp_load_peak_bytes,
            fmt::format("the temp allocator's peak during load: {} B", m.temp_load_peak_bytes)};
  if (m.run_temp.peak_bytes > cost.bytes)
    cost = {"temp run-time peak", m.run_temp.peak_bytes,
            fmt::format("the temp allocator's peak while running: {} B", m.run_temp.peak_bytes)};
  return cost;
}

}  // namespace etmem::report
