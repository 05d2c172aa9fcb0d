// Owns: ReplanText, the text of `etmem replan` (see replan_text.h). Not: re-planning (plan/, api/).
#include "etmem/report/replan_text.h"

#include <fmt/format.h>

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

}  // namespace etmem::report
