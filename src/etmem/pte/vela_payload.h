// Owns: reading an Arm Ethos-U delegate's Vela payload: a stream of blocks, each a 32-byte
// header {char name[16]; uint32 size (little-endian, unpadded); 12 pad bytes} then the data,
// zero-padded to 16, from `vela_bin_stream` to `vela_end_stream`. Newer payloads carry a
// `scratch_size` block (a uint32) that the backend takes from the temp allocator; older ones
// carry `scratch_data`, the scratch itself, inside the blob.
// Not: what a release's backend makes of the blocks (runtime/ for init(), kernels/ for
// execute()), the method's run-time temp (plan/ethosu_scratch.h).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "etmem/base/result.h"

namespace etmem::pte {

enum class ScratchKind { kTempAllocation, kInBlob };

struct VelaScratch {
  ScratchKind kind = ScratchKind::kTempAllocation;
  uint64_t bytes = 0;
};

struct VelaPayload {
  std::vector<std::string> blocks;    // each block's name (up to its first NUL), in order
  std::optional<VelaScratch> scratch; // the first scratch_size or scratch_data block
};

// Fails when the payload is not a Vela stream: no leading `vela_bin_stream` block, or a block
// running past the end. Reads to `vela_end_stream` or the payload's end.
Result<VelaPayload> ReadVelaPayload(std::span<const uint8_t> payload);
// The same, failing also when there is no scratch block.
Result<VelaScratch> ReadVelaScratch(std::span<const uint8_t> payload);

}  // namespace etmem::pte
