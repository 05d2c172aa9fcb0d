// Owns: the Arm Ethos-U backend's temp use while running, per release
// (backends/arm/runtime/EthosUBackend.cpp, execute()). From 0.2 to 0.6 the Vela payload carries
// its scratch (a scratch_data block) and execute() takes nothing from the temp allocator. From 0.7
// execute() takes the payload's scratch_size bytes from the backend context's temp allocator
// (MemoryAllocator::allocate at the default alignment), failing the call with
// MemoryAllocationFailed and "Failed to allocate scratch buffer of N bytes from temp_allocator";
// from 1.0 at 16-byte alignment. Each reads only its own kind of block (VelaBinStream.cpp's
// vela_bin_read): the other kind fails execute() before it asks. 0.1's backend parses the payload
// itself (ArmBackendEthosU.cpp) and takes nothing. Payloads of either kind are read by
// plan/ethosu_scratch; measured with the real backend in tests/measured/x86_64_run_temp_ethos_u.json.
#include "etmem/kernels/library.h"

namespace etmem::kernels {

DelegateLibraryData Library_EthosU() {
  DelegateLibraryData d;
  d.name = "ethos_u";
  d.deltas.push_back({"0.1.0", {{"ArmBackend", DelegateRule::kNone},
                                {"EthosUBackend", DelegateRule::kNone}}, 0, ""});
  d.deltas.push_back({"0.2.0", {{"ArmBackend", DelegateRule::kEthosUScratchInBlob},
                                {"EthosUBackend", DelegateRule::kEthosUScratchInBlob}}, 0, ""});
  d.deltas.push_back({"0.7.0", {{"ArmBackend", DelegateRule::kEthosUScratch},
                                {"EthosUBackend", DelegateRule::kEthosUScratch}}, 0, ""});
  d.deltas.push_back({"1.0.0", {}, 16, ""});
  return d;
}

}  // namespace etmem::kernels
