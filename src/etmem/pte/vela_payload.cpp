// Owns: ReadVelaPayload and ReadVelaScratch (see vela_payload.h). Block names match by prefix,
// as the backend's reader does (strncmp over the known name's length).
#include "etmem/pte/vela_payload.h"

#include <algorithm>
#include <cstring>

#include "etmem/base/checked_math.h"

namespace etmem::pte {
namespace {

constexpr size_t kHeader = 32;
constexpr size_t kNameBytes = 16;

uint32_t ReadLe32(std::span<const uint8_t> b, size_t at) {
  return static_cast<uint32_t>(b[at]) | static_cast<uint32_t>(b[at + 1]) << 8 |
         static_cast<uint32_t>(b[at + 2]) << 16 | static_cast<uint32_t>(b[at + 3]) << 24;
}

bool StartsWith(const std::string& name, std::string_view known) {
  return name.compare(0, known.size(), known) == 0;
}

Error NotVela(const std::string& why) {
  return MakeError(ErrorCode::kInvalidProgram, "Ethos-U payload: " + why);
}

}  // namespace

Result<VelaPayload> ReadVelaPayload(std::span<const uint8_t> b) {
  VelaPayload out;
  if (b.size() < kHeader || !std::equal(b.begin(), b.begin() + 15, "vela_bin_stream"))
    return NotVela("does not start with a vela_bin_stream block");
  for (size_t at = 0; at + kHeader <= b.size();) {
    const uint32_t size = ReadLe32(b, at + 16);
    if (size > b.size() - at - kHeader) return NotVela("a block runs past the end");
    const auto* name = reinterpret_cast<const char*>(b.data() + at);
    out.blocks.emplace_back(name, strnlen(name, kNameBytes));
    const std::string& block = out.blocks.back();
    if (!out.scratch && StartsWith(block, "scratch_size")) {
      if (size < 4) return NotVela("the scratch_size block holds fewer than 4 bytes");
      out.scratch = VelaScratch{ScratchKind::kTempAllocation, ReadLe32(b, at + kHeader)};
    } else if (!out.scratch && StartsWith(block, "scratch_data")) {
      out.scratch = VelaScratch{ScratchKind::kInBlob, size};
    }
    if (StartsWith(block, "vela_end_stream")) break;
    at += kHeader + AlignUp(uint64_t{size}, 16);
  }
  return out;
}

Result<VelaScratch> ReadVelaScratch(std::span<const uint8_t> b) {
  ETMEM_TRY(VelaPayload p, ReadVelaPayload(b));
  if (!p.scratch) return NotVela("no scratch block");
  return *p.scratch;
}

}  // namespace etmem::pte
