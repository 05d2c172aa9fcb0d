// Owns: writing a program whose planned offsets, planned_buffer_sizes (and, for a split, the
// planned memory ids) are replaced, and nothing else. The flatbuffer is unpacked (object API), edited and repacked; the extended
// header is re-spliced with the input's length and the segments are copied byte for byte, at
// the same offsets relative to the (new) segment base.
// Not: choosing the new plan (replan.h).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "etmem/base/result.h"
#include "etmem/pte/program_view.h"

namespace etmem::plan {

struct PlanEdit {
  size_t method = 0;                 // index into ProgramView::methods
  std::vector<int32_t> values;       // planned tensor values to move
  std::vector<uint64_t> offsets;     // their new offsets, same order
  std::vector<int64_t> planned_buffer_sizes;  // the method's new sizes, index 0 reserved
  // Empty: memory ids stay. Else one per value, its new memory id; planned_buffer_sizes may then
  // have more entries than the method had (a buffer split into several, `etmem fit`).
  std::vector<uint32_t> memory_ids;
};

// Whether `program` has segment bytes but no extended header: their offsets then count from the
// file's first byte, inside the flatbuffer a rewrite replaces, so RewritePlan refuses it.
bool SegmentsOverlapProgram(const pte::ProgramView& program);

// The bytes of the rewritten program. `program` must still hold its mapped file.
Result<std::vector<uint8_t>> RewritePlan(const pte::ProgramView& program,
                                         const std::vector<PlanEdit>& edits);
// The same bytes as std::byte (api::Replanned::program), written there without another copy.
Result<std::vector<std::byte>> RewritePlanBytes(const pte::ProgramView& program,
                                                const std::vector<PlanEdit>& edits);

}  // namespace etmem::plan
