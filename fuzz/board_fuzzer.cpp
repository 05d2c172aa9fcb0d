// Owns: the board fuzz target. Text -> board::ParseBoard; an accepted board then has the
// motivating CNN (and the program with every value kind) fitted onto it at 1.4.1 on cortex-m:
// the best placement's shortfall is never below the lower bound, a fit has a zero bound, and a
// split writes a program whose plan is sound. Errors must be one line naming the file.
#include <cstdint>
#include <string>

#include "etmem/abi/abi.h"
#include "etmem/board/board.h"
#include "etmem/board/fit_program.h"
#include "etmem/plan/check.h"
#include "etmem/plan/lifetimes.h"
#include "etmem/plan/rewrite.h"
#include "etmem/pte/read_program.h"
#include "etmem/analysis/report.h"
#include "etmem/runtime/release.h"
#include "etmem/testing/scenarios.h"
#include "fuzz_checks.h"

const char* const etmem::fuzz::kTargetName = "board_fuzzer";

namespace {

using namespace etmem;
using fuzz::Require;

constexpr const char* kName = "fuzz-board.json";

struct Case {
  std::vector<uint8_t> bytes;
  pte::ProgramView program;
  report::Report report;
};

const std::vector<Case>& Cases() {
  static const std::vector<Case> cases = [] {
    std::vector<Case> out;
    out.push_back({testing::MotivatingCnn().Build(), {}, {}});
    out.push_back({testing::ProgramWithEveryValueKind().Build(), {}, {}});
    for (Case& c : out) {
      c.program = *pte::ReadProgramBytes(c.bytes, "fuzz.pte");
      const runtime::RuntimeModel model(runtime::AllReleases().back(),
                                        *abi::FindBuiltinTarget("cortex-m"));
      c.report = *report::BuildReport(c.program, model, report::ReportOptions{});
    }
    return out;
  }();
  return cases;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  auto b = board::ParseBoard(std::string(reinterpret_cast<const char*>(data), size), kName);
  if (!b) {
    const std::string& m = b.error().message;
    Require(fuzz::OnePrintableLine(m) && m.find(kName) != std::string::npos,
            "error message is not one printable line naming the file: " + m);
    return 0;
  }
  // Reports quote the board's text: it is kept printable.
  std::vector<std::string> texts = {b->name, b->description, b->comment};
  texts.insert(texts.end(), b->sources.begin(), b->sources.end());
  for (const board::Region& r : b->regions) {
    texts.insert(texts.end(), {r.name, r.section, r.comment});
    for (const board::Reservation& res : r.reserved) texts.push_back(res.name);
  }
  for (const std::string& t : texts)
    Require(fuzz::OnePrintableLine(t), "an accepted board keeps unprintable text: " + t);
  for (const Case& c : Cases()) {
    auto fit = board::FitProgram(c.report, *b);
    Require(fit.has_value(), "FitProgram failed on an accepted board");
    const board::FitResult& r = fit->result;
    Require(r.best.short_bytes >= r.bound.short_bytes, "shortfall below the lower bound");
    Require(!r.best.fits() || r.bound.short_bytes == 0, "fits while the bound forbids it");
    if (fit->edit && r.best.fits()) {
      auto bytes = plan::RewritePlan(c.program, {*fit->edit});
      Require(bytes.has_value(), "the split program could not be written");
      auto back = pte::ReadProgramBytes(*bytes, "fitted.pte");
      Require(back.has_value(), "the split program does not read back");
      for (const pte::MethodView& m : back->methods) {
        auto l = plan::ComputeLifetimes(m);
        Require(l.has_value() && plan::Validate(*l).sound(), "the split plan is not sound");
      }
    }
  }
  return 0;
}
