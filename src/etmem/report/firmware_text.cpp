// Owns: the text of `etmem firmware` (RenderFirmwareText, report/firmware_report.h).
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

}  // namespace etmem::report
