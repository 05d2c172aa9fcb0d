// Owns: the declarations of the per-operator table's renderings (analysis/per_op.h's PerOpTable as
// text, CSV, Markdown and JSON: per_op_text.cpp, per_op_csv.cpp, per_op_markdown.cpp,
// per_op_json.cpp) and of the words text and Markdown share (per_op_render.cpp). Not: building
// the table (analysis/per_op.cpp).
#pragma once

#include <string>
#include <vector>

#include "etmem/analysis/per_op.h"
#include "etmem/etmem.h"

namespace etmem::report {

// The words text and Markdown share (per_op_render.cpp): a row's cells under the headings, which
// columns are right-aligned, the context line ("ExecuTorch 1.4.1, cortex-m, kernels portable")
// and the totals, one line each.
std::vector<std::string> PerOpCells(const PerOpRow& r);
const std::vector<std::string>& PerOpHeadings();
bool PerOpRightAligned(size_t column);
std::string PerOpContext(const Report& report);
std::vector<std::string> PerOpTotalsLines(const PerOpTable& t);

// Renderings, a file each. Text: a table per method and its totals lines; CSV: one line
// per row (and a "total" line per method) with the method's name; Markdown: a table per method;
// JSON: {"schema", verdict members, the analysis's header ("program", "assumptions", ...),
// "per_op": [{"method", "sorted_by", "rows": [...], "totals": {...}, "notes"}]} (docs/json.md).
std::string PerOpText(const Report& report, const std::vector<PerOpTable>& tables);
std::string PerOpCsv(const std::vector<PerOpTable>& tables);
std::string PerOpMarkdown(const Report& report, const std::vector<PerOpTable>& tables);
std::string PerOpJson(const Report& report, const std::vector<PerOpTable>& tables);
// The JSON's events (PerOpJson is their text; api::PerOpJson their value).
void VisitPerOpJson(const Report& report, const std::vector<PerOpTable>& tables,
                    api::JsonVisitor& visitor);

}  // namespace etmem::report
