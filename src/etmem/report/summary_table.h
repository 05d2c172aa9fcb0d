// Owns: the flat summary of one or more reports, one row per (runtime, target, method), that
// the CSV and Markdown formats print. Not: escaping or layout (csv_report, markdown_report).
#pragma once

#include <string>
#include <vector>

#include "etmem/analysis/report.h"

namespace etmem::report {

struct SummaryTable {
  std::vector<std::string> columns;            // machine-friendly names: method_pool_bytes, ...
  std::vector<std::vector<std::string>> rows;  // one cell per column
};

struct SummaryOptions {
  bool by_category = true;  // one column per method-allocator category
};

SummaryTable BuildSummary(const std::vector<Report>& reports, const SummaryOptions& options = {});

}  // namespace etmem::report
