// ExecuTorch v0.6.0 (spec §4.4, group C).
#include "etmem/runtime/release.h"

namespace etmem::runtime {

ReleaseDelta Release_v0_6_0() {
  return {"0.6.0", "0.5.0", [](RuntimeTraits& t) {
            t.summary = "group C: NamedData[] for external constants; std::optional<Tensor>";
            t.external_constants = true;  // R3
            // Program::load wraps Program.named_data in a data map that backends read.
            t.named_data_for_backends = true;
            // ... built in Program::load whenever named_data is present, over the segments.
            t.named_data_map_needs_segments = true;
            t.types.Add(abi::Struct("NamedData",
                                    {{"key", abi::Prim::kPtr}, {"buffer", "FreeableBuffer"}}));
            // optional<Tensor> is now std::optional: 16/8 on LP64, 8/4 on ILP32.
            t.types.Add(abi::Struct("optional<Tensor>",
                                    {{"payload", "Tensor"}, {"engaged", abi::Prim::kBool}},
                                    "std::optional<Tensor>"));
            // Every allocation is now checked explicitly, zero-size ones included.
            t.on_failure.fill(OnFailure::kError);
            t.SetFailure({Site::kIntListPointers, Site::kIntListValues}, OnFailure::kUnchecked);
            // Ethos-U registers as EthosUBackend, and its handle drops permuted_io_flag (spec §5.2).
            t.types.Add(abi::Struct("EthosU::ExecutionHandle", {{"processed", abi::Prim::kPtr}}));
            t.backends["EthosUBackend"] = t.backends[t.ethosu_backend];
            t.backends.erase(t.ethosu_backend);
            t.ethosu_backend = "EthosUBackend";
            // XNNExecutor gains packed_data_names_.
            t.types.AppendField("XNNExecutor", {"packed_data_names", "std::vector"});
            // get_num_external_constants pre-scans every value: a NONE value now fails before R3.
            t.null_values_prescanned = true;
            // getMemPlannedPtr guards its 32-bit check with sizeof(size_t) > sizeof(uint32_t):
            // a 32-bit target drops a planned offset's high word instead of refusing it.
            t.planned_offset_high_dropped_where_size_t_is_32_bit = true;
            // The tensor parser no longer refuses the complex types (8-10): isValid() only.
            t.parser_scalar_types |= uint64_t{0b111} << 8;
            // The examples/portable executor_runner passes a temp allocator from 0.6 on.
            t.runner_passes_temp = true;
            // get_constant_buffer_data reads a missing constant_buffer vector as empty.
            t.inline_constant_vector_null_checked = true;
            // Method::parse_values / tensor_parser.h check list items (issue 39).
            t.list_item_indexes_checked = true;
            // .ptd (issue 13 item 4): extension/flat_tensor at v0.6.0 reads tensor entries.
            t.ptd_data_map = true;
          }};
}

}  // namespace etmem::runtime
