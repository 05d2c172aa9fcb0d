// Owns: ReadVelaScratch, IsEthosUBackend and ComputeRunTimeTemp. Block names match by prefix,
// as the backend's reader does (strncmp over the known name's length).
#include "etmem/plan/ethosu_scratch.h"

#include <algorithm>
#include <set>
#include <string>

#include "etmem/base/checked_math.h"
#include "etmem/pte/mapped_file.h"
#include "etmem/runtime/release.h"

namespace etmem::plan {
namespace {

constexpr size_t kHeader = 32;

uint32_t ReadLe32(std::span<const uint8_t> b, size_t at) {
  return static_cast<uint32_t>(b[at]) | static_cast<uint32_t>(b[at + 1]) << 8 |
         static_cast<uint32_t>(b[at + 2]) << 16 | static_cast<uint32_t>(b[at + 3]) << 24;
}

bool NameIs(std::span<const uint8_t> b, size_t at, std::string_view name) {
  return std::equal(name.begin(), name.end(), b.begin() + static_cast<ptrdiff_t>(at));
}

Error NotVela(const std::string& why) {
  return MakeError(ErrorCode::kInvalidProgram, "Ethos-U payload: " + why);
}

}  // namespace

Result<VelaScratch> ReadVelaScratch(std::span<const uint8_t> b) {
  if (b.size() < kHeader || !NameIs(b, 0, "vela_bin_stream"))
    return NotVela("does not start with a vela_bin_stream block");
  for (size_t at = 0; at + kHeader <= b.size();) {
    const uint32_t size = ReadLe32(b, at + 16);
    if (size > b.size() - at - kHeader) return NotVela("a block runs past the end");
    if (NameIs(b, at, "scratch_size")) {
      if (size < 4) return NotVela("the scratch_size block holds fewer than 4 bytes");
      return VelaScratch{ScratchKind::kTempAllocation, ReadLe32(b, at + kHeader)};
    }
    if (NameIs(b, at, "scratch_data")) return VelaScratch{ScratchKind::kInBlob, size};
    if (NameIs(b, at, "vela_end_stream")) break;
    at += kHeader + AlignUp(uint64_t{size}, 16);
  }
  return NotVela("no scratch block");
}

bool IsEthosUBackend(std::string_view id) {
  // Every id a modelled release registers the backend under (the releases record the rename).
  static const std::set<std::string, std::less<>> ids = [] {
    std::set<std::string, std::less<>> out;
    for (const runtime::RuntimeTraits& t : runtime::AllReleases()) out.insert(t.ethosu_backend);
    for (const runtime::RuntimeTraits* t : runtime::AllSnapshots()) out.insert(t->ethosu_backend);
    out.erase("");
    return out;
  }();
  return ids.contains(id);
}

RunTimeTemp ComputeRunTimeTemp(const pte::ProgramView& program, const pte::MethodView& m) {
  RunTimeTemp out;
  std::span<const uint8_t> file = program.file ? program.file->bytes() : std::span<const uint8_t>{};
  for (const pte::InstructionView& ins : m.instructions) {
    if (ins.kind == pte::InstructionKind::kKernelCall) out.other_calls = true;
    if (ins.kind != pte::InstructionKind::kDelegateCall) continue;
    const pte::DelegateView& d = m.delegates[static_cast<size_t>(ins.target)];
    if (!IsEthosUBackend(d.backend)) {
      out.other_calls = true;
      continue;
    }
    ++out.ethosu_delegates;
    const bool inside = d.blob_file_offset <= file.size() &&
                        d.blob_bytes <= file.size() - d.blob_file_offset;
    auto s = inside ? ReadVelaScratch(file.subspan(d.blob_file_offset, d.blob_bytes))
                    : Result<VelaScratch>(NotVela("the blob is not in the file"));
    if (!s) ++out.unreadable;
    else if (s->kind == ScratchKind::kTempAllocation) out.temp_bytes = std::max(out.temp_bytes, s->bytes);
    else out.in_blob_bytes = std::max(out.in_blob_bytes, s->bytes);
  }
  return out;
}

}  // namespace etmem::plan
