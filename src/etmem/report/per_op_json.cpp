// Owns: the per-operator table as JSON (VisitPerOpJson, PerOpJson: per_op_render.h).
#include <nlohmann/json.hpp>

#include "etmem/analysis/verdict.h"
#include "etmem/report/json_report.h"
#include "etmem/report/per_op_render.h"

namespace etmem::report {

void VisitPerOpJson(const Report& report, const std::vector<PerOpTable>& tables,
                    api::JsonVisitor& v) {
  // The rows are events of their own (a DOM of a large method's rows costs ten times the
  // analysis); the rest through nlohmann DOMs, members in their text's order.
  using ojson = nlohmann::ordered_json;
  auto by_id = [](const std::vector<PerOpBytes>& bytes) {
    ojson a = ojson::array();
    for (const PerOpBytes& b : bytes) a.push_back({{"memory_id", b.memory_id}, {"bytes", b.bytes}});
    return a;
  };
  auto string_or_null = [&](const std::string& s) { s.empty() ? v.Null() : VisitString(s, false, v); };
  const nlohmann::json verdict = ReportVerdictMembers(report);
  const char* const kVerdictKeys[] = {"schema", "verdict", "verdict_detail", "default_release"};
  size_t members = 2;
  for (const char* key : kVerdictKeys) members += verdict.contains(key);
  v.BeginObject(members);
  for (const char* key : kVerdictKeys) {
    if (!verdict.contains(key)) continue;
    v.Key(key);
    VisitDom(verdict.at(key), v);
  }
  v.Key("analysis");
  VisitDom(HeaderJson(report), v);
  v.Key("per_op");
  v.BeginArray(tables.size());
  for (const PerOpTable& t : tables) {
    v.BeginObject(6);
    v.Key("method");
    VisitString(t.method, false, v);
    v.Key("sorted_by");
    v.String(PerOpColumnName(t.sorted_by));
    v.Key("refusal");
    t.refusal ? VisitString(*t.refusal, false, v) : v.Null();
    v.Key("rows");
    v.BeginArray(t.rows.size());
    for (const PerOpRow& r : t.rows) {
      v.BeginObject(r.live_by_memory_id.empty() ? 12 : 13);
      v.Key("index");
      v.Uint(r.index);
      v.Key("chain");
      v.Uint(r.chain);
      v.Key("chain_instruction");
      v.Uint(r.chain_instruction);
      v.Key("kind");
      v.String(PerOpKindName(r.kind));
      v.Key("operator");
      string_or_null(r.op);
      v.Key("library");
      string_or_null(r.library);
      v.Key("live_planned_bytes");
      v.Uint(r.live_bytes);
      if (!r.live_by_memory_id.empty()) {
        v.Key("live_planned_by_memory_id");
        VisitDom(by_id(r.live_by_memory_id), v);
      }
      v.Key("temp_bytes");
      v.Uint(r.temp_bytes);
      v.Key("temp_unknown");
      string_or_null(r.temp_unknown);
      v.Key("constant_bytes");
      v.Uint(r.constant_bytes);
      v.Key("constants");
      v.Uint(r.constants);
      v.Key("stack_bytes");
      r.stack_bytes ? v.Uint(*r.stack_bytes) : v.Null();
      v.EndObject();
    }
    v.EndArray();
    const PerOpTotals& s = t.totals;
    ojson tot;
    tot["peak_live_planned_bytes"] = s.peak_live_bytes;
    tot["peak_live_instruction"] =
        s.peak_live_instruction ? ojson(*s.peak_live_instruction) : ojson();
    tot["peak_live_planned_by_memory_id"] = by_id(s.peak_live_by_memory_id);
    tot["planned_bytes"] = s.planned_bytes;
    tot["planned_by_memory_id"] = by_id(s.planned_by_memory_id);
    tot["temp_peak_bytes"] = s.temp_peak_bytes;
    tot["temp_summed"] = s.temp_summed;
    tot["temp_unknown_rows"] = s.temp_unknown_rows;
    tot["constant_column_bytes"] = s.constant_column_bytes;
    tot["constant_bytes"] = s.constant_bytes;
    tot["constants"] = s.constants;
    tot["method_constant_bytes"] = s.method_constant_bytes;
    tot["method_constants"] = s.method_constants;
    tot["stack_bytes"] = s.stack_bytes ? ojson(*s.stack_bytes) : ojson();
    tot["stack_source"] = s.stack_source.empty() ? ojson() : ojson(s.stack_source);
    v.Key("totals");
    VisitDom(tot, v);
    v.Key("notes");
    VisitDom(ojson(t.notes), v);
    v.EndObject();
  }
  v.EndArray();
  v.EndObject();
}

std::string PerOpJson(const Report& report, const std::vector<PerOpTable>& tables) {
  return JsonText([&](api::JsonVisitor& v) { VisitPerOpJson(report, tables, v); }, -1);
}

}  // namespace etmem::report
