// Owns: RamParts and RamIsLowerBound (see ram_text.h).
#include "etmem/analysis/ram_text.h"

#include <fmt/format.h>

#include "etmem/analysis/figures.h"
#include "etmem/analysis/runner_rows.h"

namespace etmem::report {

bool RamIsLowerBound(const MethodReport& m) { return !m.plan.exact() || !m.run_temp.known(); }

namespace {

// The kernels' own malloc, which no pool holds: "; beside these, the kernels' malloc ...".
std::string MallocPart(const kernels::RunTemp& t) {
  if (!t.malloc_peak_call) return "";
  return fmt::format("; beside these, the kernels' malloc takes {} B of the C heap{}",
                     t.malloc_peak_bytes,
                     t.malloc_leaked_bytes > 0
                         ? fmt::format(", growing by {} B every run", t.malloc_leaked_bytes)
                         : "");
}

}  // namespace

std::string RamParts(const MethodReport& m) {
  const std::string temp_at_least = m.run_temp.known() ? "" : "at least ";
  if (m.runner) {  // the runner's pools, under its own names
    std::string parts;
    for (const sim::RunnerPoolResult& p : m.runner->result.pools)
      parts += fmt::format("{}{} {}{} B{}", parts.empty() ? "" : " + ",
                           RunnerPoolName(m.runner->pool_spec(p.pool)),
                           p.temp_role ? temp_at_least : "", RunnerPoolBytes(m, p),
                           !p.temp_role                        ? ""
                           : m.run_temp.peak_bytes > p.minimum ? " (while running)"
                                                               : " (at load)");
    if (!RunnerHoldsPlannedBuffers(*m.runner))
      parts += fmt::format(" + planned buffers {} B", PlannedBytes(m));
    return parts + MallocPart(m.run_temp);
  }
  const bool run_sets = m.run_temp.peak_bytes > m.temp_load_peak_bytes;
  return fmt::format("method pool {}{} B + planned buffers {} B + {} {}{} B",
                     m.plan.exact() ? "" : "at least ", m.method_bytes, PlannedBytes(m),
                     run_sets ? "temp run-time peak" : "temp load peak",
                     run_sets ? temp_at_least : "", TempPoolBytes(m)) +
         MallocPart(m.run_temp);
}

}  // namespace etmem::report
