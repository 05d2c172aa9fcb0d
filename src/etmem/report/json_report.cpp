#include "etmem/report/json_report.h"

#include "etmem/runtime/labels.h"

namespace etmem::report {
namespace {

using nlohmann::json;

json Allocation(const MethodReport& m, size_t i) {
  const runtime::AllocationRequest& r = m.plan.requests[i];
  const sim::Placement& p = m.sim.placements[i];
  return {{"size", r.size},        {"align", r.align},           {"offset", p.offset},
          {"consumed", p.consumed}, {"site", runtime::SiteName(r.site)},
          {"category", runtime::CategoryName(runtime::SiteCategory(r.site))},
          {"what", Describe(m, i)}};
}

json Allocations(const MethodReport& m, runtime::PoolKind pool) {
  json rows = json::array();
  for (size_t i = 0; i < m.sim.placements.size(); ++i)
    if (m.plan.requests[i].pool == pool) rows.push_back(Allocation(m, i));
  return rows;
}

json ByCategory(const MethodReport& m) {
  json out = json::object();
  for (size_t c = 0; c < m.by_category.size(); ++c) {
    const CategoryTotal& t = m.by_category[c];
    out[runtime::CategoryName(static_cast<runtime::Category>(c))] = {
        {"bytes", t.bytes}, {"padding", t.padding}, {"allocations", t.allocations}};
  }
  return out;
}

json PoolCheckJson(const MethodReport& m) {
  if (!m.pool_check) return nullptr;
  const PoolCheck& c = *m.pool_check;
  json out = {{"pool_bytes", c.pool_bytes}, {"fits", c.fits}};
  out["failing_allocation"] = c.failing_request ? Allocation(m, *c.failing_request) : json(nullptr);
  out["log"] = c.log.empty() ? json(nullptr) : json(c.log);
  out["consequence"] = c.consequence.empty() ? json(nullptr) : json(c.consequence);
  return out;
}

json Unknowns(const MethodReport& m) {
  json out = json::array();
  for (const auto& u : m.plan.unknowns)
    out.push_back({{"delegate", u.delegate}, {"backend", u.backend}, {"why", u.why}});
  return out;
}

json Method(const MethodReport& m) {
  const pte::MethodView& v = *m.method;
  json planned = json::array();
  for (size_t i = 1; i < v.planned_buffer_sizes.size(); ++i) planned.push_back(v.planned_buffer_sizes[i]);
  json out = {
      {"name", std::string(v.name)},
      {"exact", m.plan.exact()},
      {"method_allocator",
       {{"bytes", m.method_bytes},
        {"high_water_bytes", m.sim.method_bytes},
        {"lower_bound", !m.plan.exact()},
        {"allocations", Allocations(m, runtime::PoolKind::kMethod)},
        {"by_category", ByCategory(m)}}},
      {"temp_allocator",
       {{"load_peak_bytes", m.temp_load_peak_bytes},
        {"allocations", Allocations(m, runtime::PoolKind::kTemp)}}},
      {"planned_buffers", planned},
      {"pool_check", PoolCheckJson(m)},
      {"unknown", Unknowns(m)},
      {"counts",
       {{"values", m.counts.values}, {"tensors", m.counts.tensors},
        {"instructions", m.counts.instructions}, {"kernel_calls", m.counts.kernel_calls},
        {"delegate_calls", m.counts.delegate_calls}, {"operators", m.counts.operators},
        {"delegates", m.counts.delegates}, {"chains", m.counts.chains},
        {"inputs", m.counts.inputs}, {"outputs", m.counts.outputs}}},
  };
  if (m.plan.refusal)
    out["load_refused"] = {{"error", m.plan.refusal->error}, {"reason", m.plan.refusal->reason}};
  return out;
}

json Flash(const FlashBreakdown& f) {
  return {{"file_bytes", f.file_bytes},
          {"program_bytes", f.program_bytes},
          {"metadata_bytes", f.metadata_bytes},
          {"inline_constant_bytes", f.inline_constant_bytes},
          {"segment_constant_bytes", f.segment_constant_bytes},
          {"inline_delegate_bytes", f.inline_delegate_bytes},
          {"segment_delegate_bytes", f.segment_delegate_bytes},
          {"other_segment_bytes", f.other_segment_bytes}};
}

}  // namespace

json ToJson(const Report& r) {
  const Assumptions& a = r.assumptions;
  json methods = json::array();
  for (const MethodReport& m : r.methods) methods.push_back(Method(m));
  return {{"program", {{"path", r.program->path}, {"size_bytes", r.program->file_size}}},
          {"runtime", a.runtime},
          {"target", a.target},
          {"pool_align", a.pool_align},
          {"temp_allocator", a.temp_allocator ? "nonnull" : "null"},
          {"temp_allocator_source", a.temp_is_runner_default ? "runner default" : "explicit"},
          {"external_data_map", a.external_data_map},
          {"flash", Flash(r.flash)},
          {"notes", r.notes},
          {"methods", methods}};
}

}  // namespace etmem::report
