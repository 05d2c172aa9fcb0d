// Stand-in (etmem tests): kernels are accepted and never run.
#pragma once
#include <executorch/runtime/core/standin.h>

namespace executorch {
namespace runtime {

struct EValue {};
struct KernelRuntimeContext {};
using OpFunction = void (*)(KernelRuntimeContext&, Span<EValue*>);

struct Kernel {
  Kernel(const char* name, OpFunction op) : name(name), op(op) {}
  const char* name;
  OpFunction op;
};

Error register_kernels(ArrayRef<Kernel> kernels);

}  // namespace runtime
}  // namespace executorch
