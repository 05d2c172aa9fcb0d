// Owns: the flash and RAM table of an image (components.h).
#include "etmem/firmware/components.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

namespace etmem::firmware {
namespace {

constexpr const char* kComponentsJson =
#include "etmem/firmware/components.inc"
    ;

struct Rule {
  std::string component, kind;
  std::vector<std::string> contains, prefix, exact;
};

const std::vector<Rule>& Rules() {
  static const std::vector<Rule> rules = [] {
    std::vector<Rule> out;
    const nlohmann::json j = nlohmann::json::parse(kComponentsJson);
    for (const auto& r : j.at("rules")) {
      Rule rule;
      rule.component = r.at("component").get<std::string>();
      rule.kind = r.value("kind", "");
      rule.contains = r.value("contains", std::vector<std::string>{});
      rule.prefix = r.value("prefix", std::vector<std::string>{});
      rule.exact = r.value("exact", std::vector<std::string>{});
      out.push_back(std::move(rule));
    }
    return out;
  }();
  return rules;
}

// The Itanium-mangled identifier (<len><chars>) at `at` in `name`, skipping anonymous
// namespaces; "" when there is none.
std::string NextIdentifier(const std::string& name, size_t at) {
  while (at < name.size()) {
    size_t end = at;
    uint64_t len = 0;
    while (end < name.size() && name[end] >= '0' && name[end] <= '9' && len < 100000)
      len = len * 10 + static_cast<uint64_t>(name[end++] - '0');
    if (end == at || len == 0 || len > name.size() - end) return "";
    std::string id = name.substr(end, len);
    if (!id.starts_with("_GLOBAL__N")) return id;
    at = end + len;
  }
  return "";
}

uint64_t FlashOf(const elf::Executable& image, const elf::Section& s) {
  if (!s.has_file_bytes()) return 0;
  if (!s.writable()) return s.size;
  const elf::Segment* g = image.SegmentOf(s);
  return g && g->paddr != g->vaddr ? s.size : 0;  // initialised data: its load image
}
uint64_t RamOf(const elf::Section& s) {
  return s.writable() || s.type == elf::kShtNobits ? s.size : 0;
}

}  // namespace

Attribution Attribute(const std::string& symbol) {
  for (const Rule& r : Rules()) {
    std::optional<size_t> hit;
    for (const std::string& c : r.contains)
      if (size_t at = symbol.find(c); at != std::string::npos) {
        hit = at + c.size();
        break;
      }
    bool match = hit.has_value();
    for (const std::string& p : r.prefix) match = match || symbol.starts_with(p);
    for (const std::string& e : r.exact) match = match || symbol == e;
    if (!match) continue;
    Attribution a{r.component, r.kind, ""};
    if (!r.kind.empty() && hit) a.detail = NextIdentifier(symbol, *hit);
    return a;
  }
  return {};
}

report::FirmwareComponents Components(const elf::Executable& image,
                                      const report::FirmwareReport& report,
                                      const std::vector<const pte::ProgramView*>& programs,
                                      const std::optional<api::Board>& board) {
  const elf::ObjectFile& elf = image.elf;
  report::FirmwareComponents out;
  out.method = "symbols by address within each allocated section, named by "
               "firmware/components.json; bytes no symbol covers counted apart";
  std::map<std::string, report::FirmwareComponent> rows;
  std::vector<std::string> order;
  auto add = [&](const std::string& name, const elf::Section& s, uint64_t bytes, bool symbol) {
    auto [it, fresh] = rows.try_emplace(name);
    if (fresh) {
      it->second.name = name;
      order.push_back(name);
    }
    if (FlashOf(image, s)) it->second.flash_bytes += bytes;
    if (RamOf(s)) it->second.ram_bytes += bytes;
    if (symbol) ++it->second.symbols;
  };
  // Symbols by section, address order (Thumb functions have bit 0 set: cleared).
  std::vector<std::vector<elf::Symbol>> by_section(elf.sections.size());
  for (const elf::Symbol& s : elf.symbols) {
    if (s.size == 0 || (s.type != 0 && s.type != 1 && s.type != 2)) continue;
    const elf::Section* sec = elf.SectionOf(s);
    if (!sec || !sec->allocated()) continue;
    elf::Symbol c = s;
    if (elf.machine == 40 && c.type == 2) c.value &= ~uint64_t{1};
    by_section[s.section].push_back(std::move(c));
  }
  std::map<std::string, uint64_t> operator_bytes;
  for (size_t i = 1; i < elf.sections.size(); ++i) {
    const elf::Section& s = elf.sections[i];
    if (!s.allocated() || s.size == 0 || (s.type == elf::kShtNobits && (s.flags & elf::kShfTls)))
      continue;
    out.section_flash_bytes += FlashOf(image, s);
    out.section_ram_bytes += RamOf(s);
    if (!FlashOf(image, s) && !RamOf(s)) continue;
    auto& syms = by_section[i];
    std::sort(syms.begin(), syms.end(), [](const elf::Symbol& a, const elf::Symbol& b) {
      return a.value != b.value ? a.value < b.value : a.size > b.size;
    });
    uint64_t cursor = s.address, covered = 0;
    for (const elf::Symbol& sym : syms) {
      const uint64_t begin = std::max(sym.value, cursor);
      const uint64_t end = std::min(sym.value + std::min(sym.size, s.size), s.address + s.size);
      if (sym.value < s.address || end <= begin) continue;
      std::string name;
      for (const report::FirmwareProgram& p : report.programs)
        if (!p.from_file && p.address == sym.value) name = "program " + p.name;
      for (const report::FirmwareMethod& m : report.methods)
        for (const report::FirmwarePool& p : m.pools)
          if (name.empty() && p.address == sym.value && p.symbol == sym.name)
            name = "pool " + p.symbol;
      if (name.empty()) {
        const Attribution a = Attribute(sym.name);
        if (a.kind == "operator") {
          name = "kernels: " + (a.detail.empty() ? std::string("(unnamed)") : a.detail);
          operator_bytes[a.detail] += end - begin;
        } else if (a.kind == "backend") {
          name = "backend " + (a.detail.empty() ? std::string("(unnamed)") : a.detail);
        } else {
          name = a.component.empty() ? "application" : a.component;
        }
      }
      add(name, s, end - begin, true);
      covered += end - begin;
      cursor = end;
    }
    if (covered < s.size) add("bytes no symbol covers (padding, unnamed data)", s, s.size - covered, false);
  }
  for (const std::string& n : order) {
    out.rows.push_back(rows[n]);
    out.flash_total += rows[n].flash_bytes;
    out.ram_total += rows[n].ram_bytes;
  }
  std::stable_sort(out.rows.begin(), out.rows.end(),
                   [](const report::FirmwareComponent& a, const report::FirmwareComponent& b) {
                     return a.flash_bytes + a.ram_bytes > b.flash_bytes + b.ram_bytes;
                   });
  // Operators linked but not called: kernels named NAME_out whose operator no program calls.
  std::vector<std::string> called;
  for (const pte::ProgramView* p : programs)
    for (const pte::MethodView& m : p->methods)
      for (const pte::OperatorView& o : m.operators) {
        std::string n(o.name);
        if (const size_t c = n.rfind("::"); c != std::string::npos) n = n.substr(c + 2);
        std::string ov(o.overload);
        std::replace(ov.begin(), ov.end(), '.', '_');
        called.push_back(ov.empty() ? n : n + "_" + ov);
      }
  if (!programs.empty())
    for (const auto& [op, bytes] : operator_bytes) {
      if (!op.ends_with("_out")) continue;
      if (std::find(called.begin(), called.end(), op) != called.end()) continue;
      out.unused_operators.push_back(fmt::format("{} ({} B)", op, bytes));
      out.unused_operator_bytes += bytes;
      for (auto& row : out.rows)
        if (row.name == "kernels: " + op) row.unused_operator = true;
    }
  // Regions: the board's (by address), else the image's LOAD segments.
  if (board) {
    for (const api::BoardRegion& g : board->regions()) {
      if (!g.origin) continue;
      report::FirmwareRegionTotal t{g.name, *g.origin, g.size_bytes, 0, true};
      for (size_t i = 1; i < elf.sections.size(); ++i) {
        const elf::Section& s = elf.sections[i];
        if (!s.allocated() || s.size == 0 || (s.type == elf::kShtNobits && (s.flags & elf::kShfTls)))
          continue;
        auto inside = [&](uint64_t a) { return a >= *g.origin && a - *g.origin < g.size_bytes; };
        if (inside(s.address)) t.used += s.size;
        const elf::Segment* seg = image.SegmentOf(s);
        if (seg && seg->paddr != seg->vaddr && s.has_file_bytes() &&
            inside(seg->paddr + (s.address - seg->vaddr)))
          t.used += s.size;  // the load image of initialised data
      }
      out.regions.push_back(t);
    }
  } else {
    for (size_t i = 0; i < elf.segments.size(); ++i) {
      const elf::Segment& g = elf.segments[i];
      if (g.type != elf::kPtLoad || g.memsz == 0) continue;
      const std::string flags = fmt::format("{}{}{}", g.flags & 4 ? "R" : "-",
                                            g.flags & 2 ? "W" : "-", g.flags & 1 ? "X" : "-");
      out.regions.push_back({fmt::format("segment {} ({}, {} B from the file)", i, flags, g.filesz),
                             g.vaddr, 0, g.memsz, false});
    }
  }
  return out;
}

}  // namespace etmem::firmware
