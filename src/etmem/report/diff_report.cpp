// Owns: DiffReports and the text, JSON and Markdown forms of a ProgramDiff.
#include "etmem/report/diff_report.h"

#include <fmt/format.h>

#include "etmem/report/assumptions.h"
#include "etmem/report/figures.h"
#include "etmem/report/markdown_report.h"
#include "etmem/report/runner_rows.h"
#include "etmem/runtime/labels.h"

namespace etmem::report {
namespace {

using nlohmann::json;

constexpr size_t kCategories = static_cast<size_t>(runtime::Category::kCount);

const char* CategoryLabel(size_t c) {
  return runtime::CategoryName(static_cast<runtime::Category>(c));
}

// Fills the old (or new) side of a method's deltas from its report.
void Fill(MethodDiff& d, const MethodReport& m, uint64_t Delta::*side) {
  d.method_pool.*side = m.method_bytes;
  for (size_t c = 0; c < kCategories; ++c) d.by_category[c].*side = m.by_category[c].bytes;
  d.planned.*side = PlannedBytes(m);
  d.temp_load.*side = m.temp_load_peak_bytes;
  d.ram.*side = RamBytes(m);
  const bool is_old = side == &Delta::old_value;
  (is_old ? d.old_planned_buffers : d.new_planned_buffers) = PlannedBuffers(m);
  (is_old ? d.old_exact : d.new_exact) = m.plan.exact();
  if (m.runner) {
    d.runner_pool_name = RunnerPoolName(m.runner->pool_spec(m.runner->result.method_pool));
    d.runner_pool.*side = m.runner->result.method().minimum;
  }
}

bool AnyChange(const MethodDiff& d) {
  if (d.method_pool.change() || d.planned.change() || d.temp_load.change() ||
      d.runner_pool.change())
    return true;
  for (const Delta& c : d.by_category)
    if (c.change()) return true;
  return d.old_planned_buffers != d.new_planned_buffers || d.old_exact != d.new_exact;
}

const MethodReport* Find(const Report& r, std::string_view name) {
  for (const MethodReport& m : r.methods)
    if (m.method->name == name) return &m;
  return nullptr;
}

std::vector<FlashDelta> FlashDeltas(const FlashBreakdown& o, const FlashBreakdown& n) {
  const std::pair<const char*, uint64_t FlashBreakdown::*> fields[] = {
      {"file_bytes", &FlashBreakdown::file_bytes},
      {"program_bytes", &FlashBreakdown::program_bytes},
      {"metadata_bytes", &FlashBreakdown::metadata_bytes},
      {"inline_constant_bytes", &FlashBreakdown::inline_constant_bytes},
      {"segment_constant_bytes", &FlashBreakdown::segment_constant_bytes},
      {"inline_delegate_bytes", &FlashBreakdown::inline_delegate_bytes},
      {"segment_delegate_bytes", &FlashBreakdown::segment_delegate_bytes},
      {"other_segment_bytes", &FlashBreakdown::other_segment_bytes}};
  std::vector<FlashDelta> out;
  for (const auto& [name, field] : fields) out.push_back({name, {o.*field, n.*field}});
  return out;
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

ProgramDiff DiffReports(const Report& old_report, const Report& new_report) {
  ProgramDiff diff;
  diff.old_path = old_report.program->path;
  diff.new_path = new_report.program->path;
  diff.assumptions = old_report.assumptions;
  diff.flash = FlashDeltas(old_report.flash, new_report.flash);
  for (const MethodReport& o : old_report.methods) {
    MethodDiff d;
    d.name = std::string(o.method->name);
    Fill(d, o, &Delta::old_value);
    if (const MethodReport* n = Find(new_report, o.method->name)) {
      Fill(d, *n, &Delta::new_value);
      d.change = AnyChange(d) ? MethodChange::kChanged : MethodChange::kSame;
    } else {
      d.change = MethodChange::kRemoved;
    }
    diff.methods.push_back(std::move(d));
  }
  for (const MethodReport& n : new_report.methods) {
    if (Find(old_report, n.method->name)) continue;
    MethodDiff d;
    d.name = std::string(n.method->name);
    d.change = MethodChange::kAdded;
    Fill(d, n, &Delta::new_value);
    diff.methods.push_back(std::move(d));
  }
  return diff;
}

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

}  // namespace etmem::report
