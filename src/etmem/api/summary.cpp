// Owns: api::Summary and api::SummaryJson, `etmem summary`'s model (report::ProgramSummary)
// filled from the report and the planned-memory stage (re-planned sizes, advisories, duplicate
// constants; the run-time temp allocator is the report's own), rendered by report/ or given as
// a value. Not: the text (report/summary_report.cpp).
#include "etmem/api/internal.h"
#include "etmem/plan/advise.h"
#include "etmem/plan/duplicate_constants.h"
#include "etmem/plan/lifetimes.h"
#include "etmem/plan/replan.h"
#include "etmem/report/summary_report.h"

namespace etmem::api {
namespace {

constexpr uint64_t kAlignment = 16;  // what `etmem replan` aligns offsets to by default

report::MethodSummaryFigures Figures(const pte::ProgramView& p, const report::MethodReport& m) {
  Result<plan::Lifetimes> lifetimes = plan::ComputeLifetimes(*m.method);
  if (!lifetimes) throw Error(ErrorKind::kInvalidProgram, p.path + ": " + lifetimes.error().message);
  const plan::Lifetimes& l = *lifetimes;
  report::MethodSummaryFigures f;
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


// The summary's values (report::ProgramSummary), which its text and JSON are written from.
report::ProgramSummary BuildSummary(const Report& report) {
  const report::Report& r = Internal(report);
  const pte::ProgramView& program = *r.program;
  report::ProgramSummary s;
  s.report = &r;
  s.path = program.path;
  const std::vector<plan::DuplicateConstants> duplicates = plan::FindDuplicateConstants(program);
  for (const plan::DuplicateConstants& g : duplicates) s.duplicate_flash_bytes += g.flash_saving();
  s.duplicate_groups = duplicates.size();
  s.duplicate_ram_note = plan::DuplicateConstantsRam();
  for (const report::MethodReport& m : r.methods) {
    if (m.plan.refusal)
      throw Error(ErrorKind::kUnsupported, RefusalLine(r, m));
    s.methods.push_back(Figures(program, m));
  }
  return s;
}

}  // namespace

std::string Summary(const Report& report, Format format) {
  if (format == Format::kCsv || format == Format::kMarkdown)
    throw Error(ErrorKind::kInvalidArgument,
                "etmem summary renders text or JSON, not CSV or Markdown");
  const report::ProgramSummary s = BuildSummary(report);
  return format == Format::kJson ? report::SummaryToJson(s) : report::SummaryToText(s);
}

JsonValue SummaryJson(const Report& report) {
  auto dom = std::make_shared<const nlohmann::ordered_json>(report::SummaryDom(BuildSummary(report)));
  return MakeJsonValue([dom](JsonVisitor& v) { report::VisitDom(*dom, v); });
}

}  // namespace etmem::api
