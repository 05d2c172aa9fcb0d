// Owns: the text and JSON of `etmem firmware` (report/firmware_report.h).
#include "etmem/report/firmware_report.h"

#include "etmem/report/json_report.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <nlohmann/json.hpp>

#include "etmem/base/printable.h"

namespace etmem::report {
namespace {

std::string Hex(uint64_t v) { return fmt::format("0x{:08x}", v); }

std::string AlignText(const FirmwarePool& p) {
  return fmt::format("{}{} B", p.align_capped ? "at least " : "", p.align);
}

std::string PoolLine(const FirmwarePool& p) {
  std::string line = fmt::format("  {} ({} pool): {} B at {} in {}", Printable(p.symbol), p.id,
                                 p.bytes, Hex(p.address), Printable(p.section));
  if (!p.region.empty()) line += " (" + Printable(p.region) + ")";
  line += fmt::format(", base aligned to {} (the largest power of two dividing its address)\n",
                      AlignText(p));
  return line;
}

std::string VerdictLine(const FirmwarePool& p) {
  const std::string what =
      !p.temp ? "needed"
              : fmt::format("needed (the larger of its peaks: {} B during load_method, {}{} B while "
                            "the method runs)",
                            p.load_peak, p.run_unknown.empty() ? "" : "at least ", p.run_peak);
  if (p.fits && !p.run_unknown.empty())
    return fmt::format("    unknown: {} B {}, {} B to spare; not known: the run-time requests "
                       "of {}\n",
                       p.needed, what, p.bytes - p.needed, Printable(p.run_unknown, 400));
  if (p.fits)
    return fmt::format("    fits: {} B {}, {} B to spare\n", p.needed, what, p.bytes - p.needed);
  std::string out = fmt::format("    TOO SMALL by {} B: {} B {}, {} B declared\n",
                                p.needed - p.bytes, p.needed, what, p.bytes);
  if (!p.failing.empty()) out += "    fails at: " + p.failing + "\n";
  if (p.logs_nothing)
    out += "    log: nothing (no allocation fails: neither the runtime nor the runner notices)\n";
  else if (p.log.empty())
    out += "    log: unknown (etmem does not model the line logged for this pool)\n";
  for (const std::string& l : p.log) out += "    log: " + Printable(l, 400) + "\n";
  if (!p.consequence.empty()) out += "    then: " + p.consequence + "\n";
  return out;
}

std::string StackText(const FirmwareReport& r) {
  const api::FirmwareStack& st = *r.stack;
  std::string out =
      st.declared
          ? fmt::format("worst-case stack (judged against the {} B the image declares: {}; {}):\n",
                        st.declared->bytes, Printable(st.declared->symbols, 300), st.declared->meaning)
          : "worst-case stack (information, judged against nothing: the image declares no stack "
            "size etmem reads):\n";
  if (st.declared)
    for (const std::string& o : st.declared->others) out += "  also declared: " + Printable(o, 300) + "\n";
  if (st.declared)
    for (const api::FirmwareRam& ram : r.ram)
      if (auto v = StackVerdict(r, ram))
        out += fmt::format("  method '{}': {}\n", Printable(ram.method),
                           v->kind == VerdictKind::kFits
                               ? fmt::format("fits: {} B of {} B, {} B to spare", *ram.stack_bytes,
                                             st.declared->bytes, st.declared->bytes - *ram.stack_bytes)
                           : v->kind == VerdictKind::kDoesNotFit ? "DOES NOT FIT: " + v->step
                                                                 : "unknown: " + v->step);
  if (!st.not_read.empty()) return out + "  " + Printable(st.not_read, 600) + "\n";
  out += "  frames " + Printable(st.frames, 600) + "\n";
  auto list = [&out](const char* what, const std::vector<std::string>& items) {
    const size_t shown = std::min<size_t>(items.size(), 8);
    for (size_t i = 0; i < shown; ++i) out += fmt::format("    {}: {}\n", what, items[i]);
    if (items.size() > shown)
      out += fmt::format("    ({} more {}; --format json lists every one)\n", items.size() - shown, what);
  };
  for (const api::FirmwareStackEntry& e : st.entries) {
    std::string from;
    for (const std::string& f : e.functions) from += (from.empty() ? "" : ", ") + f;
    out += fmt::format("  {}: {}{} B{} (from {}; {} functions reached)\n", e.entry,
                       e.exact ? "" : "at least ", e.bytes,
                       e.methods.empty() ? "" : fmt::format(" for method(s) {}", fmt::join(e.methods, ", ")),
                       from, e.functions_reached);
    for (const api::FirmwareStackStep& p : e.path)
      out += fmt::format("    {:>7} B  +{:<6} {} ({}, frame from {})\n", p.depth, p.frame,
                         Printable(p.function, 200), p.via, p.frame_source);
    list("resolved", e.resolved);
    if (!e.pruned.empty())
      out += fmt::format("    pruned by the program's dtypes: {} call(s); without pruning {}{} B\n",
                         e.pruned.size(), e.exact ? "" : "at least ", e.unpruned_bytes);
    list("pruned", e.pruned);
    list("kept", e.kept);
    list("unresolved", e.unresolved);
    list("recursion", e.recursion);
    list("dynamic", e.dynamic);
    list("not read", e.unread);
  }
  for (const std::string& m : st.missing) out += "  not found: " + m + "\n";
  for (const std::string& a : st.assumptions) out += "  assuming: " + a + "\n";
  return out;
}

}  // namespace

std::string RenderFirmwareText(const FirmwareReport& r) {
  std::string out = fmt::format("etmem firmware {}\n", Printable(r.image, 400));
  out += fmt::format("target: {} (from {}: {})\n", r.target, r.target_source, r.abi_evidence);
  out += fmt::format("release: ExecuTorch {} (from {})\n", r.runtime, r.runtime_source);
  out += fmt::format("runner: {} {} (from {})", r.runner, r.runner_releases, r.runner_source);
  if (!r.runner_options.empty()) {
    std::string o;
    for (const std::string& s : r.runner_options) o += (o.empty() ? "" : "+") + s;
    out += ", options " + o + " (their pools are in the image)";
  }
  out += "\n";
  if (!r.other_runners.empty()) {
    std::string o;
    for (const std::string& s : r.other_runners) o += (o.empty() ? "" : ", ") + s;
    out += "  the image's symbols also match: " + o + " (--runner NAME to check as one of them)\n";
  }
  if (!r.runner_undecided.empty()) out += "  " + Printable(r.runner_undecided, 800) + "\n";
  out += "programs:\n";
  for (const FirmwareProgram& p : r.programs) {
    if (p.from_file) {
      out += fmt::format("  {} ({} B, {}): from the command line (the firmware reads it at run "
                         "time)\n",
                         Printable(p.name, 400), p.bytes, p.file_identifier);
      continue;
    }
    out += fmt::format("  {} ({} B, {}) at {} in {}", Printable(p.name), p.bytes,
                       p.file_identifier, Hex(p.address), Printable(p.section));
    if (!p.region.empty()) out += " (" + Printable(p.region) + ")";
    out += ": " + p.placement;
    if (p.load_address)
      out += fmt::format(" from {}, costing {} B of RAM as well as its flash", Hex(*p.load_address),
                         p.ram_bytes);
    out += "\n";
  }
  for (const FirmwareMethod& m : r.methods) {
    out += fmt::format("method '{}' of {}:\n", Printable(m.name), Printable(m.program));
    if (m.refusal) {
      out += fmt::format("  REFUSED by ExecuTorch {}: {}\n", r.runtime, Printable(*m.refusal, 400));
      continue;
    }
    for (const FirmwarePool& p : m.pools) {
      out += PoolLine(p);
      out += VerdictLine(p);
      if (!p.note.empty()) out += "    note: " + p.note + "\n";
    }
    if (!m.exact) out += "  (a lower bound: part of the method is not modelled)\n";
  }
  for (const FirmwareMethodNotJudged& m : r.not_judged)
    out += fmt::format("method '{}' of {}: not judged: {}\n", Printable(m.name),
                       Printable(m.program), Printable(m.why, 400));
  if (r.components) {
    const FirmwareComponents& c = *r.components;
    out += "flash and RAM by component (" + c.method + "):\n";
    out += fmt::format("  {:<48} {:>10} {:>10}\n", "component", "flash B", "RAM B");
    for (const FirmwareComponent& row : c.rows)
      out += fmt::format("  {:<48} {:>10} {:>10}\n", Printable(row.name, 48), row.flash_bytes,
                         row.ram_bytes);
    out += fmt::format("  {:<48} {:>10} {:>10}\n", "total", c.flash_total, c.ram_total);
    out += fmt::format("  (the sections' sizes: {} B flash, {} B RAM)\n", c.section_flash_bytes,
                       c.section_ram_bytes);
    for (const FirmwareRegionTotal& g : c.regions) {
      if (g.known_size)
        out += fmt::format("  region {} at {}: {} of {} B used, {} B free\n", Printable(g.name),
                           Hex(g.origin), g.used, g.size, g.size >= g.used ? g.size - g.used : 0);
      else
        out += fmt::format("  {} at {}: {} B\n", Printable(g.name), Hex(g.origin), g.used);
    }
    if (!c.unused_operators.empty()) {
      out += fmt::format("  operators linked but not called by the program ({} B a selective "
                         "build would save):\n",
                         c.unused_operator_bytes);
      for (const std::string& o : c.unused_operators) out += "    " + Printable(o, 200) + "\n";
    }
  }
  if (r.stack) out += StackText(r);
  for (const api::FirmwareRam& ram : r.ram) {
    out += fmt::format("RAM of the ExecuTorch part, method '{}' of {}: {}{} B{}\n",
                       Printable(ram.method), Printable(ram.program), ram.complete ? "" : "at least ",
                       ram.known_bytes,
                       ram.complete ? "" : " (the lines marked unknown are not in it)");
    for (const api::FirmwareRamLine& l : ram.lines) {
      const std::string bytes = l.bytes ? fmt::format("{} B", *l.bytes) : std::string("unknown");
      out += fmt::format("  {:<44} {:>12}{}{}\n", Printable(l.what, 44),
                         l.inside ? "(" + bytes + ")" : bytes,
                         l.region.empty() ? "" : "  [" + Printable(l.region) + "]",
                         l.inside ? "  inside a pool above, not added" : "");
      if (!l.bytes && !l.unknown.empty())
        out += "      " + (l.what == "stack" ? std::string("stack: ") : std::string()) +
               Printable(l.unknown, 400) + "\n";
      if (!l.source.empty() && l.source != "none")
        out += "      source: " + Printable(l.source, 400) + "\n";
    }
    for (const api::FirmwareRam::Region& g : ram.regions)
      out += g.free_bytes
                 ? fmt::format("  in region {}: {} B of its {} B free{}\n", Printable(g.name),
                               g.bytes, *g.free_bytes,
                               g.bytes > *g.free_bytes ? " (more than it has)" : "")
                 : fmt::format("  {}: {} B\n", Printable(g.name), g.bytes);
  }
  for (const std::string& n : r.notes) out += "note: " + n + "\n";
  bool unknown = false;
  for (const FirmwareMethod& m : r.methods)
    for (const FirmwarePool& p : m.pools) unknown = unknown || !p.run_unknown.empty();
  // The stack against the declared one: over it does not fit, a lower bound within it is unknown.
  bool stack_over = false, stack_unknown = false;
  for (const api::FirmwareRam& ram : r.ram)
    if (auto v = StackVerdict(r, ram)) {
      stack_over = stack_over || v->kind == VerdictKind::kDoesNotFit;
      stack_unknown = stack_unknown || v->kind == VerdictKind::kUnknown;
    }
  out += !r.fits() || stack_over ? "verdict: DOES NOT FIT\n"
         : unknown ? "verdict: fits as far as etmem knows (a temp pool's run-time requests are "
                     "unknown: see above)\n"
         : stack_unknown ? "verdict: the pools fit; the stack is unknown against the declared one "
                           "(see the worst-case stack above)\n"
                         : "verdict: fits\n";
  return out;
}

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
