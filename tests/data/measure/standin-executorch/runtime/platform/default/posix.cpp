// Stand-in (etmem tests): the platform layer etmem measure compiles; its log function is weak.
#include <executorch/runtime/platform/platform.h>

extern "C" __attribute__((weak)) void et_pal_emit_log_message(et_timestamp_t,
                                                              et_pal_log_level_t, const char*,
                                                              const char*, size_t,
                                                              const char* message, size_t) {
  std::fprintf(stderr, "%s\n", message);
}

namespace executorch {
namespace runtime {
void runtime_init() {}
}  // namespace runtime
}  // namespace executorch
