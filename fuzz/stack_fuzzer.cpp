// Owns: the fuzz target of the worst-case stack's reading of an image (src/etmem/stack/
// call_graph.h). Bytes -> elf::ReadExecutable -> stack::ReadCallGraph (every function
// disassembled with capstone) -> stack::WorstCase from each of the first 64 functions, with no
// resolution and with every indirect site resolved to the first function. Checks: a refusal is
// one printable line; a bound is its path's last depth plus that function's frame, depths never
// shrink along the path, a complete bound names nothing, every site's target lies in the graph
// or is named unresolved. The stack size the image declares (firmware/declared_stack.h) is read
// too: a declaration is the difference of its symbols or an absolute symbol, and each text is one
// printable line; every function's name is read as a template instantiation
// (stack/instantiations.h). A crash, a hang or a sanitizer report is a finding.
#include <cstdint>
#include <string>

#include "etmem/elf/elf_reader.h"
#include "etmem/firmware/declared_stack.h"
#include "etmem/stack/call_graph.h"
#include "etmem/stack/instantiations.h"
#include "fuzz_checks.h"

const char* const etmem::fuzz::kTargetName = "stack_fuzzer";

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace etmem;
  auto image = elf::ReadExecutable(std::vector<uint8_t>(data, data + size), "fuzz.elf");
  if (!image) return 0;  // elf_fuzzer checks the reader's refusals
  if (auto declared = firmware::DeclaredStack(image->elf)) {
    fuzz::Require(fuzz::OnePrintableLine(declared->symbols) && fuzz::OnePrintableLine(declared->meaning),
                  "a declared stack's text is not one printable line");
    for (const std::string& o : declared->others)
      fuzz::Require(fuzz::OnePrintableLine(o), "another declaration is not one printable line");
  }
  auto graph = stack::ReadCallGraph(*image);
  if (!graph) {
    fuzz::Require(fuzz::OnePrintableLine(graph.error().message),
                  "refusal is not one printable line: " + graph.error().message);
    return 0;
  }
  const stack::CallGraph& g = *graph;
  // Every function's demangled name read as a template instantiation (dtype pruning's input):
  // a name that cannot be read says why; one that can has a key no longer than the name.
  for (const stack::Function& f : g.functions) {
    const stack::TemplateName t = stack::ReadTemplateName(f.demangled);
    fuzz::Require(t.parsed || !t.problem.empty(), "an unread name without a problem");
    if (t.parsed) fuzz::Require(t.key.size() <= f.demangled.size(), "a key longer than its name");
  }
  stack::Resolution all;
  for (const stack::Function& f : g.functions)
    for (const stack::CallSite& s : f.sites)
      if (s.kind == stack::SiteKind::kIndirect && !g.functions.empty())
        all[s.address] = {g.functions[0].address};
  for (size_t i = 0; i < g.functions.size() && i < 64; ++i) {
    const stack::Resolution* const cases[] = {nullptr, &all};
    for (const stack::Resolution* r : cases) {
      const stack::Bound b = stack::WorstCase(g, {i}, r ? *r : stack::Resolution{});
      fuzz::Require(!b.path.empty(), "a bound without a path");
      fuzz::Require(b.bytes == b.path.back().depth + b.path.back().frame,
                    "the bound is not its path's last depth plus frame");
      for (size_t k = 1; k < b.path.size(); ++k)
        fuzz::Require(b.path[k].depth >= b.path[k - 1].depth, "a path's depth shrinks");
      fuzz::Require(b.bytes >= g.functions[i].frame, "the bound is below the entry's own frame");
      if (b.complete)
        fuzz::Require(b.unresolved.empty() && b.recursion.empty() && b.dynamic.empty() &&
                          b.unread.empty(),
                      "a complete bound names a site");
      if (r) fuzz::Require(b.unresolved.size() <= b.functions * 64 + 64, "unresolved grows");
    }
  }
  return 0;
}
