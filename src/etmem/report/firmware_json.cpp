// Owns: the JSON of `etmem firmware` (FirmwareDom, RenderFirmwareJson: report/firmware_report.h).
#include "etmem/report/firmware_report.h"

#include <nlohmann/json.hpp>

#include "etmem/report/json_report.h"

namespace etmem::report {

nlohmann::json FirmwareDom(const FirmwareReport& r) {
  using nlohmann::json;
  json j;
  j["image"] = r.image;
  j["elf"] = {{"bits", r.bits}, {"machine", r.machine}, {"abi_evidence", r.abi_evidence}};
  j["assumptions"] = {{"target", r.target},       {"target_source", r.target_source},
                      {"runtime", r.runtime},     {"runtime_source", r.runtime_source},
                      {"runner", r.runner},       {"runner_releases", r.runner_releases},
                      {"runner_source", r.runner_source}, {"runner_options", r.runner_options},
                      {"other_runners", r.other_runners},
                      {"runner_undecided", r.runner_undecided.empty()
                                               ? nlohmann::json(nullptr)
                                               : nlohmann::json(r.runner_undecided)}};
  j["programs"] = json::array();
  for (const FirmwareProgram& p : r.programs) {
    json e = {{"name", p.name},           {"from_file", p.from_file},
              {"bytes", p.bytes},         {"file_identifier", p.file_identifier},
              {"methods", p.methods}};
    if (!p.from_file) {
      e["section"] = p.section;
      e["address"] = p.address;
      e["placement"] = p.placement;
      e["ram_bytes"] = p.ram_bytes;
      e["load_address"] = p.load_address ? json(*p.load_address) : json(nullptr);
      if (!p.region.empty()) e["region"] = p.region;
    }
    j["programs"].push_back(e);
  }
  j["methods"] = json::array();
  for (const FirmwareMethod& m : r.methods) {
    json e = {{"program", m.program}, {"name", m.name}, {"exact", m.exact}};
    e["refusal"] = m.refusal ? json(*m.refusal) : json(nullptr);
    e["pools"] = json::array();
    for (const FirmwarePool& p : m.pools) {
      json q = {{"id", p.id},           {"symbol", p.symbol},   {"section", p.section},
                {"expected_section", p.expected_section},       {"address", p.address},
                {"bytes", p.bytes},     {"align", p.align},     {"align_capped", p.align_capped},
                {"needed", p.needed},   {"fits", p.fits},       {"temp", p.temp},
                {"log", p.log},         {"logs_nothing", p.logs_nothing},
                {"failing", p.failing}, {"consequence", p.consequence},
                {"note", p.note}};
      q[p.fits ? "spare" : "short"] = p.fits ? p.bytes - p.needed : p.needed - p.bytes;
      if (p.temp) {
        q["load_peak"] = p.load_peak;
        q["run_peak"] = p.run_peak;
        q["run_unknown"] = p.run_unknown.empty() ? json(nullptr) : json(p.run_unknown);
      }
      if (!p.region.empty()) q["region"] = p.region;
      e["pools"].push_back(q);
    }
    j["methods"].push_back(e);
  }
  j["methods_not_judged"] = json::array();
  for (const FirmwareMethodNotJudged& m : r.not_judged)
    j["methods_not_judged"].push_back({{"program", m.program}, {"name", m.name}, {"why", m.why}});
  if (r.components) {
    const FirmwareComponents& c = *r.components;
    json t = {{"flash_total", c.flash_total},
              {"ram_total", c.ram_total},
              {"section_flash_bytes", c.section_flash_bytes},
              {"section_ram_bytes", c.section_ram_bytes},
              {"unused_operator_bytes", c.unused_operator_bytes},
              {"unused_operators", c.unused_operators},
              {"method", c.method}};
    t["rows"] = json::array();
    for (const FirmwareComponent& row : c.rows)
      t["rows"].push_back({{"name", row.name},
                           {"flash_bytes", row.flash_bytes},
                           {"ram_bytes", row.ram_bytes},
                           {"symbols", row.symbols},
                           {"unused_operator", row.unused_operator}});
    t["regions"] = json::array();
    for (const FirmwareRegionTotal& g : c.regions)
      t["regions"].push_back({{"name", g.name},
                              {"origin", g.origin},
                              {"used", g.used},
                              {"size", g.known_size ? json(g.size) : json(nullptr)}});
    j["components"] = t;
  }
  j["ram"] = json::array();
  for (const api::FirmwareRam& ram : r.ram) {
    json e = {{"program", ram.program}, {"method", ram.method}};
    e["lines"] = json::array();
    for (const api::FirmwareRamLine& l : ram.lines)
      e["lines"].push_back({{"what", l.what},
                            {"bytes", l.bytes ? json(*l.bytes) : json(nullptr)},
                            {"source", l.source},
                            {"unknown", l.unknown.empty() ? json(nullptr) : json(l.unknown)},
                            {"inside", l.inside},
                            {"region", l.region.empty() ? json(nullptr) : json(l.region)}});
    e["stack_bytes"] = ram.stack_bytes ? json(*ram.stack_bytes) : json(nullptr);
    e["known_bytes"] = ram.known_bytes;
    e["complete"] = ram.complete;
    e["regions"] = json::array();
    for (const api::FirmwareRam::Region& g : ram.regions)
      e["regions"].push_back({{"name", g.name},
                              {"bytes", g.bytes},
                              {"free_bytes", g.free_bytes ? json(*g.free_bytes) : json(nullptr)}});
    j["ram"].push_back(std::move(e));
  }
  if (r.stack) {
    const api::FirmwareStack& st = *r.stack;
    json t = {{"architectures", st.architectures},
              {"not_read", st.not_read.empty() ? json(nullptr) : json(st.not_read)},
              {"frames", st.frames},
              {"assumptions", st.assumptions},
              {"missing", st.missing},
              {"judged", st.declared.has_value()}};
    t["declared"] = st.declared ? json{{"bytes", st.declared->bytes},
                                       {"symbols", st.declared->symbols},
                                       {"meaning", st.declared->meaning},
                                       {"others", st.declared->others}}
                                : json(nullptr);
    t["verdicts"] = json::array();
    for (const api::FirmwareRam& ram : r.ram)
      if (auto v = StackVerdict(r, ram))
        t["verdicts"].push_back({{"program", ram.program},
                                 {"method", ram.method},
                                 {"bytes", ram.stack_bytes ? json(*ram.stack_bytes) : json(nullptr)},
                                 {"exact", ram.stack_exact},
                                 {"verdict", VerdictName(v->kind)},
                                 {"step", v->step.empty() ? json(nullptr) : json(v->step)}});
    t["entries"] = json::array();
    for (const api::FirmwareStackEntry& e : st.entries) {
      json x = {{"entry", e.entry},           {"functions", e.functions},
                {"methods", e.methods},       {"bytes", e.bytes},
                {"exact", e.exact},           {"unresolved", e.unresolved},
                {"recursion", e.recursion},   {"dynamic", e.dynamic},
                {"unread", e.unread},         {"resolved", e.resolved},
                {"functions_reached", e.functions_reached},
                {"resolved_sites", e.resolved_sites},
                {"unpruned_bytes", e.unpruned_bytes},
                {"pruned", e.pruned},         {"kept", e.kept}};
      x["path"] = json::array();
      for (const api::FirmwareStackStep& p : e.path)
        x["path"].push_back({{"function", p.function}, {"frame", p.frame}, {"depth", p.depth},
                             {"via", p.via}, {"frame_source", p.frame_source}});
      t["entries"].push_back(x);
    }
    j["stack"] = t;
  }
  j["notes"] = r.notes;
  j["fits"] = r.fits();
  j.update(VerdictMembers(JudgeFirmware(r)));
  return j;
}

std::string RenderFirmwareJson(const FirmwareReport& r) {
  // Bytes quoted from the image (symbol and section names) may be anything: replace what is not
  // UTF-8 rather than throw.
  return FirmwareDom(r).dump(2, ' ', false, nlohmann::json::error_handler_t::replace) + "\n";
}

}  // namespace etmem::report
