// ExecuTorch v0.2.0 (`git diff v0.1.0 v0.2.0`; docs/executorch-0.1.md): load_method makes the
// same allocations as 0.1.0 and as 0.3.0 (see v0_1_0.cpp); what changed that etmem models:
//   - schema/program.fbs gains Program.constant_segment and runtime/executor/program.cpp loads
//     it (constant tensors point into it);
//   - method.cpp returns InvalidProgram where 0.1.0 ET_CHECKs (a NONE value) and refuses a
//     method without chains before allocating Chain[];
//   - backends/xnnpack/runtime/XNNExecutor.h is rewritten (0.3.0's members) and XNNCompiler.cpp
//     no longer allocates from the runtime allocator: one XNNExecutor per delegate (spec §5.1).
#include "etmem/runtime/release.h"

namespace etmem::runtime {

ReleaseDelta Release_v0_2_0() {
  return {"0.2.0", "0.1.0", [](RuntimeTraits& t) {
            using abi::Prim;
            using abi::Struct;
            t.summary = "group A: loads the constant segment; XNNPACK takes one XNNExecutor";
            // Method::step resets the temp allocator after every instruction (the kernels cannot
            // reach it yet: KernelRuntimeContext has no temp allocator).
            t.temp_reset_each_instruction = true;
            t.constant_segment = true;
            t.none_value_is_invalid_program = true;
            t.empty_chains_refused_first = true;
            // Method::init checks the delegates vector (0.1: ET_CHECK).
            t.delegates_vector_checked = true;
            // BackendDelegate::Init checks the delegate's id (0.1 dereferences it).
            t.delegate_id_checked = true;
            // Program::method_meta checks name, non_const_buffer_sizes, inputs and outputs.
            t.method_meta_checks_fields = true;
            // Method::init: resolve_operator checks the op index (its error delayed to the end of
            // the chain loop, overwritten by the next kernel call's result), and a jump's
            // condition index is checked where the loop meets it.
            t.op_index_checked = true;
            t.jump_false_index_checked = true;
            // gen_instruction_arguments checks each call argument ("Arg index X >= N"), and the
            // inputs and outputs are checked before Method::init reads them.
            t.call_arg_indexes_checked = true;
            t.inputs_outputs_indexes_checked = true;
            // tensor_parser_exec_aten.cpp reads AllocationDetails.memory_offset_high (0.1: a
            // 32-bit memory_offset), refusing a high word a 32-bit size_t cannot hold.
            t.planned_offset_high_read = true;
            // parse_values checks a String value's string (0.1 dereferences it).
            t.absent_string_checked = true;
            // populate_operator_name returns errors where 0.1's populateOperatorName aborts.
            t.operator_name_checked = true;
            // tensor_parser_portable.cpp checks the dtype: isValid() (codes 0-22, Bits16 the
            // last) and not ComplexHalf/ComplexFloat/ComplexDouble (8-10) nor BFloat16 (15).
            t.parser_scalar_types = ((uint64_t{1} << 23) - 1) & ~(uint64_t{0b111} << 8) &
                                    ~(uint64_t{1} << 15);
            // TensorImpl sizes its type with elementSize(), which knows every code the parser
            // lets through.
            t.tensor_impl_scalar_types = 0;
            // XNNPACK allocates one XNNExecutor, first thing in init() (spec §5.1). libstdc++
            // layouts; the profiler member is empty without ET_EVENT_TRACER_ENABLED.
            abi::TypeTable& types = t.types;
            types.Add(Struct("std::unique_ptr<T, deleter fn>",
                             {{"pointer", Prim::kPtr}, {"deleter", Prim::kFnPtr}}));
            abi::AddStdVector(types);
            abi::AddStdSharedPtr(types);
            types.Add(Struct("XNNProfiler", {}));
            types.Add(Struct("XNNExecutor", {{"runtime", "std::unique_ptr<T, deleter fn>"},
                                             {"profiler", "XNNProfiler"},
                                             {"input_ids", "std::vector"},
                                             {"output_ids", "std::vector"},
                                             {"externals", "std::vector"}}));
            t.backends["XnnpackBackend"] = {"XNNPACK", "XNNExecutor"};
          }};
}

}  // namespace etmem::runtime
