// Owns: ProbeText and ProbeJson (see probe_text.h).
#include "etmem/report/probe_text.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "etmem/report/json_report.h"

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

std::string ProbeJson(const measure::ProbeRun& run) {
  using nlohmann::ordered_json;
  auto pair = [](abi::SizeAlign sa) { return ordered_json::array({sa.size, sa.align}); };
  const abi::Abi& a = run.abi;
  ordered_json types = ordered_json::array();
  for (const measure::ProbedType& t : run.types)
    types.push_back({{"name", t.name},
                     {"measured", pair(t.measured)},
                     {"computed", t.computed ? pair(*t.computed) : ordered_json(nullptr)},
                     {"agrees", t.agrees()}});
  ordered_json failed = ordered_json::array();
  for (const auto& [name, why] : run.failed) failed.push_back({{"name", name}, {"why", why}});
  ordered_json j = {{"schema", kJsonSchema},
                    {"target_file", run.output},
                    {"release", run.release},
                    {"primitives",
                     {{"pointer", pair(a.pointer)},
                      {"size_t", pair(a.size_type)},
                      {"int64", pair(a.int64)},
                      {"double", pair(a.float64)},
                      {"max_align", a.max_align}}},
                    {"types", types},
                    {"not_probed", failed},
                    {"kept", run.kept ? ordered_json(*run.kept) : ordered_json(nullptr)}};
  return j.dump(2, ' ', false, ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace etmem::report
