// Owns: the text and JSON of `etmem summary` (analysis/summary.h's ProgramSummary). Not: building
// the value (analysis/summary.cpp), the command line.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "etmem/analysis/summary.h"

namespace etmem::report {

// One advisory (plan::Advice) as summary prints it.
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
