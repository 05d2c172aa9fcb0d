// Owns: the words the per-operator table's text and Markdown share (per_op_render.h): its cells,
// headings, context line and totals lines. Each format is a file of its own: per_op_text.cpp,
// per_op_csv.cpp, per_op_markdown.cpp, per_op_json.cpp. Not: building or sorting the table.
#include <fmt/format.h>

#include "etmem/report/per_op_render.h"

namespace etmem::report {

namespace {

constexpr const char* kPerOpNone = "\u2014";  // an empty cell: "—"

std::string PerOpTempCell(const PerOpRow& r) {
  if (r.temp_unknown.empty()) return std::to_string(r.temp_bytes);
  return r.temp_bytes ? fmt::format(">={} (unknown)", r.temp_bytes) : "unknown";
}

std::string PerOpLiveCell(const PerOpRow& r) {
  std::string out = std::to_string(r.live_bytes);
  if (r.live_by_memory_id.empty()) return out;
  std::string parts;
  for (const PerOpBytes& b : r.live_by_memory_id)
    parts += fmt::format("{}{}:{}", parts.empty() ? "" : " ", b.memory_id, b.bytes);
  return out + " (" + parts + ")";
}

std::string PerOpStackCell(const PerOpRow& r) {
  return r.stack_bytes ? std::to_string(*r.stack_bytes) : kPerOpNone;
}

std::string PerOpOr(const std::string& s) { return s.empty() ? kPerOpNone : s; }

std::string PerOpById(const std::vector<PerOpBytes>& v) {
  std::string out;
  for (const PerOpBytes& b : v)
    out += fmt::format("{}memory id {}: {} B", out.empty() ? "" : ", ", b.memory_id, b.bytes);
  return out;
}

}  // namespace

std::vector<std::string> PerOpCells(const PerOpRow& r) {
  return {std::to_string(r.index), fmt::format("{}:{}", r.chain, r.chain_instruction),
          PerOpKindName(r.kind),   PerOpOr(r.op),
          PerOpOr(r.library),      PerOpLiveCell(r),
          PerOpTempCell(r),        std::to_string(r.constant_bytes),
          PerOpStackCell(r)};
}

const std::vector<std::string>& PerOpHeadings() {
  static const std::vector<std::string> h = {"#",        "chain:instr", "kind",
                                             "operator", "library",     "live planned B",
                                             "temp B",   "constant B",  "stack B"};
  return h;
}

bool PerOpRightAligned(size_t column) { return column == 0 || column >= 5; }

std::string PerOpContext(const Report& report) {
  std::string kernels;
  for (const std::string& k : report.assumptions.kernels)
    kernels += (kernels.empty() ? "" : ",") + k;
  return fmt::format("ExecuTorch {}, {}, kernels {}", report.assumptions.runtime,
                     report.assumptions.target, kernels.empty() ? "portable" : kernels);
}

// The totals, one line each, as text (Markdown prints the same lines as a list).
std::vector<std::string> PerOpTotalsLines(const PerOpTable& t) {
  const PerOpTotals& s = t.totals;
  std::vector<std::string> out;
  std::string live = fmt::format("peak live planned: {} B", s.peak_live_bytes);
  if (s.peak_live_instruction) live += fmt::format(" at instruction {}", *s.peak_live_instruction);
  if (s.peak_live_by_memory_id.size() > 1)
    live += " (each id's own peak: " + PerOpById(s.peak_live_by_memory_id) + ")";
  out.push_back(live);
  std::string planned = fmt::format(
      "planned buffers: {} B, the plan's size (what analyze reports); the peak live sum is {} B "
      "{}",
      s.planned_bytes,
      s.planned_bytes >= s.peak_live_bytes ? s.planned_bytes - s.peak_live_bytes
                                           : s.peak_live_bytes - s.planned_bytes,
      s.planned_bytes >= s.peak_live_bytes
          ? "below it (alignment gaps and fragmentation)"
          : "above it: the plan overlaps live tensors (not sound)");
  if (s.planned_by_memory_id.size() > 1) planned += " (" + PerOpById(s.planned_by_memory_id) + ")";
  out.push_back(planned);
  out.push_back(fmt::format(
      "temp while running: {}{} B, {}{}", s.temp_unknown_rows ? "at least " : "", s.temp_peak_bytes,
      s.temp_summed ? "the rows' sum (nothing is released between "
                      "instructions at this release)"
                    : "the largest row (the pool is reset after each "
                      "instruction)",
      s.temp_unknown_rows ? fmt::format("; {} row(s) unknown", s.temp_unknown_rows) : ""));
  out.push_back(fmt::format(
      "constants read: {} B in {} constant(s), each once; the column sums to {} B (a constant "
      "counted for every instruction that reads it); the method's constant tensors: {} B in {}",
      s.constant_bytes, s.constants, s.constant_column_bytes, s.method_constant_bytes,
      s.method_constants));
  out.push_back(s.stack_bytes
                    ? fmt::format("stack: {} B, the largest row ({})", *s.stack_bytes, s.stack_source)
                    : "stack: not computed (a kernel's stack needs a linked image: etmem firmware)");
  return out;
}


}  // namespace etmem::report
