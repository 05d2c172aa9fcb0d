// Stand-in (etmem tests): Program and load_method driven by the script (see README.md).
#include <executorch/runtime/executor/program.h>

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace executorch {
namespace runtime {
namespace {

struct Line {
  std::string word;
  uint64_t a = 0, b = 0;
};

std::vector<Line> Script() {
  std::vector<Line> lines;
  const char* path = std::getenv("ETMEM_STANDIN_SCRIPT");
  std::ifstream in(path ? path : "");
  for (std::string text; std::getline(in, text);) {
    std::istringstream s(text);
    Line l;
    if (s >> l.word) {
      s >> l.a >> l.b;
      lines.push_back(l);
    }
  }
  return lines;
}

}  // namespace

Result<Program> Program::load(DataLoader*) {
  for (const Line& l : Script())
    if (l.word == "refuse") return static_cast<Error>(l.a);
  return Program();
}

Result<MethodMeta> Program::method_meta(const char*) const { return MethodMeta(); }

size_t MethodMeta::num_memory_planned_buffers() const {
  size_t n = 0;
  for (const Line& l : Script()) n += l.word == "planned";
  return n;
}

Result<int64_t> MethodMeta::memory_planned_buffer_size(size_t index) const {
  for (const Line& l : Script())
    if (l.word == "planned" && index-- == 0) return static_cast<int64_t>(l.a);
  return Error::InvalidArgument;
}

Result<Method> Program::load_method(const char*, MemoryManager* memory) const {
  for (const Line& l : Script()) {
    if (l.word == "alloc" && memory->method->allocate(l.a, l.b) == nullptr)
      return Error::MemoryAllocationFailed;
    if (l.word == "error") return static_cast<Error>(l.a);
    if (l.word == "crash") std::abort();
  }
  return Method();
}

}  // namespace runtime
}  // namespace executorch
