// Owns: ToMarkdown, the summary as a table. Not: choosing the cells (summary_table.cpp).
#include "etmem/report/markdown_report.h"

#include <fmt/format.h>

#include "etmem/report/summary_table.h"

namespace etmem::report {
namespace {

bool IsNumeric(const std::string& column) {
  return column.ends_with("_bytes") || column == "pool_align" || column == "planned_buffers";
}

std::string Row(const std::vector<std::string>& cells) {
  std::string out = "|";
  for (const auto& c : cells) out += " " + MarkdownCell(c) + " |";
  return out + "\n";
}

std::string Rule(const std::vector<std::string>& columns) {
  std::string out = "|";
  for (const auto& c : columns) out += IsNumeric(c) ? " ---: |" : " --- |";
  return out + "\n";
}

}  // namespace

std::string MarkdownCell(const std::string& s) {
  std::string out;
  for (char c : s) {
    if (c == '|')
      out += "\\|";
    else if (c == '\n' || c == '\r')
      out += ' ';
    else if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
      out += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));  // as Printable writes it
    else
      out += c;
  }
  return out;
}

std::string ToMarkdown(const std::vector<Report>& reports) {
  const SummaryTable t = BuildSummary(reports, {.by_category = false});
  std::string out = Row(t.columns) + Rule(t.columns);
  for (const auto& row : t.rows) out += Row(row);
  return out;
}

}  // namespace etmem::report
