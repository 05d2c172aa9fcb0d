// Stand-in (etmem tests): backends are accepted and never initialised.
#pragma once
#include <executorch/runtime/core/standin.h>
#include <executorch/runtime/kernel/operator_registry.h>

namespace executorch {
namespace runtime {

struct DelegateHandle;
struct FreeableBuffer;
struct CompileSpec;
struct BackendExecutionContext;
struct BackendInitContext {
  MemoryAllocator* get_runtime_allocator() { return allocator; }
  MemoryAllocator* allocator = nullptr;
};

class BackendInterface {
 public:
  virtual ~BackendInterface() = default;
  virtual bool is_available() const = 0;
  virtual Result<DelegateHandle*> init(BackendInitContext&, FreeableBuffer*,
                                       ArrayRef<CompileSpec>) const = 0;
  virtual Error execute(BackendExecutionContext&, DelegateHandle*, Span<EValue*>) const = 0;
};

struct Backend {
  const char* name;
  BackendInterface* backend;
};

Error register_backend(const Backend& backend);

}  // namespace runtime
}  // namespace executorch
