// Owns: BuildSummary, the cells of the CSV and Markdown summaries.
#include "etmem/report/summary_table.h"

#include <cctype>
#include <string>

#include "etmem/report/figures.h"
#include "etmem/runtime/labels.h"

namespace etmem::report {
namespace {

std::string CategoryColumn(size_t c) {
  std::string name = runtime::CategoryName(static_cast<runtime::Category>(c));
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name + "_bytes";
}

std::vector<std::string> Columns(const SummaryOptions& o) {
  std::vector<std::string> out = {
      "program",        "runtime",           "target",      "method",          "pool_align",
      "temp_allocator", "method_pool_bytes", "exact",       "temp_load_bytes", "planned_buffers",
      "planned_bytes",  "ram_bytes",         "flash_bytes", "pool_fits",       "refused"};
  if (o.by_category)
    for (size_t c = 0; c < static_cast<size_t>(runtime::Category::kCount); ++c)
      out.push_back(CategoryColumn(c));
  return out;
}

std::string YesNo(bool v) { return v ? "yes" : "no"; }

std::vector<std::string> Row(const Report& r, const MethodReport& m, const SummaryOptions& o) {
  const Assumptions& a = r.assumptions;
  std::vector<std::string> row = {r.program->path,
                                  a.runtime,
                                  a.target,
                                  std::string(m.method->name),
                                  std::to_string(a.pool_align),
                                  a.temp_allocator ? "nonnull" : "null",
                                  std::to_string(m.method_bytes),
                                  YesNo(m.plan.exact()),
                                  std::to_string(m.temp_load_peak_bytes),
                                  std::to_string(PlannedBuffers(m).size()),
                                  std::to_string(PlannedBytes(m)),
                                  std::to_string(RamBytes(m)),
                                  std::to_string(r.flash.file_bytes),
                                  m.pool_check ? YesNo(m.pool_check->fits) : "",
                                  m.plan.refusal ? m.plan.refusal->error : ""};
  if (o.by_category)
    for (const CategoryTotal& t : m.by_category) row.push_back(std::to_string(t.bytes));
  return row;
}

}  // namespace

SummaryTable BuildSummary(const std::vector<Report>& reports, const SummaryOptions& options) {
  SummaryTable t;
  t.columns = Columns(options);
  for (const Report& r : reports)
    for (const MethodReport& m : r.methods) t.rows.push_back(Row(r, m, options));
  return t;
}

}  // namespace etmem::report
