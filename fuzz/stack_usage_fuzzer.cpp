// Owns: the fuzz target of GCC's -fstack-usage reader (stack::ParseStackUsage, the .su files of
// `etmem firmware --stack-usage DIR`). A refusal must be one printable line naming the file and
// a line; an accepted file's facts each name a function, a size below 2^40 and the file:line
// they came from. A crash, a hang or a sanitizer report is a finding.
#include <cstdint>
#include <string>
#include <string_view>

#include "etmem/stack/gcc_facts.h"
#include "fuzz_checks.h"

const char* const etmem::fuzz::kTargetName = "stack_usage_fuzzer";

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace etmem;
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  auto facts = stack::ParseStackUsage(text, "fuzz.su");
  if (!facts) {
    const std::string& m = facts.error().message;
    fuzz::Require(m.starts_with("fuzz.su:"), "error does not name the file: " + m);
    fuzz::Require(fuzz::OnePrintableLine(m), "error is not one printable line: " + Printable(m, 400));
    return 0;
  }
  for (const stack::FrameFact& f : *facts) {
    fuzz::Require(!f.function.empty(), "a fact without a function");
    fuzz::Require(f.bytes < (uint64_t{1} << 40), "a size of 2^40 or more");
    fuzz::Require(f.where.starts_with("fuzz.su:"), "a fact that does not say where it is from");
    fuzz::Require(!f.bounded || f.dynamic, "bounded but not dynamic");
  }
  return 0;
}
