// Owns: DiffToMarkdown, `etmem diff --format md` (see diff_report.h).
#include "etmem/report/diff_report.h"

#include <fmt/format.h>

#include "etmem/analysis/assumptions.h"
#include "etmem/report/markdown_report.h"

namespace etmem::report {
namespace {

using namespace diff_words;

void MarkdownTable(std::string& out, const std::string& title,
                   const std::vector<std::pair<std::string, Delta>>& rows) {
  out += fmt::format("\n**{}**\n\n| | old | new | change |\n| --- | ---: | ---: | ---: |\n",
                     MarkdownCell(title));
  for (const auto& [label, d] : rows)
    out += fmt::format("| {} | {} | {} | {} |\n",
                       label.starts_with("  ") ? "↳ " + label.substr(2) : label, d.old_value,
                       d.new_value, ChangeText(d));
}

}  // namespace

std::string DiffToMarkdown(const ProgramDiff& diff) {
  std::string out = fmt::format("`{}` → `{}`, assuming {}\n", MarkdownCell(diff.old_path),
                                MarkdownCell(diff.new_path), AssumptionSentence(diff.assumptions, BriefWording()));
  for (const MethodDiff& d : diff.methods) MarkdownTable(out, diff_words::MethodTitle(d), diff_words::MethodRows(d, false));
  MarkdownTable(out, "flash", diff_words::FlashRows(diff));
  return out;
}

}  // namespace etmem::report
