// Owns: RewritePlan. The program is copied table by table, guided by the binary schema: every
// field present in the input is written, and no other, so an empty vector stays an empty vector
// (the runtime refuses a program whose `delegates` or a tensor's `sizes` is missing, and takes
// the deprecated inline-constant path when constant_segment.offsets is missing; flatbuffers'
// object API would drop them all). Only the placements' offsets (always written), their memory
// ids (when an edit moves them) and the methods' planned_buffer_sizes are replaced.
// Flatbuffer offsets are relative except the root offset, so splicing the header after the
// 8-byte prefix only moves the root offset; the splice is a multiple of 16 bytes so every
// (force-)aligned field stays aligned.
#include "etmem/plan/rewrite.h"

#include <algorithm>
#include <cstring>
#include <map>
#include <string>
#include <string_view>
#include <unordered_map>

#include <flatbuffers/reflection.h>

#include "etmem/base/checked_math.h"
#include "etmem/fb/program_bfbs_generated.h"
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

// The input tables to change, found by address: placements get new offsets, methods new
// planned_buffer_sizes.
struct Replacements {
  std::unordered_map<const void*, uint64_t> placement_offset;
  std::unordered_map<const void*, uint32_t> placement_memory_id;
  std::unordered_map<const void*, const std::vector<int64_t>*> planned_sizes;
};

Result<Replacements> FindReplacements(const fb::Program& p, const std::vector<PlanEdit>& edits,
                                      const std::string& name) {
  auto fail = [&](const std::string& what) {
    return MakeError(ErrorCode::kInvalidArgument, name + ": cannot rewrite the plan: " + what);
  };
  Replacements r;
  size_t values = 0;
  for (const PlanEdit& e : edits) values += e.values.size();
  r.placement_offset.reserve(values);
  for (const PlanEdit& e : edits) {
    if (!p.methods() || e.method >= p.methods()->size() || e.values.size() != e.offsets.size() ||
        (!e.memory_ids.empty() && e.memory_ids.size() != e.values.size()))
      return fail("bad edit of method " + std::to_string(e.method));
    const fb::Method& m = *p.methods()->Get(static_cast<flatbuffers::uoffset_t>(e.method));
    for (size_t k = 0; k < e.values.size(); ++k) {
      const auto v = static_cast<flatbuffers::uoffset_t>(e.values[k]);
      const fb::Tensor* t = m.values() && v < m.values()->size() && m.values()->Get(v)
                                ? m.values()->Get(v)->payload_as_Tensor()
                                : nullptr;
      if (!t || !t->placement()) return fail("value " + std::to_string(v) + " is not planned");
      r.placement_offset[t->placement()] = e.offsets[k];
      if (!e.memory_ids.empty()) {
        if (e.memory_ids[k] == 0 || e.memory_ids[k] >= e.planned_buffer_sizes.size())
          return fail("value " + std::to_string(v) + " moved to a buffer that does not exist");
        r.placement_memory_id[t->placement()] = e.memory_ids[k];
      }
    }
    if (!m.planned_buffer_sizes() ||
        (e.memory_ids.empty() ? e.planned_buffer_sizes.size() != m.planned_buffer_sizes()->size()
                              : e.planned_buffer_sizes.size() < m.planned_buffer_sizes()->size()))
      return fail("the number of planned buffers may not change");
    r.planned_sizes[&m] = &e.planned_buffer_sizes;
  }
  return r;
}

// Copies tables as they are stored (see the file comment), applying the replacements.
class TableCopier {
 public:
  TableCopier(const reflection::Schema& schema, const Replacements& r,
              flatbuffers::FlatBufferBuilder& fbb)
      : schema_(schema), r_(r), fbb_(fbb) {
    fbb_.ForceDefaults(true);  // a replaced offset of 0 is still written
    // The replacements are looked up only in the tables of the types they can be (a program
    // has hundreds of thousands of tables).
    for (const reflection::Object* o : *schema_.objects())
      for (const reflection::Field* f : *o->fields()) {
        const std::string_view name(f->name()->c_str(), f->name()->size());
        if (name == "offset_low" && !o->is_struct()) placement_obj_ = o;
        if (name == "planned_buffer_sizes") method_obj_ = o;
      }
  }

  Result<flatbuffers::uoffset_t> Table(const reflection::Object& obj, const flatbuffers::Table& t) {
    if (obj.is_struct()) return Unsupported(obj.name()->str());
    // The children's offsets, on a stack shared by the recursion (no vector per table).
    const size_t base = children_.size();
    const std::vector<FieldInfo>& fields = Fields(obj);
    for (const FieldInfo& fi : fields) {
      if (fi.scalar || !t.GetOptionalFieldOffset(fi.offset)) continue;
      const reflection::Field* f = fi.field;
      // A union of type NONE: the runtime never follows its payload (a value without a type is
      // refused by its type), so a payload stored beside it is not copied.
      if (fi.base == reflection::Union && UnionType(obj, *f, t) == 0) continue;
      ETMEM_TRY(flatbuffers::uoffset_t child, Child(obj, *f, t));
      children_.emplace_back(fi.offset, child);
    }
    const flatbuffers::uoffset_t start = fbb_.StartTable();
    for (size_t k = base; k < children_.size(); ++k)
      fbb_.AddOffset(children_[k].first, flatbuffers::Offset<void>(children_[k].second));
    children_.resize(base);
    const uint64_t* new_offset = nullptr;
    const uint32_t* new_memory_id = nullptr;
    if (&obj == placement_obj_) {
      if (const auto it = r_.placement_offset.find(&t); it != r_.placement_offset.end())
        new_offset = &it->second;
      if (const auto id = r_.placement_memory_id.find(&t); id != r_.placement_memory_id.end())
        new_memory_id = &id->second;
    }
    for (const FieldInfo& fi : fields)
      if (fi.scalar) Scalar(fi, t, new_offset, new_memory_id);
    return fbb_.EndTable(start);
  }

 private:
  // What Table needs of a field, read from the schema once per object type.
  struct FieldInfo {
    const reflection::Field* field = nullptr;
    flatbuffers::voffset_t offset = 0;
    reflection::BaseType base = reflection::None;
    bool scalar = false;
    size_t size = 0;  // a scalar's
    bool offset_low = false, offset_high = false, memory_id = false;
  };

  const std::vector<FieldInfo>& Fields(const reflection::Object& obj) {
    auto [it, added] = fields_.try_emplace(&obj);
    if (added)
      for (const reflection::Field* f : *obj.fields()) {
        FieldInfo fi;
        fi.field = f;
        fi.offset = f->offset();
        fi.base = f->type()->base_type();
        fi.scalar = IsScalar(fi.base);
        fi.size = fi.scalar ? flatbuffers::GetTypeSize(fi.base) : 0;
        const std::string_view name(f->name()->c_str(), f->name()->size());
        fi.offset_low = name == "offset_low";
        fi.offset_high = name == "offset_high";
        fi.memory_id = name == "memory_id";
        it->second.push_back(fi);
      }
    return it->second;
  }

  static bool IsScalar(reflection::BaseType b) {
    return b >= reflection::UType && b <= reflection::Double;
  }
  static Error Unsupported(const std::string& what) {
    return MakeError(ErrorCode::kUnsupported, "the program rewriter does not handle " + what);
  }

  // Present scalars as stored (raw bytes); placement offsets always, with their new value.
  // `new_offset`, `new_memory_id`: the table's replacements, if any.
  void Scalar(const FieldInfo& f, const flatbuffers::Table& t, const uint64_t* new_offset,
              const uint32_t* new_memory_id) {
    if (new_offset && (f.offset_low || f.offset_high)) {
      const auto half = static_cast<uint32_t>(f.offset_low ? *new_offset : *new_offset >> 32);
      fbb_.AddElement<uint32_t>(f.offset, half, 0);
      return;
    }
    if (new_memory_id && f.memory_id) {
      fbb_.AddElement<uint32_t>(f.offset, *new_memory_id, 0);
      return;
    }
    const uint8_t* at = t.GetStruct<const uint8_t*>(f.offset);
    if (!at) return;
    fbb_.Align(f.size);
    fbb_.PushBytes(at, f.size);
    fbb_.TrackField(f.offset, fbb_.GetSize());
  }

  // The type byte stored beside union field `f` (0, NONE, when it is absent).
  uint8_t UnionType(const reflection::Object& obj, const reflection::Field& f,
                    const flatbuffers::Table& t) {
    auto [it, added] = union_type_field_.try_emplace(&f, nullptr);
    if (added)
      it->second = obj.fields()->LookupByKey(
          (f.name()->str() + flatbuffers::UnionTypeFieldSuffix()).c_str());
    const reflection::Field* type_field = it->second;
    return type_field ? flatbuffers::GetFieldI<uint8_t>(t, *type_field) : 0;
  }

  Result<flatbuffers::uoffset_t> Child(const reflection::Object& obj, const reflection::Field& f,
                                       const flatbuffers::Table& t) {
    switch (f.type()->base_type()) {
      case reflection::String: {
        const flatbuffers::String* s = flatbuffers::GetFieldS(t, f);
        return fbb_.CreateString(s->c_str(), s->size()).o;
      }
      case reflection::Obj:
        return Table(*schema_.objects()->Get(f.type()->index()), *flatbuffers::GetFieldT(t, f));
      case reflection::Union: {
        // flatbuffers::GetUnionType assumes a type the schema defines; the verifier lets any
        // type byte through (forward compatibility), so a hostile one is checked here.
        const uint8_t type = UnionType(obj, f, t);
        const reflection::EnumVal* value =
            schema_.enums()->Get(f.type()->index())->values()->LookupByKey(type);
        if (type == 0 || !value || !value->union_type() ||
            value->union_type()->base_type() != reflection::Obj)
          return MakeError(ErrorCode::kInvalidProgram,
                           "union field " + f.name()->str() + " holds type " +
                               std::to_string(type) + ", which the program schema does not define");
        return Table(*schema_.objects()->Get(value->union_type()->index()),
                     *flatbuffers::GetFieldT(t, f));
      }
      case reflection::Vector: {
        if (&obj == method_obj_ &&
            std::string_view(f.name()->c_str(), f.name()->size()) == "planned_buffer_sizes")
          if (const auto it = r_.planned_sizes.find(&t); it != r_.planned_sizes.end())
            return fbb_.CreateVector(*it->second).o;
        return Vector(f, *flatbuffers::GetFieldAnyV(t, f));
      }
      default:
        return Unsupported("field " + f.name()->str());
    }
  }

  Result<flatbuffers::uoffset_t> Vector(const reflection::Field& f, const flatbuffers::VectorOfAny& v) {
    const reflection::BaseType element = f.type()->element();
    std::vector<flatbuffers::Offset<void>> items;
    if (element == reflection::String || element == reflection::Obj) {
      for (flatbuffers::uoffset_t i = 0; i < v.size(); ++i) {
        flatbuffers::uoffset_t item = 0;
        if (element == reflection::String) {
          const auto* s = flatbuffers::GetAnyVectorElemPointer<const flatbuffers::String>(&v, i);
          item = fbb_.CreateString(s->c_str(), s->size()).o;
        } else {
          ETMEM_TRY(item, Table(*schema_.objects()->Get(f.type()->index()),
                                *flatbuffers::GetAnyVectorElemPointer<const flatbuffers::Table>(&v, i)));
        }
        items.emplace_back(item);
      }
      return fbb_.CreateVector(items).o;
    }
    if (!IsScalar(element)) return Unsupported("vector field " + f.name()->str());
    const size_t size = flatbuffers::GetTypeSize(element);
    const auto* align = f.attributes() ? f.attributes()->LookupByKey("force_align") : nullptr;
    if (align) fbb_.ForceVectorAlignment(v.size(), size, std::stoul(align->value()->str()));
    fbb_.StartVector(v.size(), size);
    fbb_.PushBytes(v.Data(), v.size() * size);
    return fbb_.EndVector(v.size());
  }

  const reflection::Schema& schema_;
  const Replacements& r_;
  flatbuffers::FlatBufferBuilder& fbb_;
  const reflection::Object* placement_obj_ = nullptr;  // AllocationDetails
  const reflection::Object* method_obj_ = nullptr;     // Method
  std::vector<std::pair<flatbuffers::voffset_t, flatbuffers::uoffset_t>> children_;
  // A union field -> the field holding its type (absent: nullptr).
  std::unordered_map<const reflection::Field*, const reflection::Field*> union_type_field_;
  std::unordered_map<const reflection::Object*, std::vector<FieldInfo>> fields_;
};

// Largest power of two (up to 4096) dividing the input's segment base: the new base keeps it.
uint64_t SegmentAlignment(uint64_t base) {
  uint64_t a = 1;
  while (a < kMaxSegmentAlign && base % (a * 2) == 0) a *= 2;
  return a;
}

// Appends `bytes` to `out` (uint8_t or std::byte).
template <typename Byte>
void Append(std::vector<Byte>& out, std::span<const uint8_t> bytes) {
  const auto* p = reinterpret_cast<const Byte*>(bytes.data());
  out.insert(out.end(), p, p + bytes.size());
}

template <typename Byte>
std::vector<Byte> Splice(std::span<const uint8_t> fb, const pte::ProgramView& program,
                         std::span<const uint8_t> input) {
  const pte::ExtendedHeader& h = *program.header;
  const uint64_t splice = AlignUp(h.length, kSpliceAlign);
  const uint64_t program_size = fb.size() + splice;
  const bool has_segments = h.segment_base_offset != 0;
  const uint64_t base =
      has_segments ? AlignUp(program_size, SegmentAlignment(h.segment_base_offset)) : 0;
  // A segment base past the file's end (accepted when no segment is ever read): no segment
  // bytes to carry over.
  const uint64_t tail = has_segments && h.segment_base_offset < input.size()
                            ? input.size() - h.segment_base_offset
                            : 0;
  // Written front to back into one buffer sized once (a scaled program is tens of MB).
  std::vector<Byte> head;
  head.reserve(has_segments ? base + tail : program_size);
  Append(head, fb.first(kHeaderOffset));
  auto* const at = reinterpret_cast<uint8_t*>(head.data());
  StoreU32(at, LoadU32(fb.data()) + static_cast<uint32_t>(splice));
  // Copy the input's header (keeps any bytes past the fields we know), then fix the sizes.
  Append(head, input.subspan(kHeaderOffset, h.length));
  head.resize(kHeaderOffset + splice, Byte{0});
  Append(head, fb.subspan(kHeaderOffset));
  StoreU64(reinterpret_cast<uint8_t*>(head.data()) + kHeaderOffset + 8, program_size);
  StoreU64(reinterpret_cast<uint8_t*>(head.data()) + kHeaderOffset + 16, base);
  if (!has_segments) {
    // Segments listed under a zero base, which the runtime never reads ("No segments"): the
    // reader still bounds them by the file, so keep the file as long as they say (no longer than
    // the input, which the reader accepted under the same rule).
    uint64_t listed_end = 0;
    for (const pte::SegmentView& s : program.segments)
      listed_end = std::max(listed_end, s.offset + s.size);
    if (listed_end > head.size()) head.resize(listed_end, Byte{0});
    return head;
  }
  if (h.segment_data_size)
    StoreU64(reinterpret_cast<uint8_t*>(head.data()) + kHeaderOffset + 24, *h.segment_data_size);
  head.resize(base, Byte{0});
  if (tail > 0) Append(head, input.subspan(h.segment_base_offset, tail));
  return head;
}

}  // namespace

// Empty segments (as in some real 2024 programs without a header) lose nothing.
bool SegmentsOverlapProgram(const pte::ProgramView& program) {
  return !program.header &&
         std::any_of(program.segments.begin(), program.segments.end(),
                     [](const pte::SegmentView& s) { return s.size != 0; });
}

namespace {

template <typename Byte>
Result<std::vector<Byte>> Rewrite(const pte::ProgramView& program,
                                  const std::vector<PlanEdit>& edits) {
  if (!program.file)
    return MakeError(ErrorCode::kInvalidArgument, program.path + ": the program's bytes are gone");
  // The runtime reads such a file; a rewrite cannot keep both the new flatbuffer and the
  // segment bytes at the same offsets, so it is refused, not written wrong.
  if (SegmentsOverlapProgram(program))
    return MakeError(ErrorCode::kInvalidArgument,
                     program.path + ": its segments have no extended header (\"eh00\" at byte 8), so "
                     "their offsets count from the file's first byte, inside the program a rewrite "
                     "replaces; etmem does not rewrite such a program");
  std::span<const uint8_t> input = program.file->bytes();
  ETMEM_TRY(Replacements r, FindReplacements(*fb::GetProgram(input.data()), edits, program.path));
  const reflection::Schema& schema = *reflection::GetSchema(fb::ProgramBinarySchema::data());
  // Room for the copy and some growth (defaults written, alignment), so the builder's buffer is
  // not reallocated and copied.
  flatbuffers::FlatBufferBuilder builder(program.flatbuffer_bytes + program.flatbuffer_bytes / 8 +
                                         4096);
  TableCopier copier(schema, r, builder);
  auto root = copier.Table(*schema.root_table(),
                           *reinterpret_cast<const flatbuffers::Table*>(fb::GetProgram(input.data())));
  if (!root) return MakeError(root.error().code, program.path + ": " + root.error().message);
  fb::FinishProgramBuffer(builder, flatbuffers::Offset<fb::Program>(*root));
  std::span<const uint8_t> out(builder.GetBufferPointer(), builder.GetSize());
  if (!program.header) {
    std::vector<Byte> bytes;
    bytes.reserve(out.size());
    Append(bytes, out);
    return bytes;
  }
  return Splice<Byte>(out, program, input);
}

}  // namespace

Result<std::vector<uint8_t>> RewritePlan(const pte::ProgramView& program,
                                         const std::vector<PlanEdit>& edits) {
  return Rewrite<uint8_t>(program, edits);
}

Result<std::vector<std::byte>> RewritePlanBytes(const pte::ProgramView& program,
                                                const std::vector<PlanEdit>& edits) {
  return Rewrite<std::byte>(program, edits);
}

}  // namespace etmem::plan
