// Owns: the text and JSON of `etmem replan` (see replan_text.h). Not: re-planning (plan/, api/).
#include "etmem/report/replan_text.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "etmem/base/printable.h"

namespace etmem::report {

std::string ReplanText(const api::ReplannedFile& written) {
  std::string text;
  for (const api::ReplannedBuffer& b : written.buffers)
    text += fmt::format("method '{}', buffer {}: {} -> {} bytes ({})\n", Printable(b.method),
                        b.memory_id, b.before, b.after, b.planner);
  return text + fmt::format("wrote {} ({} bytes): plan sound, {} bytes of planned memory saved\n",
                            Printable(written.path, kShownPathBytes), written.bytes, written.saved());
}

std::string ReplanJson(const api::ReplannedFile& written) {
  nlohmann::ordered_json j;
  j["output"] = written.path;
  j["bytes"] = written.bytes;
  j["saved"] = written.saved();
  j["buffers"] = nlohmann::ordered_json::array();
  for (const api::ReplannedBuffer& b : written.buffers)
    j["buffers"].push_back({{"method", b.method},
                            {"memory_id", b.memory_id},
                            {"before", b.before},
                            {"after", b.after},
                            {"planner", b.planner}});
  return j.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n";
}

}  // namespace etmem::report
