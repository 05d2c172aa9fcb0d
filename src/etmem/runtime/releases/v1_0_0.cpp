// ExecuTorch v1.0.0 (spec §4.6, group D).
#include "etmem/runtime/release.h"

namespace etmem::runtime {

ReleaseDelta Release_v1_0_0() {
  return {"1.0.0", "0.7.0", [](RuntimeTraits& t) {
            t.summary = "group D: input-set array, MergedDataMap, operator metadata on temp";
            t.input_set_array = true;  // R2
            t.merged_data_map = true;  // R21
            t.refuses_external_map_with_named_data = false;
            t.types.Add(abi::Struct("MergedDataMap", {{"vptr", abi::Prim::kPtr},
                                                      {"first", abi::Prim::kPtr},
                                                      {"second", abi::Prim::kPtr}}));
            // resolve_operator uses the user's temp allocator when it is non-null and
            // non-empty, and resets it after every operator (spec §4.6, trap 5).
            t.operator_metadata_on_user_temp = true;
            // ... "if it is not provided (or an empty one is provided)": allocator == nullptr ||
            // allocator->size() == 0 takes the method allocator (method.cpp, v1.0.0 to main).
            t.operator_metadata_skips_empty_temp = true;
            t.max_tensor_rank = 16;  // kTensorDimensionLimit
            t.external_map_null_log = "external_data_map is null";
            // getTensorDataPtr checks the map before loading a planned external tensor.
            t.external_planned_map_null_checked = true;
            const char* kSdkSized = "allocates one backend object whose size depends on how the "
                                    "backend SDK was built, not on the program";
            for (const char* id : {"VgfBackend", "NeutronBackend", "EnnBackend", "NeuropilotBackend",
                                   "OpenvinoBackend"})
              t.backends[id] = {id, "", kSdkSized};
            // .ptd (issue 13 item 4): flat_tensor_data_map.cpp at v1.0.0 wraps any header
            // failure as InvalidExternalData, checks the file's size against the header,
            // compares keys whole and checks a segment's end.
            t.ptd_header_error_wrapped = true;
            t.ptd_file_size_checked = true;
            t.ptd_key_exact = true;
            t.ptd_segment_end_checks_size = true;
          }};
}

}  // namespace etmem::runtime
