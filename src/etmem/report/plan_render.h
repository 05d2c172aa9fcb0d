// Owns: the declarations of `etmem plan`'s renderings of analysis/plan.h's Planned: its text
// (plan_text.cpp: per method the live ranges, the validation, the bounds, a map of each buffer
// over the instructions, the advisories; then the program's advisories) and its JSON
// (plan_json.cpp: events, as a program scaled 1,000 times has 296,000 tensors). The HTML page is
// html_report.h's. Not: planning (analysis/plan.cpp, plan/).
#pragma once

#include <cstdint>
#include <string>

#include "etmem/analysis/plan.h"
#include "etmem/etmem.h"

namespace etmem::report {

// `columns`: the width of each buffer's map.
std::string PlanText(const pte::ProgramView& view, const Planned& planned, uint64_t alignment,
                     uint32_t columns);

// The JSON's events (docs/json.md): {"alignment", "duplicate_constants", "methods", "program",
// the verdict's members}, keys in sorted order.
void VisitPlanJson(api::JsonVisitor& v, const pte::ProgramView& view, const Planned& planned,
                   uint64_t alignment);
// Their text (indent 1, as nlohmann's dump(1) of the same tree).
std::string PlanJsonText(const pte::ProgramView& view, const Planned& planned, uint64_t alignment);

}  // namespace etmem::report
