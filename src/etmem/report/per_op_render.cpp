// Owns: the per-operator table's renderings (`etmem analyze --per-op --format text|json|csv|md`)
// from its value (analysis/per_op.h). Not: building or sorting it.
#include <fmt/format.h>

#include <algorithm>
#include <iterator>
#include <unordered_map>
#include <nlohmann/json.hpp>

#include "etmem/report/json_report.h"
#include "etmem/report/markdown_report.h"
#include "etmem/report/per_op_render.h"
#include "etmem/analysis/verdict.h"

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

std::string PerOpById(const std::vector<PerOpBytes>& v) {
  std::string out;
  for (const PerOpBytes& b : v)
    out += fmt::format("{}memory id {}: {} B", out.empty() ? "" : ", ", b.memory_id, b.bytes);
  return out;
}

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

}  // namespace

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

std::string PerOpCsv(const std::vector<PerOpTable>& tables) {
  auto field = [](const std::string& s) {
    if (s.find_first_of(",\"\r\n") == std::string::npos) return s;
    std::string q = "\"";
    for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
    return q + "\"";
  };
  auto line = [&](const std::vector<std::string>& cells) {
    std::string l;
    for (size_t i = 0; i < cells.size(); ++i) l += (i ? "," : "") + field(cells[i]);
    return l + "\n";
  };
  std::string out =
      line({"method", "index", "chain", "chain_instruction", "kind", "operator", "library",
            "live_planned_bytes", "live_planned_by_memory_id", "temp_bytes", "temp_unknown",
            "constant_bytes", "constants", "stack_bytes"});
  for (const PerOpTable& t : tables) {
    if (t.refusal) {
      out += line({t.method, "refused", "", "", "", *t.refusal, "", "", "", "", "", "", "", ""});
      continue;
    }
    for (const PerOpRow& r : t.rows) {
      std::string ids;
      for (const PerOpBytes& b : r.live_by_memory_id)
        ids += fmt::format("{}{}:{}", ids.empty() ? "" : " ", b.memory_id, b.bytes);
      out += line({t.method, std::to_string(r.index), std::to_string(r.chain),
                   std::to_string(r.chain_instruction), PerOpKindName(r.kind), r.op, r.library,
                   std::to_string(r.live_bytes), ids, std::to_string(r.temp_bytes), r.temp_unknown,
                   std::to_string(r.constant_bytes), std::to_string(r.constants),
                   r.stack_bytes ? std::to_string(*r.stack_bytes) : ""});
    }
    // The totals line: the peak live sum, the temp peak, the constants counted once.
    const PerOpTotals& s = t.totals;
    out += line({t.method, "total", "", "", "", "", "", std::to_string(s.peak_live_bytes), "",
                 std::to_string(s.temp_peak_bytes),
                 s.temp_unknown_rows ? fmt::format("{} row(s) unknown", s.temp_unknown_rows) : "",
                 std::to_string(s.constant_bytes), std::to_string(s.constants), ""});
  }
  return out;
}

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

void VisitPerOpJson(const Report& report, const std::vector<PerOpTable>& tables,
                    api::JsonVisitor& v) {
  // The rows are events of their own (a DOM of a large method's rows costs ten times the
  // analysis); the rest through nlohmann DOMs, members in their text's order.
  using ojson = nlohmann::ordered_json;
  auto by_id = [](const std::vector<PerOpBytes>& bytes) {
    ojson a = ojson::array();
    for (const PerOpBytes& b : bytes) a.push_back({{"memory_id", b.memory_id}, {"bytes", b.bytes}});
    return a;
  };
  auto string_or_null = [&](const std::string& s) { s.empty() ? v.Null() : VisitString(s, false, v); };
  const nlohmann::json verdict = ReportVerdictMembers(report);
  const char* const kVerdictKeys[] = {"schema", "verdict", "verdict_detail", "default_release"};
  size_t members = 2;
  for (const char* key : kVerdictKeys) members += verdict.contains(key);
  v.BeginObject(members);
  for (const char* key : kVerdictKeys) {
    if (!verdict.contains(key)) continue;
    v.Key(key);
    VisitDom(verdict.at(key), v);
  }
  v.Key("analysis");
  VisitDom(HeaderJson(report), v);
  v.Key("per_op");
  v.BeginArray(tables.size());
  for (const PerOpTable& t : tables) {
    v.BeginObject(6);
    v.Key("method");
    VisitString(t.method, false, v);
    v.Key("sorted_by");
    v.String(PerOpColumnName(t.sorted_by));
    v.Key("refusal");
    t.refusal ? VisitString(*t.refusal, false, v) : v.Null();
    v.Key("rows");
    v.BeginArray(t.rows.size());
    for (const PerOpRow& r : t.rows) {
      v.BeginObject(r.live_by_memory_id.empty() ? 12 : 13);
      v.Key("index");
      v.Uint(r.index);
      v.Key("chain");
      v.Uint(r.chain);
      v.Key("chain_instruction");
      v.Uint(r.chain_instruction);
      v.Key("kind");
      v.String(PerOpKindName(r.kind));
      v.Key("operator");
      string_or_null(r.op);
      v.Key("library");
      string_or_null(r.library);
      v.Key("live_planned_bytes");
      v.Uint(r.live_bytes);
      if (!r.live_by_memory_id.empty()) {
        v.Key("live_planned_by_memory_id");
        VisitDom(by_id(r.live_by_memory_id), v);
      }
      v.Key("temp_bytes");
      v.Uint(r.temp_bytes);
      v.Key("temp_unknown");
      string_or_null(r.temp_unknown);
      v.Key("constant_bytes");
      v.Uint(r.constant_bytes);
      v.Key("constants");
      v.Uint(r.constants);
      v.Key("stack_bytes");
      r.stack_bytes ? v.Uint(*r.stack_bytes) : v.Null();
      v.EndObject();
    }
    v.EndArray();
    const PerOpTotals& s = t.totals;
    ojson tot;
    tot["peak_live_planned_bytes"] = s.peak_live_bytes;
    tot["peak_live_instruction"] =
        s.peak_live_instruction ? ojson(*s.peak_live_instruction) : ojson();
    tot["peak_live_planned_by_memory_id"] = by_id(s.peak_live_by_memory_id);
    tot["planned_bytes"] = s.planned_bytes;
    tot["planned_by_memory_id"] = by_id(s.planned_by_memory_id);
    tot["temp_peak_bytes"] = s.temp_peak_bytes;
    tot["temp_summed"] = s.temp_summed;
    tot["temp_unknown_rows"] = s.temp_unknown_rows;
    tot["constant_column_bytes"] = s.constant_column_bytes;
    tot["constant_bytes"] = s.constant_bytes;
    tot["constants"] = s.constants;
    tot["method_constant_bytes"] = s.method_constant_bytes;
    tot["method_constants"] = s.method_constants;
    tot["stack_bytes"] = s.stack_bytes ? ojson(*s.stack_bytes) : ojson();
    tot["stack_source"] = s.stack_source.empty() ? ojson() : ojson(s.stack_source);
    v.Key("totals");
    VisitDom(tot, v);
    v.Key("notes");
    VisitDom(ojson(t.notes), v);
    v.EndObject();
  }
  v.EndArray();
  v.EndObject();
}

std::string PerOpJson(const Report& report, const std::vector<PerOpTable>& tables) {
  return JsonText([&](api::JsonVisitor& v) { VisitPerOpJson(report, tables, v); }, -1);
}

}  // namespace etmem::report
