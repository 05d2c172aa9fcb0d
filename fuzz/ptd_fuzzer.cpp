// Owns: the fuzz target of the external data file (`--external-data FILE.ptd`). Bytes ->
// pte::ReadPtdBytes; a refused file must give one printable line naming it. An accepted file is
// then checked by every release with a data map (runtime::CheckExternalData, emulating each
// release's unverified reader on the bytes) against the builder's external_data program, and
// planned with it through report::BuildReport: a refusal must carry an error and a reason, and
// the planner must not fail. A crash, a hang or a sanitizer report is a finding.
#include <cstdint>
#include <string>

#include "etmem/abi/abi.h"
#include "etmem/pte/ptd_file.h"
#include "etmem/pte/read_program.h"
#include "etmem/analysis/report.h"
#include "etmem/runtime/ptd_check.h"
#include "etmem/testing/scenarios.h"
#include "fuzz_checks.h"

const char* const etmem::fuzz::kTargetName = "ptd_fuzzer";

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace etmem;
  auto ptd = pte::ReadPtdBytes({data, size}, "fuzz.ptd");
  if (!ptd) {
    const std::string& m = ptd.error().message;
    fuzz::Require(m.starts_with("fuzz.ptd: "), "error does not name the file: " + m);
    fuzz::Require(fuzz::OnePrintableLine(m), "error is not one printable line: " + m);
    return 0;
  }
  static const std::vector<uint8_t> program_bytes =
      testing::NamedScenarioProgram("external_data").Build();
  static const pte::ProgramView program = *pte::ReadProgramBytes(program_bytes, "external_data.pte");
  const abi::Abi x86 = *abi::FindBuiltinTarget("x86_64");  // a copy: the Result is a temporary
  for (const runtime::RuntimeTraits& t : runtime::AllReleases()) {
    const auto outcome = runtime::CheckExternalData(program, program.methods[0], **ptd, t);
    if (outcome) {
      fuzz::Require(!outcome->refusal.error.empty() && !outcome->refusal.reason.empty(),
                    "refusal without error or reason at " + t.version);
      fuzz::Require(fuzz::OnePrintableLine(outcome->refusal.error) &&
                        fuzz::OnePrintableLine(outcome->refusal.reason) &&
                        fuzz::OnePrintableLine(outcome->refusal.log),
                    "refusal text is not one printable line at " + t.version);
    }
    if (!t.ptd_data_map) continue;
    runtime::RuntimeModel model(t, x86);
    report::ReportOptions o;
    o.load.external_data_map = true;
    o.load.ptd = *ptd;
    auto r = report::BuildReport(program, model, o);
    fuzz::Require(r.has_value(), "no report at " + t.version);
    fuzz::Require(r->methods.size() == 1, "one method expected at " + t.version);
    fuzz::Require(r->methods[0].plan.refusal.has_value() == outcome.has_value(),
                  "the plan and the check disagree at " + t.version);
  }
  return 0;
}
