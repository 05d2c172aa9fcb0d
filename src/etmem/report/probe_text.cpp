// Owns: ProbeText, the text of `etmem probe` (see probe_text.h).
#include "etmem/report/probe_text.h"

#include <fmt/format.h>

namespace etmem::report {
namespace {

std::string SizeAlignText(abi::SizeAlign sa) { return fmt::format("{}/{}", sa.size, sa.align); }

}  // namespace

std::string ProbeText(const measure::ProbeRun& run) {
  const abi::Abi& a = run.abi;
  std::string out = fmt::format("{}: pointer {}, size_t {}, int64 {}, double {}, max_align {}\n",
                                run.output, SizeAlignText(a.pointer), SizeAlignText(a.size_type),
                                SizeAlignText(a.int64), SizeAlignText(a.float64), a.max_align);
  for (const measure::ProbedType& t : run.types) {
    if (!t.computed)
      out += fmt::format("  {:<24} {:>7}  (not in etmem's model of {})\n", t.name,
                         SizeAlignText(t.measured), run.release);
    else if (t.agrees())
      out += fmt::format("  {:<24} {:>7}  agrees with etmem {}\n", t.name,
                         SizeAlignText(t.measured), run.release);
    else
      out += fmt::format("warning: {}: measured {}, but etmem {} computes {} on this target\n",
                         t.name, SizeAlignText(t.measured), run.release,
                         SizeAlignText(*t.computed));
  }
  for (const auto& [name, why] : run.failed)
    out += fmt::format("  {:<24} not probed: {}\n", name, why);
  if (run.kept) out += "probe sources kept in " + *run.kept + "\n";
  return out;
}

}  // namespace etmem::report
