// Owns: `etmem fit`'s JSON and its "wrote" line (see fit_json.h).
#include "etmem/report/fit_json.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "etmem/base/printable.h"
#include "etmem/report/json_report.h"

namespace etmem::report {

Verdict JudgeFit(const FitValues& fit, const Report& analysis) {
  Verdict v;
  for (const MethodReport& m : analysis.methods)
    if (m.method->name == fit.method) v.Add(JudgeMethod(analysis, m));
  Verdict placed;
  placed.judged.push_back("board " + fit.board);
  if (!fit.fits) {
    placed.kind = VerdictKind::kDoesNotFit;
    placed.where = fmt::format("ExecuTorch {}, {}, method '{}'", analysis.assumptions.runtime,
                               analysis.assumptions.target, Printable(fit.method));
    placed.step = fmt::format("board {}: {} B short", fit.board, fit.short_bytes);
  }
  v.Add(placed);
  return v;
}

nlohmann::ordered_json FitDom(const FitValues& fit, const Report& analysis,
                              const std::optional<api::BoardFit::Written>& written) {
  nlohmann::ordered_json j;
  const nlohmann::json verdict = VerdictMembers(JudgeFit(fit, analysis));
  for (const char* key : {"schema", "verdict", "verdict_detail"}) j[key] = verdict.at(key);
  j["analysis"] = HeaderJson(analysis);
  j["method"] = fit.method;
  j["board"] = fit.board;
  j["board_file"] = fit.board_file;
  j["fits"] = fit.fits;
  j["short_bytes"] = fit.short_bytes;
  j["lower_bound"] = {{"short_bytes", fit.lower_bound_short_bytes},
                      {"reason", fit.lower_bound_reason}};
  j["splits"] = fit.splits;
  j["regions"] = nlohmann::ordered_json::array();
  for (const api::FitRegion& r : fit.regions)
    j["regions"].push_back(
        {{"name", r.name}, {"free_bytes", r.free_bytes}, {"used_bytes", r.used_bytes}});
  j["placement"] = nlohmann::ordered_json::array();
  for (const api::FitPlacement& p : fit.placement)
    j["placement"].push_back({{"piece", p.piece},
                              {"region", p.region},
                              {"offset", p.offset},
                              {"padding", p.padding},
                              {"bytes", p.bytes},
                              {"align", p.align},
                              {"memory_id", p.memory_id},
                              {"symbol", p.symbol}});
  j["notes"] = fit.notes;
  j["output"] = written ? nlohmann::ordered_json{{"path", written->path}, {"bytes", written->bytes}}
                        : nlohmann::ordered_json(nullptr);
  return j;
}

std::string FitJson(const FitValues& fit, const Report& analysis,
                    const std::optional<api::BoardFit::Written>& written) {
  return FitDom(fit, analysis, written)
             .dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

std::string FitWrittenLine(bool splits, const api::BoardFit::Written& written) {
  return fmt::format(
      "wrote {} ({} bytes): {}\n", Printable(written.path, kShownPathBytes), written.bytes,
      splits ? "planned buffers re-planned as above, plan sound, method pool unchanged"
                   : "no buffer split, the program unchanged");
}

}  // namespace etmem::report
