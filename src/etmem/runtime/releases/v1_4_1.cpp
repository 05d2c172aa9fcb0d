// ExecuTorch v1.4.1 (spec §4.10, group E): method.cpp and the tensor parsers are unchanged.
#include "etmem/runtime/release.h"

namespace etmem::runtime {

ReleaseDelta Release_v1_4_1() {
  return {"1.4.1", "1.3.0", [](RuntimeTraits& t) {
            t.summary = "group E: as 1.3.0; XNNExecutor grows";
            // unpacked_buffers_ comes first; a weights cache and two atomic flags are appended.
            t.types.PrependField("XNNExecutor", {"unpacked_buffers", "std::vector"});
            t.types.AppendField("XNNExecutor", {"weights_cache", "std::shared_ptr"});
            t.types.AppendField("XNNExecutor", {"in_use", abi::Prim::kBool});
            t.types.AppendField("XNNExecutor", {"destroyed", abi::Prim::kBool});
          }};
}

}  // namespace etmem::runtime
