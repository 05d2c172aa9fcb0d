// Owns: `etmem firmware`'s checks of a linked image (firmware.h): target, programs, runner by
// its pool symbols, per-pool verdicts.
#include "etmem/firmware/firmware.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "etmem/abi/abi.h"
#include "etmem/api/internal.h"
#include "etmem/base/printable.h"
#include "etmem/firmware/components.h"
#include "etmem/firmware/dtype_pruning.h"
#include "etmem/firmware/stack_entries.h"
#include "etmem/kernels/run_temp.h"
#include "etmem/pte/read_program.h"
#include "etmem/analysis/report.h"
#include "etmem/firmware/ram.h"
#include "etmem/runner/profile.h"
#include "etmem/runtime/release.h"
#include "etmem/runtime/release_range.h"

namespace etmem::firmware {
namespace {

[[noreturn]] void Fail(api::ErrorKind kind, const std::string& message) {
  throw api::Error(kind, message);
}

std::string Hex(uint64_t v) { return fmt::format("0x{:08x}", v); }

bool IsDigits(std::string_view s) {
  return !s.empty() && std::all_of(s.begin(), s.end(), [](char c) { return c >= '0' && c <= '9'; });
}

// ---- programs ----

// A C++ static's name without its mangling ("_ZL9model_pte" -> "model_pte"); others as they are.
std::string PlainName(const std::string& symbol) {
  if (!symbol.starts_with("_ZL")) return symbol;
  size_t at = 3, len = 0;
  while (at < symbol.size() && symbol[at] >= '0' && symbol[at] <= '9' && len < 100000)
    len = len * 10 + static_cast<size_t>(symbol[at++] - '0');
  return at > 3 && len == symbol.size() - at ? symbol.substr(at) : symbol;
}

struct Found {
  report::FirmwareProgram info;
  std::optional<api::Program> program;
};

std::string FileIdentifier(std::span<const uint8_t> b) {
  return std::string(reinterpret_cast<const char*>(b.data() + 4), 4);
}

bool LooksLikeProgram(std::span<const uint8_t> b, uint64_t at) {
  if (b.size() < 8 || at > b.size() - 8) return false;
  const uint8_t* p = b.data() + at;
  return p[4] == 'E' && p[5] == 'T' && p[6] >= '0' && p[6] <= '9' && p[7] >= '0' && p[7] <= '9';
}

// The object symbol that starts at `address` with a size, if any.
const elf::Symbol* SymbolAt(const elf::ObjectFile& elf, uint64_t address) {
  for (const elf::Symbol& s : elf.symbols)
    if (s.section != 0 && s.value == address && s.size > 0 && (s.type == 1 || s.type == 0))
      return &s;
  return nullptr;
}

void Place(report::FirmwareProgram& p, const elf::Executable& image, const elf::Section& s) {
  const elf::Segment* g = image.SegmentOf(s);
  if (g && g->paddr != g->vaddr && s.type != elf::kShtNobits) {
    p.placement = "copied to RAM at boot (initialised data)";
    p.load_address = g->paddr + (s.address - g->vaddr) + (p.address - s.address);
    p.ram_bytes = p.bytes;
  } else if (s.writable()) {
    p.placement = "read in place (a writable section, but no copy at boot: its load address is "
                  "its run address)";
  } else {
    p.placement = "read in place (read-only section, not copied to RAM)";
  }
}

std::vector<Found> FindPrograms(const elf::Executable& image, const std::string& name,
                                const RunnerSymbols* runner, std::vector<std::string>& notes) {
  std::vector<Found> out;
  for (size_t si = 1; si < image.elf.sections.size(); ++si) {
    const elf::Section& s = image.elf.sections[si];
    if (!s.allocated() || !s.has_file_bytes() || s.size < 8) continue;
    const std::span<const uint8_t> bytes = image.SectionBytes(s);
    for (uint64_t at = 0; at + 8 <= bytes.size(); ++at) {
      if (!LooksLikeProgram(bytes, at)) continue;
      const uint64_t address = s.address + at;
      const elf::Symbol* sym = SymbolAt(image.elf, address);
      const std::string where = sym ? PlainName(sym->name) : fmt::format("{}+{:#x}", s.name, at);
      const std::string label = fmt::format("{}: {} (section {} at {})", name, Printable(where),
                                            Printable(s.name), Hex(address));
      uint64_t length = bytes.size() - at;
      // Where no array starts and no extended header follows, "ET.." may be anything: the
      // runtime's own identifier strings ("ET12", the file identifier Program::load checks) sit
      // in read-only data and code. Such bytes are a program only if they read as one.
      const uint8_t* eh = bytes.data() + at + 8;
      const bool extended = bytes.size() - at >= 12 && eh[0] == 'e' && eh[1] == 'h' &&
                            eh[2] >= '0' && eh[2] <= '9' && eh[3] >= '0' && eh[3] <= '9';
      const bool anchored = sym != nullptr || extended;
      if (sym) {
        if (!s.Contains(address, sym->size))
          Fail(api::ErrorKind::kInvalidProgram,
               fmt::format("{}: the program's symbol ({} B) spans the end of its section ({} B "
                           "at {})",
                           label, sym->size, s.size, Hex(s.address)));
        length = sym->size;
      } else {
        auto header = pte::ReadExtendedHeader(bytes.subspan(at), label);
        if (header && *header) {
          uint64_t end = (*header)->program_size;
          if ((*header)->segment_data_size)
            end = std::max(end, (*header)->segment_base_offset + *(*header)->segment_data_size);
          if (end > length)
            Fail(api::ErrorKind::kInvalidProgram,
                 fmt::format("{}: the program's extended header says {} B, past the end of its "
                             "section ({} B left)",
                             label, end, length));
          length = end;
        }
      }
      Found f;
      try {
        f.program = api::Program::FromBytes(bytes.data() + at, length, label);
      } catch (const api::Error& e) {
        // The runner's own program array must verify; other "ET.." bytes may be a coincidence.
        const bool runner_array =
            sym && runner && !runner->program_symbol.empty() &&
            NamesVariable(sym->name, runner->program_symbol);
        if (runner_array) throw;
        if (!anchored) continue;  // a coincidence (an identifier string), not a program
        notes.push_back(fmt::format("bytes at {} in {} carry an ExecuTorch file identifier but "
                                    "are not a program etmem can read ({}); skipped",
                                    Hex(address), Printable(s.name), e.what()));
        continue;
      }
      f.info.name = where;
      f.info.section = s.name;
      f.info.address = address;
      f.info.bytes = length;
      f.info.file_identifier = Printable(FileIdentifier(bytes.subspan(at)));
      f.info.methods = f.program->method_names();
      Place(f.info, image, s);
      out.push_back(std::move(f));
      at += length - 1;
    }
  }
  return out;
}

// ---- runner ----

// Whether `s` is in the section a runner declares it in: `declared`, or ("" = no attribute) the
// compiler's default for zero-initialised data (.bss, .bss.NAME with -fdata-sections).
bool InDeclaredSection(const elf::ObjectFile& elf, const elf::Symbol& s, const std::string& declared) {
  const elf::Section* sec = elf.SectionOf(s);
  if (!sec) return false;
  if (!declared.empty()) return sec->name == declared;
  return sec->name == ".bss" || (sec->name.starts_with(".bss.") && s.name.find(sec->name.substr(5)) != std::string::npos);
}

struct Match {
  const RunnerSymbols* entry = nullptr;
  int score = 0;  // the evidence only this runner's image has (see MatchRunners)
  std::vector<std::string> found;  // the runner's pool and program symbols in the image
  // Symbols that would tell this runner apart (its markers, and its pool symbols no other
  // candidate declares) and that the image does not have.
  std::vector<std::string> would_decide;
};

// The runners whose method pool symbol the image has, the likeliest first. Several runners
// declare the same names (method_allocation_pool, temp_allocation_pool, model_pte), and the
// compiler's default section (.bss) is where any runner's pools land when a firmware moves them:
// neither tells runners apart. What counts is what only one runner's image has: its markers
// (2 each), its pool and program symbols that no other candidate declares (1 each), and a
// section attribute of its own where the symbol sits in it (1 each). Equal scores keep etmem's
// runner order (by name, as `etmem list runners`); the report then says which symbol would decide.
std::vector<Match> MatchRunners(const elf::ObjectFile& elf, const std::string& version) {
  std::vector<Match> candidates;
  for (const RunnerSymbols& r : BuiltinRunnerSymbols()) {
    if (!version.empty() && !runtime::ReleaseRange{r.first, r.last}.Contains(version)) continue;
    bool method = false;
    for (const RunnerSymbols::Pool& p : r.pools)
      if (p.pool == "method" && FindPoolSymbol(elf, p.symbol)) method = true;
    if (!method) continue;
    candidates.push_back({&r, 0, {}, {}});
  }
  auto declared_elsewhere = [&](const std::string& symbol, const RunnerSymbols& self) {
    for (const Match& c : candidates) {
      if (c.entry->runner == self.runner) continue;
      if (c.entry->program_symbol == symbol) return true;
      for (const RunnerSymbols::Pool& p : c.entry->pools)
        if (p.symbol == symbol) return true;
    }
    return false;
  };
  for (Match& m : candidates) {
    const RunnerSymbols& r = *m.entry;
    auto weigh = [&](const std::string& symbol, const std::string& section) {
      const elf::Symbol* s = FindPoolSymbol(elf, symbol);
      const bool own = !declared_elsewhere(symbol, r);
      if (!s) {
        if (own) m.would_decide.push_back(symbol);
        return;
      }
      m.found.push_back(symbol);
      if (own) ++m.score;
      if (!section.empty() && InDeclaredSection(elf, *s, section)) ++m.score;
    };
    for (const RunnerSymbols::Pool& p : r.pools) weigh(p.symbol, p.section);
    if (!r.program_symbol.empty()) weigh(r.program_symbol, r.program_section);
    for (const std::string& marker : r.markers) {
      if (std::any_of(elf.symbols.begin(), elf.symbols.end(), [&](const elf::Symbol& s) {
            return s.section != 0 && s.name.find(marker) != std::string::npos;
          }))
        m.score += 2;
      else
        m.would_decide.push_back("a symbol named with " + marker);
    }
  }
  // One per runner name (its best release range), the likeliest first.
  std::vector<Match> best;
  for (Match& m : candidates) {
    auto same = std::find_if(best.begin(), best.end(),
                             [&](const Match& b) { return b.entry->runner == m.entry->runner; });
    if (same == best.end()) best.push_back(std::move(m));
    else if (m.score > same->score) *same = std::move(m);
  }
  std::stable_sort(best.begin(), best.end(),
                   [](const Match& a, const Match& b) { return a.score > b.score; });
  return best;
}

// How many runners etmem knows the declarations of (by name).
size_t KnownRunners() {
  std::vector<std::string> names;
  for (const RunnerSymbols& r : BuiltinRunnerSymbols())
    if (std::find(names.begin(), names.end(), r.runner) == names.end()) names.push_back(r.runner);
  return names.size();
}

uint64_t LowestSetBit(uint64_t v) { return v & (~v + 1); }

std::string FillPlaceholders(std::string line, const std::string& method) {
  auto replace = [&](const std::string& key, const std::string& value) {
    for (size_t at; (at = line.find(key)) != std::string::npos;) line.replace(at, key.size(), value);
  };
  replace("{method}", method);
  replace("{status}", "0x21");
  replace("{status_dec}", "33");
  return line;
}

// The temp pool `p` (its load_method verdict made) checked against the kernels' requests while
// the method runs, at the pool's own size and base alignment: needed becomes the larger peak; a
// pool the load fits but an instruction does not is too small at that instruction, with the lines
// the runtime and the kernel log; requests etmem does not know make the verdict "unknown".
void CheckRunTemp(const pte::ProgramView& program, const pte::MethodView& method,
                  const runtime::RuntimeTraits& release, const abi::Abi& target,
                  const std::vector<std::string>& kernel_libraries, report::FirmwarePool& p) {
  kernels::RunTempOptions o;
  o.kernels = kernel_libraries;
  o.pool_align = static_cast<uint32_t>(p.align);
  o.temp_allocator = true;
  o.temp_pool_bytes = p.bytes;
  const kernels::RunTemp run = api::Take(kernels::ComputeRunTemp(program, method, release, target, o));
  p.load_peak = p.needed;
  p.run_peak = run.peak_bytes;
  p.needed = std::max(p.load_peak, p.run_peak);
  p.note += (p.note.empty() ? "" : "; ") + ("while the method runs: " + run.Describe());
  if (!run.known()) {
    const kernels::CallTemp* first = nullptr;
    for (const kernels::CallTemp& c : run.calls)
      if (!c.unknown.empty() && !first) first = &c;
    p.run_unknown = fmt::format("instruction {} ({}): {}", first->instruction, first->what,
                                first->unknown);
    if (run.unknown_calls > 1) p.run_unknown += fmt::format(" (and {} more)", run.unknown_calls - 1);
  }
  if (!p.fits || !run.check || run.check->fits) return;  // the load fails first, or it all fits
  const kernels::CallTemp& c = run.calls[*run.check->failing_call];
  p.fits = false;
  p.failing = fmt::format("instruction {} ({}, {} kernels) while the method runs: {} B asked, {} B "
                          "declared",
                          c.instruction, c.what, c.library, c.pool_bytes, p.bytes);
  p.log = run.check->log;
  p.consequence = "Method::execute returns MemoryAllocationFailed (0x21) at that instruction";
}

}  // namespace

RunnerSymbols SymbolsOf(const runner::Profile& profile) {
  ETMEM_CHECK(profile.image.has_value());
  const runner::ImageSpec& image = *profile.image;
  RunnerSymbols r;
  r.runner = profile.name;
  r.first = profile.first_release;
  r.last = profile.last_release;
  for (const runner::ImageSpec::Pool& p : image.pools)
    r.pools.push_back({p.id, profile.FindPool(p.id)->variable, p.section});
  r.program_symbol = image.program_symbol;
  r.program_section = image.program_section;
  r.program_align = image.program_align;
  r.markers = image.markers;
  return r;
}

// The built-in profiles' declarations, in etmem's runner order (`etmem list runners`: by name,
// then release); a runner's successive profiles that declare the same symbols in the same
// sections are one entry, over their releases together.
const std::vector<RunnerSymbols>& BuiltinRunnerSymbols() {
  static const std::vector<RunnerSymbols> all = [] {
    std::vector<RunnerSymbols> out;
    const runner::Profile* previous = nullptr;  // the last built-in profile of the same name
    for (const auto& p : runner::BuiltinProfiles()) {
      const bool same_runner = previous && previous->name == p->name;
      if (p->image) {
        RunnerSymbols r = SymbolsOf(*p);
        if (same_runner && previous->image && *previous->image == *p->image &&
            out.back().pools == r.pools)
          out.back().last = r.last;
        else
          out.push_back(std::move(r));
      }
      previous = p.get();
    }
    return out;
  }();
  return all;
}

bool NamesVariable(const std::string& symbol, const std::string& name) {
  if (symbol == name) return true;
  const std::string mangled = std::to_string(name.size()) + name;
  // C++ internal linkage at namespace scope: _ZL<len><name>.
  if (symbol == "_ZL" + mangled) return true;
  // C++ static local: _ZZ<function>E<len><name>, optionally _<discriminator>.
  if (symbol.starts_with("_ZZ")) {
    std::string_view n = symbol;
    if (n.ends_with("E" + mangled)) return true;
    if (const size_t us = n.rfind('_'); us != std::string_view::npos && us > 3 &&
                                        IsDigits(n.substr(us + 1)))
      if (n.substr(0, us).ends_with("E" + mangled)) return true;
  }
  // C static local: <name>.<n>.
  return symbol.size() > name.size() + 1 && symbol.starts_with(name + ".") &&
         IsDigits(std::string_view(symbol).substr(name.size() + 1));
}

const elf::Symbol* FindPoolSymbol(const elf::ObjectFile& elf, const std::string& name) {
  const elf::Symbol* found = nullptr;
  for (const elf::Symbol& s : elf.symbols) {
    if (s.section == 0 || s.section >= 0xff00 || (s.type != 1 && s.type != 0)) continue;
    if (s.name == name) return &s;  // the exact name wins over a static of the same name
    if (!found && NamesVariable(s.name, name)) found = &s;
  }
  return found;
}

TargetGuess GuessTarget(const elf::ObjectFile& elf) {
  // e_machine, its name and constant, the class etmem's target has, that target.
  struct Machine {
    uint16_t machine;
    const char* name;
    const char* constant;
    unsigned bits;
    const char* target;
  };
  static constexpr Machine kMachines[] = {
      // AAPCS on a 32-bit Arm core: the M profile is etmem's cortex-m; A and R cores share its
      // type layout, but their C library's malloc may differ (said in a note by the caller).
      {40, "ARM", "EM_ARM", 32, "cortex-m"},
      {243, "RISC-V", "EM_RISCV", 32, "riscv32"},
      {94, "Xtensa", "EM_XTENSA", 32, "xtensa"},
      {183, "AArch64", "EM_AARCH64", 64, "aarch64"},
      {62, "x86-64", "EM_X86_64", 64, "x86_64"},
  };
  TargetGuess g;
  const std::string cls = fmt::format("ELF{}", elf.bits);
  const auto m = std::find_if(std::begin(kMachines), std::end(kMachines),
                              [&](const Machine& k) { return k.machine == elf.machine; });
  if (m == std::end(kMachines)) {
    g.machine = fmt::format("machine {}", elf.machine);
    g.evidence = fmt::format("e_machine {} {}", elf.machine, cls);
    return g;
  }
  g.machine = m->name;
  g.evidence = fmt::format("{} {}", m->constant, cls);
  if (elf.bits == m->bits) g.target = m->target;
  if (elf.machine == 40) {
    g.evidence += fmt::format(", EABI version {}", elf.flags >> 24);
    if (elf.arm) {
      if (elf.arm->profile) g.evidence += fmt::format(", Tag_CPU_arch_profile '{}'", *elf.arm->profile);
      if (elf.arm->cpu_arch) g.evidence += fmt::format(", Tag_CPU_arch {}", *elf.arm->cpu_arch);
      if (!elf.arm->cpu_name.empty()) g.evidence += ", Tag_CPU_name " + Printable(elf.arm->cpu_name);
    }
  } else if (elf.machine == 243) {
    g.evidence += fmt::format(", e_flags {:#x}", elf.flags);
  }
  return g;
}

// What an M-profile image's build attributes say of CMSIS-NN's build where the target does not
// (the built-in cortex-m assumes MVE): Tag_MVE_arch 1 or 2 is __ARM_FEATURE_MVE (CMSIS-NN's MVE
// paths); otherwise Tag_DSP_extension 1 or Tag_CPU_arch v7E-M (13) is __ARM_FEATURE_DSP; else
// the plain C paths. As arm-none-eabi-gcc 12.2 writes them (readelf -A) and defines the macros
// (-dM) for -mcpu=cortex-m0plus, m4, m7, m33, m33+nodsp, m55 (hard and soft float), m55+nomve.
// The linker merges the objects' attributes: the image's say what its most capable object was
// built for.
void ExtensionFromAttributes(const elf::ArmAttributes& a, abi::Abi& target) {
  if (!a.profile || *a.profile != 'M') return;
  constexpr uint64_t kV7EM = 13;
  std::string evidence;
  if (a.mve_arch && *a.mve_arch >= 1) {
    target.m_extension = abi::MExtension::kMve;
    evidence = fmt::format("Tag_MVE_arch {}", *a.mve_arch);
  } else if ((a.dsp_extension && *a.dsp_extension == 1) || a.cpu_arch == kV7EM) {
    target.m_extension = abi::MExtension::kDsp;
    evidence = a.cpu_arch == kV7EM ? "Tag_CPU_arch v7E-M" : "Tag_DSP_extension 1";
  } else {
    target.m_extension = abi::MExtension::kNone;
    evidence = "neither Tag_MVE_arch nor Tag_DSP_extension, Tag_CPU_arch " +
               (a.cpu_arch ? std::to_string(*a.cpu_arch) : std::string("absent"));
  }
  target.m_extension_assumed.clear();
  target.m_extension_from = "the image's Arm build attributes, " + evidence;
}

report::FirmwareReport CheckFirmware(const std::string& path, const FirmwareOptions& options) {
  return CheckFirmware(api::Take(elf::ReadExecutableFile(path)), path, options);
}

report::FirmwareReport CheckFirmware(std::vector<uint8_t> bytes, const std::string& name,
                                     const FirmwareOptions& options) {
  return CheckFirmware(api::Take(elf::ReadExecutable(std::move(bytes), name)), name, options);
}

report::FirmwareReport CheckFirmware(const elf::Executable& image, const std::string& path,
                                     const FirmwareOptions& options) {
  const std::string name = Printable(path, 400);
  const elf::ObjectFile& elf = image.elf;
  report::FirmwareReport out;
  out.image = path;
  out.bits = elf.bits;

  // Target.
  const TargetGuess guess = GuessTarget(elf);
  out.machine = guess.machine;
  out.abi_evidence = guess.evidence;
  if (!options.model.target.empty()) {
    out.target = options.model.target;
    out.target_source = "--target";
  } else if (!guess.target.empty()) {
    out.target = guess.target;
    out.target_source = "the ELF header";
    if (elf.machine == 40 && elf.arm && elf.arm->profile && *elf.arm->profile != 'M')
      out.notes.push_back(fmt::format(
          "an Arm {}-profile core: etmem's cortex-m target has its AAPCS type layout; pass "
          "--target FILE.json if its C library's malloc alignment differs",
          *elf.arm->profile));
  } else {
    Fail(api::ErrorKind::kInvalidArgument,
         fmt::format("{}: {} has no built-in etmem target (cortex-m, riscv32, xtensa, aarch64, "
                     "x86_64): pass --target NAME or a target file",
                     name, guess.evidence));
  }
  abi::Abi target = api::Take(abi::ResolveTarget(out.target));
  if (elf.arm && !target.m_extension_assumed.empty()) ExtensionFromAttributes(*elf.arm, target);

  // Runner (its declarations found by symbol) and release.
  std::string runner_name, runner_opts;
  if (const size_t plus = options.model.runner.find('+'); !options.model.runner.empty()) {
    runner_name = options.model.runner.substr(0, plus);
    if (plus != std::string::npos) runner_opts = options.model.runner.substr(plus);
  }
  std::string version;
  if (!options.model.runtime.empty())
    version = api::Take(runtime::FindRelease(options.model.runtime))->version;
  const std::vector<Match> matches = MatchRunners(elf, version);
  if (options.model.runner.empty()) {
    if (matches.empty())
      Fail(api::ErrorKind::kInvalidArgument,
           fmt::format("{}: no runner's pool symbols found{} (etmem knows the declarations of "
                       "{} runners: `etmem list runners`); pass --runner NAME or a profile file",
                       name, version.empty() ? "" : " for ExecuTorch " + version,
                       KnownRunners()));
    runner_name = matches[0].entry->runner;
    out.runner_source = "its pool symbols";
    for (size_t i = 1; i < matches.size(); ++i) out.other_runners.push_back(matches[i].entry->runner);
    // Runners the image's symbols fit as well as the one chosen: what would tell them apart.
    std::string tied, decide;
    for (const Match& m : matches) {
      if (m.score != matches[0].score) continue;
      tied += (tied.empty() ? "" : ", ") + m.entry->runner;
      std::string own;
      for (const std::string& d : m.would_decide) own += (own.empty() ? "" : " or ") + d;
      if (!own.empty())
        decide += (decide.empty() ? "" : "; ") + own + " (" + m.entry->runner + ")";
    }
    if (tied.find(',') != std::string::npos)
      out.runner_undecided = "the image's symbols fit " + tied + " equally (" + runner_name +
                             " is checked, the first etmem lists); " +
                             (decide.empty() ? "no symbol of theirs tells them apart"
                                             : "what would decide: " + decide) +
                             "; --runner NAME chooses";
  } else {
    out.runner_source = "--runner";
  }
  if (version.empty()) {
    const RunnerSymbols* matched = nullptr;
    for (const Match& m : matches)
      if (m.entry->runner == runner_name) matched = m.entry;
    std::string range;
    if (matched) range = fmt::format(" (its declarations are those of {} at ExecuTorch {}-{})",
                                     matched->runner, matched->first, matched->last);
    Fail(api::ErrorKind::kInvalidArgument,
         fmt::format("{}: the image does not show which ExecuTorch release it runs beyond "
                     "doubt{}: pass --runtime VERSION",
                     name, range));
  }
  out.runtime = version;
  out.runtime_source = "--runtime (an image does not show its release beyond doubt)";

  // The profile, with the options whose pools the image declares.
  runner::RunnerSelection selection =
      api::Take(runner::SelectRunner(runner_name + runner_opts));
  const runner::Profile* profile = api::Take(runner::ProfileFor(selection, version));
  if (options.model.runner.empty()) {
    for (const runner::PoolSpec& p : profile->pools) {
      const std::string opt(runner::WhenOption(p.when));
      if (opt.empty() || p.when.starts_with("!") || !FindPoolSymbol(elf, p.variable)) continue;
      if (std::find(selection.options.begin(), selection.options.end(), opt) ==
          selection.options.end()) {
        selection.options.push_back(opt);
        out.runner_options.push_back(opt);
      }
    }
  }
  out.runner = profile->name;
  out.runner_releases = profile->first_release + "-" + profile->last_release;
  // Its declarations in an image (the profile's "image": a built-in's, or a runner file's own).
  std::optional<RunnerSymbols> declarations;
  if (profile->image) declarations = SymbolsOf(*profile);
  const RunnerSymbols* declared = declarations ? &*declarations : nullptr;

  // Pools: every pool the runner has with these options, by symbol.
  std::vector<report::FirmwarePool> pools;
  for (const runner::PoolSpec& spec : profile->pools) {
    if (!runner::WhenHolds(spec.when, selection.options)) continue;
    report::FirmwarePool p;
    p.id = spec.id;
    p.role = spec.role;
    const elf::Symbol* s = FindPoolSymbol(elf, spec.variable);
    if (!s)
      Fail(api::ErrorKind::kInvalidArgument,
           fmt::format("{}: no symbol {} ({} runner's {} pool) in the image's symbol table", name,
                       spec.variable, profile->name, spec.id));
    // A defined data object of st_size 0 is a 0 B pool (an array declared with no elements: the
    // runtime sees an allocator of size() 0); a label without a type has no size to read.
    if (s->size == 0 && s->type != 1)
      Fail(api::ErrorKind::kInvalidArgument,
           fmt::format("{}: {} has no size in the symbol table (a label without a type: declared "
                       "in assembly?): etmem needs the pool's size",
                       name, Printable(s->name)));
    const elf::Section* sec = elf.SectionOf(*s);
    if (!sec || !sec->Contains(s->value, s->size))
      Fail(api::ErrorKind::kInvalidArgument,
           fmt::format("{}: {} ({} B at {}) lies outside its section", name, Printable(s->name),
                       s->size, Hex(s->value)));
    p.symbol = s->name;
    p.section = sec->name;
    if (declared)
      for (const RunnerSymbols::Pool& d : declared->pools)
        if (d.pool == spec.id) p.expected_section = d.section;
    p.address = s->value;
    p.bytes = s->size;
    const uint64_t low = LowestSetBit(s->value);
    p.align_capped = low == 0 || low > (uint64_t{1} << 30);
    p.align = p.align_capped ? uint64_t{1} << 30 : low;
    if (options.board)
      for (const api::BoardRegion& g : options.board->regions())
        if (g.origin && p.address >= *g.origin && p.address - *g.origin < g.size_bytes)
          p.region = g.name;
    pools.push_back(std::move(p));
  }

  // Programs: the one named on the command line, else every one embedded.
  std::vector<Found> programs;
  if (!options.program_path.empty()) {
    Found f;
    f.program = api::Program::Open(options.program_path);
    f.info.name = options.program_path;
    f.info.from_file = true;
    f.info.bytes = f.program->size_bytes();
    f.info.methods = f.program->method_names();
    f.info.file_identifier = "";  // the reader checked it; a file's identifier is not kept
    programs.push_back(std::move(f));
  } else {
    programs = FindPrograms(image, name, declared, out.notes);
    if (programs.empty())
      Fail(api::ErrorKind::kInvalidArgument,
           fmt::format("{}: no ExecuTorch program in an allocated section (no \"ET..\" file "
                       "identifier verifies): pass PROGRAM.pte when the firmware reads it from a "
                       "file system or semihosting",
                       name));
  }
  for (Found& f : programs) {
    if (options.board && !f.info.from_file)
      for (const api::BoardRegion& g : options.board->regions())
        if (g.origin && f.info.address >= *g.origin && f.info.address - *g.origin < g.size_bytes)
          f.info.region = g.name;
    out.programs.push_back(f.info);
  }

  // The profile as this image has it: each pool's base aligned as its address is (the
  // profile's base_align is the array's alignment; here it is known, not assumed).
  auto imaged = std::make_shared<runner::Profile>(*profile);
  for (runner::PoolSpec& spec : imaged->pools)
    for (const report::FirmwarePool& p : pools)
      if (spec.id == p.id) {
        spec.base_align = static_cast<uint32_t>(p.align);
        spec.default_bytes = p.bytes;  // its size in this image (the temp pool's fallback reads it)
      }
  imaged->file = profile->file + ", each pool's base aligned as its address in " + name + " is";
  const auto chosen_profiles = selection.candidates;  // keeps `profile` alive
  selection.candidates = {imaged};
  selection.pool_align.reset();

  // Verdicts: each program's methods with the runner, pools as the image declares them.
  const runtime::RuntimeTraits* release = api::Take(runtime::FindRelease(version));
  const runtime::RuntimeModel model(*release, target);
  for (const Found& f : programs) {
    api::Options o = options.model;
    // Which methods the runner loads (a runner that loads only the first: BuildReport leaves the
    // others out, and says so).
    o.runtime = version;
    o.target = out.target;
    o.runner.clear();
    o.pool_align.reset();
    o.pool.reset();
    for (const report::FirmwarePool& p : pools)
      if (p.id == profile->LoadStep().pool) o.pool = p.bytes;
    report::ReportOptions ro = api::Take(api::MakeReportOptions(o, *release, target));
    ro.runner = selection;  // its candidates own the profile chosen
    const report::Report rep = api::Take(report::BuildReport(api::Internal(*f.program), model, ro));
    for (const report::MethodNotJudged& m : rep.not_judged)
      out.not_judged.push_back({f.info.name, m.name, m.why});
    out.notes.insert(out.notes.end(), rep.notes.begin(), rep.notes.end());
    for (const report::MethodReport& m : rep.methods) {
      report::FirmwareMethod fm;
      fm.program = f.info.name;
      fm.name = std::string(m.method->name);
      fm.exact = m.plan.exact();
      if (m.plan.refusal) {
        fm.refusal = m.plan.refusal->error + ": " + m.plan.refusal->reason;
        out.methods.push_back(std::move(fm));
        continue;
      }
      if (!m.runner) Fail(api::ErrorKind::kInvalidArgument, name + ": no runner plan was made");
      const report::RunnerReport& rr = *m.runner;
      for (const sim::RunnerPoolResult& pr : rr.result.pools) {
        const runner::PoolSpec& spec = rr.pool_spec(pr.pool);
        auto it = std::find_if(pools.begin(), pools.end(),
                               [&](const report::FirmwarePool& p) { return p.id == spec.id; });
        if (it == pools.end()) continue;
        report::FirmwarePool p = *it;
        p.needed = pr.minimum;
        p.temp = pr.temp_role;
        if (pr.pool == rr.result.method_pool && rr.result.check) {
          const sim::RunnerCheck& c = *rr.result.check;
          p.fits = c.fits();
          if (c.failure) {
            p.log = c.failure->log;
            p.consequence = c.failure->consequence;
            const runner::RunnerRequest& q = rr.plan.requests[c.failure->request];
            p.failing = c.failure->load_request
                            ? fmt::format("load_method's allocation #{} ({})",
                                          *c.failure->load_request + 1, rr.failing_load_what)
                            : q.what;
            p.failing += fmt::format(": {} B asked, {} B left", c.failure->requested,
                                     c.failure->available);
          } else if (c.overwritten_bytes > 0 && c.overwriting_request) {
            // Every allocation succeeds: neither the runtime nor the runner notices, so nothing
            // is logged; what lies after the pool is overwritten.
            const runner::RunnerRequest& q = rr.plan.requests[*c.overwriting_request];
            p.failing = fmt::format("{}: the runner writes {} B past the pool's end",
                                    q.what, c.overwritten_bytes);
            p.logs_nothing = true;
            p.consequence = fmt::format(
                "silent memory corruption: every allocation succeeds and nothing is logged; the "
                "{} B after the pool (at {}) are overwritten and the runner goes on",
                c.overwritten_bytes, Hex(p.address + p.bytes));
            if (!q.bug.empty()) p.note = "runner bug: " + q.bug;
          }
        } else {
          p.fits = p.bytes >= p.needed;
          if (!p.fits) {
            // The first of the pool's entries that does not fit.
            for (const sim::RunnerEntry& e : pr.entries) {
              if (e.end <= p.bytes) continue;
              const runner::RunnerRequest& q = rr.plan.requests[e.request];
              if (e.load_method) {
                p.failing = fmt::format("load_method's {} allocations here (peak {} B)",
                                        e.allocations, pr.minimum);
                for (const std::string& l : q.failure_logs)
                  p.log.push_back(FillPlaceholders(l, fm.name));
                p.note = "the runtime's own line for a failed temp allocation is not modelled; "
                         "the runner's line above follows it";
              } else {
                p.failing = q.what;
                p.log = q.failure_logs;
              }
              p.consequence = q.then;
              break;
            }
            if (p.failing.empty() && p.temp)
              p.failing = fmt::format("load_method's temp allocations (peak {} B)", pr.minimum);
          }
        }
        if (p.temp) CheckRunTemp(api::Internal(*f.program), *m.method, *release, target,
                                 options.model.kernels, p);
        fm.pools.push_back(std::move(p));
      }
      out.ram.push_back(MethodRam(fm, m));
      out.methods.push_back(std::move(fm));
    }
  }
  if (options.components) {
    std::vector<const pte::ProgramView*> views;
    for (const Found& f : programs) views.push_back(&api::Internal(*f.program));
    out.components = Components(image, out, views, options.board);
  }
  if (options.stack) {
    // The methods the runner executes, each with the operators its kernel calls name.
    std::vector<MethodOperators> methods;
    for (const Found& f : programs)
      for (const pte::MethodView& m : api::Internal(*f.program).methods) {
        const std::string name(m.name);
        if (std::none_of(out.methods.begin(), out.methods.end(),
                         [&](const report::FirmwareMethod& fm) {
                           return fm.program == f.info.name && fm.name == name;
                         }))
          continue;
        MethodOperators mo{Printable(name), {}, {}};
        const std::vector<std::optional<CallDtypes>> by_index = OperatorDtypes(m);
        for (size_t k = 0; k < m.operators.size(); ++k) {
          const pte::OperatorView& o = m.operators[k];
          std::string op(o.name);
          if (!o.overload.empty()) op += "." + std::string(o.overload);
          const auto at = std::find(mo.operators.begin(), mo.operators.end(), op);
          if (at == mo.operators.end()) {
            mo.operators.push_back(op);
            mo.dtypes.push_back(by_index[k]);
            continue;
          }
          // The same name twice in the operator table: the union (unknown if either is).
          auto& known = mo.dtypes[size_t(at - mo.operators.begin())];
          if (known && by_index[k]) {
            known->compute.insert(known->compute.end(), by_index[k]->compute.begin(), by_index[k]->compute.end());
            known->scalars.insert(known->scalars.end(), by_index[k]->scalars.begin(), by_index[k]->scalars.end());
          } else {
            known.reset();
          }
        }
        methods.push_back(std::move(mo));
      }
    out.stack = StackOf(image, methods, release, options.stack_usage);
  }
  for (api::FirmwareRam& ram : out.ram) {
    if (out.stack) StackLine(ram, *out.stack);
    else
      ram.stack_source = "the worst-case stack was left out (the command line's --no-stack; the "
                         "page always leaves it out: it has no disassembler)";
    AddImageLines(ram, out, image, options.board);
  }
  return out;
}

}  // namespace etmem::firmware
