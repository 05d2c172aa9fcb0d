// Owns: FormatTable, the one list of (result, format, renderer) (see formats.h).
#include "etmem/report/formats.h"

namespace etmem::report {

const std::vector<FormatRow>& FormatTable() {
  static const std::vector<FormatRow> table = {
      {"analyze", "analyze", "text", "report/text_report.cpp"},
      {"analyze", "analyze", "json", "report/json_report.cpp"},
      {"analyze", "analyze", "csv", "report/csv_report.cpp"},
      {"analyze", "analyze", "md", "report/markdown_report.cpp"},
      {"analyze --per-op", "analyze", "text", "report/per_op_text.cpp"},
      {"analyze --per-op", "analyze", "json", "report/per_op_json.cpp"},
      {"analyze --per-op", "analyze", "csv", "report/per_op_csv.cpp"},
      {"analyze --per-op", "analyze", "md", "report/per_op_markdown.cpp"},
      {"summary", "summary", "text", "report/summary_report.cpp"},
      {"summary", "summary", "json", "report/summary_json.cpp"},
      {"plan", "plan", "text", "report/plan_text.cpp"},
      {"plan", "plan", "json", "report/plan_json.cpp"},
      {"plan", "plan", "html", "report/html_report.cpp"},
      {"replan", "replan", "text", "report/replan_text.cpp"},
      {"replan", "replan", "json", "report/replan_json.cpp"},
      {"header", "header", "c", "report/c_header.cpp"},
      {"header --linker-script", "header", "ld", "report/fit_linker_script.cpp"},
      {"diff", "diff", "text", "report/diff_text.cpp"},
      {"diff", "diff", "json", "report/diff_json.cpp"},
      {"diff", "diff", "md", "report/diff_markdown.cpp"},
      {"fit", "fit", "text", "report/fit_text.cpp"},
      {"fit", "fit", "json", "report/fit_json.cpp"},
      {"firmware", "firmware", "text", "report/firmware_text.cpp"},
      {"firmware", "firmware", "json", "report/firmware_json.cpp"},
      {"check", "check", "text", "report/check_text.cpp"},
      {"check", "check", "json", "report/check_json.cpp"},
      {"measure", "measure", "text", "report/measure_text.cpp"},
      {"measure", "measure", "json", "report/measure_json.cpp"},
      {"probe", "probe", "text", "report/probe_text.cpp"},
      {"probe", "probe", "json", "report/probe_json.cpp"},
      {"list", "list", "text", "report/list_text.cpp"},
      {"list", "list", "json", "report/list_json.cpp"},
  };
  return table;
}

}  // namespace etmem::report
