// Owns: figures derived from a method report that several formats, the diff and the budget
// share, so they all add up the same way. Not: computing the report (build_report.cpp).
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "etmem/base/checked_math.h"
#include "etmem/analysis/report.h"

namespace etmem::report {

// The planned buffers as MethodMeta::memory_planned_buffer_size(i) reports them: the stored
// list without its reserved leading entry.
inline std::vector<uint64_t> PlannedBuffers(const MethodReport& m) {
  std::vector<uint64_t> out;
  const auto& sizes = m.method->planned_buffer_sizes;
  for (size_t i = 1; i < sizes.size(); ++i)
    out.push_back(static_cast<uint64_t>(std::max<int64_t>(sizes[i], 0)));
  return out;
}

inline uint64_t PlannedBytes(const MethodReport& m) {
  uint64_t total = 0;
  for (uint64_t b : PlannedBuffers(m)) total = SaturatingAdd(total, b);
  return total;
}

// "N B", or for a sum that overflows 64 bits (a hostile file) that it does.
inline std::string PlannedBytesText(const MethodReport& m) {
  const uint64_t total = PlannedBytes(m);
  return total == UINT64_MAX ? "more than 18446744073709551614 B (the sizes' sum overflows 64 bits)"
                             : std::to_string(total) + " B";
}

// The temp pool to declare: the larger of the load peak and the run-time peak (a lower bound when
// some call's temp requests are unknown: RunTemp::known()).
// (On main a temp pool below the metadata's floor would move operator metadata to the method
// pool, changing the method pool's figure: the temp pool's minimum is at least that floor.)
inline uint64_t TempPoolBytes(const MethodReport& m) {
  return std::max({m.temp_load_peak_bytes, m.run_temp.peak_bytes,
                   m.plan.metadata.temp_floor_bytes});
}

// A runner pool's minimum, the temp pool raised to what the method needs while running (and to
// the metadata's floor on main).
inline uint64_t RunnerPoolBytes(const MethodReport& m, const sim::RunnerPoolResult& p) {
  return p.temp_role ? std::max({p.minimum, m.run_temp.peak_bytes, m.plan.metadata.temp_floor_bytes})
                     : p.minimum;
}

// What loading and running the method needs in RAM at once: method pool + planned buffers +
// temp pool (load peak or run-time peak). With a runner: its pools' minimums (the temp pool
// raised to the run-time peak), and the planned buffers when they are not in them.
inline uint64_t RamBytes(const MethodReport& m) {
  if (m.runner) {
    uint64_t total = 0;
    bool planned_inside = false;
    for (const sim::RunnerPoolResult& p : m.runner->result.pools)
      total = SaturatingAdd(total, RunnerPoolBytes(m, p));
    for (const runner::RunnerRequest& q : m.runner->plan.requests)
      planned_inside |= !q.load_method && m.runner->plan.profile->steps[q.step].kind ==
                                              runner::StepKind::kPlannedBuffers;
    return SaturatingAdd(total, planned_inside ? 0 : PlannedBytes(m));
  }
  return SaturatingAdd(SaturatingAdd(m.method_bytes, PlannedBytes(m)), TempPoolBytes(m));
}

}  // namespace etmem::report
