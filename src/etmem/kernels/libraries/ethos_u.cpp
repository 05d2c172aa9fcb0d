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
// Outside every pool: from 1.2.0 init() takes its ExecutionHandle with `new (std::nothrow)` (the
// C heap; before, allocateInstance from the method allocator, in the load figure) and destroy()
// deletes it: {FreeableBuffer*, PlatformState*} at 1.2.0-1.4.1
// (backends/arm/runtime/EthosUBackend_Internal.h), {PlatformState*, VelaHandles} at main
// (VelaBinStream.h: 4 pointers and 4 size_t); the Cortex-M platform_init allocates nothing
// (EthosUBackend_Cortex_M.cpp returns nullptr).
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
  const char* handle =
      "its ExecutionHandle, new (std::nothrow) in init() (at load_method) and deleted by "
      "destroy(), on the C heap (the heap's own header and rounding not counted; the Cortex-M "
      "platform_init allocates nothing)";
  d.deltas.push_back({"1.2.0", {}, 0, "",
                      {{"EthosUBackend", {handle, "its ExecutionHandle", 2, 0, false}}}});
  d.deltas.push_back({"main", {}, 0, "",
                      {{"EthosUBackend", {handle, "its ExecutionHandle", 5, 4, false}}}});
  return d;
}

}  // namespace etmem::kernels
