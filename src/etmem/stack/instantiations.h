// Owns: reading a demangled C++ function name as a template instantiation: its top-level
// template arguments (those of the function and of its enclosing classes, never those inside
// its parameter lists or a lambda's braces) and the key the instantiations of one template share
// (the name without its return type, its template argument lists, its clone suffixes and its
// final parameter list); and which functions a set of entries reaches. Knows nothing of which C++ types are
// ExecuTorch's dtypes (firmware/dtype_pruning.h).
// Not: disassembly or the bound (call_graph.h).
//
//   ReadTemplateName("void ns::body<long long, 3>(int)")
//     -> parsed, key "ns::body", arguments {"long long", "3"}
#pragma once

#include <string>
#include <vector>

#include "etmem/stack/call_graph.h"

namespace etmem::stack {

struct TemplateName {
  bool parsed = false;  // false: the brackets could not be told apart; `problem` says why
  std::string problem;
  std::string key;                     // shared by the instantiations of one template
  std::vector<std::string> arguments;  // every top-level template argument, trimmed
};
TemplateName ReadTemplateName(const std::string& demangled);

// The functions reached from `from` (by index; true for each), through direct calls, tail
// branches and the indirect sites `resolution` resolves.
std::vector<bool> Reached(const CallGraph& graph, const std::vector<size_t>& from,
                          const Resolution& resolution);

}  // namespace etmem::stack
