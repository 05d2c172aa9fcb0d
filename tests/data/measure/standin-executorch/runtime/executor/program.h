// Stand-in (etmem tests): a program whose load_method replays ETMEM_STANDIN_SCRIPT.
#pragma once
#include <executorch/runtime/core/standin.h>

namespace executorch {
namespace runtime {

struct DataLoader {
  virtual ~DataLoader() = default;
};

struct MethodMeta {
  size_t num_memory_planned_buffers() const;
  Result<int64_t> memory_planned_buffer_size(size_t index) const;
};

struct Method {};

class Program {
 public:
  static Result<Program> load(DataLoader* loader);
  Result<MethodMeta> method_meta(const char* name) const;
  Result<Method> load_method(const char* name, MemoryManager* memory) const;
};

}  // namespace runtime
}  // namespace executorch
