// ExecuTorch v1.4.1 (spec §4.10): `git diff v1.4.0 v1.4.1` changes only
// backends/xnnpack/runtime/XNNExecutor.h and XNNCompiler.cpp; the core runtime is 1.4.0's.
#include "etmem/runtime/release.h"

namespace etmem::runtime {

ReleaseDelta Release_v1_4_1() {
  return {"1.4.1", "1.4.0", [](RuntimeTraits& t) {
            t.summary = "group E: as 1.4.0; XNNExecutor keeps unpacked constant buffers";
            // unpacked_buffers_ (a std::vector<FreeableBuffer>) becomes the first member: the
            // compiler hands it the buffers of constants XNNPACK does not pack (PReLU weights).
            t.types.PrependField("XNNExecutor", {"unpacked_buffers", "std::vector"});
          }};
}

}  // namespace etmem::runtime
