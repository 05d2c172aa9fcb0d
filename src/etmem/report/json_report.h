// Owns: the JSON form of a report (analysis/report.h's Report). Its shape is a contract (shared/tools/check-goldens and
// outside checks rely on it): see the core issue, "Command line and JSON".
#pragma once

#include <functional>
#include <ostream>
#include <span>
#include <string>

#include <nlohmann/json.hpp>

#include "etmem/etmem.h"
#include "etmem/analysis/report.h"
#include "etmem/analysis/verdict.h"

namespace etmem::report {

// A result's JSON as events (what a JsonVisitor is shown): one walk serves its text (JsonText)
// and the public API's JsonValue (the Python module's dicts), so no caller parses text.
using JsonEvents = std::function<void(api::JsonVisitor&)>;
// The events' text, byte for byte nlohmann's dump(indent) of the same tree (-1: compact), and
// JsonText with a final newline.
void WriteJsonText(std::ostream& out, const JsonEvents& events, int indent);
std::string JsonText(const JsonEvents& events, int indent);
// A DOM as events, members in its own order (sorted for json, as inserted for ordered_json);
// strings as the text holds them (invalid UTF-8 replaced as the dump replaces it).
template <typename Json>
void VisitDom(const Json& j, api::JsonVisitor& visitor);
void VisitString(const std::string& s, bool key, api::JsonVisitor& visitor);

// The version of every verb's JSON shape (docs/json.md): the top-level "schema" member.
constexpr int kJsonSchema = api::kJsonSchema;

// The members every judging verb's JSON carries at its top level: "schema", "verdict" ("fits",
// "does_not_fit", "refused", "unknown") and "verdict_detail" ({"judged": [...]} and, when not
// fits, "where", "step", "log").
nlohmann::json VerdictMembers(const Verdict& verdict);
// VerdictMembers of the report's verdict (Judge), and "default_release" where the release was the
// default and something is judged: {"runtime", "verdict", "other_releases": [{"first", "last",
// "verdict", "method_pool_bytes"?, "reason"?}], "line"}.
nlohmann::json ReportVerdictMembers(const Report& report);
// "schema" alone, for a verb that judges nothing.
nlohmann::json SchemaMembers();

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

// Several reports (--runtime all, --target all) as one object: {"schema", "verdict" (over all of
// them), "verdict_detail", "results": [each report's object, as WriteJson writes it]}.
void WriteJsonResults(std::ostream& out, std::span<const Report* const> reports);
// One report's JSON (WriteJson) or several's (WriteJsonResults), with a final newline.
std::string ReportsJsonText(std::span<const Report* const> reports);
void VisitJsonResults(std::span<const Report* const> reports, api::JsonVisitor& visitor);

// The same as a DOM, for callers that inspect it (tests, fuzzers); small reports only.
nlohmann::json ToJson(const Report& report);

// The report as events, members in the text's order (invalid UTF-8 replaced as nlohmann's dump
// replaces it), without holding the allocation rows: what WriteJson writes, and the public
// API's JsonValue, walked by the Python module into its dicts.
void VisitJson(const Report& report, api::JsonVisitor& visitor);

}  // namespace etmem::report
