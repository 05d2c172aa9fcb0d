// Owns: the self-contained HTML page of `etmem plan --format html`: per method, an SVG timeline
// of each planned buffer (x = instruction, y = offset, one <rect class="tensor"> per planned
// tensor with a live range, its <title> naming value, dtype, shape, bytes and live range), the
// peaks marked, and a bar chart of the method allocator by category. Plain numbers in, one
// string out; no network, no external assets (inline CSS only).
// Not: computing any figure (plan/, analysis/plan.cpp) or writing the file (the tool).
#pragma once

#include <string>

#include "etmem/analysis/plan.h"

namespace etmem::report {

// The page's values (HtmlPage) are analysis/plan.h's.
std::string RenderPlanHtml(const HtmlPage& page);

// `s` with &, <, >, " and ' replaced by entities.
std::string HtmlEscape(const std::string& s);

}  // namespace etmem::report
