// Owns: the JSON form of a report. Its shape is a contract (shared/tools/check-goldens and
// outside checks rely on it): see the core issue, "Command line and JSON".
#pragma once

#include <ostream>

#include <nlohmann/json.hpp>

#include "etmem/report/report.h"

namespace etmem::report {

// Streams the report as compact JSON (allocation rows are never held all at once).
void WriteJson(std::ostream& out, const Report& report);

// The same as a DOM, for callers that inspect it (tests, fuzzers); small reports only.
nlohmann::json ToJson(const Report& report);

// The same value with its members in the text's order, built without text: WriteJson writes
// its dump (with invalid UTF-8 replaced). Holds every allocation row; for callers that build
// their own objects from it (the public API's JsonValue, the Python module's dicts).
nlohmann::ordered_json ToOrderedJson(const Report& report);

}  // namespace etmem::report
