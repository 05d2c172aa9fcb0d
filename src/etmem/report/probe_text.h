// Owns: the declarations of the text (probe_text.cpp) and the JSON (probe_json.cpp) of `etmem
// probe` (measure/probe.h's ProbeRun): the target file's
// primitives, one line per probed type (agrees, differs: a warning, or not in the model), the
// kept directory. In etmem_search_report (what the web page does not build). Not: probing.
#pragma once

#include <string>

#include "etmem/measure/probe.h"

namespace etmem::report {

std::string ProbeText(const measure::ProbeRun& run);

// One object with a final newline: "target_file", "release" (compared with), "primitives"
// {pointer, size_t, int64, double: [size, align], max_align}, "types" [{name, measured [size,
// align], computed [size, align] or null (not in the model), agrees}], "not_probed" [{name,
// why}], "kept" (the kept probe directory, or null).
std::string ProbeJson(const measure::ProbeRun& run);

}  // namespace etmem::report
