// Owns: the program fuzz target. Bytes -> ReadProgramBytes -> BuildReport for a few
// (release, target, options) triples -> ToJson. A crash, a hang, a sanitizer report or an error
// message that is not one line naming the file is a finding (abort() makes libFuzzer keep it).
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "etmem/abi/abi.h"
#include "etmem/pte/read_program.h"
#include "etmem/report/json_report.h"
#include "etmem/report/report.h"
#include "etmem/runtime/load_plan.h"
#include "etmem/runtime/release.h"
#include "fuzz_checks.h"

const char* const etmem::fuzz::kTargetName = "pte_fuzzer";

namespace {

using namespace etmem;
using fuzz::Require;

constexpr const char* kName = "fuzz.pte";

struct Case {
  runtime::RuntimeModel model;
  report::ReportOptions options;
};

Case MakeCase(const std::string& release, const std::string& target, bool temp, bool external) {
  const abi::Abi a = *abi::FindBuiltinTarget(target);
  report::ReportOptions o;
  o.load.temp_allocator = temp;
  o.load.external_data_map = external;
  o.pool_align = a.malloc_align;
  o.pool_bytes = 2048;
  return {runtime::RuntimeModel(**runtime::FindRelease(release), a), o};
}

// Oldest and newest release on a 32-bit target, plus the releases where the load sequence
// changes (temp allocator, external data) on 64-bit and other 32-bit targets.
const std::vector<Case>& Cases() {
  static const std::vector<Case> cases = {
      MakeCase("0.3", "cortex-m", false, false), MakeCase("0.6", "x86_64", true, false),
      MakeCase("1.0", "riscv32", true, true),    MakeCase("1.4.1", "cortex-m", true, true),
      MakeCase("1.4.1", "aarch64", false, false),
  };
  return cases;
}

void RequireOneLineNamingFile(const Error& e) {
  Require(e.message.find('\n') == std::string::npos && e.message.find(kName) != std::string::npos,
          "error message is not one line naming the file: " + e.message);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto program = pte::ReadProgramBytes({data, size}, kName);
  if (!program) {
    RequireOneLineNamingFile(program.error());
    return 0;
  }
  for (const Case& c : Cases()) {
    auto report = report::BuildReport(*program, c.model, c.options);
    if (!report) {
      RequireOneLineNamingFile(report.error());
      continue;
    }
    // Names come from the file and need not be UTF-8: replace, never throw (tests/corrupt/README).
    (void)report::ToJson(*report).dump(1, ' ', false, nlohmann::json::error_handler_t::replace);
  }
  return 0;
}
