// Owns: disassembling an Arm image's functions with capstone (frames, call sites, dynamic stack
// adjustments) and the worst-case stack over the call graph (call_graph.h).
#include "etmem/stack/call_graph.h"

#include <cxxabi.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <memory>
#include <set>

#ifndef ETMEM_NO_CAPSTONE
#include <capstone/capstone.h>
#endif
#include <fmt/format.h>

namespace etmem::stack {

std::string Demangle(const std::string& name) {
  if (name.size() < 2 || name[0] != '_' || name[1] != 'Z') return name;
  int status = 0;
  std::unique_ptr<char, void (*)(void*)> out(
      abi::__cxa_demangle(name.c_str(), nullptr, nullptr, &status), std::free);
  return status == 0 && out ? std::string(out.get()) : name;
}

std::string ReadableArchitectures() { return "Arm (Thumb/Thumb-2 and A32)"; }

std::string MachineName(const elf::ObjectFile& elf) {
  const char* name = elf.machine == 40    ? "Arm"
                     : elf.machine == 243 ? "RISC-V"
                     : elf.machine == 94  ? "Xtensa"
                     : elf.machine == 183 ? "AArch64"
                     : elf.machine == 62  ? "x86-64"
                     : elf.machine == 3   ? "x86"
                                          : "";
  return fmt::format("{}{}ELF machine {}, ELF{}{}", name, *name ? " (" : "", elf.machine, elf.bits,
                     *name ? ")" : "");
}

void AddImageFunctions(CallGraph& g, const elf::ObjectFile& elf) {
  // One per address (aliases share it: the global name wins, then the first).
  std::map<uint64_t, const elf::Symbol*> chosen;
  for (const elf::Symbol& s : elf.symbols) {
    if (s.type != 2 || s.size == 0 || s.section == 0) continue;
    const elf::Section* sec = elf.SectionOf(s);
    if (!sec || !sec->executable()) continue;
    const uint64_t addr = s.value & ~uint64_t{1};
    auto [it, fresh] = chosen.emplace(addr, &s);
    if (!fresh && it->second->binding == 0 && s.binding != 0) it->second = &s;
  }
  for (const auto& [addr, s] : chosen) {
    Function f;
    f.name = s->name;
    f.demangled = Demangle(s->name);
    f.address = addr;
    f.size = s->size;
    f.thumb = elf.machine == 40 && (s->value & 1) != 0;
    g.by_address[addr] = g.functions.size();
    g.functions.push_back(std::move(f));
  }
}

std::optional<size_t> CallGraph::At(uint64_t address) const {
  address &= ~uint64_t{1};
  auto it = by_address.upper_bound(address);
  if (it == by_address.begin()) return std::nullopt;
  --it;
  const Function& f = functions[it->second];
  if (address == f.address || address - f.address < f.size) return it->second;
  return std::nullopt;
}

std::vector<size_t> CallGraph::Find(const std::string& name) const {
  std::vector<size_t> out;
  for (size_t i = 0; i < functions.size(); ++i)
    if (functions[i].name == name || functions[i].demangled == name) out.push_back(i);
  return out;
}

#ifndef ETMEM_NO_CAPSTONE
namespace {

// A mapping symbol ($a, $t, $d, optionally followed by '.' and more): where Arm code, Thumb
// code or data (literal pools, tables) begin.
enum class MapKind { kArm, kThumb, kData };
std::optional<MapKind> MappingSymbol(const std::string& name) {
  if (name.size() < 2 || name[0] != '$' || (name.size() > 2 && name[2] != '.')) return std::nullopt;
  switch (name[1]) {
    case 'a': return MapKind::kArm;
    case 't': return MapKind::kThumb;
    case 'd': return MapKind::kData;
    default: return std::nullopt;
  }
}

struct Capstone {
  csh handle = 0;
  bool ok = false;
  explicit Capstone(cs_mode mode) {
    ok = cs_open(CS_ARCH_ARM, mode, &handle) == CS_ERR_OK;
    if (ok) cs_option(handle, CS_OPT_DETAIL, CS_OPT_ON);
  }
  ~Capstone() {
    if (ok) cs_close(&handle);
  }
  Capstone(const Capstone&) = delete;
  Capstone& operator=(const Capstone&) = delete;
};

bool IsReg(const cs_arm_op& o, arm_reg r) { return o.type == ARM_OP_REG && o.reg == r; }

// Bytes a register list operand stores: core registers 4, S registers 4, D registers 8.
uint64_t ListBytes(csh h, const cs_arm& a) {
  uint64_t bytes = 0;
  for (int k = 0; k < a.op_count; ++k) {
    if (a.operands[k].type != ARM_OP_REG) continue;
    const char* n = cs_reg_name(h, a.operands[k].reg);
    bytes += (n && n[0] == 'd' && n[1] >= '0' && n[1] <= '9') ? 8 : 4;
  }
  return bytes;
}

bool ListHas(const cs_arm& a, arm_reg r) {
  for (int k = 0; k < a.op_count; ++k)
    if (IsReg(a.operands[k], r)) return true;
  return false;
}

struct Effect {
  uint64_t dec = 0, inc = 0;
  bool dynamic = false;
  bool sp_from_reg = false;    // mov sp, rX: a frame pointer restored (an epilogue) or sp computed
  bool ret = false;            // returns to the caller
  bool indirect_call = false;  // blx rX
  bool indirect_jump = false;  // bx rX, ldr pc, mov pc
  std::optional<uint64_t> call, branch;  // bl/blx imm; b imm
  bool conditional = false;
};

Effect Classify(csh h, const cs_insn& in) {
  Effect e;
  const cs_arm& a = in.detail->arm;
  e.conditional = a.cc != ARM_CC_AL && a.cc != ARM_CC_INVALID;
  const int n = a.op_count;
  switch (in.id) {
    case ARM_INS_PUSH:
    case ARM_INS_VPUSH:
      e.dec = ListBytes(h, a);
      return e;
    case ARM_INS_POP:
    case ARM_INS_VPOP:
      e.inc = ListBytes(h, a);
      e.ret = ListHas(a, ARM_REG_PC);
      return e;
    case ARM_INS_STMDB:
      if (n >= 1 && IsReg(a.operands[0], ARM_REG_SP) && a.writeback) {
        for (int k = 1; k < n; ++k) e.dec += 4;
      }
      return e;
    case ARM_INS_LDM:
      if (n >= 1 && IsReg(a.operands[0], ARM_REG_SP) && a.writeback) {
        for (int k = 1; k < n; ++k) e.inc += 4;
        e.ret = ListHas(a, ARM_REG_PC);
      } else if (ListHas(a, ARM_REG_PC)) {
        e.indirect_jump = true;
      }
      return e;
    case ARM_INS_SUB:
    case ARM_INS_SUBW:
    case ARM_INS_ADD:
    case ARM_INS_ADDW: {
      if (n < 2 || !IsReg(a.operands[0], ARM_REG_SP)) return e;
      if (n == 3 && !IsReg(a.operands[1], ARM_REG_SP)) return e;  // sp = rX +/- ...: a restore
      const cs_arm_op& last = a.operands[n - 1];
      const bool sub = in.id == ARM_INS_SUB || in.id == ARM_INS_SUBW;
      if (last.type == ARM_OP_IMM) {
        const int64_t v = sub ? -int64_t(last.imm) : int64_t(last.imm);
        if (v < 0) e.dec = uint64_t(-v);
        else e.inc = uint64_t(v);
      } else if (last.type == ARM_OP_REG && last.reg != ARM_REG_SP) {
        e.dynamic = sub;  // sp -= rX: alloca, a variable-length array
      }
      return e;
    }
    case ARM_INS_BL:
      if (n >= 1 && a.operands[0].type == ARM_OP_IMM) e.call = uint32_t(a.operands[0].imm);
      return e;
    case ARM_INS_BLX:
      if (n >= 1 && a.operands[0].type == ARM_OP_IMM) e.call = uint32_t(a.operands[0].imm);
      else e.indirect_call = true;
      return e;
    case ARM_INS_B:
      if (n >= 1 && a.operands[0].type == ARM_OP_IMM) e.branch = uint32_t(a.operands[0].imm);
      return e;
    case ARM_INS_BX:
      if (n >= 1 && IsReg(a.operands[0], ARM_REG_LR)) e.ret = true;
      else e.indirect_jump = true;
      return e;
    case ARM_INS_MOV:
      if (n >= 2 && IsReg(a.operands[0], ARM_REG_PC)) {
        if (IsReg(a.operands[1], ARM_REG_LR)) e.ret = true;
        else e.indirect_jump = true;
      }
      if (n >= 2 && IsReg(a.operands[0], ARM_REG_SP) && a.operands[1].type == ARM_OP_REG &&
          a.operands[1].reg != ARM_REG_SP)
        e.sp_from_reg = true;
      return e;
    default:
      break;
  }
  // Loads and stores: str rX, [sp, #-N]! (a push), ldr rX, [sp], #N (a pop), ldr pc, [...].
  int mem = -1;
  for (int k = 0; k < n; ++k)
    if (a.operands[k].type == ARM_OP_MEM) mem = k;
  const bool to_pc = n >= 1 && IsReg(a.operands[0], ARM_REG_PC);
  if (mem >= 0 && a.operands[mem].mem.base == ARM_REG_SP && a.writeback) {
    const bool post = mem + 1 < n && a.operands[mem + 1].type == ARM_OP_IMM;
    const int64_t step = post ? (a.operands[mem + 1].subtracted ? -int64_t(a.operands[mem + 1].imm)
                                                                 : int64_t(a.operands[mem + 1].imm))
                              : int64_t(a.operands[mem].mem.disp);
    if (step < 0) e.dec = uint64_t(-step);
    else e.inc = uint64_t(step);
    if (to_pc) e.ret = true;
    return e;
  }
  if (to_pc && (in.id == ARM_INS_LDR || in.id == ARM_INS_LDRD)) e.indirect_jump = true;
  return e;
}

std::string Text(const cs_insn& in) {
  return in.op_str[0] ? fmt::format("{} {}", in.mnemonic, in.op_str) : std::string(in.mnemonic);
}

struct MapEntry {
  uint64_t address;
  MapKind kind;
};

void ReadFunction(const elf::Executable& image, const std::vector<MapEntry>& map, csh thumb,
                  csh arm, Function& f, std::vector<std::pair<size_t, uint64_t>>& fallthrough,
                  size_t index) {
  const elf::Section* s = image.elf.SectionAt(f.address);
  if (!s || !s->has_file_bytes() || !s->Contains(f.address, f.size)) {
    f.read = false;
    return;
  }
  const auto bytes = image.SectionBytes(*s);
  if (bytes.size() < (f.address - s->address) + f.size) {
    f.read = false;
    return;
  }
  const uint8_t* code = bytes.data() + (f.address - s->address);
  const uint64_t end = f.address + f.size;

  // The kind of bytes at `at` from the mapping symbols (none: the function's own mode).
  auto kind_at = [&](uint64_t at) -> std::pair<MapKind, uint64_t> {
    auto it = std::upper_bound(map.begin(), map.end(), at,
                               [](uint64_t v, const MapEntry& m) { return v < m.address; });
    const uint64_t next = it == map.end() ? end : std::min(end, it->address);
    if (it == map.begin() || (it - 1)->address < f.address)
      return {f.thumb ? MapKind::kThumb : MapKind::kArm, next};
    return {(it - 1)->kind, next};
  };

  int64_t off = 0, deepest = 0, pending = -1;
  std::string pending_dynamic;  // a mov sp, rX not yet followed by a return
  bool last_terminates = true, last_call = false;
  uint64_t at = f.address;
  cs_insn* insn = nullptr;
  while (at < end) {
    const auto [kind, next] = kind_at(at);
    if (kind == MapKind::kData) {
      at = next;
      continue;
    }
    const csh h = kind == MapKind::kThumb ? thumb : arm;
    const uint8_t* p = code + (at - f.address);
    size_t left = size_t(next - at);
    uint64_t addr = at;
    if (!insn) insn = cs_malloc(h);
    if (!cs_disasm_iter(h, &p, &left, &addr, insn)) {
      at += kind == MapKind::kThumb ? 2 : 4;  // not an instruction capstone knows: skipped
      continue;
    }
    at = addr;
    if (insn->id == ARM_INS_NOP) continue;  // padding after the last instruction
    const Effect e = Classify(h, *insn);
    const std::string text = Text(*insn);
    bool terminates = false;
    if (e.dec) {
      pending = -1;
      off += int64_t(e.dec);
      deepest = std::max(deepest, off);
    } else if (e.inc) {
      if (pending < 0) pending = off;
      off = std::max<int64_t>(0, off - int64_t(e.inc));
    }
    if (e.dynamic)
      f.dynamic.push_back(fmt::format("{} at {:#x}", text, insn->address));
    // mov sp, rX then a return: an epilogue (the frame pointer restored). Anything else between:
    // sp was computed (sub rX, sp, rY; mov sp, rX is alloca's other form).
    if (e.sp_from_reg) {
      pending_dynamic = fmt::format("{} at {:#x}", text, insn->address);
    } else if (!pending_dynamic.empty() && !e.inc && !e.ret) {
      f.dynamic.push_back(pending_dynamic + " (sp set from a register, not before a return)");
      pending_dynamic.clear();
    }
    if (e.ret) terminates = true;
    if (e.call) {
      const uint64_t t = *e.call & ~uint64_t{1};
      if (t != f.address && t >= f.address && t < end) {
        // a bl inside the function (a long branch): not a call
      } else {
        f.sites.push_back({insn->address, SiteKind::kCall, t, uint64_t(off), false, text});
      }
    }
    if (e.branch) {
      const uint64_t t = *e.branch & ~uint64_t{1};
      if (t < f.address || t >= end || t == f.address) {
        f.sites.push_back({insn->address, SiteKind::kTail, t, uint64_t(off), false, text});
        if (!e.conditional) terminates = true;
      } else if (!e.conditional) {
        terminates = true;  // a jump inside the function: what follows is reached otherwise
      }
    }
    if (e.indirect_call || e.indirect_jump) {
      f.sites.push_back({insn->address, SiteKind::kIndirect, 0, uint64_t(off), e.indirect_jump, text});
      if (e.indirect_jump && !e.conditional) terminates = true;
    }
    if (terminates) {
      if (pending >= 0) off = pending;
      pending = -1;
      pending_dynamic.clear();
    } else if (!e.inc) {
      pending = -1;
    }
    last_terminates = terminates;
    last_call = e.call.has_value() || e.indirect_call;
  }
  if (insn) cs_free(insn, 1);
  f.frame = uint64_t(deepest);
  // Code that runs off its end continues in the next function (libgcc's entry points do).
  if (!last_terminates && !last_call) fallthrough.push_back({index, uint64_t(off)});
}

}  // namespace

#endif  // ETMEM_NO_CAPSTONE

Result<CallGraph> ReadCallGraph(const elf::Executable& image) {
#ifdef ETMEM_NO_CAPSTONE
  (void)image;
  return MakeError(ErrorCode::kUnsupported,
                   "no stack bound: this build of etmem has no disassembler (capstone); the "
                   "command-line tool and the library read " + ReadableArchitectures());
#else
  const elf::ObjectFile& elf = image.elf;
  if (elf.machine != 40 || elf.bits != 32)
    return MakeError(ErrorCode::kUnsupported,
                     fmt::format("no stack bound: the image's code ({}) is not read; etmem reads {}",
                                 MachineName(elf), ReadableArchitectures()));
  CallGraph g;
  g.architecture = ReadableArchitectures();
  std::vector<MapEntry> map;
  for (const elf::Symbol& s : elf.symbols)
    if (auto k = MappingSymbol(s.name); k && s.section != 0) map.push_back({s.value, *k});
  std::sort(map.begin(), map.end(),
            [](const MapEntry& a, const MapEntry& b) { return a.address < b.address; });

  AddImageFunctions(g, elf);
  Capstone thumb(cs_mode(CS_MODE_THUMB | CS_MODE_MCLASS));
  Capstone arm(CS_MODE_ARM);
  if (!thumb.ok || !arm.ok)
    return MakeError(ErrorCode::kUnsupported, "no stack bound: capstone cannot disassemble Arm here");
  std::vector<std::pair<size_t, uint64_t>> fallthrough;
  for (size_t i = 0; i < g.functions.size(); ++i)
    ReadFunction(image, map, thumb.handle, arm.handle, g.functions[i], fallthrough, i);
  for (const auto& [i, depth] : fallthrough) {
    Function& f = g.functions[i];
    const uint64_t next = f.address + f.size;
    if (g.by_address.count(next))
      f.sites.push_back({next - 2, SiteKind::kTail, next, depth, false, "(runs into the next function)"});
  }
  return g;
#endif
}

namespace {

struct Edge {
  size_t to;
  uint64_t depth;    // the caller's stack when the callee is entered
  std::string via;   // "call", "tail", "indirect (resolved)"
};

}  // namespace

Bound WorstCase(const CallGraph& graph, const std::vector<size_t>& entries,
                const Resolution& resolution, const EdgeSet& dropped) {
  Bound b;
  const size_t n = graph.functions.size();
  std::vector<std::vector<Edge>> edges(n);
  std::vector<std::vector<std::string>> unresolved(n);
  std::vector<size_t> resolved_sites(n, 0);
  for (size_t i = 0; i < n; ++i) {
    const Function& f = graph.functions[i];
    for (const CallSite& s : f.sites) {
      const uint64_t call_depth = f.frame;  // the whole frame: the site may be past the prologue
      const uint64_t tail_depth = std::min(s.depth, f.frame);
      const std::string at = s.where.empty() ? fmt::format("{:#x}", s.address) : s.where;
      if (s.kind == SiteKind::kIndirect) {
        auto r = resolution.find(s.address);
        if (r == resolution.end()) {
          unresolved[i].push_back(fmt::format("{} at {} in {}", s.text, at, f.demangled));
          continue;
        }
        ++resolved_sites[i];
        for (uint64_t t : r->second)
          if (auto to = graph.At(t); to && !dropped.count({i, *to}))
            edges[i].push_back({*to, s.jump ? tail_depth : call_depth, "indirect (resolved)"});
        continue;
      }
      auto to = graph.At(s.target);
      if (!to) {
        unresolved[i].push_back(
            s.where.empty() ? fmt::format("{} at {:#x} in {}: no function at {:#x}", s.text,
                                          s.address, f.demangled, s.target)
                            : fmt::format("{} at {} in {}: no such function in the image", s.text,
                                          at, f.demangled));
        continue;
      }
      if (dropped.count({i, *to})) continue;
      edges[i].push_back({*to, s.kind == SiteKind::kCall ? call_depth : tail_depth,
                          s.kind == SiteKind::kCall ? "call" : "tail"});
    }
  }

  // Tarjan's strongly connected components over what the entries reach, without recursion.
  std::vector<int64_t> index(n, -1), low(n, 0), comp(n, -1);
  std::vector<bool> on_stack(n, false);
  std::vector<size_t> stack;
  std::vector<std::vector<size_t>> comps;  // callees' components first
  int64_t counter = 0;
  for (size_t root : entries) {
    if (root >= n || index[root] >= 0) continue;
    std::vector<std::pair<size_t, size_t>> work{{root, 0}};
    index[root] = low[root] = counter++;
    stack.push_back(root);
    on_stack[root] = true;
    while (!work.empty()) {
      auto& [v, next] = work.back();
      if (next < edges[v].size()) {
        const size_t w = edges[v][next++].to;
        if (index[w] < 0) {
          index[w] = low[w] = counter++;
          stack.push_back(w);
          on_stack[w] = true;
          work.push_back({w, 0});
        } else if (on_stack[w]) {
          low[v] = std::min(low[v], index[w]);
        }
        continue;
      }
      if (low[v] == index[v]) {
        std::vector<size_t> c;
        size_t w;
        do {
          w = stack.back();
          stack.pop_back();
          on_stack[w] = false;
          comp[w] = int64_t(comps.size());
          c.push_back(w);
        } while (w != v);
        comps.push_back(std::move(c));
      }
      const size_t done = v;
      work.pop_back();
      if (!work.empty()) low[work.back().first] = std::min(low[work.back().first], low[done]);
    }
  }

  // Deepest stack from each function: its frame, or an edge's depth plus the callee's. Inside a
  // recursive component each edge is taken once: ext = without the component's own edges,
  // total = one more step inside it.
  std::vector<uint64_t> ext(n, 0), total(n, 0);
  std::vector<int64_t> ext_next(n, -1), total_next(n, -1);  // the edge index chosen
  for (const std::vector<size_t>& c : comps) {
    const int64_t id = comp[c[0]];
    bool recursive = c.size() > 1;
    for (size_t v : c) {
      ext[v] = graph.functions[v].frame;
      for (size_t k = 0; k < edges[v].size(); ++k) {
        const Edge& e = edges[v][k];
        if (comp[e.to] == id) {
          recursive = true;
          continue;
        }
        if (e.depth + total[e.to] > ext[v]) ext[v] = e.depth + total[e.to], ext_next[v] = int64_t(k);
      }
    }
    for (size_t v : c) {
      total[v] = ext[v];
      total_next[v] = ext_next[v];
      for (size_t k = 0; k < edges[v].size(); ++k) {
        const Edge& e = edges[v][k];
        if (comp[e.to] == id && e.depth + ext[e.to] > total[v])
          total[v] = e.depth + ext[e.to], total_next[v] = int64_t(k);
      }
    }
    if (recursive) {
      std::vector<std::string> names;
      for (size_t v : c) names.push_back(graph.functions[v].demangled);
      std::sort(names.begin(), names.end());
      std::string text = c.size() == 1 ? names[0] + " calls itself"
                                       : "a cycle of " + std::to_string(c.size()) + " functions: ";
      if (c.size() > 1)
        for (size_t k = 0; k < names.size(); ++k) text += (k ? ", " : "") + names[k];
      b.recursion.push_back(text + " (each call counted once)");
    }
  }

  // What the entries reach: sites that make the figure a lower bound.
  std::vector<bool> reached(n, false);
  for (size_t v = 0; v < n; ++v) reached[v] = index[v] >= 0;
  for (size_t v = 0; v < n; ++v) {
    if (!reached[v]) continue;
    ++b.functions;
    const Function& f = graph.functions[v];
    for (const std::string& d : f.dynamic) b.dynamic.push_back(d + " in " + f.demangled);
    for (const std::string& u : unresolved[v]) b.unresolved.push_back(u);
    if (!f.read) b.unread.push_back(f.demangled);
    b.resolved_sites += resolved_sites[v];  // only the sites the entries reach
  }
  std::sort(b.recursion.begin(), b.recursion.end());

  // The entry that sets the bound and its path.
  int64_t best = -1;
  for (size_t e : entries)
    if (e < n && (best < 0 || total[e] > total[size_t(best)])) best = int64_t(e);
  if (best >= 0) {
    b.bytes = total[size_t(best)];
    size_t v = size_t(best);
    uint64_t depth = 0;
    std::string via = "entry";
    bool use_ext = false;
    // A function can be on the path twice: entered through its component's own edge (total),
    // then left through an edge out of it (ext).
    for (size_t steps = 0; steps <= 2 * n; ++steps) {
      const Function& f = graph.functions[v];
      b.path.push_back({f.demangled, f.frame, depth, via});
      const int64_t k = use_ext ? ext_next[v] : total_next[v];
      if (k < 0) break;
      const Edge& e = edges[v][size_t(k)];
      use_ext = comp[e.to] == comp[v];
      depth += e.depth;
      via = e.via;
      v = e.to;
    }
  }
  b.complete = b.unresolved.empty() && b.recursion.empty() && b.dynamic.empty() && b.unread.empty();
  return b;
}

}  // namespace etmem::stack
