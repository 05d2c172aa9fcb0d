// Owns: the one sentence of assumptions every figure states ("ExecuTorch X, target Y, pool base
// aligned to ...", then the temp allocator, the .ptd, the runner and the pool), in each wording a
// format or a verb prints it. Every place that states assumptions calls AssumptionSentence; the
// wordings differ only in which clauses they say and how briefly. Not: where a format puts the
// sentence (each renderer).
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "etmem/analysis/report.h"

namespace etmem::report {

// Which clauses the sentence says, and how. The clauses always come in this order: release,
// target, [runner], pool base, temp allocator, [.ptd], [runner], [pool].
struct AssumptionWording {
  bool target_label = true;  // "target cortex-m" (false: "cortex-m")
  enum class Runner { kNone, kAfterTarget, kLast } runner = Runner::kNone;
  // kAligned: "pool base aligned to 8 B"; kNotTwice: "... (not 16)"; kRunnerPools: each of the
  // runner's pools with its base alignment (`runner_pools`).
  enum class PoolBase { kAligned, kNotTwice, kRunnerPools } pool_base = PoolBase::kAligned;
  // kShort: "a temp allocator"; kSized: "a 2048 B temp allocator" when the temp pool's size is
  // assumed; kPassed: "a temp allocator is passed"; kPassedInFull: kPassed, whether that is what
  // the runner does, and the temp pool assumed.
  enum class Temp { kShort, kSized, kPassed, kPassedInFull } temp = Temp::kShort;
  const char* temp_suffix = "";  // " at load"
  enum class Ptd { kNone, kShort, kPassed } ptd = Ptd::kNone;  // ", a .ptd data map[ is passed]"
  // kNone: not said; kBounded: ", a N B pool" when one is given; kAlways: else ", an unbounded
  // pool".
  enum class Pool { kNone, kBounded, kAlways } pool = Pool::kNone;
  std::optional<uint64_t> pool_bytes;
  std::string runner_pools;  // PoolBase::kRunnerPools: RunnerPoolAlignText
};

// The wordings in use, named by where they are printed.
AssumptionWording ReportWording();        // the text report, without a runner
AssumptionWording RunnerReportWording(const RunnerReport& r);  // the text report with a runner
AssumptionWording BriefWording();         // diff (text, markdown)
AssumptionWording PlanWording();          // plan's HTML page (after "Method allocator assuming ")
AssumptionWording SummaryWording();       // summary's first line
AssumptionWording FitWording();           // fit
AssumptionWording CheckWording(std::optional<uint64_t> pool);    // check, without a runner
AssumptionWording SearchWording(std::optional<uint64_t> pool);   // check's search candidates
AssumptionWording MeasureWording(std::optional<uint64_t> pool);  // measure

// The sentence, without "assuming " before it.
std::string AssumptionSentence(const Assumptions& a, const AssumptionWording& w);

// " (what the runner does)" / " (what this release's executor_runner does)" when the temp
// allocator is the runner's default (`runner`: a runner profile is named), else "": the
// sentence's clause, also in the C header's temp allocator line.
std::string TempSourceText(const Assumptions& a, bool runner);

// ", temp pool N B (where that size comes from)" at a release whose operator metadata depends
// on the temp pool's size; "" elsewhere.
std::string TempPoolText(const Assumptions& a);

}  // namespace etmem::report
