// Owns: the per-operator table as Markdown (PerOpMarkdown, per_op_render.h).
#include <fmt/format.h>

#include "etmem/report/per_op_render.h"
#include "etmem/report/markdown_report.h"

namespace etmem::report {

std::string PerOpMarkdown(const Report& report, const std::vector<PerOpTable>& tables) {
  std::string out;
  for (const PerOpTable& t : tables) {
    if (!out.empty()) out += "\n";
    out += fmt::format("### Method `{}` ({}){}\n\n", MarkdownCell(t.method), PerOpContext(report),
                       t.sorted_by == PerOpColumn::kIndex
                           ? ""
                           : fmt::format(", sorted by {}", PerOpColumnName(t.sorted_by)));
    if (t.refusal) {
      out += "Refused: " + MarkdownCell(*t.refusal) + "\n";
      continue;
    }
    std::string row = "|";
    for (const std::string& h : PerOpHeadings()) row += " " + h + " |";
    out += row + "\n|";
    for (size_t c = 0; c < PerOpHeadings().size(); ++c)
      out += PerOpRightAligned(c) ? " ---: |" : " --- |";
    out += "\n";
    for (const PerOpRow& r : t.rows) {
      row = "|";
      for (const std::string& cell : PerOpCells(r)) row += " " + MarkdownCell(cell) + " |";
      out += row + "\n";
    }
    out += "\n";
    for (const std::string& l : PerOpTotalsLines(t)) out += "- " + MarkdownCell(l) + "\n";
    out += "\n";
    for (const std::string& n : t.notes) out += "- " + MarkdownCell(n) + "\n";
  }
  return out;
}

}  // namespace etmem::report
