// Owns: the JSON of `etmem fit` (api::BoardFit, a value of the public header
// include/etmem/etmem.h) and the "wrote" line of `fit -o` in both formats.
// Not: the search or the placement (board/, api::Fit), the fit's text (api/fit.cpp, which reads
// the board's own values), writing the fitted program (api::BoardFit::Write).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "etmem/etmem.h"
#include "etmem/analysis/report.h"
#include "etmem/analysis/verdict.h"

namespace etmem::report {

// What the JSON shows of a fit: api::BoardFit's values (filled by api/fit.cpp; the report
// library does not call into the API's implementation).
struct FitValues {
  std::string method, board, board_file;
  bool fits = false, splits = false;
  uint64_t short_bytes = 0, lower_bound_short_bytes = 0;
  std::string lower_bound_reason;
  std::vector<api::FitRegion> regions;
  std::vector<api::FitPlacement> placement;
  std::vector<std::string> notes;
};

// The fit's verdict: the analysis's own (a refusal, a pool or temp pool it judges), then the
// placement on the board (does not fit: the bytes short).
Verdict JudgeFit(const FitValues& fit, const Report& analysis);

// One JSON object, with a final newline: "schema", "verdict", "verdict_detail", "analysis" (the assumptions, program and flash as
// `analyze --format json` gives them at top level), "method", "board", "board_file", "fits",
// "short_bytes", "lower_bound" {short_bytes, reason}, "splits", "regions" [{name, free_bytes,
// used_bytes}], "placement" [{piece, region, offset, padding, bytes, align, memory_id,
// symbol}], "notes", and "output" {path, bytes} when -o wrote the program (else null).
std::string FitJson(const FitValues& fit, const Report& analysis,
                    const std::optional<api::BoardFit::Written>& written);
// The same as a DOM (api::FitJson, the Python module's dict).
nlohmann::ordered_json FitDom(const FitValues& fit, const Report& analysis,
                              const std::optional<api::BoardFit::Written>& written);

// "wrote PATH (N bytes): ..." for `fit -o`.
std::string FitWrittenLine(bool splits, const api::BoardFit::Written& written);

}  // namespace etmem::report
