// Stand-in (etmem tests): a bump allocator that aligns the address.
#include <executorch/runtime/core/memory_allocator.h>

namespace executorch {
namespace runtime {

void* MemoryAllocator::allocate(size_t size, size_t alignment) {
  const uintptr_t cur = reinterpret_cast<uintptr_t>(cur_);
  const uintptr_t start = (cur + alignment - 1) / alignment * alignment;
  if (start + size > reinterpret_cast<uintptr_t>(end_)) {
    char line[160];
    int n = std::snprintf(line, sizeof line,
                          "Memory allocation failed: %zuB requested (adjusted for alignment), "
                          "%zuB available",
                          static_cast<size_t>(start + size - cur),
                          static_cast<size_t>(reinterpret_cast<uintptr_t>(end_) - cur));
    et_pal_emit_log_message(0, kError, "memory_allocator.h", "allocate", 87, line,
                            static_cast<size_t>(n));
    return nullptr;
  }
  cur_ = reinterpret_cast<uint8_t*>(start + size);
  return reinterpret_cast<void*>(start);
}

}  // namespace runtime
}  // namespace executorch
