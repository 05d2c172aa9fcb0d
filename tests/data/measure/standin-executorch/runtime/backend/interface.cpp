// Stand-in (etmem tests).
#include <executorch/runtime/backend/interface.h>

namespace executorch {
namespace runtime {
Error register_backend(const Backend&) { return Error::Ok; }
}  // namespace runtime
}  // namespace executorch
