// Owns: the temp use while running of the delegates' backends other than Ethos-U, per release.
#include "etmem/kernels/library.h"

namespace etmem::kernels {

// Backends whose runtime (backends/<dir>/runtime) never reaches the backend context's temp
// allocator at any modelled release (grep for get_temp_allocator/temp_allocator in each tree),
// and MediaTek's, which does, with a size from its own runtime.
DelegateLibraryData Library_OtherBackends() {
  DelegateLibraryData d;
  d.name = "backends";
  d.deltas.push_back({"0.1.0", {{"XnnpackBackend", DelegateRule::kNone},
                                {"CoreMLBackend", DelegateRule::kNone},
                                {"MPSBackend", DelegateRule::kNone},
                                {"QnnBackend", DelegateRule::kNone},
                                {"VulkanBackend", DelegateRule::kNone}}, 0, ""});
  // XNNPACK (backends/xnnpack/runtime, every release): XNNCompiler builds an XNNPACK subgraph and
  // runtime in init() (xnn_create_runtime_v2 at 0.1.0, _v3/_v4 from 0.4.0, which pack the weights),
  // and from 0.4.0 execute() reshapes the runtime, which sizes its workspace
  // (xnn_reshape_runtime); all of it through XNNPACK's allocator, malloc by default: none of it
  // from an ExecuTorch pool, and its size is XNNPACK's business.
  d.deltas.back().outside = {
      {"XnnpackBackend",
       {"XNNPACK's own heap: the subgraph and runtime init() creates with their operators and "
        "packed weights, and the workspace XNNPACK sizes while running, through XNNPACK's "
        "allocator (malloc by default)",
        "XNNPACK's own heap", 0, 0, true}}};
  d.deltas.push_back({"0.4.0", {{"NeuronBackend", DelegateRule::kUnknownSize}}, 0,
                      "its execute() takes temp memory sized by the Neuron runtime: not modelled"});
  return d;
}

}  // namespace etmem::kernels
