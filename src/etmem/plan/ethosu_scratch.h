// Owns: the temp memory a method needs at run time where the program reveals it: the Arm
// Ethos-U scratch, read from each delegate's Vela payload (a stream of blocks: a 32-byte header
// {char name[16]; uint32 size (little-endian, unpadded); 12 pad bytes} then the data, zero-padded
// to 16). Newer payloads carry a `scratch_size` block (a uint32) that the backend's execute()
// takes from the temp allocator; older ones carry `scratch_data`, the scratch itself, inside the
// blob. What kernels take from the temp allocator is not in the program, so it stays unknown.
// Not: load-time allocations (runtime/), the planned buffers (lifetimes.h).
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "etmem/base/result.h"
#include "etmem/pte/program_view.h"

namespace etmem::plan {

enum class ScratchKind { kTempAllocation, kInBlob };

struct VelaScratch {
  ScratchKind kind = ScratchKind::kTempAllocation;
  uint64_t bytes = 0;
};

// Fails when the payload is not a Vela stream (no leading `vela_bin_stream` block, a block
// running past the end) or has no scratch block.
Result<VelaScratch> ReadVelaScratch(std::span<const uint8_t> payload);

// An id some modelled release registers the Arm Ethos-U backend under (RuntimeTraits::
// ethosu_backend: "ArmBackend" until 0.5, "EthosUBackend" from 0.6).
bool IsEthosUBackend(std::string_view backend_id);

struct RunTimeTemp {
  uint32_t ethosu_delegates = 0;  // Ethos-U delegates the method calls
  uint64_t temp_bytes = 0;        // the largest scratch_size one of them takes from the temp allocator
  uint64_t in_blob_bytes = 0;     // the largest scratch that sits inside a blob instead
  uint32_t unreadable = 0;        // Ethos-U payloads without a readable scratch block
  bool other_calls = false;       // kernel calls or other delegates: their temp use is unknown
};

// Needs the program's mapped file (the blobs' bytes).
RunTimeTemp ComputeRunTimeTemp(const pte::ProgramView& program, const pte::MethodView& method);

}  // namespace etmem::plan
