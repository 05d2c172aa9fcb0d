// Owns: IsEthosUBackend and ComputeRunTimeTemp (see ethosu_scratch.h).
#include "etmem/plan/ethosu_scratch.h"

#include <algorithm>
#include <set>
#include <string>

#include "etmem/base/checked_math.h"
#include "etmem/pte/mapped_file.h"
#include "etmem/runtime/release.h"

namespace etmem::plan {
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
    const pte::DelegateView* found = m.DelegateOf(ins);
    if (!found || !IsEthosUBackend(found->backend)) {
      out.other_calls = true;
      continue;
    }
    const pte::DelegateView& d = *found;
    ++out.ethosu_delegates;
    const bool inside = d.blob_file_offset <= file.size() &&
                        d.blob_bytes <= file.size() - d.blob_file_offset;
    auto s = inside ? ReadVelaScratch(file.subspan(d.blob_file_offset, d.blob_bytes))
                    : Result<VelaScratch>(MakeError(ErrorCode::kInvalidProgram,
                                                    "Ethos-U payload: the blob is not in the file"));
    if (!s) ++out.unreadable;
    else if (s->kind == ScratchKind::kTempAllocation) out.temp_bytes = std::max(out.temp_bytes, s->bytes);
    else out.in_blob_bytes = std::max(out.in_blob_bytes, s->bytes);
  }
  return out;
}

}  // namespace etmem::plan
