// Owns: the declarations of the renderings of a board fit (board/fit_program.h's ProgramFit, a
// value of the board stage): its text (fit_text.cpp: what `etmem fit` prints, and the placement
// region by region after `etmem plan --board`), the region-by-region section of the plan's HTML
// page (fit_html.cpp) and the GNU ld fragment (fit_linker_script.cpp: `etmem fit
// --linker-script`, `header --board --linker-script`). The JSON is fit_json.h's. Not: the
// placement (board/).
#pragma once

#include <string>

#include "etmem/analysis/report.h"
#include "etmem/board/fit_program.h"

namespace etmem::report {

std::string FitText(const Report& report, const board::ProgramFit& fit);
std::string FitRegionsText(const board::ProgramFit& fit);
std::string FitRegionsHtml(const board::ProgramFit& fit);
std::string FitLinkerScript(const board::ProgramFit& fit);

}  // namespace etmem::report
