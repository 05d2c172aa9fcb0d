// Owns: ReplanJson, `etmem replan --format json` (see replan_text.h). Not: re-planning (plan/, api/).
#include "etmem/report/replan_text.h"

#include <nlohmann/json.hpp>

#include "etmem/report/json_report.h"

namespace etmem::report {

std::string ReplanJson(const api::ReplannedFile& written) {
  nlohmann::ordered_json j;
  j["schema"] = kJsonSchema;
  j["output"] = written.path;
  j["bytes"] = written.bytes;
  j["saved"] = written.saved();
  j["buffers"] = nlohmann::ordered_json::array();
  for (const api::ReplannedBuffer& b : written.buffers)
    j["buffers"].push_back({{"method", b.method},
                            {"memory_id", b.memory_id},
                            {"before", b.before},
                            {"after", b.after},
                            {"planner", b.planner},
                            {"offsets_need_64_bits", b.offsets_need_64_bits}});
  return j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace etmem::report
