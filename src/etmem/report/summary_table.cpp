// Owns: BuildSummary, the cells of the CSV and Markdown summaries.
#include "etmem/report/summary_table.h"

#include <cctype>
#include <string>

#include "etmem/analysis/figures.h"
#include "etmem/analysis/runner_rows.h"
#include "etmem/analysis/verdict.h"
#include "etmem/runtime/labels.h"

namespace etmem::report {
namespace {

std::string CategoryColumn(size_t c) {
  std::string name = runtime::CategoryName(static_cast<runtime::Category>(c));
  for (char& ch : name)
    if (!std::isalnum(static_cast<unsigned char>(ch))) ch = '_';
  return name + "_bytes";
}

std::vector<std::string> Columns(const SummaryOptions& o, bool runner) {
  std::vector<std::string> out = {
      "program",        "runtime",           "target",      "method",          "pool_align",
      "temp_allocator", "method_pool_bytes", "exact",       "temp_load_bytes", "planned_buffers",
      "planned_bytes",  "ram_bytes",         "flash_bytes", "pool_fits",       "refused"};
  if (o.by_category)
    for (size_t c = 0; c < static_cast<size_t>(runtime::Category::kCount); ++c)
      out.push_back(CategoryColumn(c));
  if (runner)
    for (const char* c : {"runner", "runner_method_pool", "runner_method_pool_bytes",
                          "runner_pools", "runner_pool_fits"})
      out.push_back(c);
  // Last, so the columns before them keep their places.
  for (const char* c : {"temp_run_bytes", "temp_run_exact", "temp_pool_bytes", "verdict",
                        "refusal"})
    out.push_back(c);
  return out;
}

std::string YesNo(bool v) { return v ? "yes" : "no"; }

std::vector<std::string> Row(const Report& r, const MethodReport& m, const SummaryOptions& o,
                             bool runner) {
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
  if (runner && !m.runner) row.insert(row.end(), 5, "");
  if (runner && m.runner) {
    const RunnerReport& rr = *m.runner;
    std::string pools;
    for (const sim::RunnerPoolResult& p : rr.result.pools)
      pools += (pools.empty() ? "" : " ") + RunnerPoolName(rr.pool_spec(p.pool)) + "=" +
               std::to_string(p.minimum);
    row.push_back(rr.plan.profile->name);
    row.push_back(RunnerPoolName(rr.pool_spec(rr.result.method_pool)));
    row.push_back(std::to_string(rr.result.method().minimum));
    row.push_back(pools);
    row.push_back(rr.result.check ? YesNo(rr.result.check->fits()) : "");
  }
  row.push_back(std::to_string(m.run_temp.peak_bytes));
  row.push_back(YesNo(m.run_temp.known()));
  row.push_back(std::to_string(TempPoolBytes(m)));
  row.push_back(VerdictName(JudgeMethod(r, m).kind));
  row.push_back(m.plan.refusal ? m.plan.refusal->reason : "");
  if (m.plan.refusal) {
    // A release that refuses the method has no figures: its row says so and holds no bytes.
    const std::vector<std::string> columns = Columns(o, runner);
    for (size_t i = 0; i < row.size(); ++i) {
      const std::string& c = columns[i];
      if (c != "program" && c != "runtime" && c != "target" && c != "method" &&
          c != "pool_align" && c != "temp_allocator" && c != "refused" && c != "verdict" &&
          c != "refusal" && c != "runner" && c != "runner_method_pool")
        row[i].clear();
    }
  }
  return row;
}

}  // namespace

SummaryTable BuildSummary(const std::vector<Report>& reports, const SummaryOptions& options) {
  SummaryTable t;
  bool runner = false;
  for (const Report& r : reports) runner |= !r.assumptions.runner.empty();
  t.columns = Columns(options, runner);
  for (const Report& r : reports)
    for (const MethodReport& m : r.methods) t.rows.push_back(Row(r, m, options, runner));
  return t;
}

}  // namespace etmem::report
