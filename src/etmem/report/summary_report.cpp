// Owns: SummaryToText (see summary_report.h).
#include "etmem/report/summary_report.h"

#include <algorithm>

#include <fmt/format.h>

#include "etmem/base/printable.h"
#include "etmem/analysis/assumptions.h"
#include "etmem/analysis/figures.h"
#include "etmem/analysis/ram_text.h"
#include "etmem/analysis/run_temp_text.h"
#include "etmem/analysis/runner_rows.h"

namespace etmem::report {
namespace {

void Savings(std::string& out, const MethodReport& m, const MethodSummaryFigures& f,
             const std::string& path) {
  const auto planned = static_cast<int64_t>(PlannedBytes(m));
  const int64_t replan_saving = planned - f.replanned_total;
  const auto ram = static_cast<int64_t>(RamBytes(m));
  out += "  what would save RAM:\n";
  if (replan_saving > 0)
    out += fmt::format("    etmem replan {} -o SMALLER.pte: {} B (planned {} B -> {} B; RAM {} B)\n",
                       path, replan_saving, planned, f.replanned_total, ram - replan_saving);
  else
    out += "    etmem replan: nothing, the stored plan is as small as etmem's planners get\n";
  for (const SummaryAdvice& a : f.advice)
    out += fmt::format("    {} (value {}, {} B, {} at instruction {}): saves {}{} B more "
                       "(re-planned buffer {}: {} B -> {}{} B without it)\n",
                       a.kind, a.value, a.bytes, a.op, a.instruction,
                       a.cut_short ? "at least " : "", a.saving, a.memory_id, a.replanned,
                       a.cut_short ? "at most " : "", a.replanned_without);
  if (f.advice.size() > 1)
    out += fmt::format("    all {} advisories together: save {} B more (planned {} B -> {} B)\n",
                       f.advice.size(), f.replanned_total - f.advised_total, f.replanned_total,
                       f.advised_total);
  if (f.advice.empty()) out += "    no advisories (etmem plan lists them)\n";
}

void Method(std::string& out, const Report& r, const MethodSummaryFigures& f,
            const std::string& path) {
  const MethodReport& m = *f.report;
  out += fmt::format("method '{}'\n", m.method->name);
  out += fmt::format("  RAM {}{} B = {}{}\n", RamIsLowerBound(m) ? "at least " : "", RamBytes(m),
                     RamParts(m),
                     m.runner ? " (runner " + m.runner->plan.profile->name + ")" : "");
  for (const auto& u : m.plan.unknowns)
    out += fmt::format("  unknown: delegate {} ({}): {}\n", u.delegate, Printable(u.backend), u.why);
  out += "  temp allocator at run time: " + RunTempLine(m) + "\n";
  for (const std::string& line : RunTempDetail(r, m, 4)) out += "    " + line + "\n";
  out += "  biggest single cost: " + BiggestCost(f).text + "\n";
  Savings(out, m, f, path);
}

}  // namespace

std::string SummaryToText(const ProgramSummary& s) {
  const Report& r = *s.report;
  std::string out = s.path + ": " + AssumptionSentence(r.assumptions, SummaryWording()) + "\n";
  const FlashBreakdown& f = r.flash;
  out += fmt::format("flash {} B (the file: {} B program metadata, {} B constants, {} B delegate "
                     "blobs)\n",
                     f.file_bytes, f.metadata_bytes,
                     f.inline_constant_bytes + f.segment_constant_bytes,
                     f.inline_delegate_bytes + f.segment_delegate_bytes);
  const FlashLoad& load = r.flash_load;
  out += fmt::format("  {}: {} B stay in flash, read in place; {} B copied to RAM at load ({} B "
                     "written into the planned buffers); {}\n",
                     kBufferDataLoaderAssumption, load.bytes(FlashUse::kReadInPlace),
                     load.bytes(FlashUse::kCopiedToRam), load.ram_bytes(),
                     BackendDependentPhrase(load));
  if (s.duplicate_groups == 0)
    out += "  what would save flash: no duplicate constants\n";
  else
    out += fmt::format("  what would save flash: duplicate-constants: {} B in {} group(s) of "
                       "identical constants, by storing each once at export time (etmem plan "
                       "lists them); {}\n",
                       s.duplicate_flash_bytes, s.duplicate_groups, s.duplicate_ram_note);
  for (const MethodSummaryFigures& m : s.methods) Method(out, r, m, s.path);
  for (const MethodNotJudged& m : r.not_judged)
    out += "  method " + m.name + ": not judged: " + m.why + "\n";
  // The verdict rested on the default release: where another published release differs.
  if (r.default_release) out += "verdict: " + r.default_release->Line() + "\n";
  return out;
}

}  // namespace etmem::report
