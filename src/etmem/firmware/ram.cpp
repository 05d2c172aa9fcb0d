// Owns: MethodRam, AddImageLines and TotalRam (ram.h): the lines of the ExecuTorch part's RAM
// and their sum.
#include "etmem/firmware/ram.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "etmem/base/checked_math.h"
#include "etmem/base/printable.h"
#include "etmem/analysis/figures.h"

namespace etmem::firmware {
namespace {

std::string RamHex(uint64_t v) { return fmt::format("0x{:08x}", v); }

// The board region holding [address, address + bytes), or "".
std::string RamRegionOf(const std::optional<api::Board>& board, uint64_t address, uint64_t bytes) {
  if (!board) return "";
  for (const api::BoardRegion& g : board->regions())
    if (g.origin && address >= *g.origin && address - *g.origin < g.size_bytes &&
        bytes <= g.size_bytes - (address - *g.origin))
      return g.name;
  return "";
}

const char* const kStackLine = "stack";

// Adds `line` before the heap lines: pools, planned buffers, the image's lines, the stack, the
// heap.
void AddBeforeHeap(api::FirmwareRam& ram, api::FirmwareRamLine line) {
  const auto heap = std::find_if(ram.lines.begin(), ram.lines.end(), [](const api::FirmwareRamLine& l) {
    return l.what.starts_with("heap: ");
  });
  ram.lines.insert(heap, std::move(line));
}

}  // namespace

api::FirmwareRam MethodRam(const report::FirmwareMethod& fm, const report::MethodReport& m) {
  api::FirmwareRam ram;
  ram.program = fm.program;
  ram.method = fm.name;
  for (const report::FirmwarePool& p : fm.pools) {
    api::FirmwareRamLine l;
    l.what = fmt::format("pool {} ({})", p.id, p.symbol);
    l.bytes = p.bytes;
    l.source =
        fmt::format("the image: symbol {} in {} at {}, its size from the symbol table", p.symbol,
                    p.section.empty() ? "(no section)" : p.section, RamHex(p.address));
    l.region = p.region;
    ram.lines.push_back(std::move(l));
  }
  // Planned buffers: what the runner allocates of them from its pools is inside those pools.
  const uint64_t planned = report::PlannedBytes(m);
  uint64_t inside = 0;
  std::set<std::string> inside_pools;
  if (m.runner)
    for (const runner::RunnerRequest& q : m.runner->plan.requests)
      if (!q.load_method &&
          m.runner->plan.profile->steps[q.step].kind == runner::StepKind::kPlannedBuffers) {
        inside = SaturatingAdd(inside, q.size);
        inside_pools.insert(m.runner->plan.pools[q.pool].spec->id);
      }
  if (inside > 0) {
    std::string pools;
    for (const std::string& id : inside_pools) pools += (pools.empty() ? "" : ", ") + id;
    api::FirmwareRamLine l;
    l.what = "planned buffers (in pool " + pools + ")";
    l.bytes = std::min(inside, planned);
    l.inside = true;
    l.source = fmt::format(
        "the program's planned buffers, which the {} runner allocates from pool {} (counted there)",
        m.runner->plan.profile->name, pools);
    ram.lines.push_back(std::move(l));
  }
  if (planned > inside) {
    api::FirmwareRamLine l;
    l.what = "planned buffers";
    l.bytes = planned - inside;
    l.source = m.runner ? fmt::format(
                              "the program's planned buffers (non_const_buffer_sizes), from no "
                              "pool the {} runner declares: its profile says: {}",
                              m.runner->plan.profile->name, m.runner->plan.profile->description)
                        : "the program's planned buffers (non_const_buffer_sizes)";
    ram.lines.push_back(std::move(l));
  }
  // Heap: the kernels' own malloc, the no-temp-allocator fallback, each backend's.
  const kernels::RunTemp& t = m.run_temp;
  std::string libs;
  for (const std::string& lib : t.libraries) libs += (libs.empty() ? "" : ", ") + lib;
  {
    api::FirmwareRamLine l;
    l.what = "heap: kernels' malloc";
    l.bytes = t.malloc_peak_bytes;
    l.source = fmt::format(
        "kernel library data ({}): the most the called kernels hold from malloc at once while the "
        "method runs{}",
        libs,
        t.malloc_peak_bytes == 0 ? " (none of them mallocs)"
        : t.malloc_leaked_bytes
            ? fmt::format("; {} B of it never freed, growing every run", t.malloc_leaked_bytes)
            : "");
    if (!t.known()) {
      l.bytes.reset();
      l.unknown = fmt::format("{} call(s) with requests etmem does not model", t.unknown_calls);
    }
    ram.lines.push_back(std::move(l));
  }
  if (t.platform_fallback) {
    api::FirmwareRamLine l;
    l.what = "heap: PlatformMemoryAllocator";
    l.bytes = t.heap_peak_bytes;
    l.source =
        "no temp allocator passed: the runtime takes the kernels' temp requests from "
        "et_pal_allocate (kernels/run_temp.h)";
    ram.lines.push_back(std::move(l));
  }
  for (const kernels::DelegateUse& u : t.delegate_uses) {
    api::FirmwareRamLine l;
    l.what = "heap: backend " + Printable(u.backend);
    if (u.outside_unknown) {
      l.unknown = u.outside.empty() ? "not modelled" : u.outside;
      l.source =
          u.library.empty() ? "no modelled library" : "delegate library data (" + u.library + ")";
    } else {
      l.bytes = u.outside_bytes.value_or(0);
      l.source = u.outside.empty() ? "delegate library data (" +
                                         (u.library.empty() ? std::string("none") : u.library) +
                                         "): nothing outside the ExecuTorch pools"
                                   : u.outside;
    }
    ram.lines.push_back(std::move(l));
  }
  return ram;
}

void AddImageLines(api::FirmwareRam& ram, const report::FirmwareReport& report,
                   const elf::Executable& image, const std::optional<api::Board>& board) {
  // The program when it lies in RAM (copied at boot, or linked in a writable section).
  for (const report::FirmwareProgram& p : report.programs) {
    if (p.name != ram.program || p.from_file) continue;
    uint64_t ram_bytes = p.ram_bytes;
    std::string source = "the image: " + p.placement;
    if (report.components)
      for (const api::FirmwareComponent& row : report.components->rows)
        if (row.name == "program " + p.name) {
          ram_bytes = row.ram_bytes;
          source = "the component table's row 'program " + p.name + "' (" + p.placement +
                   (p.section.empty() ? "" : ", section " + p.section) + ")";
        }
    if (ram_bytes == 0) continue;
    api::FirmwareRamLine l;
    l.what = "program " + p.name + " in RAM";
    l.bytes = ram_bytes;
    l.source = source;
    l.region = RamRegionOf(board, p.address, p.bytes);
    AddBeforeHeap(ram, std::move(l));
  }
  // .data/.bss of the runtime, kernels and backends: the component table's RAM of their rows.
  struct Group {
    const char* what;
    uint64_t bytes = 0;
    std::vector<std::string> rows;
  };
  Group groups[] = {{"runtime .data/.bss"}, {"kernels .data/.bss"}, {"backends .data/.bss"}};
  auto group_of = [](const std::string& row) -> int {
    if (row == "ExecuTorch runtime core" || row == "flatbuffers") return 0;
    if (row.starts_with("kernels: ") || row == "kernel registration (generated)") return 1;
    if (row.starts_with("backend ")) return 2;
    return -1;
  };
  // Their region: that of the image's .data and .bss sections (.sdata, .sbss), when one region
  // holds them all; else not placed (the source names the sections).
  std::set<std::string> regions;
  bool unplaced = false;
  std::string sections;
  for (const elf::Section& s : image.elf.sections)
    if (s.allocated() && s.writable() && !s.executable() && s.size > 0 &&
        (s.name.starts_with(".data") || s.name.starts_with(".bss") ||
         s.name.starts_with(".sdata") || s.name.starts_with(".sbss"))) {
      const std::string r = RamRegionOf(board, s.address, s.size);
      unplaced |= r.empty();
      if (!r.empty()) regions.insert(r);
      sections += (sections.empty() ? "" : ", ") + s.name;
    }
  const std::string region = !unplaced && regions.size() == 1 ? *regions.begin() : "";
  for (int g = 0; g < 3; ++g) {
    api::FirmwareRamLine l;
    l.what = groups[g].what;
    if (!report.components) {
      l.unknown = "the component table was not made (--no-components)";
      AddBeforeHeap(ram, std::move(l));
      continue;
    }
    for (const api::FirmwareComponent& row : report.components->rows)
      if (group_of(row.name) == g && row.ram_bytes > 0) {
        groups[g].bytes = SaturatingAdd(groups[g].bytes, row.ram_bytes);
        groups[g].rows.push_back(fmt::format("'{}' {} B", row.name, row.ram_bytes));
      }
    l.bytes = groups[g].bytes;
    std::string rows;
    for (const std::string& r : groups[g].rows) rows += (rows.empty() ? "" : ", ") + r;
    l.source = rows.empty() ? "the component table: no RAM in its rows"
                            : "the component table's rows " + rows;
    if (!sections.empty()) l.source += " (the image's " + sections + ")";
    l.region = region;
    AddBeforeHeap(ram, std::move(l));
  }
  TotalRam(ram, board);
}

void TotalRam(api::FirmwareRam& ram, const std::optional<api::Board>& board) {
  // The stack line: made again from the slot, always just before the heap lines.
  ram.lines.erase(
      std::remove_if(ram.lines.begin(), ram.lines.end(),
                     [](const api::FirmwareRamLine& l) { return l.what == kStackLine; }),
      ram.lines.end());
  api::FirmwareRamLine stack;
  stack.what = kStackLine;
  if (ram.stack_bytes) {
    stack.bytes = ram.stack_bytes;
    stack.source = ram.stack_source;
  } else {
    stack.unknown = ram.stack_source.empty()
                        ? "not computed: the worst-case stack was not asked for"
                        : "not computed: " + ram.stack_source;
  }
  AddBeforeHeap(ram, std::move(stack));
  ram.known_bytes = 0;
  ram.complete = !ram.stack_bytes || ram.stack_exact;
  ram.regions.clear();
  for (const api::FirmwareRamLine& l : ram.lines) {
    if (!l.bytes) {
      ram.complete = false;
      continue;
    }
    if (l.inside) continue;
    ram.known_bytes = SaturatingAdd(ram.known_bytes, *l.bytes);
    if (!board || (l.region.empty() && *l.bytes == 0)) continue;
    const std::string name = l.region.empty() ? "(not placed)" : l.region;
    auto it = std::find_if(ram.regions.begin(), ram.regions.end(),
                           [&](const api::FirmwareRam::Region& r) { return r.name == name; });
    if (it == ram.regions.end()) {
      api::FirmwareRam::Region r{name, 0, std::nullopt};
      for (const api::BoardRegion& g : board->regions())
        if (g.name == name) r.free_bytes = g.free_bytes;
      ram.regions.push_back(r);
      it = ram.regions.end() - 1;
    }
    it->bytes = SaturatingAdd(it->bytes, *l.bytes);
  }
}

}  // namespace etmem::firmware
