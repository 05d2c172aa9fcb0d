// Owns: the human-readable report. Opens with the one number a firmware author needs (the
// method-allocator pool), then its assumptions, then the breakdown.
#pragma once

#include <string>
#include <vector>

#include "etmem/analysis/report.h"

namespace etmem::report {

struct TextOptions {
  bool all_allocations = false;  // list every allocation, not only the largest
};

std::string ToText(const Report& report, const TextOptions& options = {});

// One line per (runtime, target) pair and method: for `--runtime all` / `--target all`.
std::string ToTextMatrix(const std::vector<Report>& reports);

}  // namespace etmem::report
