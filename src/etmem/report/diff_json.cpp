// Owns: DiffToJson and DiffJsonText, `etmem diff --format json` (see diff_report.h).
#include "etmem/report/diff_report.h"

#include <fmt/format.h>

#include "etmem/report/json_report.h"

namespace etmem::report {
namespace {

using nlohmann::json;
using namespace diff_words;

json DeltaJson(const Delta& d) {
  return {{"old", d.old_value}, {"new", d.new_value}, {"delta", d.change()}};
}

json MethodJson(const MethodDiff& d) {
  json categories = json::object();
  for (size_t c = 0; c < kCategories; ++c)
    categories[CategoryLabel(c)] = DeltaJson(d.by_category[c]);
  json out = {{"name", d.name},
          {"change", ChangeName(d.change)},
          {"exact", {{"old", d.old_exact}, {"new", d.new_exact}}},
          {"method_allocator", {{"bytes", DeltaJson(d.method_pool)}, {"by_category", categories}}},
          {"planned_bytes", DeltaJson(d.planned)},
          {"planned_buffers", {{"old", d.old_planned_buffers}, {"new", d.new_planned_buffers}}},
          {"temp_load_peak_bytes", DeltaJson(d.temp_load)},
          {"ram_bytes", DeltaJson(d.ram)}};
  if (!d.runner_pool_name.empty())  // only with --runner: output without it is unchanged
    out["runner_method_pool"] = {{"name", d.runner_pool_name}, {"bytes", DeltaJson(d.runner_pool)}};
  return out;
}

}  // namespace

json DiffToJson(const ProgramDiff& diff) {
  const Assumptions& a = diff.assumptions;
  json methods = json::array();
  for (const MethodDiff& d : diff.methods) methods.push_back(MethodJson(d));
  json flash = json::object();
  for (const FlashDelta& f : diff.flash) flash[f.name] = DeltaJson(f.bytes);
  return {{"old", {{"path", diff.old_path}}},
          {"new", {{"path", diff.new_path}}},
          {"runtime", a.runtime},
          {"target", a.target},
          {"pool_align", a.pool_align},
          {"temp_allocator", a.temp_allocator ? "nonnull" : "null"},
          {"external_data_map", a.external_data_map},
          {"flash", flash},
          {"methods", methods}};
}

std::string DiffJsonText(const ProgramDiff& diff, const Verdict& verdict) {
  json j = DiffToJson(diff);
  j.update(VerdictMembers(verdict));
  return j.dump(1, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace etmem::report
