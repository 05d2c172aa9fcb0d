// Owns: the worst-case stack of a linked image: every function of the ELF (STT_FUNC symbols with
// a size, in executable sections) disassembled (Thumb/Thumb-2 and Arm/AArch32, with capstone), its
// frame read from the prologue (push, stmdb sp!, vpush, sub sp #imm, subw, str rX [sp, #-N]!), its
// call sites (bl/blx to an address, tail branches to another function, falling into the next
// function, indirect blx/bx/ldr pc/mov pc), its dynamic stack adjustments (sub sp, rX: alloca, VLA);
// the call graph, its strongly connected components (recursion, named, never looped on), and the
// deepest path from an entry with everything that makes it a lower bound. GCC's own frame sizes
// (-fstack-usage, -fcallgraph-info=su: gcc_facts.h) replace the disassembly's when given.
// Not: which functions are ExecuTorch's entries or kernels (firmware/), reading ELF (elf/).
//
//   auto graph = stack::ReadCallGraph(image);            // Result<CallGraph>
//   stack::Bound b = stack::WorstCase(*graph, {graph->Find("main")}, {});
//   b.bytes, b.complete, b.path, b.unresolved ...
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "etmem/base/result.h"
#include "etmem/elf/elf_reader.h"

namespace etmem::stack {

enum class SiteKind {
  kCall,      // bl / blx to an address: the caller's frame stays
  kTail,      // b / b.w to another function (a sibling call), or falling into the next function
  kIndirect,  // blx rX, bx rX (not lr), ldr pc / mov pc not from the stack: target unknown here
};

struct CallSite {
  uint64_t address = 0;  // the instruction
  SiteKind kind = SiteKind::kCall;
  uint64_t target = 0;   // kCall / kTail: the function's address (bit 0 clear)
  uint64_t depth = 0;    // the caller's stack (bytes below its entry sp) at the instruction
  bool jump = false;     // kIndirect: a jump (bx rX, ldr pc): the caller's frame is gone
  std::string text;      // "blx r3"
  std::string where;     // from GCC's .ci (no code read): the call's source location; the
                         // address then only tells sites apart
};

struct Function {
  std::string name;       // the symbol (mangled)
  std::string demangled;  // __cxa_demangle's, or the name
  uint64_t address = 0;   // bit 0 clear
  uint64_t size = 0;
  bool thumb = false;
  uint64_t frame = 0;     // the deepest its own code takes the stack (bytes)
  std::string frame_source = "disassembly";  // or ".su", ".ci"
  bool read = true;       // false: no code to read (its bytes are not in the file)
  std::vector<CallSite> sites;
  std::vector<std::string> dynamic;  // "sub.w sp, sp, r3 at 0x80ce": the frame is at least `frame`
};

struct CallGraph {
  std::string architecture;  // "Arm (Thumb/Thumb-2, A32)"
  std::vector<Function> functions;  // by address
  std::map<uint64_t, size_t> by_address;
  std::vector<std::string> notes;
  // The function at `address` (bit 0 ignored), or the one whose code holds it. nullopt: none.
  std::optional<size_t> At(uint64_t address) const;
  // Functions whose symbol or demangled name is `name`.
  std::vector<size_t> Find(const std::string& name) const;
};

// The architectures whose code etmem reads (for the output: "Arm (Thumb/Thumb-2, A32)").
std::string ReadableArchitectures();
// The image's architecture in words: "RISC-V (ELF machine 243, ELF32)".
std::string MachineName(const elf::ObjectFile& elf);

// Adds the image's functions to `graph` (functions and by_address; nothing read): one per
// STT_FUNC symbol with a size in an executable section, one per address (aliases share it: the
// global name wins), the address with bit 0 clear (Arm: set means Thumb).
void AddImageFunctions(CallGraph& graph, const elf::ObjectFile& elf);

// Disassembles every function of the image. An image of another architecture is an error
// (kUnsupported) naming what it is and what is read.
Result<CallGraph> ReadCallGraph(const elf::Executable& image);

// Resolved indirect sites: the site's address -> the functions it may call.
using Resolution = std::map<uint64_t, std::vector<uint64_t>>;
// Call edges (caller index, callee index) known not to run: WorstCase does not follow them.
using EdgeSet = std::set<std::pair<size_t, size_t>>;

struct PathStep {
  std::string function;  // demangled
  uint64_t frame = 0;    // its frame (or, for a step entered by a tail branch, its frame too)
  uint64_t depth = 0;    // stack below the entry's sp when the function is entered
  std::string via;       // how it was entered: "call", "tail", "indirect (resolved)", "entry"
};

struct Bound {
  uint64_t bytes = 0;     // the worst case found (a lower bound unless `complete`)
  bool complete = true;   // no unresolved site, recursion or dynamic frame is reachable
  std::vector<PathStep> path;  // the call path that sets `bytes`
  std::vector<std::string> unresolved;  // "blx r3 at 0x80f2 in call_ind"
  std::vector<std::string> recursion;   // "rec -> rec" (counted once)
  std::vector<std::string> dynamic;     // "sub.w sp, sp, r3 at 0x80ce in dyn"
  std::vector<std::string> unread;      // functions reached whose code was not read
  size_t functions = 0;                 // how many functions the entries reach
  size_t resolved_sites = 0;            // reached indirect sites resolved with `resolution`
};

// The deepest stack reached from any of `entries` (function indices; the deepest of them),
// without the edges in `dropped`.
Bound WorstCase(const CallGraph& graph, const std::vector<size_t>& entries,
                const Resolution& resolution, const EdgeSet& dropped = {});

// __cxa_demangle's name, or `name` when it is no mangled C++ name.
std::string Demangle(const std::string& name);

}  // namespace etmem::stack
