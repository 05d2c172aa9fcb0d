// Owns: `etmem list`'s JSON, one function per kind, and the document around the rows (see
// list_report.h).
#include "etmem/report/json_report.h"
#include "etmem/report/list_report.h"

namespace etmem::report {

using nlohmann::ordered_json;

nlohmann::ordered_json ListReleasesJson(const std::vector<api::ReleaseInfo>& releases) {
  ordered_json j = ordered_json::array();
  for (const api::ReleaseInfo& r : releases)
    j.push_back({{"version", r.version},
                 {"summary", r.summary},
                 {"commit", r.commit.empty() ? ordered_json(nullptr) : ordered_json(r.commit)},
                 {"commit_date",
                  r.commit.empty() ? ordered_json(nullptr) : ordered_json(r.commit_date)}});
  return j;
}

nlohmann::ordered_json ListTargetsJson(const std::vector<api::TargetInfo>& targets) {
  ordered_json j = ordered_json::array();
  for (const api::TargetInfo& t : targets)
    j.push_back({{"name", t.name},
                 {"description", t.description},
                 {"pointer_bytes", t.pointer_bytes},
                 {"int64_align", t.int64_align},
                 {"default_pool_align", t.default_pool_align},
                 {"m_extension", t.m_extension},
                 {"m_extension_assumed", t.m_extension_assumed},
                 {"armclang", t.armclang},
                 {"armclang_assumed", t.armclang_assumed}});
  return j;
}

nlohmann::ordered_json ListRunnersJson(const std::vector<api::RunnerInfo>& runners) {
  ordered_json j = ordered_json::array();
  for (const api::RunnerInfo& p : runners) {
    ordered_json pools = ordered_json::array();
    for (const auto& pool : p.pools)
      pools.push_back({{"macro", pool.macro},
                       {"variable", pool.variable},
                       {"role", pool.role},
                       {"when", pool.when},
                       {"default_bytes", pool.default_bytes},
                       {"base_align", pool.base_align}});
    ordered_json options = ordered_json::array();
    for (const auto& [name, description] : p.options)
      options.push_back({{"name", name}, {"description", description}});
    j.push_back({{"name", p.name},
                 {"first_release", p.first_release},
                 {"last_release", p.last_release},
                 {"source", p.source},
                 {"pools", pools},
                 {"options", options},
                 {"backends", p.backends},
                 {"backends_if_built", p.backends_if_built}});
  }
  return j;
}

nlohmann::ordered_json ListBoardsJson(const std::vector<ListBoard>& boards) {
  ordered_json j = ordered_json::array();
  for (const ListBoard& b : boards) {
    ordered_json regions = ordered_json::array();
    for (const api::BoardRegion& r : b.regions) {
      ordered_json reserved = ordered_json::array();
      for (const api::BoardReservation& v : r.reserved)
        reserved.push_back({{"name", v.name}, {"bytes", v.bytes}});
      regions.push_back({{"name", r.name},
                         {"origin", r.origin ? ordered_json(*r.origin) : ordered_json(nullptr)},
                         {"size_bytes", r.size_bytes},
                         {"free_bytes", r.free_bytes},
                         {"base_align", r.base_align},
                         {"section", r.section},
                         {"reserved", reserved},
                         {"comment", r.comment}});
    }
    j.push_back({{"name", b.name},
                 {"description", b.description},
                 {"file", b.file},
                 {"core", b.core.empty() ? ordered_json(nullptr)
                                         : ordered_json({{"name", b.core},
                                                         {"m_extension", b.core_m_extension}})},
                 {"regions", regions}});
  }
  return j;
}

nlohmann::ordered_json ListKernelsJson(const std::vector<ListKernelLibrary>& libraries) {
  ordered_json j = ordered_json::array();
  for (const ListKernelLibrary& l : libraries) {
    ordered_json spans = ordered_json::array();
    for (const ListKernelLibrary::Span& s : l.spans) {
      ordered_json entries = ordered_json::array();
      for (const auto& [name, takes] : s.entries) {
        entries.push_back({{l.delegates ? "backend" : "operator", name}, {"while_running", takes}});
        if (l.delegates) {
          auto o = s.outside.find(name);
          entries.back()["outside_pools"] =
              o == s.outside.end() ? ordered_json(nullptr) : ordered_json(o->second);
        }
      }
      spans.push_back({{"first_release", s.first},
                       {"last_release", s.last},
                       {l.delegates ? "backends" : "operators", entries}});
    }
    j.push_back({{"name", l.name},
                 {"kind", l.delegates ? "delegate" : "kernels"},
                 {"default", l.is_default},
                 {"always", l.always},
                 {"namespaces", l.namespaces},
                 {"other_library",
                  l.other_library.empty() ? ordered_json(nullptr) : ordered_json(l.other_library)},
                 {"releases", spans}});
  }
  return j;
}

nlohmann::ordered_json ListFormatsJson(const std::vector<FormatRow>& rows) {
  ordered_json j = ordered_json::array();
  for (const FormatRow& r : rows)
    j.push_back({{"result", r.result}, {"verb", r.verb}, {"format", r.format},
                 {"renderer", r.renderer}});
  return j;
}

std::string ListJson(const std::string& what, const nlohmann::ordered_json& rows) {
  ordered_json j;
  j["schema"] = kJsonSchema;
  j[what] = rows;
  return j.dump(2, ' ', false, ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace etmem::report
