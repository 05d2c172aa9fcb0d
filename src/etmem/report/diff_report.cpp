// Owns: the words every printed form of a ProgramDiff shares (diff_report.h's diff_words): the
// change of a method, a delta with its percentage, the labelled rows of a method and of the
// flash. Not: the forms themselves (diff_text.cpp, diff_json.cpp, diff_markdown.cpp).
#include "etmem/report/diff_report.h"

#include <fmt/format.h>

#include "etmem/runtime/labels.h"

namespace etmem::report::diff_words {

const char* CategoryLabel(size_t c) {
  return runtime::CategoryName(static_cast<runtime::Category>(c));
}

const char* ChangeName(MethodChange c) {
  switch (c) {
    case MethodChange::kSame:
      return "unchanged";
    case MethodChange::kChanged:
      return "changed";
    case MethodChange::kAdded:
      return "added";
    case MethodChange::kRemoved:
      return "removed";
  }
  return "?";
}

std::string Signed(int64_t v) { return v > 0 ? fmt::format("+{}", v) : fmt::format("{}", v); }

// "+1572 (+54.3%)", "0", "+120 (new)".
std::string ChangeText(const Delta& d) {
  if (d.change() == 0) return "0";
  if (d.old_value == 0) return Signed(d.change());
  return fmt::format("{} ({:+.1f}%)", Signed(d.change()), 100.0 * d.change() / d.old_value);
}

// The labelled rows every printed form shows for one method.
std::vector<std::pair<std::string, Delta>> MethodRows(const MethodDiff& d, bool all_categories) {
  std::vector<std::pair<std::string, Delta>> rows;
  if (!d.runner_pool_name.empty()) rows.push_back({d.runner_pool_name, d.runner_pool});
  rows.push_back({"method allocator pool", d.method_pool});
  for (size_t c = 0; c < kCategories; ++c)
    if (all_categories || d.by_category[c].old_value || d.by_category[c].new_value)
      rows.push_back({std::string("  ") + CategoryLabel(c), d.by_category[c]});
  rows.push_back({"planned buffers", d.planned});
  rows.push_back({"temp allocator load peak", d.temp_load});
  rows.push_back({"ram (pool + planned + temp)", d.ram});
  return rows;
}

std::string MethodTitle(const MethodDiff& d) {
  std::string notes;
  if (!d.old_exact || !d.new_exact) notes += ", lower bounds (unknown delegate)";
  return fmt::format("method '{}' ({}{})", d.name, ChangeName(d.change), notes);
}

std::vector<std::pair<std::string, Delta>> FlashRows(const ProgramDiff& diff) {
  std::vector<std::pair<std::string, Delta>> rows;
  for (const FlashDelta& f : diff.flash) rows.push_back({f.name, f.bytes});
  return rows;
}

}  // namespace etmem::report::diff_words
