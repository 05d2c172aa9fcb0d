// Stand-in (etmem tests).
#pragma once
#include <executorch/runtime/executor/program.h>

namespace torch {
namespace executor {
namespace util {
struct BufferDataLoader : ::executorch::runtime::DataLoader {
  BufferDataLoader(const void*, size_t) {}
};
}  // namespace util
}  // namespace executor
}  // namespace torch
