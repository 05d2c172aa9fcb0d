// ExecuTorch v0.5.0 (spec §4.3, group B): the same sequence and sizes as 0.4.0.
#include "etmem/runtime/release.h"

namespace etmem::runtime {

ReleaseDelta Release_v0_5_0() {
  return {"0.5.0", "0.4.0", [](RuntimeTraits& t) {
            t.summary = "group B: as 0.4.0; method.cpp and list parsers check null explicitly";
            // method.cpp and the list parsers check `== nullptr`, which fails even for n = 0;
            // tensor_parser_portable.cpp (R4-R7) still uses the macros.
            t.SetFailure({Site::kPlatformAllocator, Site::kValues, Site::kDelegates,
                          Site::kCompileSpecs, Site::kChains, Site::kChainKernels,
                          Site::kChainArgLists, Site::kInstructionArgs, Site::kTensorMeta,
                          Site::kTensorMetaDimOrder, Site::kTensorListTensors,
                          Site::kTensorListPointers, Site::kOptionalListPointers,
                          Site::kOptionalListValues},
                         OnFailure::kError);
            // ScalarType gains four Float8 types and UInt16/UInt32/UInt64 (codes 23-29).
            t.parser_scalar_types |= ((uint64_t{1} << 30) - 1) & ~((uint64_t{1} << 23) - 1);
          }};
}

}  // namespace etmem::runtime
