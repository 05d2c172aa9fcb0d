// Owns: VisitPlanJson and PlanJsonText, `etmem plan --format json` (see plan_render.h).
#include <type_traits>

#include <nlohmann/json.hpp>

#include "etmem/report/json_report.h"
#include "etmem/report/plan_render.h"

namespace etmem::report {
namespace {

using api::JsonVisitor;

// `etmem plan --format json` is events (a program scaled 1,000 times has 296,000 tensors: an
// nlohmann tree of them costs more than the planning): their text (report::JsonText, indent 1)
// is the bytes of nlohmann's dump(1, ' ', false, replace) of the same tree, keys in sorted
// order; their value is api::PlanJson. The small parts (validation, advisories, duplicate
// constants) are DOMs.
template <typename T>
void Number(JsonVisitor& v, T n) {
  if constexpr (std::is_signed_v<T>)
    v.Int(n);
  else
    v.Uint(n);
}

nlohmann::json ValidationJson(const plan::Validation& validation) {
  nlohmann::json v{{"sound", validation.sound()}, {"overlaps", nlohmann::json::array()},
                   {"misplaced", nlohmann::json::array()}};
  for (const plan::Overlap& o : validation.overlaps)
    v["overlaps"].push_back({{"values", {o.a, o.b}}, {"memory_id", o.memory_id},
                             {"instruction", o.instruction}, {"bytes", o.overlap_bytes}});
  for (const plan::Misplaced& m : validation.misplaced)
    v["misplaced"].push_back({{"value", m.value}, {"memory_id", m.memory_id}, {"offset", m.offset},
                              {"bytes", m.bytes}, {"buffer_size", m.buffer_size}});
  return v;
}

nlohmann::json AdviceJson(const std::vector<plan::Advice>& advice) {
  nlohmann::json out = nlohmann::json::array();
  for (const plan::Advice& a : advice) {
    out.push_back({{"kind", plan::AdviceKindName(a.kind)}, {"value", a.value},
                   {"instruction", a.instruction}, {"op", a.op}, {"bytes", a.bytes},
                   {"bound_saving", a.bound_saving}, {"memory_id", a.memory_id},
                   {"replanned", a.replanned}, {"replanned_without", a.replanned_without},
                   {"planned_saving", a.planned_saving()}, {"change", a.change}});
    if (a.cut_short) out.back()["cut_short"] = true;  // planned_saving: at least
  }
  return out;
}

void VisitTensor(JsonVisitor& v, const plan::PlannedTensor& t) {
  v.BeginObject(10);
  v.Key("bytes");
  Number(v, t.bytes);
  v.Key("first");
  t.used ? Number(v, t.first) : v.Null();
  v.Key("input");
  v.Bool(t.input);
  v.Key("last");
  t.used ? Number(v, t.last) : v.Null();
  v.Key("memory_id");
  Number(v, t.memory_id);
  v.Key("offset");
  Number(v, t.offset);
  v.Key("output");
  v.Bool(t.output);
  v.Key("state");
  v.Bool(t.stateful);
  v.Key("used");
  v.Bool(t.used);
  v.Key("value");
  Number(v, t.value);
  v.EndObject();
}

void VisitBuffer(JsonVisitor& v, const plan::BufferBounds& b, const std::vector<uint64_t>& live) {
  v.BeginObject(7);
  v.Key("excess");
  Number(v, b.excess());
  v.Key("excess_percent");
  v.Double(b.excess_percent());
  v.Key("live_bytes");
  v.BeginArray(live.size());
  for (uint64_t bytes : live) v.Uint(bytes);
  v.EndArray();
  v.Key("lower_bound");
  Number(v, b.lower_bound);
  v.Key("memory_id");
  Number(v, b.memory_id);
  v.Key("peak_instruction");
  Number(v, b.peak_instruction);
  v.Key("planned");
  Number(v, b.planned);
  v.EndObject();
}

void VisitMethod(JsonVisitor& v, const MethodPlan& p) {
  v.BeginObject(6);
  v.Key("advisories");
  VisitDom(AdviceJson(p.advice), v);
  v.Key("buffers");
  v.BeginArray(p.bounds.size());
  for (size_t i = 0; i < p.bounds.size(); ++i) VisitBuffer(v, p.bounds[i], p.live_bytes[i]);
  v.EndArray();
  v.Key("instructions");
  Number(v, p.lifetimes.instructions);
  v.Key("name");
  VisitString(std::string(p.method->name), false, v);
  v.Key("tensors");
  v.BeginArray(p.lifetimes.tensors.size());
  for (const plan::PlannedTensor& t : p.lifetimes.tensors) VisitTensor(v, t);
  v.EndArray();
  v.Key("validation");
  VisitDom(ValidationJson(p.validation), v);
  v.EndObject();
}

nlohmann::json DuplicatesJson(const pte::ProgramView& program,
                              const std::vector<plan::DuplicateConstants>& duplicates) {
  nlohmann::json out = nlohmann::json::array();
  for (const plan::DuplicateConstants& g : duplicates) {
    nlohmann::json uses = nlohmann::json::array();
    for (const plan::ConstantUse& u : g.uses)
      uses.push_back({{"method", std::string(program.methods[u.method].name)},
                      {"value", u.value}, {"data_index", u.data_index},
                      {"instructions", u.instructions}});
    out.push_back({{"kind", "duplicate-constants"}, {"dtype", runtime::DtypeName(g.dtype)},
                   {"bytes", g.bytes}, {"data_indices", g.data_indices}, {"uses", uses},
                   {"flash_saving", g.flash_saving()}, {"ram_saving_buffer_data_loader", 0},
                   {"ram", plan::DuplicateConstantsRam()},
                   {"change", plan::DuplicateConstantsChange()}});
  }
  return out;
}

}  // namespace

// `etmem plan --format json`'s events: its members in sorted order (the schema and the verdict,
// docs/json.md, sort after "program").
void VisitPlanJson(JsonVisitor& v, const pte::ProgramView& view, const Planned& planned,
                   uint64_t alignment) {
  const nlohmann::json verdict = VerdictMembers(PlanVerdict(planned.sound()));
  v.BeginObject(4 + verdict.size());
  v.Key("alignment");
  v.Uint(alignment);
  v.Key("duplicate_constants");
  VisitDom(DuplicatesJson(view, planned.duplicates), v);
  v.Key("methods");
  v.BeginArray(planned.plans.size());
  for (const MethodPlan& p : planned.plans) VisitMethod(v, p);
  v.EndArray();
  v.Key("program");
  VisitString(view.path, false, v);
  for (const auto& [key, value] : verdict.items()) {
    v.Key(key);
    VisitDom(value, v);
  }
  v.EndObject();
}

std::string PlanJsonText(const pte::ProgramView& view, const Planned& planned, uint64_t alignment) {
  return JsonText([&](JsonVisitor& v) { VisitPlanJson(v, view, planned, alignment); }, 1);
}

}  // namespace etmem::report
