// Owns: the CSV form of the summary (RFC 4180: comma-separated, CRLF-free "\n" lines, fields
// quoted only when they hold a comma, quote or line break). Not: which cells (summary_table).
#pragma once

#include <string>
#include <vector>

#include "etmem/analysis/report.h"

namespace etmem::report {

// A header line, then one line per (runtime, target, method).
std::string ToCsv(const std::vector<Report>& reports);

}  // namespace etmem::report
