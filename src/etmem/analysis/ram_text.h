// Owns: the words for a method's RAM figure (analysis/figures.h's RamBytes): the parts it adds up,
// with the runner's pools under their own names, and whether it is a lower bound, so the summary
// and the budget check say the same. Not: the figure itself (figures.h).
#pragma once

#include <string>

#include "etmem/analysis/report.h"

namespace etmem::report {

// "method pool 4266 B + planned buffers 33168 B + temp load peak 0 B" (the temp pool at the
// larger of its peaks, named by which sets it), or the runner's pools and, when the runner does
// not hold them, the planned buffers. Each part a lower bound is marked "at least".
std::string RamParts(const MethodReport& m);
// RamBytes is a lower bound: part of the method is not modelled (a delegate's init) or a
// kernel's temp requests while running are unknown.
bool RamIsLowerBound(const MethodReport& m);

}  // namespace etmem::report
