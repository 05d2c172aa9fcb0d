// Owns: ToCsv, quoting and joining the summary's cells. Not: choosing them (summary_table.cpp).
#include "etmem/report/csv_report.h"

#include "etmem/report/summary_table.h"

namespace etmem::report {
namespace {

std::string Field(const std::string& s) {
  if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
  std::string out = "\"";
  for (char c : s) out += c == '"' ? std::string("\"\"") : std::string(1, c);
  return out + "\"";
}

std::string Line(const std::vector<std::string>& cells) {
  std::string out;
  for (size_t i = 0; i < cells.size(); ++i) out += (i ? "," : "") + Field(cells[i]);
  return out + "\n";
}

}  // namespace

std::string ToCsv(const std::vector<Report>& reports) {
  const SummaryTable t = BuildSummary(reports);
  std::string out = Line(t.columns);
  for (const auto& row : t.rows) out += Line(row);
  return out;
}

}  // namespace etmem::report
