// Owns: GCC's own frame sizes: the `-fstack-usage` files (.su: "file:line:col:function<TAB>bytes
// <TAB>static|dynamic|dynamic,bounded") and the `-fcallgraph-info=su` files (.ci, VCG: one node
// per function, titled by its symbol, its label ending "N bytes (static)"), read strictly (a bad
// line is one error naming the file and line), and applied to a call graph's functions: a fact
// replaces the disassembly's frame. Not: the call graph itself (call_graph.h).
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

// One .su file. Errors (kInvalidArgument) name the file and line.
Result<std::vector<FrameFact>> ParseStackUsage(std::string_view text, const std::string& path);
// One .ci file (the node lines that carry a size; edges are read from the image instead).
Result<std::vector<FrameFact>> ParseCallgraphInfo(std::string_view text, const std::string& path);
// Every .su and .ci file under `dir` (recursively). An unreadable directory or a bad file is an error.
Result<std::vector<FrameFact>> ReadFactsDirectory(const std::string& dir);

struct Applied {
  size_t facts = 0;
  size_t functions = 0;  // functions of the graph whose frame came from a fact
  size_t unmatched = 0;  // facts that name no function of the image (inlined, discarded, templates)
};
// Replaces each matched function's frame (several facts for one name: the largest). A symbol
// matches a .ci fact by its symbol; a .su fact by its name (C) or by its demangled name after
// GCC's return type ("int ns::f(int)" is ns::f(int)).
Applied ApplyFacts(CallGraph& graph, const std::vector<FrameFact>& facts);

}  // namespace etmem::stack
