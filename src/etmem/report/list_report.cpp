// Owns: `etmem list`'s text and JSON (see list_report.h).
#include "etmem/report/list_report.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

namespace etmem::report {
namespace {

using nlohmann::ordered_json;

std::string Dump(const ordered_json& j) {
  return j.dump(2, ' ', false, ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace

std::string ListReleases(const std::vector<api::ReleaseInfo>& releases, bool json) {
  if (json) {
    ordered_json j = ordered_json::array();
    for (const api::ReleaseInfo& r : releases)
      j.push_back({{"version", r.version},
                   {"summary", r.summary},
                   {"commit", r.commit.empty() ? ordered_json(nullptr) : ordered_json(r.commit)},
                   {"commit_date",
                    r.commit.empty() ? ordered_json(nullptr) : ordered_json(r.commit_date)}});
    return Dump(j);
  }
  std::string out;
  for (const api::ReleaseInfo& r : releases)
    out += fmt::format("{:<8} {}{}\n", r.version, r.summary,
                       r.commit.empty()
                           ? ""
                           : " (commit " + r.commit + ", " + r.commit_date + "; --runtime main)");
  return out;
}

std::string ListTargets(const std::vector<api::TargetInfo>& targets, bool json) {
  if (json) {
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
    return Dump(j);
  }
  std::string out;
  for (const api::TargetInfo& t : targets) {
    out += fmt::format("{:<10} {} (pointer {}, int64 align {}, default pool align {})\n", t.name,
                       t.description, t.pointer_bytes, t.int64_align, t.default_pool_align);
    // What the Cortex-M backend's CMSIS-NN scratch depends on, where it is said or assumed.
    if (t.m_extension != "none" || !t.m_extension_assumed.empty())
      out += fmt::format("    M-profile extension {}{}; CMSIS-NN built by {}{}\n", t.m_extension,
                         t.m_extension_assumed.empty() ? "" : " (assumed: " + t.m_extension_assumed + ")",
                         t.armclang ? "armclang" : "a compiler other than armclang",
                         t.armclang_assumed.empty() ? "" : " (assumed: " + t.armclang_assumed + ")");
  }
  return out;
}

std::string ListRunners(const std::vector<api::RunnerInfo>& runners, bool json) {
  if (json) {
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
                   {"options", options}});
    }
    return Dump(j);
  }
  // One line per profile (runner and release range), then its pools and options.
  std::string out;
  for (const api::RunnerInfo& p : runners) {
    out += fmt::format("{:<16} {}-{}  {}\n", p.name, p.first_release, p.last_release, p.source);
    for (const auto& pool : p.pools)
      out += fmt::format("    pool {} ({}, default {} B, aligned {}{}): {}\n",
                         pool.macro.empty() ? pool.variable : pool.macro, pool.variable,
                         pool.default_bytes, pool.base_align,
                         pool.when.empty() ? "" : ", with +" + pool.when, pool.role);
    for (const auto& [name, description] : p.options)
      out += fmt::format("    option +{}: {}\n", name, description);
  }
  return out;
}

std::string ListBoards(const std::vector<ListBoard>& boards, bool json) {
  if (json) {
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
    return Dump(j);
  }
  // One line per board, then its regions (what the rest of the firmware reserves included).
  std::string out;
  for (const ListBoard& b : boards) {
    out += fmt::format("{:<14} {}\n", b.name, b.description);
    if (!b.core.empty())
      out += fmt::format("    core {}, M-profile extension {} (CMSIS-NN's build on this board)\n",
                         b.core, b.core_m_extension);
    for (const api::BoardRegion& r : b.regions)
      out += fmt::format("    {:<10} {:>10} B{}, {} B free, base aligned {}{}\n", r.name,
                         r.size_bytes, r.origin ? fmt::format(" at 0x{:08x}", *r.origin) : "",
                         r.free_bytes, r.base_align,
                         r.section.empty() ? "" : ", section " + r.section);
  }
  return out;
}

}  // namespace etmem::report
