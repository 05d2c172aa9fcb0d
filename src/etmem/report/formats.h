// Owns: the table of output formats: per result (what a verb prints), the formats it is rendered
// in, each with the file of report/ that renders it. The verbs' --format options, `etmem list
// formats` and docs/json.md take their lists from here (api::OutputFormats). Not: rendering (the
// files named), choosing a format (the verbs).
#pragma once

#include <string>
#include <vector>

namespace etmem::report {

struct FormatRow {
  const char* result;    // "analyze", "analyze --per-op", "summary", ...
  const char* verb;      // the verb that prints it ("analyze")
  const char* format;    // "text", "json", "csv", "md", "html", "c", "ld"
  const char* renderer;  // "report/text_report.cpp"
};

// In the order `etmem list formats` prints them: results in the verbs' order, each result's
// formats in the order its --format option lists them (the default first).
const std::vector<FormatRow>& FormatTable();

}  // namespace etmem::report
