// Owns: the JSON form of a report. Its shape is a contract (shared/tools/check-goldens and
// outside checks rely on it): see the core issue, "Command line and JSON".
#pragma once

#include <ostream>

#include <nlohmann/json.hpp>

#include "etmem/etmem.h"
#include "etmem/report/report.h"

namespace etmem::report {

// Streams the report as compact JSON: VisitJson's events written as text (allocation rows are
// never held all at once).
void WriteJson(std::ostream& out, const Report& report);

// The report's top-level members but "methods" (program, assumptions, flash, notes), as a DOM:
// what other verbs' JSON (fit) carries as the analysis they rest on.
nlohmann::json HeaderJson(const Report& report);

// A method's "unknown" and "temp_allocator" members, for other verbs' JSON (summary) to carry
// as analyze's.
nlohmann::json UnknownsJson(const MethodReport& m);
nlohmann::json TempAllocatorJson(const MethodReport& m);

// The same as a DOM, for callers that inspect it (tests, fuzzers); small reports only.
nlohmann::json ToJson(const Report& report);

// The report as events, members in the text's order (invalid UTF-8 replaced as nlohmann's dump
// replaces it), without holding the allocation rows: what WriteJson writes, and the public
// API's JsonValue, walked by the Python module into its dicts.
void VisitJson(const Report& report, api::JsonVisitor& visitor);

}  // namespace etmem::report
