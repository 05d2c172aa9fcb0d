// ExecuTorch v0.1.0: the oldest modelled release, so this file states everything; every later
// release is a delta on it. Its load_method makes 0.3.0's allocations (spec §4.1 sequence, §6
// types): the same allocateList/ET_ALLOCATE_* calls in the same order (v0.1.0
// runtime/executor/method.cpp, tensor_parser_portable.cpp, tensor_parser_exec_aten.cpp,
// tensor_parser.h), the same macros and MemoryAllocator (runtime/core/memory_allocator.h differs
// from 0.3.0's by a comment), the same type layouts. What 0.2.0 changed on top is in v0_2_0.cpp;
// docs/executorch-0.1.md has the study with line references. The program format is "ET12" as in
// every release; 0.1.0's schema has no Program.constant_segment.
#include "etmem/runtime/release.h"

namespace etmem::runtime {
namespace {

using abi::Field;
using abi::Prim;
using abi::Struct;
using abi::Union;

void AddCoreTypes(abi::TypeTable& t) {
  // Scalars the runtime allocates arrays of.
  t.Add(Struct("SizesType", {{"v", Prim::kI32}}, "int32_t"));
  t.Add(Struct("StridesType", {{"v", Prim::kI32}}, "int32_t"));
  t.Add(Struct("DimOrderType", {{"v", Prim::kU8}}, "uint8_t"));
  t.Add(Struct("bool", {{"v", Prim::kBool}}, "bool"));
  t.Add(Struct("int64_t", {{"v", Prim::kI64}}, "int64_t"));
  t.Add(Struct("EValue*", {{"v", Prim::kPtr}}, "void*"));
  t.Add(Struct("OpFunction", {{"fn", Prim::kFnPtr}}, "void (*)(void*, void**)"));

  t.Add(Struct("ArrayRef", {{"data", Prim::kPtr}, {"length", Prim::kSize}}));
  t.Add(Struct("Span", {{"data", Prim::kPtr}, {"length", Prim::kSize}}));
  t.Add(Struct("Tensor", {{"impl", Prim::kPtr}}));
  t.Add(Struct("BoxedEvalueList", {{"wrapped_vals", "ArrayRef"}, {"unwrapped_vals", Prim::kPtr}}));
  t.Add(Struct("TensorImpl", {{"sizes", Prim::kPtr},
                              {"dim_order", Prim::kPtr},
                              {"strides", Prim::kPtr},
                              {"data", Prim::kPtr},
                              {"dim", Prim::kSize},
                              {"numel", Prim::kSize},
                              {"capacity", Prim::kSize},
                              {"type", Prim::kI8},
                              {"shape_dynamism", Prim::kU8}}));
  // Lists and strings are held by value in the EValue up to 1.0.
  t.Add(Union("EValue::Copyable", {{"as_int", Prim::kI64},
                                   {"as_double", Prim::kF64},
                                   {"as_bool", Prim::kBool},
                                   {"as_string", "ArrayRef"},
                                   {"as_double_list", "ArrayRef"},
                                   {"as_bool_list", "ArrayRef"},
                                   {"as_int_list", "BoxedEvalueList"},
                                   {"as_tensor_list", "BoxedEvalueList"},
                                   {"as_optional_tensor_list", "BoxedEvalueList"}}));
  t.Add(Union("EValue::Payload", {{"copyable", "EValue::Copyable"}, {"as_tensor", "Tensor"}}));
  t.Add(Struct("EValue", {{"payload", "EValue::Payload"}, {"tag", Prim::kU32}}));
  // ExecuTorch's own optional up to 0.5 keeps an empty tag object as a data member, which costs
  // a word after padding (spec §6, trap 9).
  t.Add(Union("optional<Tensor>::storage", {{"dummy", Prim::kU8}, {"value", "Tensor"}}));
  t.Add(Struct("optional<Tensor>", {{"trivial_init", Prim::kEmpty},
                                    {"storage", "optional<Tensor>::storage"},
                                    {"init", Prim::kBool}}));

  t.Add(Struct("InstructionArgs", {{"data", Prim::kPtr}, {"length", Prim::kSize}}));
  t.Add(Struct("Chain", {{"s_chain", Prim::kPtr}, {"argument_lists", "Span"}, {"kernels", Prim::kPtr}}));
  t.Add(Struct("TensorMeta", {{"dtype", Prim::kI8}, {"dim_order", "Span"}}));
  t.Add(Struct("SizedBuffer", {{"buffer", Prim::kPtr}, {"nbytes", Prim::kSize}}));
  t.Add(Struct("CompileSpec", {{"key", Prim::kPtr}, {"value", "SizedBuffer"}}));
  t.Add(Struct("FreeableBuffer", {{"free_fn", Prim::kFnPtr},
                                  {"free_fn_context", Prim::kPtr},
                                  {"data", Prim::kPtr},
                                  {"size", Prim::kSize}}));
  t.Add(Struct("BackendDelegate", {{"segment", "FreeableBuffer"},
                                   {"backend", Prim::kPtr},
                                   {"handle", Prim::kPtr}}));
  t.Add(Struct("MemoryAllocator", {{"vptr", Prim::kPtr},
                                   {"begin", Prim::kPtr},
                                   {"end", Prim::kPtr},
                                   {"cur", Prim::kPtr},
                                   {"size", Prim::kU32},
                                   {"prof_id", Prim::kI32}}));
}

// Backends whose init() allocates from the method allocator (spec §5; research notes on each
// backend's source). The others allocate one object whose size depends on their SDK build,
// which no program reveals.
void AddBackends(RuntimeTraits& t) {
  // Arm Ethos-U (backends/arm/runtime/ArmBackendEthosU.cpp at v0.1.0): init() validates the
  // Vela blob and returns the processed FreeableBuffer itself as the handle, allocating
  // nothing; execute() reads the command stream and weights from that blob.
  t.ethosu_backend = "ArmBackend";
  t.backends[t.ethosu_backend] = {"Arm Ethos-U", ""};
  t.backends[t.ethosu_backend].reads_blob_in_place = true;
  // XNNPACK allocates one XNNExecutor (XNNPACKBackend.cpp:31), and then XNNCompiler.cpp
  // (lines 224-240) a TensorImpl and a data buffer from the same allocator for every
  // dynamically quantized input of the delegate's graph: a count the XNNPACK blob holds, not
  // the program.
  t.backends["XnnpackBackend"] = {
      "XNNPACK", "",
      "in 0.1.0 allocates an XNNExecutor and, for each dynamically quantized input of the "
      "delegate's graph (described in the XNNPACK blob, not the program), a TensorImpl and a "
      "data buffer"};
  const char* kSdkSized = "allocates one backend object whose size depends on how the backend "
                          "SDK was built, not on the program";
  for (const char* id : {"VulkanBackend", "QnnBackend", "MPSBackend"})
    t.backends[id] = {id, "", kSdkSized};
  t.backends["CoreMLBackend"] = {"Core ML", ""};  // keeps its state on the heap
}

}  // namespace

ReleaseDelta Release_v0_1_0() {
  return {"0.1.0", "", [](RuntimeTraits& t) {
            // struct Kernel {const char* name_; KernelKey kernel_key_ {const char*
            // kernel_key_data_; bool is_fallback_;}; OpFunction op_;} (operator_registry.h).
            t.kernel_record_op_word = 3;
            t.kernel_record_words = 4;
            t.summary = "group A: constants only inline (no constant segment); XNNPACK init "
                        "unknown; Ethos-U init takes nothing";
            AddCoreTypes(t.types);
            AddBackends(t);
            t.on_failure.fill(OnFailure::kError);  // the ET_ALLOCATE_* macros: any null fails
            t.SetFailure({Site::kIntListPointers, Site::kIntListValues}, OnFailure::kUnchecked);
            t.constant_segment_min_offsets = 1;
            // tensor_parser_portable.cpp checks no dtype; TensorImpl's constructor sizes it with
            // sizeof_scalar_type (runtime/core/exec_aten/util/scalar_type_util.h), which
            // ET_CHECKs: Half (5), the complex types (8-10), BFloat16 (15) and codes outside the
            // enum's 23 types (0-22) abort. Measured: tests/measured/x86_64_refusals.json.
            t.tensor_impl_scalar_types = ((uint64_t{1} << 23) - 1) & ~(uint64_t{1} << 5) &
                                         ~(uint64_t{0b111} << 8) & ~(uint64_t{1} << 15);
          }};
}

}  // namespace etmem::runtime
