// Owns: ProbeJson, `etmem probe --format json` (see probe_text.h).
#include "etmem/report/probe_text.h"

#include <nlohmann/json.hpp>

#include "etmem/report/json_report.h"

namespace etmem::report {

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
