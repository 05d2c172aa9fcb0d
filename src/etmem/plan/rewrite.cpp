// Owns: RewritePlan. Flatbuffer offsets are relative except the root offset, so splicing the
// header after the 8-byte prefix only moves the root offset; the splice is a multiple of 16
// bytes so every (force-)aligned field stays aligned.
#include "etmem/plan/rewrite.h"

#include <cstring>

#include "etmem/base/checked_math.h"
#include "etmem/fb/program_generated.h"
#include "etmem/pte/mapped_file.h"

namespace etmem::plan {
namespace {

constexpr size_t kHeaderOffset = 8;
constexpr uint64_t kSpliceAlign = 16;      // the largest alignment any field of the schema needs
constexpr uint64_t kMaxSegmentAlign = 4096;

void StoreU32(uint8_t* p, uint32_t v) { std::memcpy(p, &v, 4); }
void StoreU64(uint8_t* p, uint64_t v) { std::memcpy(p, &v, 8); }
uint32_t LoadU32(const uint8_t* p) {
  uint32_t v;
  std::memcpy(&v, p, 4);
  return v;
}

Status ApplyEdit(const PlanEdit& e, fb::ProgramT& p, const std::string& name) {
  auto fail = [&](const std::string& what) {
    return MakeError(ErrorCode::kInvalidArgument, name + ": cannot rewrite the plan: " + what);
  };
  if (e.method >= p.methods.size() || e.values.size() != e.offsets.size())
    return fail("bad edit of method " + std::to_string(e.method));
  fb::MethodT& m = *p.methods[e.method];
  for (size_t k = 0; k < e.values.size(); ++k) {
    const auto v = static_cast<size_t>(e.values[k]);
    fb::TensorT* t = v < m.values.size() && m.values[v] ? m.values[v]->payload.AsTensor() : nullptr;
    if (!t || !t->placement) return fail("value " + std::to_string(v) + " is not planned");
    t->placement->offset_low = static_cast<uint32_t>(e.offsets[k]);
    t->placement->offset_high = static_cast<uint32_t>(e.offsets[k] >> 32);
  }
  if (e.planned_buffer_sizes.size() != m.planned_buffer_sizes.size())
    return fail("the number of planned buffers may not change");
  m.planned_buffer_sizes = e.planned_buffer_sizes;
  return Ok{};
}

// Largest power of two (up to 4096) dividing the input's segment base: the new base keeps it.
uint64_t SegmentAlignment(uint64_t base) {
  uint64_t a = 1;
  while (a < kMaxSegmentAlign && base % (a * 2) == 0) a *= 2;
  return a;
}

std::vector<uint8_t> Splice(std::span<const uint8_t> fb, const pte::ProgramView& program,
                            std::span<const uint8_t> input) {
  const pte::ExtendedHeader& h = *program.header;
  const uint64_t splice = AlignUp(h.length, kSpliceAlign);
  std::vector<uint8_t> head(fb.size() + splice, 0);
  std::memcpy(head.data(), fb.data(), kHeaderOffset);
  StoreU32(head.data(), LoadU32(fb.data()) + static_cast<uint32_t>(splice));
  std::memcpy(head.data() + kHeaderOffset + splice, fb.data() + kHeaderOffset,
              fb.size() - kHeaderOffset);
  // Copy the input's header (keeps any bytes past the fields we know), then fix the sizes.
  std::memcpy(head.data() + kHeaderOffset, input.data() + kHeaderOffset, h.length);
  const uint64_t program_size = head.size();
  const bool has_segments = h.segment_base_offset != 0;
  const uint64_t base =
      has_segments ? AlignUp(program_size, SegmentAlignment(h.segment_base_offset)) : 0;
  StoreU64(head.data() + kHeaderOffset + 8, program_size);
  StoreU64(head.data() + kHeaderOffset + 16, base);
  if (!has_segments) return head;
  const uint64_t tail = input.size() - h.segment_base_offset;
  if (h.segment_data_size) StoreU64(head.data() + kHeaderOffset + 24, *h.segment_data_size);
  head.resize(base + tail, 0);
  std::memcpy(head.data() + base, input.data() + h.segment_base_offset, tail);
  return head;
}

}  // namespace

Result<std::vector<uint8_t>> RewritePlan(const pte::ProgramView& program,
                                         const std::vector<PlanEdit>& edits) {
  if (!program.file)
    return MakeError(ErrorCode::kInvalidArgument, program.path + ": the program's bytes are gone");
  std::span<const uint8_t> input = program.file->bytes();
  std::unique_ptr<fb::ProgramT> p = fb::UnPackProgram(input.data());
  for (const PlanEdit& e : edits)
    if (auto s = ApplyEdit(e, *p, program.path); !s) return s.error();
  flatbuffers::FlatBufferBuilder builder(program.flatbuffer_bytes + 1024);
  fb::FinishProgramBuffer(builder, fb::Program::Pack(builder, p.get()));
  std::span<const uint8_t> out(builder.GetBufferPointer(), builder.GetSize());
  if (!program.header) return std::vector<uint8_t>(out.begin(), out.end());
  return Splice(out, program, input);
}

}  // namespace etmem::plan
