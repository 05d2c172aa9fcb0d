// ExecuTorch v1.2.0 (spec §4.8, group E): core sequence unchanged.
#include "etmem/runtime/release.h"

namespace etmem::runtime {

ReleaseDelta Release_v1_2_0() {
  return {"1.2.0", "1.1.0", [](RuntimeTraits& t) {
            t.summary = "group E: as 1.1.0; Ethos-U moves its handle to the heap";
            // EthosUBackend::init now uses `new (std::nothrow)`, not the runtime allocator.
            for (auto& [id, model] : t.backends)
              if (model.type == "EthosU::ExecutionHandle") model.type.clear();
            // get_constant_buffer_data reverses its inline size check (program.cpp).
            t.inline_constant_covers_tensor = true;
            // dim_order_util.h's validate_dim_order checks for a permutation.
            t.dim_order_permutation_checked = true;
            // TensorImpl's overflow checks are gone again: the products wrap (tensor_impl.cpp).
            t.tensor_impl_overflow_checked = false;
          }};
}

}  // namespace etmem::runtime
