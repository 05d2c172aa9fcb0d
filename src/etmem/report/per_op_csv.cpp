// Owns: the per-operator table as CSV (PerOpCsv, per_op_render.h).
#include <fmt/format.h>

#include "etmem/report/per_op_render.h"

namespace etmem::report {

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

}  // namespace etmem::report
