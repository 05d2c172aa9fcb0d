// Owns: the fuzz target of GCC's -fcallgraph-info=su reader (stack::ParseCallgraphInfo, the .ci
// files of `etmem firmware --stack-usage DIR`). A refusal must be one printable line naming the
// file and a line; an accepted file's facts each name a symbol and a size below 2^40, its calls
// (edges) a caller, a callee unless indirect, and their place; and applying the facts to an
// empty call graph matches nothing. A crash, a hang or a sanitizer report
// is a finding.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "etmem/stack/gcc_facts.h"
#include "fuzz_checks.h"

const char* const etmem::fuzz::kTargetName = "callgraph_info_fuzzer";

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace etmem;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  std::vector<stack::CallFact> calls;
  auto facts = stack::ParseCallgraphInfo(text, "fuzz.ci", &calls);
  if (!facts) {
    const std::string& m = facts.error().message;
    fuzz::Require(m.starts_with("fuzz.ci:"), "error does not name the file: " + m);
    fuzz::Require(fuzz::OnePrintableLine(m), "error is not one printable line: " + Printable(m, 400));
    return 0;
  }
  for (const stack::FrameFact& f : *facts) {
    fuzz::Require(!f.symbol.empty(), "a fact without a symbol");
    fuzz::Require(f.bytes < (uint64_t{1} << 40), "a size of 2^40 or more");
  }
  for (const stack::CallFact& c : calls) {
    fuzz::Require(!c.caller.empty(), "a call without a caller");
    fuzz::Require(c.indirect == c.callee.empty(), "a direct call without a callee, or an indirect one with");
    fuzz::Require(!c.where.empty(), "a call without its place");
  }
  stack::CallGraph empty;
  const stack::Applied a = stack::ApplyFacts(empty, *facts);
  fuzz::Require(a.functions == 0 && a.unmatched == facts->size(), "facts matched an empty graph");
  return 0;
}
