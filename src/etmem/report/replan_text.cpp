// Owns: the text and JSON of `etmem replan` (see replan_text.h). Not: re-planning (plan/, api/).
#include "etmem/report/replan_text.h"

#include "etmem/report/json_report.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "etmem/base/printable.h"

namespace etmem::report {

std::string ReplanText(const api::ReplannedFile& written) {
  std::string text;
  for (const api::ReplannedBuffer& b : written.buffers) {
    text += fmt::format("method '{}', buffer {}: {} -> {} bytes ({})\n", Printable(b.method),
                        b.memory_id, b.before, b.after, b.planner);
    if (b.offsets_need_64_bits)
      text += "  note: a tensor sits at 4 GiB or more, and no sound plan found keeps every offset "
              "below: a target whose size_t has 32 bits cannot use this buffer (from 0.2 "
              "load_method refuses it: \"size_t cannot hold memory offset\"; 0.6-1.0.1 drop the "
              "high word)\n";
  }
  return text + fmt::format("wrote {} ({} bytes): plan sound, {} bytes of planned memory saved\n",
                            Printable(written.path, kShownPathBytes), written.bytes, written.saved());
}

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
