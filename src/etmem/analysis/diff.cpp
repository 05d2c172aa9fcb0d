// Owns: DiffReports, the comparison of two reports (see diff.h).
#include "etmem/analysis/diff.h"

#include "etmem/analysis/figures.h"
#include "etmem/analysis/runner_rows.h"

namespace etmem::report {
namespace {

constexpr size_t kCategories = static_cast<size_t>(runtime::Category::kCount);

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

}  // namespace etmem::report
