// ExecuTorch v0.3.0 (spec §4.1, group A): load_method as 0.2.1's (see v0_2_0.cpp); the Arm
// Ethos-U backend now allocates a handle (backends/arm/runtime/ArmBackendEthosU.cpp).
#include "etmem/runtime/release.h"

namespace etmem::runtime {

ReleaseDelta Release_v0_3_0() {
  return {"0.3.0", "0.2.1", [](RuntimeTraits& t) {
            using abi::Prim;
            t.summary = "group A: as 0.2.1; Arm Ethos-U keeps a handle in the method allocator";
            // KernelRuntimeContext and BackendExecutionContext carry the temp allocator
            // (allocate_temp; NotFound "No temp allocator provided" when the runner passes none).
            t.kernels_reach_temp_allocator = true;
            // One handle per delegate, first thing in init() (spec §5.2).
            t.types.Add(abi::Struct("EthosU::ExecutionHandle",
                                    {{"processed", Prim::kPtr}, {"permuted_io_flag", Prim::kBool}}));
            t.backends["ArmBackend"].type = "EthosU::ExecutionHandle";
            // The tensor parser accepts BFloat16 (15) from here on.
            t.parser_scalar_types |= uint64_t{1} << 15;
          }};
}

}  // namespace etmem::runtime
