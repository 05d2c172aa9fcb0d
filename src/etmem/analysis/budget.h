// Owns: memory budgets for a firmware build and checking reports against them:
// `--budget ram=64K,flash=256K`, budget files ("key = value" lines), the --margin grammar, and
// which figures each budget item limits. Not: the byte-size grammar (base/byte_size.h),
// printing or exit codes (tools/etmem), the figures themselves (build_report.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "etmem/base/result.h"
#include "etmem/analysis/report.h"

namespace etmem::report {

// Budget: report.h.

// "ram=64K,flash=256K": comma-separated key=value items.
Result<Budget> ParseBudget(std::string_view spec);
// A budget file's text: one "key = value" per line, '#' starts a comment, blank lines are
// ignored. Errors read "<name>:<line>: what is wrong".
Result<Budget> ParseBudgetText(std::string_view text, const std::string& name);
Result<Budget> ReadBudgetFile(const std::string& path);

struct BudgetCheck {
  std::string item;       // "ram" or "flash"
  std::string scope;      // "method 'forward' (ExecuTorch 1.4.1, cortex-m)" or the program path
  std::string breakdown;  // how `used` is made up
  uint64_t used = 0;
  uint64_t limit = 0;
  bool lower_bound = false;  // an unknown delegate allocates more than `used`
  bool over() const { return used > limit; }
};

// One ram check per (report, method) and one flash check for the program (the file is the same
// in every report). Nothing for items the budget does not set.
std::vector<BudgetCheck> CheckBudget(std::span<const Report> reports, const Budget& budget);

// "over budget: ram of method 'forward' (ExecuTorch 1.4.1, cortex-m) is 41234 B (...),
// 8466 B more than ram=32768 B"
std::string OverBudgetMessage(const BudgetCheck& check);

// --margin: a byte size ("512", "4K") or a percentage of the minimum ("10%", rounded up).
struct Margin {
  uint64_t bytes = 0;
  uint32_t percent = 0;
  bool is_percent = false;
  uint64_t For(uint64_t minimum) const;  // the margin in bytes added to `minimum` (saturating)
  std::string Describe() const;          // "10%" or "512 B"
};
Result<Margin> ParseMargin(std::string_view text);

}  // namespace etmem::report
