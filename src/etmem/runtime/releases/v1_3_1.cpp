// ExecuTorch v1.3.1: a patch release whose load-time code is 1.3.0's. `git diff v1.3.0 v1.3.1`
// touches nothing under runtime/, schema/, extension/data_loader/, backends/xnnpack/runtime/,
// backends/arm/runtime/ or examples/portable/executor_runner/ (CI, docs, packaging and the
// version number only).
#include "etmem/runtime/release.h"

namespace etmem::runtime {

ReleaseDelta Release_v1_3_1() {
  return {"1.3.1", "1.3.0", [](RuntimeTraits& t) {
            t.summary = "as 1.3.0 (the patch changed packaging and CI only)";
          }};
}

}  // namespace etmem::runtime
