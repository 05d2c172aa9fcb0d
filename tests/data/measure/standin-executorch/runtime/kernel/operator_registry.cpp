// Stand-in (etmem tests).
#include <executorch/runtime/kernel/operator_registry.h>

namespace executorch {
namespace runtime {
Error register_kernels(ArrayRef<Kernel>) { return Error::Ok; }
}  // namespace runtime
}  // namespace executorch
