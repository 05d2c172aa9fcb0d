// Owns: AssumptionSentence and the wordings of include's callers (see assumptions.h).
#include "etmem/analysis/assumptions.h"

#include <fmt/format.h>

#include "etmem/analysis/runner_rows.h"

namespace etmem::report {

using W = AssumptionWording;

AssumptionWording ReportWording() {
  W w;
  w.pool_base = W::PoolBase::kNotTwice;
  w.temp = W::Temp::kPassedInFull;
  w.ptd = W::Ptd::kPassed;
  return w;
}

AssumptionWording RunnerReportWording(const RunnerReport& r) {
  W w = ReportWording();
  w.runner = W::Runner::kAfterTarget;
  w.pool_base = W::PoolBase::kRunnerPools;
  w.runner_pools = RunnerPoolAlignText(r);
  return w;
}

AssumptionWording BriefWording() {
  W w;
  w.ptd = W::Ptd::kShort;
  w.runner = W::Runner::kLast;
  return w;
}

AssumptionWording PlanWording() {
  W w = BriefWording();
  w.runner = W::Runner::kNone;
  return w;
}

AssumptionWording SummaryWording() {
  W w;
  w.temp_suffix = " at load";
  return w;
}

AssumptionWording FitWording() {
  W w;
  w.temp = W::Temp::kPassed;
  w.runner = W::Runner::kLast;
  return w;
}

AssumptionWording CheckWording(std::optional<uint64_t> pool) {
  W w;
  w.pool = W::Pool::kAlways;
  w.pool_bytes = pool;
  return w;
}

AssumptionWording SearchWording(std::optional<uint64_t> pool) {
  W w;
  w.target_label = false;
  w.runner = W::Runner::kAfterTarget;
  w.pool = W::Pool::kBounded;
  w.pool_bytes = pool;
  return w;
}

AssumptionWording MeasureWording(std::optional<uint64_t> pool) {
  W w = CheckWording(pool);
  w.temp = W::Temp::kSized;
  return w;
}

std::string TempPoolText(const Assumptions& a) {
  if (!a.temp_pool_bytes) return "";
  return fmt::format(", temp pool {} B ({})", *a.temp_pool_bytes, a.temp_pool_source);
}

std::string TempSourceText(const Assumptions& a, bool runner) {
  if (!a.temp_is_runner_default) return "";
  return runner ? " (what the runner does)" : " (what this release's executor_runner does)";
}

std::string AssumptionSentence(const Assumptions& a, const AssumptionWording& w) {
  std::string s = "ExecuTorch " + a.runtime + ", " + (w.target_label ? "target " : "") + a.target;
  const bool runner = !a.runner.empty() && w.runner != W::Runner::kNone;
  if (runner && w.runner == W::Runner::kAfterTarget) s += ", " + a.runner;
  switch (w.pool_base) {
    case W::PoolBase::kAligned:
      s += fmt::format(", pool base aligned to {} B", a.pool_align);
      break;
    case W::PoolBase::kNotTwice:
      s += fmt::format(", pool base aligned to {} B (not {})", a.pool_align, 2 * a.pool_align);
      break;
    case W::PoolBase::kRunnerPools:
      s += ", " + w.runner_pools;
      break;
  }
  const std::string temp = a.temp_allocator ? "a temp allocator" : "no temp allocator";
  switch (w.temp) {
    case W::Temp::kShort:
      s += ", " + temp;
      break;
    case W::Temp::kSized:
      s += a.temp_allocator && a.temp_pool_bytes
               ? fmt::format(", a {} B temp allocator", *a.temp_pool_bytes)
               : ", " + temp;
      break;
    case W::Temp::kPassed:
      s += ", " + temp + " is passed";
      break;
    case W::Temp::kPassedInFull:
      s += ", " + temp + " is passed";
      s += TempSourceText(a, runner);
      s += TempPoolText(a);
      break;
  }
  s += w.temp_suffix;
  if (a.external_data_map && w.ptd != W::Ptd::kNone)
    s += w.ptd == W::Ptd::kPassed ? ", a .ptd data map is passed" : ", a .ptd data map";
  if (runner && w.runner == W::Runner::kLast) s += ", " + a.runner;
  if (w.pool != W::Pool::kNone && w.pool_bytes)
    s += fmt::format(", a {} B pool", *w.pool_bytes);
  else if (w.pool == W::Pool::kAlways)
    s += ", an unbounded pool";
  return s;
}

}  // namespace etmem::report
