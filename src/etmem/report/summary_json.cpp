// Owns: SummaryDom and SummaryToJson, `etmem summary --format json` (see summary_report.h): the values the
// summary's text is written from, with analyze's own members where they are the same thing.
#include <nlohmann/json.hpp>

#include "etmem/analysis/figures.h"
#include "etmem/analysis/ram_text.h"
#include "etmem/report/json_report.h"
#include "etmem/analysis/runner_rows.h"
#include "etmem/report/summary_report.h"

namespace etmem::report {
namespace {

using nlohmann::ordered_json;

ordered_json RunnerPools(const MethodReport& m) {
  if (!m.runner) return nullptr;
  ordered_json pools = ordered_json::array();
  for (const sim::RunnerPoolResult& p : m.runner->result.pools)
    pools.push_back({{"name", RunnerPoolName(m.runner->pool_spec(p.pool))},
                     {"bytes", RunnerPoolBytes(m, p)},
                     {"temp_role", p.temp_role},
                     {"when", !p.temp_role                        ? nullptr
                              : m.run_temp.peak_bytes > p.minimum ? ordered_json("while running")
                                                                  : ordered_json("at load")}});
  return {{"name", m.runner->plan.profile->name},
          {"pools", pools},
          {"holds_planned_buffers", RunnerHoldsPlannedBuffers(*m.runner)}};
}

// The RAM figure's lines (analysis/ram_text.h), each with where it comes from.
ordered_json RamJson(const MethodReport& m) {
  const RamLines ram = RamLinesOf(m);
  ordered_json lines = ordered_json::array();
  for (const RamLine& l : ram.lines)
    lines.push_back({{"part", l.part},
                     {"bytes", l.bytes},
                     {"at_least", l.at_least},
                     {"when", l.when.empty() ? ordered_json(nullptr) : ordered_json(l.when)},
                     {"source", l.source}});
  return {{"lines", lines}, {"total_bytes", ram.total_bytes}, {"lower_bound", ram.lower_bound}};
}

ordered_json Method(const MethodSummaryFigures& f) {
  const MethodReport& m = *f.report;
  const auto planned = static_cast<int64_t>(PlannedBytes(m));
  ordered_json buffers = ordered_json::array();
  for (const SummaryBuffer& b : f.buffers)
    buffers.push_back({{"memory_id", b.memory_id}, {"before", b.before}, {"after", b.after}});
  ordered_json advisories = ordered_json::array();
  for (const SummaryAdvice& a : f.advice)
    advisories.push_back({{"kind", a.kind},
                          {"value", a.value},
                          {"bytes", a.bytes},
                          {"op", a.op},
                          {"instruction", a.instruction},
                          {"saving_bytes", a.saving},
                          {"memory_id", a.memory_id},
                          {"replanned_bytes", a.replanned},
                          {"replanned_without_bytes", a.replanned_without}});
  for (size_t k = 0; k < f.advice.size(); ++k)
    if (f.advice[k].cut_short) advisories[k]["cut_short"] = true;  // saving_bytes: at least
  const SummaryCost cost = BiggestCost(f);
  return {{"name", std::string(m.method->name)},
          {"exact", m.plan.exact()},
          {"ram_bytes", RamBytes(m)},
          {"ram", RamJson(m)},
          {"method_pool_bytes", m.method_bytes},
          {"planned_bytes", PlannedBytes(m)},
          {"temp_pool_bytes", TempPoolBytes(m)},
          {"temp_pool_is_run_peak", m.run_temp.peak_bytes > m.temp_load_peak_bytes},
          {"malloc_heap",
           m.run_temp.malloc_peak_call
               ? ordered_json({{"peak_bytes", m.run_temp.malloc_peak_bytes},
                               {"leaked_per_run_bytes", m.run_temp.malloc_leaked_bytes},
                               {"text", m.run_temp.DescribeMalloc()}})
               : ordered_json(nullptr)},
          {"runner", RunnerPools(m)},
          {"unknown", UnknownsJson(m)},
          {"temp_allocator", TempAllocatorJson(m)},
          {"biggest_cost", {{"item", cost.item}, {"bytes", cost.bytes}, {"text", cost.text}}},
          {"replan",
           {{"planned_bytes", planned},
            {"replanned_bytes", f.replanned_total},
            {"saving_bytes", planned - f.replanned_total},
            {"buffers", buffers}}},
          {"advisories", advisories},
          {"advised_bytes", f.advised_total}};
}

}  // namespace

nlohmann::ordered_json SummaryDom(const ProgramSummary& s) {
  ordered_json j;
  const nlohmann::json verdict = ReportVerdictMembers(*s.report);
  for (const char* key : {"schema", "verdict", "verdict_detail", "default_release"})
    if (verdict.contains(key)) j[key] = verdict.at(key);
  j["analysis"] = HeaderJson(*s.report);
  j["flash_savings"] = {{"duplicate_constant_bytes", s.duplicate_flash_bytes},
                        {"duplicate_groups", s.duplicate_groups},
                        {"ram_note", s.duplicate_ram_note}};
  j["methods"] = ordered_json::array();
  for (const MethodSummaryFigures& m : s.methods) j["methods"].push_back(Method(m));
  return j;
}

std::string SummaryToJson(const ProgramSummary& s) {
  return SummaryDom(s).dump(2, ' ', false, ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace etmem::report
