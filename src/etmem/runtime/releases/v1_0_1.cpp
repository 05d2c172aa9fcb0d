// ExecuTorch v1.0.1: a patch release whose load-time code is 1.0.0's. `git diff v1.0.0 v1.0.1`
// touches nothing under runtime/, schema/, extension/data_loader/, backends/xnnpack/runtime/,
// backends/arm/runtime/ or examples/portable/executor_runner/; it changes portable kernels
// (slice, index, pad, copy) and prim ops, which run at execute(), not in load_method.
#include "etmem/runtime/release.h"

namespace etmem::runtime {

ReleaseDelta Release_v1_0_1() {
  return {"1.0.1", "1.0.0", [](RuntimeTraits& t) {
            t.summary = "as 1.0.0 (the patch changed kernels only, nothing load_method does)";
          }};
}

}  // namespace etmem::runtime
