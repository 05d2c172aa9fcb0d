// Owns: the per-operator table as text (PerOpText, per_op_render.h).
#include <algorithm>

#include <fmt/format.h>

#include "etmem/report/per_op_render.h"

namespace etmem::report {

std::string PerOpText(const Report& report, const std::vector<PerOpTable>& tables) {
  std::string out;
  for (const PerOpTable& t : tables) {
    if (!out.empty()) out += "\n";
    out += fmt::format(
        "Per-operator table: method '{}' ({}){}\n", t.method, PerOpContext(report),
        t.sorted_by == PerOpColumn::kIndex
            ? ", in execution order"
            : fmt::format(", sorted by {} (largest first)", PerOpColumnName(t.sorted_by)));
    if (t.refusal) {
      out += "  refused: " + *t.refusal + "\n";
      continue;
    }
    std::vector<std::vector<std::string>> rows;
    rows.reserve(t.rows.size() + 1);
    rows.push_back(PerOpHeadings());
    for (const PerOpRow& r : t.rows) rows.push_back(PerOpCells(r));
    std::vector<size_t> width(PerOpHeadings().size(), 0);
    // Widths in code points ("—" is one column, three bytes).
    auto columns = [](const std::string& s) {
      size_t c = 0;
      for (unsigned char ch : s) c += (ch & 0xC0) != 0x80;
      return c;
    };
    for (const auto& row : rows)
      for (size_t c = 0; c < row.size(); ++c) width[c] = std::max(width[c], columns(row[c]));
    for (const auto& row : rows) {
      std::string line = " ";
      for (size_t c = 0; c < row.size(); ++c) {
        const std::string pad(width[c] - columns(row[c]), ' ');
        line +=
            " " + (PerOpRightAligned(c) ? pad + row[c] : row[c] + (c + 1 < row.size() ? pad : ""));
      }
      out += line + "\n";
    }
    out += "Totals:\n";
    for (const std::string& l : PerOpTotalsLines(t)) out += "  " + l + "\n";
    out += "Notes:\n";
    for (const std::string& n : t.notes) out += "  " + n + "\n";
  }
  return out;
}

}  // namespace etmem::report
