// ExecuTorch v0.4.0 (spec §4.2, group B).
#include "etmem/runtime/release.h"

namespace etmem::runtime {

ReleaseDelta Release_v0_4_0() {
  return {"0.4.0", "0.3.0", [](RuntimeTraits& t) {
            t.summary = "group B: PlatformMemoryAllocator first when the runner passes no temp";
            // Method::load allocates it from the method allocator before init (spec §1.1).
            t.platform_allocator_when_no_temp = true;
            t.types.Add(abi::Struct("PlatformMemoryAllocator",
                                    {{"base", "MemoryAllocator"}, {"head", abi::Prim::kPtr}}));
            // The ET_ALLOCATE_* macros now test `nelem > 0` before failing (spec §1).
            t.on_failure.fill(OnFailure::kErrorUnlessEmpty);
            t.SetFailure({Site::kIntListPointers, Site::kIntListValues}, OnFailure::kUnchecked);
            // The constant segment is loaded only with more than one offset (spec §2).
            t.constant_segment_min_offsets = 2;
            // Mutable initial state: load_mutable_subsegment_into copies it into planned memory.
            t.copies_mutable_state_at_load = true;
            // Method::init no longer reads the inputs and outputs (pre_allocated_input_ went).
            t.inputs_outputs_read_at_init = false;
          }};
}

}  // namespace etmem::runtime
