// Owns: the words every format uses for the temp allocator while the method runs (one line for
// the figure, then the calls, the pool check and the heap fallback), so text, summary and the C
// header say the same thing. Not: computing it (kernels/run_temp.h).
#pragma once

#include <string>
#include <vector>

#include "etmem/analysis/report.h"

namespace etmem::report {

// "0 B: none of these kernels allocates temp memory while running [kernels: portable]", ...
std::string RunTempLine(const MethodReport& m);
// The calls that ask for temp memory (at most `max_calls`), the check of the temp pool against
// load and every instruction, and the heap of the no-temp-allocator fallback.
std::vector<std::string> RunTempDetail(const Report& r, const MethodReport& m, size_t max_calls);

}  // namespace etmem::report
