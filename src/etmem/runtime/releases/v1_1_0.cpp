// ExecuTorch v1.1.0 (spec §4.7, group E).
#include "etmem/runtime/release.h"

namespace etmem::runtime {

ReleaseDelta Release_v1_1_0() {
  return {"1.1.0", "1.0.0", [](RuntimeTraits& t) {
            using abi::Prim;
            t.summary = "group E: EValue holds list pointers (+1 object per list); FreeableBuffer is a variant";
            // Lists and strings move out of the EValue into their own objects (R10-R13, R16, R19).
            t.boxed_lists = true;
            // HierarchicalAllocator::get_offset_address checks offset + size for overflow
            // before the id; getMemPlannedPtr's 32-bit message loses its dot.
            t.planned_lookup_overflow_checked = true;
            t.planned_offset_words_dotted = false;
            // ... and the 32-bit branch (if constexpr) refuses a high word again.
            t.planned_offset_high_dropped_where_size_t_is_32_bit = false;
            // TensorImpl ET_CHECKs its element count and bytes for overflow (tensor_impl.cpp).
            t.tensor_impl_overflow_checked = true;
            t.types.Add(abi::Union("EValue::Copyable", {{"as_int", Prim::kI64},
                                                        {"as_double", Prim::kF64},
                                                        {"as_bool", Prim::kBool},
                                                        {"as_string", Prim::kPtr},
                                                        {"as_double_list", Prim::kPtr},
                                                        {"as_bool_list", Prim::kPtr},
                                                        {"as_int_list", Prim::kPtr},
                                                        {"as_tensor_list", Prim::kPtr},
                                                        {"as_optional_tensor_list", Prim::kPtr}}));
            // The new objects are not null-checked; their constructors ET_CHECK and abort. (The
            // IntList arrays stay unchecked: measured on the real 1.4.1 runtime, a failed
            // EValue*[] is followed by the int64_t[] request, then a write through null.)
            t.SetFailure({Site::kIntListBox, Site::kBoolList, Site::kDoubleList, Site::kString,
                          Site::kTensorListBox, Site::kOptionalListBox},
                         OnFailure::kAbort);
            // FreeableBuffer holds a variant of {pointer, free fn} and {uint64, free fn}.
            t.types.Add(abi::Struct("FreeableBuffer::PointerData",
                                    {{"data", Prim::kPtr}, {"free_fn", Prim::kFnPtr}}));
            t.types.Add(abi::Struct("FreeableBuffer::Int64Data",
                                    {{"data", Prim::kU64}, {"free_fn", Prim::kFnPtr}}));
            std::string variant = abi::AddStdVariant(
                t.types, {"FreeableBuffer::PointerData", "FreeableBuffer::Int64Data"});
            // XNNExecutor gains a shared workspace.
            t.types.AppendField("XNNExecutor", {"workspace", "std::shared_ptr"});
            t.backends["CudaBackend"] = {"CUDA", ""};  // nothing from the runtime allocator
            t.backends["MetalBackend"] = {"Metal", ""};
            t.types.Add(abi::Struct("FreeableBuffer", {{"data", variant},
                                                       {"free_fn_context", Prim::kPtr},
                                                       {"size", Prim::kSize}}));
          }};
}

}  // namespace etmem::runtime
