// Owns: the lines of a method's RAM figure (analysis/figures.h's RamBytes) as a value: each part
// it adds up (the runner's pools under their own names, or the method pool, the planned buffers
// and the temp pool at the larger of its peaks), its bytes, whether it is a lower bound and where
// it comes from; the figure's words built from those lines, so the summary, the budget check,
// the JSON and the page say the same. Not: the figure itself (figures.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "etmem/analysis/report.h"

namespace etmem::report {

struct RamLine {
  std::string part;    // "method pool", "planned buffers", "temp load peak", "temp run-time
                       // peak", or a runner pool's name
  uint64_t bytes = 0;
  bool at_least = false;  // a lower bound: part of the method is not modelled, or a kernel's
                          // temp requests while running are unknown
  std::string when;    // a runner's pool the temp allocator uses: "while running" or "at load"
  std::string source;  // where the figure comes from, in words
};

struct RamLines {
  std::vector<RamLine> lines;  // in the order they add up
  uint64_t total_bytes = 0;    // RamBytes
  bool lower_bound = false;    // RamIsLowerBound
};
RamLines RamLinesOf(const MethodReport& m);

// "method pool 4266 B + planned buffers 33168 B + temp load peak 0 B" (RamLinesOf's lines, each
// a lower bound marked "at least"), and the kernels' malloc beside them when they take any.
std::string RamParts(const MethodReport& m);
// RamBytes is a lower bound: part of the method is not modelled (a delegate's init) or a
// kernel's temp requests while running are unknown.
bool RamIsLowerBound(const MethodReport& m);

}  // namespace etmem::report
