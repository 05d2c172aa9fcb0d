// Owns: the value `etmem summary` prints (ProgramSummary: per method the report's figures with
// what re-planning and the advisories would save, the run-time temp allocator (the report's
// run_temp), the flash a de-duplication would save, the biggest single cost), built from the
// report and the planned-memory stage (plan/: re-planned sizes, advisories, duplicate constants).
// Not: printing it (report/summary_report.h), refusing a refused method (api/summary.cpp).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "etmem/analysis/report.h"
#include "etmem/base/result.h"

namespace etmem::report {

struct SummaryAdvice {
  std::string kind;  // "unread-output"
  int32_t value = 0;
  uint64_t bytes = 0;
  std::string op;
  int64_t instruction = 0;
  int64_t saving = 0;  // replanned - replanned_without
  uint32_t memory_id = 0;
  int64_t replanned = 0, replanned_without = 0;
  bool cut_short = false;  // saving is a lower bound (plan::Advice::cut_short)
};

struct SummaryBuffer {
  uint32_t memory_id = 0;
  int64_t before = 0;  // as stored
  int64_t after = 0;   // re-planned
};

struct MethodSummaryFigures {
  const MethodReport* report = nullptr;
  std::vector<SummaryBuffer> buffers;
  std::vector<SummaryAdvice> advice;
  int64_t replanned_total = 0;  // every buffer re-planned
  int64_t advised_total = 0;    // re-planned without every advised tensor
};

struct ProgramSummary {
  const Report* report = nullptr;
  std::string path;  // as the user named the program
  uint64_t duplicate_flash_bytes = 0;  // flash saved storing each identical constant once
  size_t duplicate_groups = 0;
  std::string duplicate_ram_note;      // what de-duplication does to RAM
  std::vector<MethodSummaryFigures> methods;
};

// The biggest single cost of a method: the largest of its method pool, each planned buffer and
// the temp allocator's peaks (what summary's "biggest single cost" line says, in both formats).
struct SummaryCost {
  std::string item;    // "method allocator pool", "planned buffer N", "temp load peak",
                       // "temp run-time peak"
  uint64_t bytes = 0;
  std::string text;    // the line's words
};
SummaryCost BiggestCost(const MethodSummaryFigures& f);

// What `etmem replan` (alignment 16) and the advisories would save in method `m` of `program`;
// an error names the program when its plan cannot be read.
Result<MethodSummaryFigures> SummaryFigures(const pte::ProgramView& program, const MethodReport& m);
// The summary of `report` without its methods' figures (SummaryFigures adds them): the program's
// duplicate constants.
ProgramSummary SummaryOfProgram(const Report& report);

}  // namespace etmem::report
