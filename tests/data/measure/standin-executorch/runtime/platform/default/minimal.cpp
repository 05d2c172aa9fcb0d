// Stand-in (etmem tests): another platform layer; compiling it beside posix.cpp would define
// runtime_init twice, so etmem measure must leave it out.
#include <executorch/runtime/platform/platform.h>

namespace executorch {
namespace runtime {
void runtime_init() {}
}  // namespace runtime
}  // namespace executorch
