// Owns: RamLinesOf, RamParts and RamIsLowerBound (see ram_text.h).
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

RamLines RamLinesOf(const MethodReport& m) {
  RamLines out;
  out.total_bytes = RamBytes(m);
  out.lower_bound = RamIsLowerBound(m);
  const bool temp_unknown = !m.run_temp.known();
  const RamLine planned{"planned buffers", PlannedBytes(m), false, "",
                        "the program's memory plan (non_const_buffer_sizes)"};
  if (m.runner) {  // the runner's pools, under its own names
    const std::string& runner = m.runner->plan.profile->name;
    for (const sim::RunnerPoolResult& p : m.runner->result.pools) {
      RamLine l{RunnerPoolName(m.runner->pool_spec(p.pool)), RunnerPoolBytes(m, p),
                p.temp_role && temp_unknown, "", fmt::format("runner {}'s pool", runner)};
      if (p.temp_role) {
        l.when = m.run_temp.peak_bytes > p.minimum ? "while running" : "at load";
        l.source += ", holding the temp allocator's peak " + l.when;
      }
      out.lines.push_back(std::move(l));
    }
    if (!RunnerHoldsPlannedBuffers(*m.runner)) out.lines.push_back(planned);
    return out;
  }
  const bool run_sets = m.run_temp.peak_bytes > m.temp_load_peak_bytes;
  out.lines.push_back({"method pool", m.method_bytes, !m.plan.exact(), "",
                       "load_method's method allocator"});
  out.lines.push_back(planned);
  out.lines.push_back({run_sets ? "temp run-time peak" : "temp load peak", TempPoolBytes(m),
                       run_sets && temp_unknown, "",
                       run_sets ? "the temp allocator while the method runs (reset after each "
                                  "instruction)"
                                : "load_method's temp allocator"});
  return out;
}

std::string RamParts(const MethodReport& m) {
  std::string parts;
  for (const RamLine& l : RamLinesOf(m).lines)
    parts += fmt::format("{}{} {}{} B{}", parts.empty() ? "" : " + ", l.part,
                         l.at_least ? "at least " : "", l.bytes,
                         l.when.empty() ? "" : " (" + l.when + ")");
  return parts + MallocPart(m.run_temp);
}

}  // namespace etmem::report
