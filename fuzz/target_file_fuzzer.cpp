// Owns: the target-description fuzz target. Text -> abi::ReadTargetText; every type of every
// release is then laid out on an accepted target, and the newest release reports on a small
// fixed program, since odd but accepted sizes and alignments are where layout arithmetic
// breaks. Errors must be one line naming the file.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>

#include "etmem/abi/abi.h"
#include "etmem/pte/read_program.h"
#include "etmem/report/json_report.h"
#include "etmem/analysis/report.h"
#include "etmem/runtime/load_plan.h"
#include "etmem/runtime/release.h"
#include "etmem/testing/scenarios.h"
#include "fuzz_checks.h"

const char* const etmem::fuzz::kTargetName = "target_file_fuzzer";

namespace {

using namespace etmem;
using fuzz::Require;

constexpr const char* kName = "fuzz-target.json";

const pte::ProgramView& Program() {
  static const std::vector<uint8_t> bytes = testing::ProgramWithEveryValueKind().Build();
  static const pte::ProgramView program = *pte::ReadProgramBytes(bytes, "every_value_kind.pte");
  return program;
}

void LayOutEveryType(const abi::Abi& target) {
  for (const runtime::RuntimeTraits& release : runtime::AllReleases())
    for (const auto& [name, def] : release.types.all()) {
      const abi::Layout l = release.types.Compute(name, target);
      Require(l.size_align.align > 0 && l.size_align.size % l.size_align.align == 0,
              name + " has size " + std::to_string(l.size_align.size) + ", not a multiple of its "
                  "alignment " + std::to_string(l.size_align.align));
    }
}

void ReportOn(const abi::Abi& target) {
  const runtime::RuntimeModel model(runtime::AllReleases().back(), target);
  report::ReportOptions o;
  o.load.temp_allocator = true;
  o.pool_align = target.malloc_align;
  auto r = report::BuildReport(Program(), model, o);
  Require(r.has_value(), "BuildReport failed on a valid program");
  (void)report::ToJson(*r).dump(1, ' ', false, nlohmann::json::error_handler_t::replace);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto target = abi::ReadTargetText(std::string(reinterpret_cast<const char*>(data), size), kName);
  if (!target) {
    const std::string& m = target.error().message;
    Require(fuzz::OnePrintableLine(m) && m.find(kName) != std::string::npos,
            "error message is not one printable line naming the file: " + m);
    return 0;
  }
  LayOutEveryType(*target);
  ReportOn(*target);
  return 0;
}
