// Owns: GCC's own frame sizes: the `-fstack-usage` files (.su: "file:line:col:function<TAB>bytes
// <TAB>static|dynamic|dynamic,bounded") and the `-fcallgraph-info=su` files (.ci, VCG: one node
// per function, titled by its symbol, its label ending "N bytes (static)"), read strictly (a bad
// line is one error naming the file and line), and applied to a call graph's functions: a fact
// replaces the disassembly's frame. For an image whose code etmem does not read (RISC-V, any
// non-Arm machine), the call graph built from these files alone: the symbol table's functions,
// the .ci files' frames and edges. Not: disassembly (call_graph.h).
//
//   auto facts = stack::ParseStackUsage(text, "main.su");   // Result<std::vector<FrameFact>>
//   stack::ApplyFacts(graph, *facts);
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "etmem/base/result.h"
#include "etmem/stack/call_graph.h"

namespace etmem::stack {

struct FrameFact {
  std::string function;  // .su: GCC's printable name ("int ns::f(int)", "leaf"); .ci: the label's
  std::string symbol;    // .ci: the symbol (mangled, without a "file:" prefix); .su: ""
  uint64_t bytes = 0;
  bool dynamic = false;  // "dynamic": the frame grows by an amount GCC does not know
  bool bounded = false;  // "dynamic,bounded": bytes bounds the dynamic part too
  std::string where;     // "main.su:3"
};

// A call a .ci file records (an edge): from one function to another, or to GCC's "Indirect Call
// Placeholder" (__indirect_call). Calls GCC emits itself (libgcc helpers) are edges too.
struct CallFact {
  std::string caller;  // the symbol (mangled, without a "file:" prefix)
  std::string callee;  // the symbol; "" when indirect
  bool indirect = false;
  std::string where;   // the call's source location ("app.c:8:30"), else the .ci file and line
};

// One .su file. Errors (kInvalidArgument) name the file and line.
Result<std::vector<FrameFact>> ParseStackUsage(std::string_view text, const std::string& path);
// One .ci file: the node lines that carry a size; with `calls`, its edges appended there.
Result<std::vector<FrameFact>> ParseCallgraphInfo(std::string_view text, const std::string& path,
                                                  std::vector<CallFact>* calls = nullptr);
// Every .su and .ci file under `dir` (recursively); with `calls`, the .ci files' edges. An
// unreadable directory or a bad file is an error.
Result<std::vector<FrameFact>> ReadFactsDirectory(const std::string& dir,
                                                  std::vector<CallFact>* calls = nullptr);

struct Applied {
  size_t facts = 0;
  size_t functions = 0;  // functions of the graph whose frame came from a fact
  size_t unmatched = 0;  // facts that name no function of the image (inlined, discarded, templates)
};
// Replaces each matched function's frame (several facts for one name: the largest). A symbol
// matches a .ci fact by its symbol; a .su fact by its name (C) or by its demangled name after
// GCC's return type ("int ns::f(int)" is ns::f(int)).
Applied ApplyFacts(CallGraph& graph, const std::vector<FrameFact>& facts);

// The call graph of an image whose code is not read, from GCC's files alone: one function per
// STT_FUNC symbol with a size in an executable section, its frame from `frames` (ApplyFacts),
// its calls from `calls` (every edge a call: the caller's whole frame stays, a sibling call
// included). A function no .ci node sizes (assembly, a library built without
// -fcallgraph-info=su) is not read (Function::read false): its frame and its calls are not seen.
// A call to a symbol the image lacks stays a site without a target, named. Indirect calls are
// kIndirect sites with addresses no code has (above 2^63), unique per site, so that a Resolution
// can name them. `architecture` says what the image is ("RISC-V (ELF machine 243, ELF32)").
CallGraph CallGraphFromFacts(const elf::Executable& image, const std::vector<FrameFact>& frames,
                             const std::vector<CallFact>& calls, const std::string& architecture);

}  // namespace etmem::stack
