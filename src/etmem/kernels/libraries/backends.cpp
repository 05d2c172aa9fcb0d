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
  d.deltas.push_back({"0.4.0", {{"NeuronBackend", DelegateRule::kUnknownSize}}, 0,
                      "its execute() takes temp memory sized by the Neuron runtime: not modelled"});
  return d;
}

}  // namespace etmem::kernels
