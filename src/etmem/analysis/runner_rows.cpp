// Owns: RunnerRows and the runner words the formats share (runner_rows.h).
#include "etmem/analysis/runner_rows.h"

#include <fmt/format.h>

#include <algorithm>

namespace etmem::report {

std::string RunnerPoolName(const runner::PoolSpec& pool) {
  return pool.macro.empty() ? pool.variable : pool.macro;
}

std::string RunnerPoolTitle(const runner::PoolSpec& pool) {
  return pool.macro.empty() ? pool.variable : pool.macro + " (" + pool.variable + ")";
}

std::vector<RunnerRow> RunnerRows(const RunnerReport& r, const sim::RunnerPoolResult& pool) {
  std::vector<RunnerRow> rows;
  for (const sim::RunnerEntry& e : pool.entries) {
    const runner::RunnerRequest& q = r.plan.requests[e.request];
    RunnerRow row;
    row.offset = e.offset;
    row.first = e.first;
    row.end = e.end;
    row.bytes = e.bytes;
    row.padding = e.padding;
    row.align = e.align;
    row.written = e.written;
    row.allocations = e.allocations;
    if (e.load_method) {
      row.by = "load_method";
      row.what = pool.temp_role ? fmt::format(
                                      "{} allocation(s) of the temp allocator, reset after each "
                                      "operator",
                                      e.allocations)
                                : fmt::format("{} allocation(s), {} B of them padding",
                                              e.allocations, e.padding);
    } else {
      row.by = "runner";
      row.what = q.what;
    }
    rows.push_back(std::move(row));
  }
  return rows;
}

bool RunnerHoldsPlannedBuffers(const RunnerReport& r) {
  const std::vector<std::string>& on = r.plan.options;
  for (const runner::StepSpec& s : r.plan.profile->steps)
    if (s.kind == runner::StepKind::kPlannedBuffers &&
        runner::WhenHolds(s.when, on))
      return true;
  return false;
}

std::string RunnerFailureWhat(const RunnerReport& r, const sim::RunnerFailure& f) {
  const runner::RunnerRequest& q = r.plan.requests[f.request];
  if (f.load_request)
    return fmt::format("load_method's allocation #{}: {}", *f.load_request, r.failing_load_what);
  return fmt::format("the runner's {} ({} B, align {})", q.what, q.size, q.align);
}

std::string RunnerPoolAlignText(const RunnerReport& r) {
  std::string out;
  for (const runner::PlannedPool& p : r.plan.pools)
    out += fmt::format("{}{} base aligned to {} B (not {})", out.empty() ? "" : ", ",
                       p.spec->variable, p.base_align, 2 * p.base_align);
  return out;
}

}  // namespace etmem::report
