// Owns: the harness `etmem measure` compiles against a user's ExecuTorch source tree (etmem
// ships this file as data and builds it at run time; it is not part of etmem's own build). It
// loads one method of a program on the tree's real runtime, with a recording method allocator,
// in the order a runner takes its own memory around Program::load_method, and prints what the
// allocator saw in the device-log format `etmem check` reads (docs/recording-allocator.md).
// Not: choosing what to replay (etmem writes the steps file), comparing (etmem reads the log).
//
// Usage: harness PROGRAM.pte METHOD POOL_BYTES POOL_ALIGN TEMP_BYTES STEPS_FILE
//   POOL_ALIGN  the method pool's base is POOL_ALIGN mod 2*POOL_ALIGN
//   TEMP_BYTES  the temp allocator's size (0 included), or none: load_method gets no temp allocator
//   STEPS_FILE  one step a line, in order:
//     kernel NAME              register a kernel that does nothing under NAME
//     backend ID BYTES ALIGN   register a backend ID whose init() allocates BYTES (0: nothing)
//     planned pool ALIGN       one allocate(size, ALIGN) per planned buffer, from the method pool
//     planned heap             one heap buffer per planned buffer (the portable runner)
//     alloc BYTES ALIGN        one allocate from the method pool (a runner's own)
//     load                     Program::load_method
// Output (stdout): ETMEM P/A/T records, the runtime's log lines as
// "<level> executorch:<file>:<line>] <message>", and "measure: ..." lines with the results.
//
// ETMEM_ET_VERSION is major*10000 + minor*100 + patch of the tree (set by etmem). The
// torch::executor names exist in every release (aliases from 0.4 on); signatures that changed
// between releases are deduced from the tree's own declarations, not from the version.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <deque>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include <executorch/extension/data_loader/buffer_data_loader.h>
#include <executorch/runtime/backend/interface.h>
#include <executorch/runtime/core/memory_allocator.h>
#include <executorch/runtime/executor/program.h>
#include <executorch/runtime/kernel/operator_registry.h>
#include <executorch/runtime/platform/platform.h>
#include <executorch/runtime/platform/runtime.h>

namespace et = ::torch::executor;

// The runtime's log, in the text `etmem check` recognises (no timestamp). Replaces the POSIX
// platform layer's weak definition.
extern "C" void et_pal_emit_log_message(et_timestamp_t, et_pal_log_level_t level,
                                        const char* file, const char*, size_t line,
                                        const char* message, size_t) {
  std::printf("%c executorch:%s:%zu] %s\n", static_cast<char>(level), file ? file : "?", line,
              message ? message : "");
}

namespace {

// A method allocator that forwards to the runtime's own and records every call.
class RecordingAllocator : public et::MemoryAllocator {
 public:
  RecordingAllocator(uint32_t size, uint8_t* base) : et::MemoryAllocator(size, base), base_(base) {}
  void* allocate(size_t size, size_t alignment) override {
    void* p = et::MemoryAllocator::allocate(size, alignment);
    if (p) {
      const size_t offset = static_cast<size_t>(static_cast<uint8_t*>(p) - base_);
      std::printf("ETMEM A %zu %zu %zu %zu\n", calls_, size, alignment, offset);
      if (offset + size > used_) used_ = offset + size;
    } else {
      std::printf("ETMEM A %zu %zu %zu FAIL\n", calls_, size, alignment);
    }
    ++calls_;
    return p;
  }
  size_t used() const { return used_; }
  size_t calls() const { return calls_; }

 private:
  uint8_t* base_;
  size_t used_ = 0;
  size_t calls_ = 0;
};

// A kernel that does nothing, whatever the release's kernel signature is.
template <class F>
struct NoOpKernel;
template <class R, class... A>
struct NoOpKernel<R (*)(A...)> {
  static R Run(A...) {}
};
template <template <class> class Ref, class R, class... A>
struct NoOpKernel<Ref<R(A...)>> {
  static R Run(A...) {}
};

// The last parameter of the release's BackendInterface::execute.
template <class F>
struct ExecuteArgs;
template <class C, class R, class Ctx, class Handle, class Args>
struct ExecuteArgs<R (C::*)(Ctx, Handle, Args) const> {
  using type = Args;
};

#if ETMEM_ET_VERSION < 400
using Interface = et::PyTorchBackendInterface;
#else
using Interface = ::executorch::runtime::BackendInterface;
#endif

class StubBackend final : public Interface {
 public:
  StubBackend(size_t bytes, size_t align) : bytes_(bytes), align_(align) {}
  bool is_available() const override { return true; }
  et::Result<et::DelegateHandle*> init(et::BackendInitContext& context,
                                       et::FreeableBuffer* processed,
                                       et::ArrayRef<et::CompileSpec>) const override {
    if (bytes_ > 0 && context.get_runtime_allocator()->allocate(bytes_, align_) == nullptr)
      return et::Error::MemoryAllocationFailed;
    return reinterpret_cast<et::DelegateHandle*>(processed);
  }
  et::Error execute(et::BackendExecutionContext&, et::DelegateHandle*,
                    typename ExecuteArgs<decltype(&Interface::execute)>::type) const override {
    return et::Error::Ok;
  }

 private:
  size_t bytes_, align_;
};

// `bytes` at an address that is `align` mod 2*align.
uint8_t* Placed(size_t bytes, size_t align) {
  auto* raw = static_cast<uint8_t*>(std::calloc(bytes + 4 * align + 64, 1));
  if (!raw) return nullptr;
  uintptr_t p = reinterpret_cast<uintptr_t>(raw);
  p = (p + 2 * align - 1) / (2 * align) * (2 * align) + align;
  return reinterpret_cast<uint8_t*>(p);
}

int Fail(const char* what) {
  std::printf("measure: harness_error %s\n", what);
  return 3;
}

}  // namespace

int main(int argc, char** argv) {
  // Line by line, so that what was recorded before a crash of the runtime is not lost.
  std::setvbuf(stdout, nullptr, _IOLBF, 0);
  if (argc != 7) return Fail("usage: PROGRAM METHOD POOL_BYTES POOL_ALIGN TEMP_BYTES STEPS_FILE");
  const std::string method = argv[2];
  const size_t pool_bytes = std::strtoull(argv[3], nullptr, 10);
  const size_t pool_align = std::strtoull(argv[4], nullptr, 10);
  const bool has_temp = std::string(argv[5]) != "none";
  const size_t temp_bytes = has_temp ? std::strtoull(argv[5], nullptr, 10) : 0;
  std::ifstream steps_file(argv[6]);
  if (!steps_file) return Fail("cannot read the steps file");
  std::vector<std::string> steps;
  for (std::string line; std::getline(steps_file, line);)
    if (!line.empty()) steps.push_back(line);

  std::ifstream in(argv[1], std::ios::binary);
  if (!in) return Fail("cannot read the program");
  std::string bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  uint8_t* data = Placed(bytes.size(), 16);
  if (!data) return Fail("out of memory");
  std::memcpy(data, bytes.data(), bytes.size());

  et::runtime_init();
  std::deque<std::string> names;
  std::vector<et::Kernel> kernels;
  std::deque<StubBackend> backends;
  std::vector<std::string> rest;
  for (const std::string& step : steps) {
    std::istringstream s(step);
    std::string word;
    s >> word;
    if (word == "kernel") {
      std::string name;
      s >> name;
      names.push_back(name);
      kernels.emplace_back(names.back().c_str(), NoOpKernel<et::OpFunction>::Run);
    } else if (word == "backend") {
      std::string id;
      size_t n = 0, a = 1;
      s >> id >> n >> a;
      names.push_back(id);
      backends.emplace_back(n, a);
      et::Backend b{names.back().c_str(), &backends.back()};
      if (et::register_backend(b) != et::Error::Ok) return Fail("register_backend failed");
    } else {
      rest.push_back(step);
    }
  }
  if (!kernels.empty() &&
      et::register_kernels(et::ArrayRef<et::Kernel>(kernels.data(), kernels.size())) !=
          et::Error::Ok)
    return Fail("register_kernels failed");

  et::util::BufferDataLoader loader(data, bytes.size());
  auto program = et::Program::load(&loader);
  std::printf("measure: program_load %d\n", static_cast<int>(program.ok() ? et::Error::Ok
                                                                           : program.error()));
  if (!program.ok()) return 0;
  auto meta = program->method_meta(method.c_str());
  if (!meta.ok()) {
    std::printf("measure: method_meta %d\n", static_cast<int>(meta.error()));
    return 0;
  }
  std::printf("measure: planned");
  std::vector<size_t> planned_sizes;
  for (size_t i = 0; i < meta->num_memory_planned_buffers(); ++i) {
    planned_sizes.push_back(static_cast<size_t>(meta->memory_planned_buffer_size(i).get()));
    std::printf(" %zu", planned_sizes.back());
  }
  std::printf("\n");

  uint8_t* pool = Placed(pool_bytes, pool_align);
  alignas(16) static uint8_t empty_temp[16];  // a 0 B temp allocator still has a base
  uint8_t* temp_pool = !has_temp ? nullptr : temp_bytes ? Placed(temp_bytes, 16) : empty_temp;
  if (!pool || (has_temp && !temp_pool)) return Fail("out of memory");
  std::printf("ETMEM P %zu %zu\n", pool_bytes, pool_align);
  RecordingAllocator method_allocator(static_cast<uint32_t>(pool_bytes), pool);
  et::MemoryAllocator temp_allocator(static_cast<uint32_t>(temp_bytes), temp_pool);
  std::vector<std::unique_ptr<uint8_t[]>> heap;
  std::vector<et::Span<uint8_t>> spans;
  int load_error = -1;
  for (const std::string& step : rest) {
    std::istringstream s(step);
    std::string word;
    s >> word;
    if (word == "planned") {
      std::string where;
      size_t align = 1;
      s >> where >> align;
      for (size_t size : planned_sizes) {
        uint8_t* b = nullptr;
        if (where == "pool") {
          b = static_cast<uint8_t*>(method_allocator.allocate(size, align));
          if (!b) {
            std::printf("measure: runner_failed planned\n");
            goto done;
          }
        } else {
          heap.emplace_back(new uint8_t[size == 0 ? 1 : size]);
          b = heap.back().get();
        }
        spans.emplace_back(b, size);
      }
    } else if (word == "alloc") {
      size_t size = 0, align = 1;
      s >> size >> align;
      if (!method_allocator.allocate(size, align)) {
        std::printf("measure: runner_failed alloc\n");
        goto done;
      }
    } else if (word == "load") {
      et::HierarchicalAllocator planned({spans.data(), spans.size()});
      et::MemoryManager memory(&method_allocator, &planned,
                               has_temp ? &temp_allocator : nullptr);
      auto loaded = program->load_method(method.c_str(), &memory);
      load_error = static_cast<int>(loaded.ok() ? et::Error::Ok : loaded.error());
      std::printf("measure: load_method %d\n", load_error);
      if (!loaded.ok()) goto done;
    } else {
      return Fail("unknown step");
    }
  }
done:
  std::printf("ETMEM T %zu %zu\n", method_allocator.used(), method_allocator.calls());
  return 0;
}
