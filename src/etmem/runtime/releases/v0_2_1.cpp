// ExecuTorch v0.2.1: a patch release whose load-time code is 0.2.0's. `git diff v0.2.0 v0.2.1`
// under runtime/, schema/, extension/data_loader/, backends/{xnnpack,arm}/runtime/ and
// examples/portable/executor_runner/ is one change in Method::execute_instruction (a delegate's
// execute() now gets the temp allocator), which load_method does not run.
#include "etmem/runtime/release.h"

namespace etmem::runtime {

ReleaseDelta Release_v0_2_1() {
  return {"0.2.1", "0.2.0", [](RuntimeTraits& t) {
            t.summary = "as 0.2.0 (the patch changed Method::execute only)";
          }};
}

}  // namespace etmem::runtime
