// Owns: the text, JSON and Markdown forms of a ProgramDiff (see diff_report.h).
#include "etmem/report/diff_report.h"

#include <fmt/format.h>

#include "etmem/analysis/assumptions.h"
#include "etmem/analysis/figures.h"
#include "etmem/report/json_report.h"
#include "etmem/report/markdown_report.h"
#include "etmem/runtime/labels.h"

namespace etmem::report {
namespace {

using nlohmann::json;

constexpr size_t kCategories = static_cast<size_t>(runtime::Category::kCount);

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

void TextTable(std::string& out, const std::string& title,
               const std::vector<std::pair<std::string, Delta>>& rows) {
  out += fmt::format("\n{:<32}{:>12}{:>12}  {}\n", title, "old", "new", "change");
  for (const auto& [label, d] : rows)
    out +=
        fmt::format("  {:<30}{:>12}{:>12}  {}\n", label, d.old_value, d.new_value, ChangeText(d));
}

std::vector<std::pair<std::string, Delta>> FlashRows(const ProgramDiff& diff) {
  std::vector<std::pair<std::string, Delta>> rows;
  for (const FlashDelta& f : diff.flash) rows.push_back({f.name, f.bytes});
  return rows;
}

json DeltaJson(const Delta& d) {
  return {{"old", d.old_value}, {"new", d.new_value}, {"delta", d.change()}};
}

json MethodJson(const MethodDiff& d) {
  json categories = json::object();
  for (size_t c = 0; c < kCategories; ++c)
    categories[CategoryLabel(c)] = DeltaJson(d.by_category[c]);
  json out = {{"name", d.name},
          {"change", ChangeName(d.change)},
          {"exact", {{"old", d.old_exact}, {"new", d.new_exact}}},
          {"method_allocator", {{"bytes", DeltaJson(d.method_pool)}, {"by_category", categories}}},
          {"planned_bytes", DeltaJson(d.planned)},
          {"planned_buffers", {{"old", d.old_planned_buffers}, {"new", d.new_planned_buffers}}},
          {"temp_load_peak_bytes", DeltaJson(d.temp_load)},
          {"ram_bytes", DeltaJson(d.ram)}};
  if (!d.runner_pool_name.empty())  // only with --runner: output without it is unchanged
    out["runner_method_pool"] = {{"name", d.runner_pool_name}, {"bytes", DeltaJson(d.runner_pool)}};
  return out;
}

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

std::string DiffToText(const ProgramDiff& diff) {
  std::string out = fmt::format("old: {}\nnew: {}\nassuming {}\n", diff.old_path, diff.new_path,
                                AssumptionSentence(diff.assumptions, BriefWording()));
  for (const MethodDiff& d : diff.methods) TextTable(out, MethodTitle(d), MethodRows(d, false));
  TextTable(out, "flash", FlashRows(diff));
  return out;
}

json DiffToJson(const ProgramDiff& diff) {
  const Assumptions& a = diff.assumptions;
  json methods = json::array();
  for (const MethodDiff& d : diff.methods) methods.push_back(MethodJson(d));
  json flash = json::object();
  for (const FlashDelta& f : diff.flash) flash[f.name] = DeltaJson(f.bytes);
  return {{"old", {{"path", diff.old_path}}},
          {"new", {{"path", diff.new_path}}},
          {"runtime", a.runtime},
          {"target", a.target},
          {"pool_align", a.pool_align},
          {"temp_allocator", a.temp_allocator ? "nonnull" : "null"},
          {"external_data_map", a.external_data_map},
          {"flash", flash},
          {"methods", methods}};
}

std::string DiffToMarkdown(const ProgramDiff& diff) {
  std::string out = fmt::format("`{}` → `{}`, assuming {}\n", MarkdownCell(diff.old_path),
                                MarkdownCell(diff.new_path), AssumptionSentence(diff.assumptions, BriefWording()));
  for (const MethodDiff& d : diff.methods) MarkdownTable(out, MethodTitle(d), MethodRows(d, false));
  MarkdownTable(out, "flash", FlashRows(diff));
  return out;
}

std::string DiffJsonText(const ProgramDiff& diff, const Verdict& verdict) {
  json j = DiffToJson(diff);
  j.update(VerdictMembers(verdict));
  return j.dump(1, ' ', false, json::error_handler_t::replace) + "\n";
}

}  // namespace etmem::report
