// Owns: the JSON of `etmem measure` (measure/measure.h's MeasureRun, with --execute
// measure/execute.h's ExecutionRun): one object, printed once the run is over.
// Not: measuring or comparing (measure/, api/measure.cpp), the text (measure_text.h).
#pragma once

#include <string>

#include "etmem/measure/measure.h"

namespace etmem::report {

// {"tree", "release", "build", "methods": [...], "execution", "kept_logs", "matches"}, with a
// final newline; docs/measure.md lists the members.
std::string MeasureJson(const measure::MeasureRun& run);

}  // namespace etmem::report
