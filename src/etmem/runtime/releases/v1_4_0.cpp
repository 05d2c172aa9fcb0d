// ExecuTorch v1.4.0 (spec §4.10 describes 1.4.1; this is its 1.4.0 part, from
// `git diff v1.3.1 v1.4.0`): method.cpp and the tensor parsers' allocations are unchanged.
// Not modelled here because etmem models neither: Program::LoadSegment and
// load_mutable_subsegment_into now refuse (InvalidProgram) a program without a segments vector
// instead of reading through null, and validateTensorLayout refuses a .ptd tensor layout
// without sizes or dim_order (InvalidExternalData). MemoryAllocator gains two virtual methods
// (no layout change), HierarchicalAllocator an optional device span (not allocated at load).
#include "etmem/runtime/release.h"

namespace etmem::runtime {

ReleaseDelta Release_v1_4_0() {
  return {"1.4.0", "1.3.1", [](RuntimeTraits& t) {
            t.summary = "group E: as 1.3.1; XNNExecutor gains a weights cache and two flags";
            // backends/xnnpack/runtime/XNNExecutor.h: a shared_ptr to the per-file weights
            // cache and two std::atomic<bool> (in use, destroyed) after workspace_.
            t.types.AppendField("XNNExecutor", {"weights_cache", "std::shared_ptr"});
            t.types.AppendField("XNNExecutor", {"in_use", abi::Prim::kBool});
            t.types.AppendField("XNNExecutor", {"destroyed", abi::Prim::kBool});
          }};
}

}  // namespace etmem::runtime
