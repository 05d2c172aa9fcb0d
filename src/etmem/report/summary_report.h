// Owns: the model `etmem summary` prints from (ProgramSummary: per method the report's figures
// with what re-planning and the advisories would save, the run-time temp allocator (the
// report's run_temp), and the flash a de-duplication would save) and its text. The planned-memory
// figures are plain values here, filled by the API from plan/ (api/summary.cpp). Not: computing
// them, the command line.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "etmem/analysis/report.h"

namespace etmem::report {

// One advisory (plan::Advice) as summary prints it.
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

// What `etmem summary` prints.
std::string SummaryToText(const ProgramSummary& s);

// `etmem summary --format json`: one object with a final newline: "analysis" (analyze's
// top-level members but "methods": program, assumptions, flash, notes), "flash_savings"
// {duplicate_constant_bytes, duplicate_groups, ram_note}, and per method "methods" [{name,
// exact, ram_bytes, method_pool_bytes, planned_bytes, temp_pool_bytes, temp_pool_is_run_peak,
// runner (null, or {name, pools [{name, bytes, temp_role, when}], holds_planned_buffers}),
// unknown, temp_allocator (as analyze's), biggest_cost {item, bytes, text}, replan
// {planned_bytes, replanned_bytes, saving_bytes, buffers [{memory_id, before, after}]},
// advisories [...], advised_bytes}]: the values the text is written from.
// As a DOM (the public API's JsonValue walks it), and its text.
nlohmann::ordered_json SummaryDom(const ProgramSummary& s);
std::string SummaryToJson(const ProgramSummary& s);

}  // namespace etmem::report
