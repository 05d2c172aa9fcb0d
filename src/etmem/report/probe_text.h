// Owns: the text of `etmem probe` (measure/probe.h's ProbeRun): the target file's primitives,
// one line per probed type (agrees, differs: a warning, or not in the model), the kept
// directory. In etmem_search_report (what the web page does not build). Not: probing.
#pragma once

#include <string>

#include "etmem/measure/probe.h"

namespace etmem::report {

std::string ProbeText(const measure::ProbeRun& run);

}  // namespace etmem::report
