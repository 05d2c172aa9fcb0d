// Stand-in (etmem tests): the types the measure harness names, in ExecuTorch's namespaces.
#pragma once
#include <cstddef>
#include <cstdint>
#include <cstdio>

typedef uint64_t et_timestamp_t;
typedef enum { kDebug = 'D', kInfo = 'I', kError = 'E' } et_pal_log_level_t;
extern "C" void et_pal_emit_log_message(et_timestamp_t, et_pal_log_level_t, const char*,
                                        const char*, size_t, const char*, size_t);

namespace executorch {
namespace runtime {

enum class Error : uint32_t { Ok = 0, InvalidArgument = 0x12, MemoryAllocationFailed = 0x21 };

template <class T>
class Result {
 public:
  Result(T v) : value_(v), error_(Error::Ok) {}
  Result(Error e) : value_(), error_(e) {}
  bool ok() const { return error_ == Error::Ok; }
  Error error() const { return error_; }
  T& get() { return value_; }
  T* operator->() { return &value_; }

 private:
  T value_;
  Error error_;
};

template <class T>
struct Span {
  Span() = default;
  Span(T* d, size_t n) : data(d), size(n) {}
  T* data = nullptr;
  size_t size = 0;
};
template <class T>
struct ArrayRef {
  ArrayRef(const T* d, size_t n) : data(d), size(n) {}
  const T* data;
  size_t size;
};

class MemoryAllocator {
 public:
  static constexpr size_t kDefaultAlignment = alignof(void*);
  MemoryAllocator(uint32_t size, uint8_t* base) : begin_(base), end_(base + size), cur_(base) {}
  virtual ~MemoryAllocator() = default;
  virtual void* allocate(size_t size, size_t alignment = kDefaultAlignment);

 private:
  uint8_t* begin_;
  uint8_t* end_;
  uint8_t* cur_;
};

struct HierarchicalAllocator {
  explicit HierarchicalAllocator(Span<Span<uint8_t>> buffers) : buffers(buffers) {}
  Span<Span<uint8_t>> buffers;
};

struct MemoryManager {
  MemoryManager(MemoryAllocator* method, HierarchicalAllocator* planned, MemoryAllocator* temp)
      : method(method), planned(planned), temp(temp) {}
  MemoryAllocator* method;
  HierarchicalAllocator* planned;
  MemoryAllocator* temp;
};

void runtime_init();

}  // namespace runtime
}  // namespace executorch

namespace torch {
namespace executor {
using namespace ::executorch::runtime;
}  // namespace executor
}  // namespace torch
