// Owns: api::PerOp, api::RenderPerOp and api::PerOpJson, `etmem analyze --per-op`: the
// report's per-operator tables (analysis/per_op.h) sorted as asked, as public values, rendered, or
// as the JSON's value. Not: building or printing them (report/).
#include "etmem/analysis/per_op.h"

#include <memory>

#include "etmem/api/internal.h"
#include "etmem/report/per_op_render.h"

namespace etmem::api {
namespace {

std::vector<report::PerOpTable> PerOpTables(const Report& report, const std::string& sort) {
  const report::PerOpColumn column = Take(report::ParsePerOpColumn(sort));
  Result<std::vector<report::PerOpTable>> built = report::BuildPerOp(Internal(report));
  if (!built) {
    const etmem::Error& e = built.error();
    // A program the per-op table cannot read (a planned tensor of an unknown dtype): name it.
    Throw(etmem::Error{e.code, e.code == ErrorCode::kInvalidProgram
                                   ? report.program_name() + ": " + e.message
                                   : e.message});
  }
  for (report::PerOpTable& t : *built) report::SortPerOp(t, column);
  return std::move(built).value();
}

std::vector<PerOpBytes> PerOpBytesOf(const std::vector<report::PerOpBytes>& v) {
  std::vector<PerOpBytes> out;
  for (const report::PerOpBytes& b : v) out.push_back({b.memory_id, b.bytes});
  return out;
}

}  // namespace

std::vector<PerOpMethod> PerOp(const Report& report, const std::string& sort) {
  std::vector<PerOpMethod> out;
  for (const report::PerOpTable& t : PerOpTables(report, sort)) {
    PerOpMethod m;
    m.name = t.method;
    m.sorted_by = report::PerOpColumnName(t.sorted_by);
    m.refusal = t.refusal;
    for (const report::PerOpRow& r : t.rows)
      m.rows.push_back({r.index, r.chain, r.chain_instruction, report::PerOpKindName(r.kind), r.op,
                        r.library, r.live_bytes, PerOpBytesOf(r.live_by_memory_id), r.temp_bytes,
                        r.temp_unknown, r.constant_bytes, r.constants, r.stack_bytes});
    const report::PerOpTotals& s = t.totals;
    m.totals = {s.peak_live_bytes,
                s.peak_live_instruction,
                PerOpBytesOf(s.peak_live_by_memory_id),
                s.planned_bytes,
                PerOpBytesOf(s.planned_by_memory_id),
                s.temp_peak_bytes,
                s.temp_summed,
                s.temp_unknown_rows,
                s.constant_column_bytes,
                s.constant_bytes,
                s.constants,
                s.method_constant_bytes,
                s.method_constants,
                s.stack_bytes};
    m.notes = t.notes;
    out.push_back(std::move(m));
  }
  return out;
}

std::string RenderPerOp(const Report& report, Format format, const std::string& sort) {
  const std::vector<report::PerOpTable> tables = PerOpTables(report, sort);
  const report::Report& r = Internal(report);
  switch (format) {
    case Format::kText:
      return report::PerOpText(r, tables);
    case Format::kJson:
      return report::PerOpJson(r, tables);
    case Format::kCsv:
      return report::PerOpCsv(tables);
    case Format::kMarkdown:
      return report::PerOpMarkdown(r, tables);
  }
  throw Error(ErrorKind::kInvalidArgument, "unknown format");
}

JsonValue PerOpJson(const Report& report, const std::string& sort) {
  auto tables = std::make_shared<const std::vector<report::PerOpTable>>(PerOpTables(report, sort));
  return MakeJsonValue([report, tables](JsonVisitor& v) {
    report::VisitPerOpJson(Internal(report), *tables, v);
  });
}

}  // namespace etmem::api
