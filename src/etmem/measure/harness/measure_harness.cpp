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
//     execute                  (with ETMEM_EXECUTE) after the load, fill the inputs and run
//                              Method::execute once with the kernels etmem generated
//     heap none                (with ETMEM_EXECUTE) et_pal_allocate returns NULL: no heap
//     ptd PATH                 (with ETMEM_PTD) the runner's data map: the .ptd at PATH read
//                              into memory, loaded with the tree's FlatTensorDataMap over a
//                              BufferDataLoader after Program::load ("measure: data_map_load
//                              ERROR"), and passed to load_method
// Output (stdout): ETMEM P/A/T records, the runtime's log lines as
// "<level> executorch:<file>:<line>] <message>", and "measure: ..." lines with the results.
// With ETMEM_EXECUTE (etmem measure --execute), the real kernels etmem generated registration
// for (etmem_real_kernels, in a generated file linked with the harness) are registered, and after
// the load's T record the method is executed once: "measure: execute_begin", then in order
// "measure: call kernel NAME" / "measure: call delegate ID" (a call starts), "measure: temp_alloc
// SIZE ALIGN OFFSET|FAIL" (the temp allocator), "measure: temp_reset", "measure: heap SIZE
// ok|NULL" (et_pal_allocate, 0.4.0 on), the runtime's log lines, "measure: execute ERROR".
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
#ifdef ETMEM_PTD
#include <executorch/extension/flat_tensor/flat_tensor_data_map.h>
#endif

namespace et = ::torch::executor;

#ifdef ETMEM_EXECUTE
// The kernels etmem generated registration for (the generated file), and whether the harness
// traces the temp allocator and the heap (only while the method executes).
const et::Kernel* etmem_real_kernels(size_t* count);
static bool etmem_tracing = false;
static bool etmem_no_heap = false;
static bool etmem_no_heap_requested = false;
#if ETMEM_ET_VERSION >= 400
// The heap: the PAL's et_pal_allocate is weak (platform.h); this one records every request, and
// returns NULL when the harness plays a firmware without a heap.
extern "C" void* et_pal_allocate(size_t size) {
  void* p = etmem_no_heap ? nullptr : std::malloc(size);
  if (etmem_tracing) std::printf("measure: heap %zu %s\n", size, p ? "ok" : "NULL");
  return p;
}
extern "C" void et_pal_free(void* p) { std::free(p); }
#endif
#endif

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

#ifdef ETMEM_EXECUTE
// The temp allocator while the method executes: records every call and every reset.
class RecordingTemp : public et::MemoryAllocator {
 public:
  RecordingTemp(uint32_t size, uint8_t* base) : et::MemoryAllocator(size, base), base_(base) {}
  void* allocate(size_t size, size_t alignment) override {
    void* p = et::MemoryAllocator::allocate(size, alignment);
    if (etmem_tracing) {
      if (p)
        std::printf("measure: temp_alloc %zu %zu %zu\n", size, alignment,
                    static_cast<size_t>(static_cast<uint8_t*>(p) - base_));
      else
        std::printf("measure: temp_alloc %zu %zu FAIL\n", size, alignment);
    }
    return p;
  }
  void reset() override {
    et::MemoryAllocator::reset();
    if (etmem_tracing) std::printf("measure: temp_reset\n");
  }

 private:
  uint8_t* base_;
};
using TempAllocator = RecordingTemp;
#else
using TempAllocator = et::MemoryAllocator;
#endif

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
  StubBackend(size_t bytes, size_t align, const char* id) : bytes_(bytes), align_(align), id_(id) {}
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
#ifdef ETMEM_EXECUTE
    if (etmem_tracing) std::printf("measure: call delegate %s\n", id_);
#endif
    return et::Error::Ok;
  }

 private:
  size_t bytes_, align_;
  const char* id_;
};

// `bytes` at an address that is `align` mod 2*align.
uint8_t* Placed(size_t bytes, size_t align) {
  auto* raw = static_cast<uint8_t*>(std::calloc(bytes + 4 * align + 64, 1));
  if (!raw) return nullptr;
  uintptr_t p = reinterpret_cast<uintptr_t>(raw);
  p = (p + 2 * align - 1) / (2 * align) * (2 * align) + align;
  return reinterpret_cast<uint8_t*>(p);
}

#ifdef ETMEM_EXECUTE
// Fills input `index`'s elements with a fixed pattern: float k -> ((37k + 11i) mod 97)/24 - 2,
// integers (7k + i) mod 5, bool (k + i) mod 2, other types zero bytes.
void Fill(uint8_t* data, et::ScalarType type, size_t numel, size_t index) {
  for (size_t k = 0; k < numel; ++k) {
    const double f = static_cast<double>((37 * k + 11 * index) % 97) / 24.0 - 2.0;
    const int64_t n = static_cast<int64_t>((7 * k + index) % 5);
    switch (static_cast<int>(type)) {
      case 0: reinterpret_cast<uint8_t*>(data)[k] = static_cast<uint8_t>(n); break;
      case 1: reinterpret_cast<int8_t*>(data)[k] = static_cast<int8_t>(n); break;
      case 2: reinterpret_cast<int16_t*>(data)[k] = static_cast<int16_t>(n); break;
      case 3: reinterpret_cast<int32_t*>(data)[k] = static_cast<int32_t>(n); break;
      case 4: reinterpret_cast<int64_t*>(data)[k] = n; break;
      case 6: reinterpret_cast<float*>(data)[k] = static_cast<float>(f); break;
      case 7: reinterpret_cast<double*>(data)[k] = f; break;
      case 11: reinterpret_cast<bool*>(data)[k] = (k + index) % 2 != 0; break;
      default: break;  // zero bytes (calloc)
    }
  }
}

// Runs the loaded method once: every tensor input set to a filled copy (set_input, as a runner
// does), every output without memory given a heap buffer, then Method::execute with the trace on.
template <class M>
void Execute(M& method) {
  const size_t n_in = method.inputs_size();
  std::vector<et::EValue> inputs(n_in);
  std::deque<std::vector<uint8_t>> buffers;
  std::deque<std::vector<et::TensorImpl::SizesType>> sizes;
  std::deque<std::vector<et::TensorImpl::DimOrderType>> orders;
  std::deque<std::vector<et::TensorImpl::StridesType>> strides;
  std::deque<et::TensorImpl> impls;
  if (n_in > 0 && method.get_inputs(inputs.data(), n_in) != et::Error::Ok) {
    std::printf("measure: harness_error get_inputs failed\n");
    return;
  }
  for (size_t i = 0; i < n_in; ++i) {
    if (!inputs[i].isTensor()) {
      std::printf("measure: input %zu kept\n", i);
      if (method.set_input(inputs[i], i) != et::Error::Ok)
        std::printf("measure: input %zu set_input failed\n", i);
      continue;
    }
    const auto& t = inputs[i].toTensor();
    buffers.emplace_back(t.nbytes() + 16, 0);
    Fill(buffers.back().data(), t.scalar_type(), static_cast<size_t>(t.numel()), i);
    sizes.emplace_back(t.sizes().begin(), t.sizes().end());
    orders.emplace_back(t.dim_order().begin(), t.dim_order().end());
    strides.emplace_back(t.strides().begin(), t.strides().end());
    impls.emplace_back(t.scalar_type(), t.dim(), sizes.back().data(), buffers.back().data(),
                       orders.back().data(), strides.back().data());
    const et::Error e = method.set_input(et::EValue(et::Tensor(&impls.back())), i);
    std::printf("measure: input %zu filled %zu %d\n", i, static_cast<size_t>(t.nbytes()),
                static_cast<int>(e));
  }
  const size_t n_out = method.outputs_size();
  std::vector<et::EValue> outputs(n_out);
  if (n_out > 0 && method.get_outputs(outputs.data(), n_out) == et::Error::Ok) {
    for (size_t i = 0; i < n_out; ++i) {
      if (!outputs[i].isTensor() || outputs[i].toTensor().const_data_ptr() != nullptr) continue;
      const size_t nbytes = outputs[i].toTensor().nbytes();
      buffers.emplace_back(nbytes + 16, 0);
      const et::Error e = method.set_output_data_ptr(buffers.back().data(), nbytes, i);
      std::printf("measure: output %zu given %zu %d\n", i, nbytes, static_cast<int>(e));
    }
  }
  std::printf("measure: execute_begin\n");
  etmem_no_heap = etmem_no_heap_requested;
  etmem_tracing = true;
  const et::Error e = method.execute();
  etmem_tracing = false;
  etmem_no_heap = false;
  std::printf("measure: execute %d\n", static_cast<int>(e));
}
#endif

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
  std::string ptd_path;  // the "ptd PATH" step
  for (const std::string& step : steps) {
    std::istringstream s(step);
    std::string word;
    s >> word;
    if (word == "kernel") {
      std::string name;
      s >> name;
      names.push_back(name);
      kernels.emplace_back(names.back().c_str(), NoOpKernel<et::OpFunction>::Run);
    } else if (word == "ptd") {
      std::getline(s >> std::ws, ptd_path);
    } else if (word == "backend") {
      std::string id;
      size_t n = 0, a = 1;
      s >> id >> n >> a;
      names.push_back(id);
      backends.emplace_back(n, a, names.back().c_str());
      et::Backend b{names.back().c_str(), &backends.back()};
      if (et::register_backend(b) != et::Error::Ok) return Fail("register_backend failed");
    } else {
      rest.push_back(step);
    }
  }
#ifdef ETMEM_EXECUTE
  {
    size_t n = 0;
    const et::Kernel* real = etmem_real_kernels(&n);
    for (size_t i = 0; i < n; ++i) kernels.push_back(real[i]);
  }
#endif
  if (!kernels.empty() &&
      et::register_kernels(et::ArrayRef<et::Kernel>(kernels.data(), kernels.size())) !=
          et::Error::Ok)
    return Fail("register_kernels failed");

  et::util::BufferDataLoader loader(data, bytes.size());
  auto program = et::Program::load(&loader);
  std::printf("measure: program_load %d\n", static_cast<int>(program.ok() ? et::Error::Ok
                                                                           : program.error()));
  if (!program.ok()) return 0;
#ifdef ETMEM_PTD
  const executorch::runtime::NamedDataMap* data_map = nullptr;
  // The runner's data map, loaded the way a runner loads a .ptd: the whole file in memory.
  std::unique_ptr<et::util::BufferDataLoader> ptd_loader;
  std::unique_ptr<executorch::extension::FlatTensorDataMap> ptd_map;
  if (!ptd_path.empty()) {
    std::ifstream ptd_in(ptd_path, std::ios::binary);
    if (!ptd_in) return Fail("cannot read the .ptd");
    const std::string ptd_bytes((std::istreambuf_iterator<char>(ptd_in)),
                                std::istreambuf_iterator<char>());
    uint8_t* ptd_data = Placed(ptd_bytes.size(), 16);
    if (!ptd_data) return Fail("out of memory");
    std::memcpy(ptd_data, ptd_bytes.data(), ptd_bytes.size());
    ptd_loader.reset(new et::util::BufferDataLoader(ptd_data, ptd_bytes.size()));
    auto map = executorch::extension::FlatTensorDataMap::load(ptd_loader.get());
    std::printf("measure: data_map_load %d\n",
                static_cast<int>(map.ok() ? et::Error::Ok : map.error()));
    if (!map.ok()) return 0;
    ptd_map.reset(new executorch::extension::FlatTensorDataMap(std::move(map.get())));
    data_map = ptd_map.get();
  }
#else
  if (!ptd_path.empty()) return Fail("a ptd step without ETMEM_PTD");
#endif
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
  TempAllocator temp_allocator(static_cast<uint32_t>(temp_bytes), temp_pool);
  bool execute = false, totals_printed = false;
  for (const std::string& step : rest) {
    if (step == "execute") execute = true;
#ifdef ETMEM_EXECUTE
    if (step == "heap none") etmem_no_heap_requested = true;
#endif
  }
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
#ifdef ETMEM_PTD
      auto loaded = program->load_method(method.c_str(), &memory, nullptr, data_map);
#else
      auto loaded = program->load_method(method.c_str(), &memory);
#endif
      load_error = static_cast<int>(loaded.ok() ? et::Error::Ok : loaded.error());
      std::printf("measure: load_method %d\n", load_error);
      if (!loaded.ok()) goto done;
#ifdef ETMEM_EXECUTE
      if (execute) {
        std::printf("ETMEM T %zu %zu\n", method_allocator.used(), method_allocator.calls());
        totals_printed = true;
        Execute(*loaded);
      }
#endif
    } else if (word == "execute" || word == "heap") {
      continue;
    } else {
      return Fail("unknown step");
    }
  }
done:
  if (!totals_printed) std::printf("ETMEM T %zu %zu\n", method_allocator.used(), method_allocator.calls());
  return 0;
}
