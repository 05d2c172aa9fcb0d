// Owns: the one verdict of an analysis (fits | does not fit | refused | unknown), computed once
// from a report over everything it judges (the method pool; the temp pool at load and at every
// instruction while running; with a runner, its method pool and its own refusals; a budget),
// with the failing step and the runtime's line; combining verdicts (the worst wins); the verdict
// of each published release beside a default one (a default must never flip a verdict silently);
// and the exit status every verb takes from a verdict. Not: printing it (each format's file), the
// figures it judges (build_report.cpp, kernels/run_temp.cpp, sim/).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "etmem/analysis/budget.h"
#include "etmem/analysis/report.h"

namespace etmem::report {

// "fits", "unknown", "does_not_fit", "refused": the JSON's words.
const char* VerdictName(VerdictKind kind);
// 0 fits, 1 does not fit or refused, 2 could not judge (unknown).
int ExitStatus(VerdictKind kind);

struct Verdict {
  VerdictKind kind = VerdictKind::kFits;
  // For anything but fits, of the first item with the worst verdict: where ("ExecuTorch 1.4.1,
  // cortex-m, method 'forward'"), the step ("temp pool 1599 B (--temp-pool): instruction 0
  // (aten::topk.values) takes 1600 B"), and the lines the runtime (then the kernel or runner)
  // logs, where known.
  std::string where;
  std::string step;
  std::vector<std::string> log;
  // Everything judged, one phrase each ("method pool 4096 B", "temp pool 1599 B at load and
  // while running", "ram budget"); empty: nothing but that the release loads the program.
  std::vector<std::string> judged;
  // Keeps the worse of the two (the earlier on a tie) and every judged item.
  void Add(const Verdict& other);
};

// The verdict of one method of a report (its refusal, pools and temp pool; no budget).
Verdict JudgeMethod(const Report& report, const MethodReport& method);
// The verdict of one (release, target) report, its budget (Report::budget) included.
Verdict Judge(const Report& report);
Verdict Judge(const std::vector<Report>& reports);

// The verdict of a verb whose judgement is one outcome (plan: sound; check: the log reproduced;
// measure: the real runtime matches): fits when `ok`, else does not fit with `step`; unknown with
// `error` when the verb could not judge.
Verdict OutcomeVerdict(bool ok, const std::string& judged, const std::string& step,
                       const std::string& error = "");

// One line for a verdict that is not fits: "does not fit: ExecuTorch 1.4.1, cortex-m, method
// 'forward': temp pool ...".
std::string VerdictLine(const Verdict& verdict);

// From every published release's report in order (`reports[i]` of `versions[i]`, null where the
// options do not apply to the release, e.g. a runner profile not modelled there: `errors[i]` says
// why; such a release is left out).
DefaultRelease CompareReleases(const std::string& default_runtime, VerdictKind default_kind,
                               const std::vector<std::string>& versions,
                               const std::vector<const Report*>& reports,
                               const std::vector<std::string>& errors);

}  // namespace etmem::report
