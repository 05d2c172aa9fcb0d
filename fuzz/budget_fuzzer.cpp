// Owns: the budget fuzz target (`etmem analyze --budget-file FILE`). Text ->
// report::ParseBudgetText; an accepted budget must set an item, survive being written back and
// read again unchanged, and is then checked against the reports of two small builder programs
// (one and two methods, two releases), where every check must carry the budget's limit and
// every over-budget message must be one line. The same bytes also go through the --budget and
// --margin grammars that share the parser. A crash, a hang, a sanitizer report or an error
// message that is not one printable line naming its source is a finding.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <string_view>
#include <vector>

#include "etmem/abi/abi.h"
#include "etmem/pte/read_program.h"
#include "etmem/analysis/budget.h"
#include "etmem/analysis/report.h"
#include "etmem/runtime/load_plan.h"
#include "etmem/runtime/release.h"
#include "etmem/testing/scenarios.h"
#include "fuzz_checks.h"

const char* const etmem::fuzz::kTargetName = "budget_fuzzer";

namespace {

using namespace etmem;
using fuzz::Require;
using fuzz::OnePrintableLine;

constexpr const char* kName = "fuzz.budget";

void RequireMessage(const Error& e, std::string_view source) {
  Require(OnePrintableLine(e.message) && e.message.find(source) != std::string::npos,
          "error message is not one printable line naming " + std::string(source) + ": " +
              e.message);
}

struct Programs {
  std::vector<pte::ProgramView> views;
  std::vector<report::Report> reports;
};

// Reports on two builder programs for the oldest and newest release on cortex-m.
const std::vector<report::Report>& Reports() {
  static const Programs* programs = [] {
    static std::vector<std::vector<uint8_t>> bytes = {testing::MotivatingCnn().Build(),
                                                      testing::ProgramWithTwoMethods().Build()};
    auto* p = new Programs;
    p->views.reserve(bytes.size());
    for (const auto& b : bytes) p->views.push_back(*pte::ReadProgramBytes(b, "budget-seed.pte"));
    const abi::Abi target = *abi::FindBuiltinTarget("cortex-m");
    for (const char* release : {"0.3", "1.4.1"})
      for (const pte::ProgramView& view : p->views) {
        const runtime::RuntimeModel model(**runtime::FindRelease(release), target);
        report::ReportOptions o;
        o.pool_align = target.malloc_align;
        p->reports.push_back(*report::BuildReport(view, model, o));
      }
    return p;
  }();
  return programs->reports;
}

void CheckAgainstReports(const report::Budget& budget) {
  const std::vector<report::Report>& reports = Reports();
  for (size_t i = 0; i < reports.size(); ++i) {
    const std::vector<report::Report> one(reports.begin() + i, reports.begin() + i + 1);
    const std::vector<report::BudgetCheck> checks = report::CheckBudget(one, budget);
    const size_t want = (budget.ram ? one.front().methods.size() : 0) + (budget.flash ? 1 : 0);
    Require(checks.size() == want, "CheckBudget made " + std::to_string(checks.size()) +
                                       " checks, want " + std::to_string(want));
    for (const report::BudgetCheck& c : checks) {
      const bool ram = c.item == "ram";
      Require(ram || c.item == "flash", "a check of unknown item " + c.item);
      Require(c.limit == (ram ? *budget.ram : *budget.flash), "a check lost its limit");
      if (!c.over()) continue;
      const std::string m = report::OverBudgetMessage(c);
      Require(OnePrintableLine(m), "over-budget message is not one printable line: " + m);
      Require(m.find(std::to_string(c.used - c.limit) + " B more") != std::string::npos,
              "over-budget message without the excess: " + m);
    }
  }
}

void FuzzBudgetFile(std::string_view text) {
  auto budget = report::ParseBudgetText(text, kName);
  if (!budget) {
    RequireMessage(budget.error(), kName);
    return;
  }
  Require(budget->ram || budget->flash, "accepted a budget that sets nothing");
  std::string again;
  if (budget->ram) again += "ram = " + std::to_string(*budget->ram) + "\n";
  if (budget->flash) again += "flash = " + std::to_string(*budget->flash) + "\n";
  auto reread = report::ParseBudgetText(again, "again.budget");
  Require(reread && reread->ram == budget->ram && reread->flash == budget->flash,
          "a budget written back does not read the same: " + again);
  CheckAgainstReports(*budget);
}

void FuzzBudgetSpec(std::string_view text) {
  auto budget = report::ParseBudget(text);
  if (!budget) {
    RequireMessage(budget.error(), "--budget '");
    return;
  }
  Require(budget->ram || budget->flash, "accepted a --budget that sets nothing");
}

void FuzzMargin(std::string_view text) {
  auto margin = report::ParseMargin(text);
  if (!margin) {
    RequireMessage(margin.error(), "--margin '");
    return;
  }
  Require(OnePrintableLine(margin->Describe()), "Describe() is not one printable line");
  for (const uint64_t minimum : {uint64_t{0}, uint64_t{4266}, UINT64_MAX / 3, UINT64_MAX}) {
    const uint64_t extra = margin->For(minimum);
    Require(extra <= UINT64_MAX - minimum, "the margin overflows the pool size");
    if (!margin->is_percent)
      Require(extra == std::min(margin->bytes, UINT64_MAX - minimum),
              "a byte margin is not its bytes (or what fits above the minimum)");
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  FuzzBudgetFile(text);
  FuzzBudgetSpec(text);
  FuzzMargin(text);
  return 0;
}
