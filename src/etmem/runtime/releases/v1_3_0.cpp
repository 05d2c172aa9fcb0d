// ExecuTorch v1.3.0 (spec §4.9, group E).
#include "etmem/runtime/release.h"

namespace etmem::runtime {

ReleaseDelta Release_v1_3_0() {
  return {"1.3.0", "1.2.0", [](RuntimeTraits& t) {
            using abi::Prim;
            t.summary = "group E: CompileSpec[] skipped when absent; TensorImpl gains a device";
            // PlatformMemoryAllocator::allocate checks for overflow and asks et_pal_allocate for
            // node + size + alignment - 1 (was + alignment).
            t.platform_allocator_slack_minus_one = true;
            t.null_compile_specs_skipped = true;
            // CMakeLists.txt sets ET_ENABLE_DEPRECATED_CONSTANT_BUFFER=0 (the source default is 1).
            t.cmake_build_drops_inline_constants = true;
            t.backends["MLXBackend"] = {"MLX", "", "allocates one MLXHandle whose size depends on "
                                                   "the MLX build, not on the program"};
            // Device {type, index} fits in TensorImpl's tail padding: the size does not change.
            t.types.Add(abi::Struct("Device", {{"type", Prim::kI8}, {"index", Prim::kI8}}));
            t.types.AppendField("TensorImpl", {"device", "Device"});
            // .ptd (issue 13 item 4): a segment's end may not wrap (c10::add_overflows);
            // validateTensorLayout checks the program's dim order length.
            t.ptd_segment_end_overflow_checked = true;
            t.ptd_dim_order_size_checked = true;
            t.ptd_layout_overflow_checked = true;  // runtime/core/tensor_layout.cpp
            // Program::load_mutable_subsegment_into: offset + size may not wrap.
            t.mutable_subsegment_overflow_checked = true;
            // Program::get_constant_buffer_data: offset <= size first (no wrap).
            t.constant_offset_checked_first = true;
            // MethodMeta::memory_planned_buffer_size refuses a negative size.
            t.planned_buffer_size_negative_checked = true;
            // Method::init checks MoveCall's and FreeCall's value indexes (ET_CHECK_VALID_VALUE_INDEX).
            t.move_free_indexes_checked = true;
            // parseTensorList / parseListOptionalType: tryToTensor, tryToOptional (issue 39).
            t.tensor_list_item_types_checked = true;
          }};
}

}  // namespace etmem::runtime
