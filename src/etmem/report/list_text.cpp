// Owns: `etmem list`'s text, one function per kind (see list_report.h).
#include <fmt/format.h>

#include <algorithm>

#include "etmem/report/list_report.h"

namespace etmem::report {

std::string ListReleases(const std::vector<api::ReleaseInfo>& releases) {
  std::string out;
  for (const api::ReleaseInfo& r : releases)
    out += fmt::format("{:<8} {}{}\n", r.version, r.summary,
                       r.commit.empty()
                           ? ""
                           : " (commit " + r.commit + ", " + r.commit_date + "; --runtime main)");
  return out;
}

std::string ListTargets(const std::vector<api::TargetInfo>& targets) {
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

std::string ListRunners(const std::vector<api::RunnerInfo>& runners) {
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
    std::string backends;
    for (const std::string& b : p.backends) backends += (backends.empty() ? "" : ", ") + b;
    for (const std::string& b : p.backends_if_built)
      backends += (backends.empty() ? "" : ", ") + b + " (if the ExecuTorch build made it)";
    out += "    delegate backends registered: " + (backends.empty() ? "none" : backends) + "\n";
  }
  return out;
}

std::string ListBoards(const std::vector<ListBoard>& boards) {
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

namespace {

// `items` joined with ", ", wrapped before 100 columns, every line after the first indented.
std::string Wrapped(const std::vector<std::string>& items, size_t first_column,
                    const std::string& indent) {
  std::string out;
  size_t column = first_column;
  for (size_t i = 0; i < items.size(); ++i) {
    const std::string piece = items[i] + (i + 1 < items.size() ? "," : "");
    if (i > 0) {
      if (column + 1 + piece.size() > 100) {
        out += "\n" + indent;
        column = indent.size();
      } else {
        out += " ";
        ++column;
      }
    }
    out += piece;
    column += piece.size();
  }
  return out;
}

std::string Range(const ListKernelLibrary::Span& s) {
  return s.first == s.last ? s.first : s.first + " to " + s.last;
}

}  // namespace

std::string ListKernels(const std::vector<ListKernelLibrary>& libraries) {
  std::string out;
  for (const ListKernelLibrary& l : libraries) {
    std::string how;
    if (l.delegates) {
      how = "delegate backends: what each backend's execute() takes while the method runs, and "
            "what it takes outside every pool";
    } else {
      how = "kernel library";
      if (l.is_default) how += ", the default of --kernels";
      else if (l.always) how += ", in every runner whatever --kernels says";
      else how += ", --kernels " + l.name;
      if (!l.namespaces.empty()) {
        std::string ns;
        for (const std::string& n : l.namespaces) ns += (ns.empty() ? "" : ", ") + n + "::";
        how += "; selected by its own operators' namespaces (" + ns + ")";
      }
      if (!l.other_library.empty())
        how += "; some entries register " + l.other_library + "'s kernel";
    }
    out += fmt::format("{} ({})\n", l.name, how);
    if (l.spans.empty()) out += "    registers nothing at any modelled release\n";
    const ListKernelLibrary::Span* previous = nullptr;
    for (const ListKernelLibrary::Span& s : l.spans) {
      const std::string head = "    " + Range(s) + ": ";
      std::vector<std::string> names, takes;
      for (const auto& [name, what] : s.entries) {
        names.push_back(name);
        if (what != "none") takes.push_back(name + " (" + what + ")");
      }
      if (l.delegates) {
        std::vector<std::string> all;
        for (const auto& [name, what] : s.entries) {
          auto o = s.outside.find(name);
          all.push_back(name + " (" + what +
                        (o == s.outside.end() ? "" : "; outside every pool: " + o->second) + ")");
        }
        out += head + Wrapped(all, head.size(), "        ") + "\n";
        previous = &s;
        continue;
      }
      if (!previous || previous->last.empty()) {
        const std::string lead = head + fmt::format("{} operators: ", names.size());
        out += lead + Wrapped(names, lead.size(), "        ") + "\n";
      } else {
        std::vector<std::string> added, removed;
        for (const auto& e : s.entries)
          if (std::none_of(previous->entries.begin(), previous->entries.end(),
                           [&](const auto& p) { return p.first == e.first; }))
            added.push_back(e.first);
        for (const auto& e : previous->entries)
          if (std::none_of(s.entries.begin(), s.entries.end(),
                           [&](const auto& p) { return p.first == e.first; }))
            removed.push_back(e.first);
        std::string lead = head + fmt::format("{} operators", names.size());
        if (!added.empty()) {
          lead += "; added: ";
          out += lead + Wrapped(added, lead.size(), "        ");
          lead = "";
        }
        if (!removed.empty()) {
          const std::string r = (added.empty() ? lead : std::string()) + "; removed: ";
          out += r + Wrapped(removed, 8 + r.size(), "        ");
          lead = "";
        }
        if (added.empty() && removed.empty()) out += lead + " (the same; what they take changed)";
        out += "\n";
      }
      if (!takes.empty())
        out += "      while running: " + Wrapped(takes, 21, "        ") + "\n";
      previous = &s;
    }
  }
  out += "(while running: temp = asks the temp allocator, unknown = asks with a size etmem does not "
         "model, malloc = takes the C heap, other_library = another library's kernel answers; every "
         "other operator takes nothing; --format json lists every operator of every release)\n";
  return out;
}

std::string ListFormats(const std::vector<FormatRow>& rows) {
  std::string out;
  for (const FormatRow& r : rows)
    out += fmt::format("{:<24} {:<5} {}\n", r.result, r.format, r.renderer);
  return out;
}

}  // namespace etmem::report
