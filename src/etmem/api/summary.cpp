// Owns: api::Summary and api::SummaryJson, `etmem summary`: the value built (analysis/summary.h;
// a refused method is an Error) and rendered by report/ or given as a value. Not: the figures
// (analysis/summary.cpp), the text and JSON (report/summary_report.h).
#include "etmem/analysis/summary.h"
#include "etmem/api/internal.h"
#include "etmem/report/summary_report.h"

namespace etmem::api {
namespace {

// The summary's values (report::ProgramSummary), which its text and JSON are written from; a
// refused method is an Error (no figures as if it loaded).
report::ProgramSummary BuildSummary(const Report& report) {
  const report::Report& r = Internal(report);
  report::ProgramSummary s = report::SummaryOfProgram(r);
  for (const report::MethodReport& m : r.methods) {
    if (m.plan.refusal)
      throw Error(ErrorKind::kUnsupported, RefusalLine(r, m));
    s.methods.push_back(Take(report::SummaryFigures(*r.program, m)));
  }
  return s;
}

}  // namespace

std::string Summary(const Report& report, Format format) {
  if (format == Format::kCsv || format == Format::kMarkdown)
    throw Error(ErrorKind::kInvalidArgument,
                "etmem summary renders text or JSON, not CSV or Markdown");
  const report::ProgramSummary s = BuildSummary(report);
  return format == Format::kJson ? report::SummaryToJson(s) : report::SummaryToText(s);
}

JsonValue SummaryJson(const Report& report) {
  auto dom = std::make_shared<const nlohmann::ordered_json>(report::SummaryDom(BuildSummary(report)));
  return MakeJsonValue([dom](JsonVisitor& v) { report::VisitDom(*dom, v); });
}

}  // namespace etmem::api
