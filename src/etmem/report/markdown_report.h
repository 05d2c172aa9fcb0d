// Owns: the Markdown form of the summary, a GitHub-flavoured table for pull-request comments and
// release notes. Not: which cells (summary_table), the diff's Markdown (diff_report).
#pragma once

#include <string>
#include <vector>

#include "etmem/analysis/report.h"

namespace etmem::report {

// A table with one row per (runtime, target, method); sizes are right-aligned.
std::string ToMarkdown(const std::vector<Report>& reports);

// Escapes '|' (and line breaks) so a string stays inside one table cell.
std::string MarkdownCell(const std::string& s);

}  // namespace etmem::report
