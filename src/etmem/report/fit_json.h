// Owns: the JSON of `etmem fit` (api::BoardFit, a value of the public header
// include/etmem/etmem.h) and the "wrote" line of `fit -o` in both formats.
// Not: the search or the placement (board/, api::Fit), the fit's text (api/fit.cpp, which reads
// the board's own values), writing the fitted program (api::BoardFit::Write).
#pragma once

#include <optional>
#include <string>

#include "etmem/etmem.h"
#include "etmem/report/report.h"

namespace etmem::report {

// One JSON object, with a final newline: "analysis" (the assumptions, program and flash as
// `analyze --format json` gives them at top level), "method", "board", "board_file", "fits",
// "short_bytes", "lower_bound" {short_bytes, reason}, "splits", "regions" [{name, free_bytes,
// used_bytes}], "placement" [{piece, region, offset, padding, bytes, align, memory_id,
// symbol}], "notes", and "output" {path, bytes} when -o wrote the program (else null).
std::string FitJson(const api::BoardFit& fit, const Report& analysis,
                    const std::optional<api::BoardFit::Written>& written);

// "wrote PATH (N bytes): ..." for `fit -o`.
std::string FitWrittenLine(const api::BoardFit& fit, const api::BoardFit::Written& written);

}  // namespace etmem::report
