// Owns: the runner-profile fuzz target. Text -> runner::ParseProfile; an accepted profile is
// then sized for a small fixed program on every release it covers and placed with the runtime's
// load (unbounded and on a small --pool), since odd but accepted steps, pools, alignments and
// sizes are where the runner stage and its simulation break. Errors must be one line naming the
// file.
#include <cstdint>
#include <string>

#include "etmem/abi/abi.h"
#include "etmem/pte/read_program.h"
#include "etmem/report/json_report.h"
#include "etmem/analysis/report.h"
#include "etmem/report/text_report.h"
#include "etmem/runner/profile.h"
#include "etmem/runtime/release.h"
#include "etmem/testing/scenarios.h"
#include "fuzz_checks.h"

const char* const etmem::fuzz::kTargetName = "runner_profile_fuzzer";

namespace {

using namespace etmem;
using fuzz::Require;

constexpr const char* kName = "fuzz-runner.json";

const pte::ProgramView& Program() {
  static const std::vector<uint8_t> bytes = testing::ProgramWithEveryValueKind().Build();
  static const pte::ProgramView program = *pte::ReadProgramBytes(bytes, "every_value_kind.pte");
  return program;
}

void ReportWith(const std::shared_ptr<const runner::Profile>& profile) {
  runner::RunnerSelection selection;
  selection.candidates.push_back(profile);
  for (const runner::OptionSpec& o : profile->options) selection.options.push_back(o.name);
  const abi::Abi target = *abi::FindBuiltinTarget("cortex-m");
  for (const runtime::RuntimeTraits& release : runtime::AllReleases()) {
    if (!runner::ProfileFor(selection, release.version)) continue;
    const runtime::RuntimeModel model(release, target);
    report::ReportOptions o;
    o.runner = selection;
    auto r = report::BuildReport(Program(), model, o);
    if (!r) {
      const std::string& m = r.error().message;
      Require(fuzz::OnePrintableLine(m), "error message is not one printable line: " + m);
      continue;
    }
    {
      const std::string text = report::ToText(*r);
      Require(fuzz::PrintableLines(text),
              "the text report quotes unprintable text: " + fuzz::FirstUnprintableLine(text));
    }
    (void)report::ToJson(*r).dump(1, ' ', false, nlohmann::json::error_handler_t::replace);
    // The minimum is exact: a pool of that size fits, one byte less does not.
    const uint64_t minimum = r->methods.at(0).runner->result.method().minimum;
    if (minimum > UINT32_MAX) continue;
    for (uint64_t pool : {minimum, minimum - 1}) {
      if (pool == minimum - 1 && minimum == 0) break;
      o.pool_bytes = pool;
      auto checked = report::BuildReport(Program(), model, o);
      Require(checked.has_value(), "a --pool report failed where the unbounded one did not");
      const sim::RunnerResult& result = checked->methods.at(0).runner->result;
      Require(result.check.has_value(), "--pool gave no runner check");
      Require(result.check->fits() == (pool == minimum),
              "a pool of " + std::to_string(pool) + " B vs the minimum " + std::to_string(minimum));
      (void)report::ToText(*checked);
    }
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto profile =
      runner::ParseProfile(std::string(reinterpret_cast<const char*>(data), size), kName);
  if (!profile) {
    const std::string& m = profile.error().message;
    Require(fuzz::OnePrintableLine(m) && m.find(kName) != std::string::npos,
            "error message is not one printable line naming the file: " + m);
    return 0;
  }
  ReportWith(std::make_shared<const runner::Profile>(std::move(*profile)));
  return 0;
}
