// Owns: DiffToText, `etmem diff`'s text (see diff_report.h).
#include "etmem/report/diff_report.h"

#include <fmt/format.h>

#include "etmem/analysis/assumptions.h"

namespace etmem::report {
namespace {

using namespace diff_words;

void TextTable(std::string& out, const std::string& title,
               const std::vector<std::pair<std::string, Delta>>& rows) {
  out += fmt::format("\n{:<32}{:>12}{:>12}  {}\n", title, "old", "new", "change");
  for (const auto& [label, d] : rows)
    out +=
        fmt::format("  {:<30}{:>12}{:>12}  {}\n", label, d.old_value, d.new_value, ChangeText(d));
}

}  // namespace

std::string DiffToText(const ProgramDiff& diff) {
  std::string out = fmt::format("old: {}\nnew: {}\nassuming {}\n", diff.old_path, diff.new_path,
                                AssumptionSentence(diff.assumptions, BriefWording()));
  for (const MethodDiff& d : diff.methods) TextTable(out, diff_words::MethodTitle(d), diff_words::MethodRows(d, false));
  TextTable(out, "flash", diff_words::FlashRows(diff));
  return out;
}

}  // namespace etmem::report
