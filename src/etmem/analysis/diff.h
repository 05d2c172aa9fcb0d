// Owns: comparing two reports made with the same release, target and options (`etmem diff`):
// per method and per method-allocator category, and for the flash breakdown, the old and new
// figures and their difference (ProgramDiff). Not: building the reports (build_report.cpp),
// choosing release and target, or printing the comparison (report/diff_report.cpp).
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "etmem/analysis/report.h"

namespace etmem::report {

struct Delta {
  uint64_t old_value = 0;
  uint64_t new_value = 0;
  int64_t change() const {
    return static_cast<int64_t>(new_value) - static_cast<int64_t>(old_value);
  }
};

enum class MethodChange { kSame, kChanged, kAdded, kRemoved };

struct MethodDiff {
  std::string name;
  MethodChange change = MethodChange::kSame;
  Delta method_pool;
  std::array<Delta, static_cast<size_t>(runtime::Category::kCount)> by_category{};
  Delta planned;    // all planned buffers
  Delta temp_load;  // temp allocator peak during load
  Delta ram;        // method pool + planned + temp load
  std::vector<uint64_t> old_planned_buffers, new_planned_buffers;
  bool old_exact = true, new_exact = true;
  // With --runner: the runner's method pool (its macro or variable) and its minimum.
  std::string runner_pool_name;
  Delta runner_pool;
};

struct FlashDelta {
  std::string name;  // "file_bytes", ... as in the JSON report's "flash"
  Delta bytes;
};

struct ProgramDiff {
  std::string old_path, new_path;
  Assumptions assumptions;  // the old report's; the new one was made with the same
  std::vector<FlashDelta> flash;
  std::vector<MethodDiff> methods;  // old's methods in order, then methods only in new
};

ProgramDiff DiffReports(const Report& old_report, const Report& new_report);

}  // namespace etmem::report
