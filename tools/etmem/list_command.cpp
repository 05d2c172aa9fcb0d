// `etmem list runtimes|targets|runners|boards`: the tables the code runs on.
#include <iostream>

#include <fmt/format.h>

#include "commands.h"
#include "etmem/etmem.h"

namespace etmem::cli {

static Run DefineList(CLI::App* cmd) {
  auto what = std::make_shared<std::string>();
  cmd->add_option("what", *what, "runtimes | targets | runners | boards")
      ->required()
      ->check(CLI::IsMember({"runtimes", "targets", "runners", "boards"}));
  return [what]() {
    if (*what == "runtimes") {
      for (const api::ReleaseInfo& r : api::Releases())
        std::cout << fmt::format("{:<8} {}{}\n", r.version, r.summary,
                                 r.commit.empty() ? ""
                                                  : " (commit " + r.commit + ", " +
                                                        r.commit_date + "; --runtime main)");
    } else if (*what == "runners") {
      // One line per profile (runner and release range), then its pools and options.
      for (const api::RunnerInfo& p : api::Runners()) {
        std::cout << fmt::format("{:<16} {}-{}  {}\n", p.name, p.first_release, p.last_release,
                                 p.source);
        for (const auto& pool : p.pools)
          std::cout << fmt::format("    pool {} ({}, default {} B, aligned {}{}): {}\n",
                                   pool.macro.empty() ? pool.variable : pool.macro, pool.variable,
                                   pool.default_bytes, pool.base_align,
                                   pool.when.empty() ? "" : ", with +" + pool.when, pool.role);
        for (const auto& [name, description] : p.options)
          std::cout << fmt::format("    option +{}: {}\n", name, description);
      }
    } else if (*what == "boards") {
      // One line per board, then its regions (what the rest of the firmware reserves included).
      for (const api::Board& b : api::Boards()) {
        std::cout << fmt::format("{:<14} {}\n", b.name(), b.description());
        for (const api::BoardRegion& r : b.regions())
          std::cout << fmt::format("    {:<10} {:>10} B{}, {} B free, base aligned {}{}\n", r.name,
                                   r.size_bytes,
                                   r.origin ? fmt::format(" at 0x{:08x}", *r.origin) : "",
                                   r.free_bytes, r.base_align,
                                   r.section.empty() ? "" : ", section " + r.section);
      }
    } else {
      for (const api::TargetInfo& t : api::Targets())
        std::cout << fmt::format("{:<10} {} (pointer {}, int64 align {}, default pool align {})\n",
                                 t.name, t.description, t.pointer_bytes, t.int64_align,
                                 t.default_pool_align);
    }
    return kExitOk;
  };
}

const Verb kListVerb{
    "list", "List the modelled ExecuTorch releases, the built-in targets, the runner profiles or the boards",
    DefineList};

}  // namespace etmem::cli
