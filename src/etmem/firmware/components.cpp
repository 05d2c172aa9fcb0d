// Owns: the flash and RAM table of an image (components.h).
#include "etmem/firmware/components.h"

#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>
#include <nlohmann/json.hpp>

namespace etmem::firmware {
namespace {

constexpr const char* kComponentsJson =
#include "etmem/firmware/components.inc"
    ;

struct Rule {
  std::string component, kind;
  std::vector<std::string> contains, prefix, suffix, exact, entry_contains, when_image_has;
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
      rule.suffix = r.value("suffix", std::vector<std::string>{});
      rule.exact = r.value("exact", std::vector<std::string>{});
      rule.entry_contains = r.value("entry_contains", std::vector<std::string>{});
      rule.when_image_has = r.value("when_image_has", std::vector<std::string>{});
      out.push_back(std::move(rule));
    }
    return out;
  }();
  return rules;
}

// The identifiers (<len><chars>, Itanium mangling) that follow `at` in `name`, up to the first
// thing that is not one: e.g. after "5torch8executor6native", {"add_out"} for add_out and
// {"utils", "apply_fn"} for a helper in namespace utils. `anonymous`: an anonymous namespace was
// among them (skipped).
std::vector<std::string> NextIdentifiers(const std::string& name, size_t at, bool& anonymous) {
  std::vector<std::string> out;
  anonymous = false;
  while (at < name.size()) {
    size_t end = at;
    uint64_t len = 0;
    while (end < name.size() && name[end] >= '0' && name[end] <= '9' && len < 100000)
      len = len * 10 + static_cast<uint64_t>(name[end++] - '0');
    if (end == at || len == 0 || len > name.size() - end) break;
    std::string id = name.substr(end, len);
    if (id.starts_with("_GLOBAL__N"))
      anonymous = true;
    else
      out.push_back(std::move(id));
    at = end + len;
  }
  return out;
}

// `name` without leading underscores: aten::_softmax.out's portable kernel is softmax_out.
std::string Unprefixed(std::string name) {
  while (name.starts_with("_")) name.erase(0, 1);
  return name;
}

// "op_add.cpp" -> "op_add" (a path's last component without its extension).
std::string FileStem(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  const std::string f = slash == std::string::npos ? path : path.substr(slash + 1);
  return f.substr(0, f.find('.'));
}

bool ContainsAny(const std::string& s, const std::vector<std::string>& parts) {
  return std::any_of(parts.begin(), parts.end(),
                     [&](const std::string& p) { return s.find(p) != std::string::npos; });
}

// A writable section with file bytes that is not copied at boot (its load address is its run
// address) but is loaded by a segment that also holds executable code: it is written with the
// code and used where it is, in flash on a microcontroller (the Arm runner declares model_pte[]
// without const, so its network_model_sec is writable wherever a linker script puts it).
bool InPlaceWithCode(const elf::Executable& image, const elf::Section& s) {
  if (!s.writable() || !s.has_file_bytes()) return false;
  const elf::Segment* g = image.SegmentOf(s);
  if (!g || g->paddr != g->vaddr) return false;
  for (const elf::Section& o : image.elf.sections)
    if (o.allocated() && o.executable() && o.size > 0 && image.SegmentOf(o) == g) return true;
  return false;
}
uint64_t FlashOf(const elf::Executable& image, const elf::Section& s) {
  if (!s.has_file_bytes()) return 0;
  if (!s.writable()) return s.size;
  if (InPlaceWithCode(image, s)) return s.size;
  const elf::Segment* g = image.SegmentOf(s);
  return g && g->paddr != g->vaddr ? s.size : 0;  // initialised data: its load image
}
uint64_t RamOf(const elf::Executable& image, const elf::Section& s) {
  if (InPlaceWithCode(image, s)) return 0;
  return s.writable() || s.type == elf::kShtNobits ? s.size : 0;
}

}  // namespace

std::set<std::string> PresentPatterns(const std::vector<elf::Symbol>& symbols) {
  std::set<std::string> present;
  for (const Rule& r : Rules())
    for (const std::string& p : r.when_image_has)
      if (std::any_of(symbols.begin(), symbols.end(), [&](const elf::Symbol& s) {
            return s.name.find(p) != std::string::npos;
          }))
        present.insert(p);
  return present;
}

Attribution Attribute(const std::string& symbol, const std::set<std::string>& present) {
  // Of the rules that match, the one matching earliest in the name (ties: the first listed).
  const Rule* best = nullptr;
  size_t best_at = std::string::npos;
  std::optional<size_t> best_hit;  // where a `contains` match ends
  for (const Rule& r : Rules()) {
    if (!r.when_image_has.empty() &&
        std::none_of(r.when_image_has.begin(), r.when_image_has.end(),
                     [&](const std::string& p) { return present.count(p) != 0; }))
      continue;
    size_t at = std::string::npos;
    std::optional<size_t> hit;
    for (const std::string& c : r.contains)
      if (size_t i = symbol.find(c); i != std::string::npos && i < at) {
        at = i;
        hit = i + c.size();
      }
    bool whole = false;
    for (const std::string& p : r.prefix) whole = whole || symbol.starts_with(p);
    for (const std::string& p : r.suffix) whole = whole || symbol.ends_with(p);
    for (const std::string& e : r.exact) whole = whole || symbol == e;
    if (whole) at = 0;
    if (at == std::string::npos || (best && at >= best_at)) continue;
    best = &r;
    best_at = at;
    best_hit = hit;
  }
  if (!best) return {};
  Attribution a{best->component, best->kind, ""};
  if (best->kind.empty() || !best_hit) return a;
  bool anonymous = false;
  const std::vector<std::string> ids = NextIdentifiers(symbol, *best_hit, anonymous);
  if (best->kind == "backend") {
    if (!ids.empty()) a.detail = ids.front();
    return a;
  }
  // An operator's kernel: the entry point itself (or code inside it), else a helper ("").
  if (ids.size() == 1 && !anonymous &&
      (best->entry_contains.empty() || ContainsAny(symbol, best->entry_contains)))
    a.detail = ids.front();
  return a;
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
  std::vector<uint64_t> flash_of(elf.sections.size()), ram_of(elf.sections.size());
  for (size_t i = 1; i < elf.sections.size(); ++i) {
    flash_of[i] = FlashOf(image, elf.sections[i]);
    ram_of[i] = RamOf(image, elf.sections[i]);
  }
  auto add = [&](const std::string& name, const elf::Section& s, uint64_t bytes, bool symbol) {
    auto [it, fresh] = rows.try_emplace(name);
    if (fresh) {
      it->second.name = name;
      order.push_back(name);
    }
    const size_t i = static_cast<size_t>(&s - elf.sections.data());
    if (flash_of[i]) it->second.flash_bytes += bytes;
    if (ram_of[i]) it->second.ram_bytes += bytes;
    if (symbol) ++it->second.symbols;
  };
  // Symbols by section, address order (Thumb functions have bit 0 set: cleared). A local
  // symbol keeps the file the symbol table names before it (STT_FILE); a global has none.
  struct Located {
    elf::Symbol symbol;
    std::string file;
    std::string row;       // the table's row
    std::string op;        // an operator kernel's entry name
    bool matched = false;  // a program, a pool or a rule named it
  };
  std::vector<std::vector<Located>> by_section(elf.sections.size());
  std::string file;
  for (const elf::Symbol& s : elf.symbols) {
    if (s.type == 4) file = s.name;
    if (s.size == 0 || (s.type != 0 && s.type != 1 && s.type != 2)) continue;
    const elf::Section* sec = elf.SectionOf(s);
    if (!sec || !sec->allocated()) continue;
    elf::Symbol c = s;
    if (elf.machine == 40 && c.type == 2) c.value &= ~uint64_t{1};
    by_section[s.section].push_back({std::move(c), s.binding == 0 ? file : std::string()});
  }
  // The rules' evidence, and the operators' entry points the image has (a helper local to
  // op_NAME.cpp is the kernel of the entry NAME_...).
  const std::set<std::string> present = PresentPatterns(elf.symbols);
  std::set<std::string> entries;
  for (const elf::Symbol& s : elf.symbols)
    if (s.size != 0 && (s.type == 0 || s.type == 1 || s.type == 2))
      if (const Attribution a = Attribute(s.name, present); a.kind == "operator" && !a.detail.empty())
        entries.insert(a.detail);
  auto helper_of = [&](const std::string& source) -> std::string {
    std::string base = FileStem(source);
    if (!base.starts_with("op_")) return "";
    base = Unprefixed(base.substr(3));
    std::string found;
    for (const std::string& e : entries) {
      if (!Unprefixed(e).starts_with(base + "_")) continue;
      if (!found.empty()) return "";  // two entries: the file's helpers are not one kernel's
      found = e;
    }
    return found;
  };
  // Each symbol's row; a local symbol no rule names (a switch table, a file's static, a clone)
  // is its file's operator kernel (op_NAME.cpp), else given the row most of its file's other
  // symbols have, when it has one.
  std::map<std::string, std::map<std::string, uint64_t>> file_rows;
  for (auto& syms : by_section)
    for (Located& l : syms) {
      const elf::Symbol& sym = l.symbol;
      l.matched = true;
      for (const report::FirmwareProgram& p : report.programs)
        if (!p.from_file && p.address == sym.value) l.row = "program " + p.name;
      for (const report::FirmwareMethod& m : report.methods)
        for (const report::FirmwarePool& p : m.pools)
          if (l.row.empty() && p.address == sym.value && p.symbol == sym.name)
            l.row = "pool " + p.symbol;
      if (!l.row.empty()) continue;
      Attribution a = Attribute(sym.name, present);
      if (a.kind == "operator" && a.detail.empty()) a.detail = helper_of(l.file);
      if (a.kind == "operator") {
        l.row = "kernels: " + (a.detail.empty() ? std::string("shared helpers") : a.detail);
        l.op = a.detail;
      } else if (a.kind == "backend") {
        l.row = "backend " + (a.detail.empty() ? std::string("(unnamed)") : a.detail);
      } else {
        l.row = a.component.empty() ? "application" : a.component;
        l.matched = !a.component.empty();
      }
      if (l.matched && !l.file.empty()) file_rows[l.file][l.row] += sym.size;
    }
  for (auto& syms : by_section)
    for (Located& l : syms) {
      if (l.matched || l.file.empty()) continue;
      if (const std::string op = helper_of(l.file); !op.empty()) {
        l.row = "kernels: " + op;
        l.op = op;
        continue;
      }
      const auto f = file_rows.find(l.file);
      if (f == file_rows.end()) continue;
      const auto most = std::max_element(
          f->second.begin(), f->second.end(),
          [](const auto& a, const auto& b) { return a.second < b.second; });
      l.row = most->first;
      if (l.row.starts_with("kernels: ") && l.row != "kernels: shared helpers")
        l.op = l.row.substr(9);
    }
  std::map<std::string, uint64_t> operator_bytes;
  for (size_t i = 1; i < elf.sections.size(); ++i) {
    const elf::Section& s = elf.sections[i];
    if (!s.allocated() || s.size == 0 || (s.type == elf::kShtNobits && (s.flags & elf::kShfTls)))
      continue;
    out.section_flash_bytes += flash_of[i];
    out.section_ram_bytes += ram_of[i];
    if (!flash_of[i] && !ram_of[i]) continue;
    auto& syms = by_section[i];
    std::sort(syms.begin(), syms.end(), [](const Located& a, const Located& b) {
      return a.symbol.value != b.symbol.value ? a.symbol.value < b.symbol.value
                                              : a.symbol.size > b.symbol.size;
    });
    uint64_t cursor = s.address, covered = 0;
    for (const Located& located : syms) {
      const elf::Symbol& sym = located.symbol;
      const uint64_t begin = std::max(sym.value, cursor);
      const uint64_t end = std::min(sym.value + std::min(sym.size, s.size), s.address + s.size);
      if (sym.value < s.address || end <= begin) continue;
      if (!located.op.empty()) operator_bytes[located.op] += end - begin;
      const std::string& name = located.row;
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
        called.push_back(Unprefixed(ov.empty() ? n : n + "_" + ov));
      }
  if (!programs.empty())
    for (const auto& [op, bytes] : operator_bytes) {
      if (!op.ends_with("_out")) continue;
      if (std::find(called.begin(), called.end(), Unprefixed(op)) != called.end()) continue;
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
