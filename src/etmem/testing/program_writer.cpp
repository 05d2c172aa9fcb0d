// Owns: LayOutProgram and ProgramImage. First a DataPlan decides where every byte outside the
// method tables goes (segments, inline constants, inline blobs); then a FlatbufferWriter emits
// the tables with the generated Create* functions; then the extended header is spliced in.
//
// Vectors the runtime dereferences without a null check (sizes, dim_order, args, instructions,
// delegates, ...) are always written, even when empty: flatbuffers' object API would drop
// empty vectors, which is why this file builds tables by hand.
#include "etmem/testing/program_writer.h"
#include "etmem/testing/writer_bytes.h"

#include <cstring>
#include <filesystem>
#include <fstream>
#include <optional>

#include "etmem/fb/program_generated.h"

namespace etmem::testing {
namespace {

constexpr size_t kHeaderOffset = 8;        // the extended header follows the identifier
constexpr size_t kPaddedHeaderBytes = 32;  // header length rounded up to the 16-byte alignment

struct BlobRef {
  fb::BlobLocation location = fb::BlobLocation::INLINE;
  uint32_t index = 0;
};

// Where the data outside the method tables goes. Segment and piece offsets are relative to the
// segment base, which is only known once the flatbuffer's size is.
struct DataPlan {
  std::vector<std::pair<uint64_t, uint64_t>> segments;  // {offset, size}
  std::vector<ProgramImage::Piece> pieces;
  std::vector<uint64_t> constant_offsets;             // segment mode, with the reserved 0
  bool constants_inline = false;                      // legacy Program.inline_constants
  bool inline_constant_vector = true;                 // ProgramOptions::inline_constant_vector
  uint32_t extra_inline_buffers = 0;  // ProgramOptions::extra_inline_constant_buffers
  std::vector<const ConstantData*> inline_constants;  // inline mode, without the reserved one
  std::vector<const std::vector<uint8_t>*> inline_blobs;
  std::vector<std::vector<BlobRef>> delegate_blobs;  // [method][delegate]
  std::vector<uint32_t> first_data_index;            // [method]: data_index of constant 0
  std::vector<uint32_t> named_data_segments;
  const MutableSegmentRecord* mutable_segment = nullptr;  // ProgramOptions::mutable_segment
  uint32_t mutable_segment_index = 0;                     // as written
  bool empty_mutable_segment_list = false;  // ProgramOptions::empty_mutable_segment_list
  bool empty_named_data_without_segments = false;  // ProgramOptions::empty_named_data_without_segments
  bool empty_named_data = false;                   // ProgramOptions::empty_named_data
  uint64_t segment_alignment = 1;

  uint32_t AddSegment(uint64_t size) {
    uint64_t offset = segments.empty() ? 0
                                       : AlignUp(segments.back().first + segments.back().second,
                                                 segment_alignment);
    segments.emplace_back(offset, size);
    return static_cast<uint32_t>(segments.size() - 1);
  }
  void AddPiece(uint64_t offset, const uint8_t* data, uint64_t size) {
    if (size > 0) pieces.push_back({offset, data, size});
  }
  uint64_t segment_data_size() const {
    return segments.empty() ? 0 : segments.back().first + segments.back().second;
  }
};

void PlanConstantIndices(std::span<const MethodRecord* const> methods, DataPlan& plan) {
  uint32_t next = 1;  // index 0 is reserved for "no constant" in both storage modes
  for (const MethodRecord* m : methods) {
    plan.first_data_index.push_back(next);
    next += static_cast<uint32_t>(m->constants.size());
  }
}

// All constants of all methods share one segment, each aligned inside it.
void PlanConstantSegment(const ProgramOptions& options,
                         std::span<const MethodRecord* const> methods, DataPlan& plan) {
  uint64_t cursor = 0;
  std::vector<std::pair<uint64_t, const ConstantData*>> placed;
  for (const MethodRecord* m : methods)
    for (const ConstantData& c : m->constants) {
      uint64_t offset = AlignUp(cursor, options.constant_alignment);
      placed.emplace_back(offset, &c);
      cursor = offset + c.size();
    }
  if (placed.empty()) {
    if (options.placeholder_constant_offset) plan.constant_offsets.push_back(0);
    return;
  }
  uint32_t index = plan.AddSegment(cursor);
  ETMEM_CHECK(index == 0);
  plan.constant_offsets.push_back(0);
  for (const auto& [offset, c] : placed) {
    plan.constant_offsets.push_back(offset);
    plan.AddPiece(plan.segments[index].first + offset, c->bytes.data(), c->bytes.size());
  }
  if (const auto& o = options.constant_offset_override) {
    ETMEM_CHECK(o->first < plan.constant_offsets.size());
    plan.constant_offsets[o->first] = o->second;
  }
}

void PlanInlineConstants(std::span<const MethodRecord* const> methods, DataPlan& plan) {
  for (const MethodRecord* m : methods)
    for (const ConstantData& c : m->constants) plan.inline_constants.push_back(&c);
}

void PlanDelegateBlobs(std::span<const MethodRecord* const> methods, DataPlan& plan) {
  for (const MethodRecord* m : methods) {
    std::vector<BlobRef>& refs = plan.delegate_blobs.emplace_back();
    for (const DelegateSpec& d : m->delegates) {
      if (!d.blob_in_segment) {
        refs.push_back({fb::BlobLocation::INLINE, static_cast<uint32_t>(plan.inline_blobs.size())});
        plan.inline_blobs.push_back(&d.blob);
        continue;
      }
      uint32_t index = plan.AddSegment(d.blob.size());
      plan.AddPiece(plan.segments[index].first, d.blob.data(), d.blob.size());
      refs.push_back({fb::BlobLocation::SEGMENT, index});
    }
  }
}

void PlanNamedData(std::span<const NamedDataRecord> named_data, DataPlan& plan) {
  for (const NamedDataRecord& n : named_data) {
    uint32_t index = plan.AddSegment(n.bytes.size());
    plan.AddPiece(plan.segments[index].first, n.bytes.data(), n.bytes.size());
    plan.named_data_segments.push_back(index);
  }
}

DataPlan PlanData(const ProgramOptions& options, std::span<const MethodRecord* const> methods,
                  std::span<const NamedDataRecord> named_data) {
  DataPlan plan;
  plan.segment_alignment = options.segment_alignment;
  PlanConstantIndices(methods, plan);
  plan.constants_inline = !options.constants_in_segment;
  plan.inline_constant_vector = options.inline_constant_vector;
  plan.extra_inline_buffers = options.extra_inline_constant_buffers;
  if (plan.constants_inline) {
    PlanInlineConstants(methods, plan);
    // The placeholder {0, [0]} beside inline constants (refusal programs).
    if (options.placeholder_constant_offset) plan.constant_offsets.push_back(0);
  } else
    PlanConstantSegment(options, methods, plan);
  PlanDelegateBlobs(methods, plan);
  PlanNamedData(named_data, plan);
  plan.empty_mutable_segment_list = options.empty_mutable_segment_list;
  plan.empty_named_data_without_segments = options.empty_named_data_without_segments;
  plan.empty_named_data = options.empty_named_data;
  if (options.mutable_segment) {
    const MutableSegmentRecord& s = *options.mutable_segment;
    const uint32_t index = plan.AddSegment(s.bytes.size());
    plan.AddPiece(plan.segments[index].first, s.bytes.data(), s.bytes.size());
    plan.mutable_segment = &s;
    plan.mutable_segment_index = s.segment_index.value_or(index);
  }
  return plan;
}

using flatbuffers::Offset;

// Emits the Program table and everything below it into one FlatBufferBuilder.
class FlatbufferWriter {
 public:
  explicit FlatbufferWriter(const DataPlan& plan) : plan_(plan) {}

  std::vector<uint8_t> Finish(std::span<const MethodRecord* const> methods,
                              std::span<const NamedDataRecord> named_data);

 private:
  Offset<fb::Method> Method(const MethodRecord& m, size_t method_index);
  Offset<fb::Value> Value(const ValueRecord& v, uint32_t first_data_index);
  Offset<fb::Value> Tensor(const TensorRecord& t, uint32_t first_data_index);
  Offset<fb::Instruction> Instruction(const InstructionRecord& i);
  Offset<fb::Chain> Chain(const std::vector<InstructionRecord>& instructions);
  Offset<fb::Delegate> Delegate(const DelegateSpec& d, BlobRef blob);
  Offset<flatbuffers::Vector<Offset<fb::InlineBuffer>>> InlineConstants();
  Offset<flatbuffers::Vector<Offset<fb::InlineBlob>>> InlineBlobs();
  Offset<fb::SubSegments> ConstantSegment();
  Offset<flatbuffers::Vector<Offset<fb::Segment>>> Segments();
  Offset<flatbuffers::Vector<Offset<fb::NamedBlob>>> NamedData(
      std::span<const NamedDataRecord> named_data);
  Offset<flatbuffers::Vector<uint8_t>> AlignedBytes(const uint8_t* data, uint64_t size);

  const DataPlan& plan_;
  flatbuffers::FlatBufferBuilder fbb_{4096};
};

template <typename Payload>
Offset<fb::Value> MakeValue(flatbuffers::FlatBufferBuilder& fbb, fb::Payload type,
                            Offset<Payload> payload) {
  return fb::CreateValue(fbb, type, payload.Union());
}

Offset<fb::Value> FlatbufferWriter::Tensor(const TensorRecord& t, uint32_t first_data_index) {
  auto sizes = fbb_.CreateVector(t.sizes);
  auto dim_order = fbb_.CreateVector(t.dim_order);
  Offset<fb::PlannedPlacement> placement = 0;
  if (t.placement)
    placement = fb::CreatePlannedPlacement(fbb_, t.placement->memory_id,
                                           static_cast<uint32_t>(t.placement->offset),
                                           static_cast<uint32_t>(t.placement->offset >> 32));
  Offset<fb::TensorExtras> extras = 0;
  if (t.external_without_key)
    extras = fb::CreateTensorExtras(fbb_, 0, 0, fb::DataLocation::EXTERNAL);
  else if (!t.external_fqn.empty())
    extras = fb::CreateTensorExtras(fbb_, 0, fbb_.CreateString(t.external_fqn),
                                    fb::DataLocation::EXTERNAL);
  uint32_t data_index = t.constant < 0 ? 0 : first_data_index + static_cast<uint32_t>(t.constant);
  if (t.data_index) data_index = *t.data_index;
  auto tensor = fb::CreateTensor(fbb_, static_cast<fb::ScalarType>(t.dtype), t.storage_offset, sizes, dim_order,
                                 t.requires_grad, data_index, placement, 0,
                                 static_cast<fb::ShapeDynamism>(t.dynamism), extras);
  return MakeValue(fbb_, fb::Payload::Tensor, tensor);
}

Offset<fb::Value> FlatbufferWriter::Value(const ValueRecord& v, uint32_t first_data_index) {
  auto& b = fbb_;
  struct Visitor {
    FlatbufferWriter& w;
    flatbuffers::FlatBufferBuilder& b;
    uint32_t first;
    Offset<fb::Value> operator()(const NullValue&) {
      return MakeValue(b, fb::Payload::Null, fb::CreateNull(b));
    }
    Offset<fb::Value> operator()(const IntValue& x) {
      return MakeValue(b, fb::Payload::Int, fb::CreateInt(b, x.value));
    }
    Offset<fb::Value> operator()(const BoolValue& x) {
      return MakeValue(b, fb::Payload::Bool, fb::CreateBool(b, x.value));
    }
    Offset<fb::Value> operator()(const DoubleValue& x) {
      return MakeValue(b, fb::Payload::Double, fb::CreateDouble(b, x.value));
    }
    Offset<fb::Value> operator()(const StringValue& x) {
      return MakeValue(b, fb::Payload::String,
                       fb::CreateString(b, x.omit ? 0 : b.CreateString(x.value)));
    }
    Offset<fb::Value> operator()(const TensorRecord& x) { return w.Tensor(x, first); }
    Offset<fb::Value> operator()(const IntListValue& x) {
      return MakeValue(b, fb::Payload::IntList, fb::CreateIntList(b, b.CreateVector(x.items)));
    }
    Offset<fb::Value> operator()(const DoubleListValue& x) {
      return MakeValue(b, fb::Payload::DoubleList,
                       fb::CreateDoubleList(b, b.CreateVector(x.items)));
    }
    Offset<fb::Value> operator()(const BoolListValue& x) {
      return MakeValue(b, fb::Payload::BoolList, fb::CreateBoolList(b, b.CreateVector(x.items)));
    }
    Offset<fb::Value> operator()(const TensorListValue& x) {
      return MakeValue(b, fb::Payload::TensorList,
                       fb::CreateTensorList(b, b.CreateVector(x.items)));
    }
    Offset<fb::Value> operator()(const OptionalTensorListValue& x) {
      return MakeValue(b, fb::Payload::OptionalTensorList,
                       fb::CreateOptionalTensorList(b, b.CreateVector(x.items)));
    }
  };
  return std::visit(Visitor{*this, b, first_data_index}, v);
}

Offset<fb::Instruction> FlatbufferWriter::Instruction(const InstructionRecord& i) {
  auto& b = fbb_;
  struct Visitor {
    flatbuffers::FlatBufferBuilder& b;
    Offset<fb::Instruction> operator()(const KernelCallRecord& x) {
      auto call = fb::CreateKernelCall(b, x.op, b.CreateVector(x.args));
      return fb::CreateInstruction(b, fb::Step::KernelCall, call.Union());
    }
    Offset<fb::Instruction> operator()(const DelegateCallRecord& x) {
      auto call = fb::CreateDelegateCall(b, x.delegate, b.CreateVector(x.args));
      return fb::CreateInstruction(b, fb::Step::DelegateCall, call.Union());
    }
    Offset<fb::Instruction> operator()(const MoveRecord& x) {
      return fb::CreateInstruction(b, fb::Step::MoveCall,
                                   fb::CreateMoveCall(b, x.from, x.to).Union());
    }
    Offset<fb::Instruction> operator()(const JumpFalseRecord& x) {
      return fb::CreateInstruction(b, fb::Step::JumpFalseCall,
                                   fb::CreateJumpFalseCall(b, x.condition, x.destination).Union());
    }
    Offset<fb::Instruction> operator()(const FreeRecord& x) {
      return fb::CreateInstruction(b, fb::Step::FreeCall, fb::CreateFreeCall(b, x.value).Union());
    }
  };
  return std::visit(Visitor{b}, i);
}

Offset<fb::Chain> FlatbufferWriter::Chain(const std::vector<InstructionRecord>& instructions) {
  std::vector<Offset<fb::Instruction>> out;
  out.reserve(instructions.size());
  for (const InstructionRecord& i : instructions) out.push_back(Instruction(i));
  std::vector<int32_t> none;
  return fb::CreateChain(fbb_, fbb_.CreateVector(none), fbb_.CreateVector(none),
                         fbb_.CreateVector(out));
}

Offset<fb::Delegate> FlatbufferWriter::Delegate(const DelegateSpec& d, BlobRef blob) {
  Offset<flatbuffers::Vector<Offset<fb::CompileSpec>>> specs = 0;
  if (!d.omit_compile_specs) {
    std::vector<Offset<fb::CompileSpec>> entries;
    for (const auto& [key, value] : d.compile_specs)
      entries.push_back(
          fb::CreateCompileSpec(fbb_, fbb_.CreateString(key), fbb_.CreateVector(value)));
    specs = fbb_.CreateVector(entries);
  }
  auto ref = fb::CreateBlobReference(fbb_, blob.location, blob.index);
  auto id = d.omit_backend_id ? Offset<flatbuffers::String>() : fbb_.CreateString(d.backend_id);
  return fb::CreateDelegate(fbb_, id, ref, specs);
}

Offset<fb::Method> FlatbufferWriter::Method(const MethodRecord& m, size_t method_index) {
  const uint32_t first_data_index = plan_.first_data_index[method_index];
  std::vector<Offset<fb::Value>> values;
  values.reserve(m.values.size());
  for (const ValueRecord& v : m.values) values.push_back(Value(v, first_data_index));
  std::vector<Offset<fb::Chain>> chains;
  for (const auto& c : m.chains) chains.push_back(Chain(c));
  std::vector<Offset<fb::Operator>> operators;
  for (const OperatorRecord& op : m.operators)
    operators.push_back(
        fb::CreateOperator(fbb_, op.omit_name ? 0 : fbb_.CreateString(op.name),
                           fbb_.CreateString(op.overload)));
  std::vector<Offset<fb::Delegate>> delegates;
  for (size_t d = 0; d < m.delegates.size(); ++d)
    delegates.push_back(Delegate(m.delegates[d], plan_.delegate_blobs[method_index][d]));
  std::vector<int64_t> planned{0};
  planned.insert(planned.end(), m.planned_sizes.begin(), m.planned_sizes.end());
  Offset<fb::PytreeSpec> pytree = 0;
  if (m.pytree)
    pytree = fb::CreatePytreeSpec(fbb_, fbb_.CreateString(m.pytree->first),
                                  fbb_.CreateString(m.pytree->second));
  return fb::CreateMethod(fbb_, fbb_.CreateString(m.name), pytree, fbb_.CreateVector(values),
                          m.omit_inputs_vector ? Offset<flatbuffers::Vector<int32_t>>(0)
                                               : fbb_.CreateVector(m.inputs),
                          m.omit_outputs_vector ? Offset<flatbuffers::Vector<int32_t>>(0)
                                                : fbb_.CreateVector(m.outputs),
                          fbb_.CreateVector(chains), fbb_.CreateVector(operators),
                          // (in the argument list, as the other vectors: their order is the
                          // layout every measured program's hash depends on)
                          m.omit_delegates_vector
                              ? Offset<flatbuffers::Vector<Offset<fb::Delegate>>>(0)
                              : fbb_.CreateVector(delegates),
                          m.omit_planned_sizes_vector ? Offset<flatbuffers::Vector<int64_t>>(0)
                                                      : fbb_.CreateVector(planned));
}

// A byte vector with the schema's force_align of 16.
Offset<flatbuffers::Vector<uint8_t>> FlatbufferWriter::AlignedBytes(const uint8_t* data,
                                                                    uint64_t size) {
  fbb_.ForceVectorAlignment(size, sizeof(uint8_t), 16);
  uint8_t* dst = nullptr;
  auto out = fbb_.CreateUninitializedVector(size, sizeof(uint8_t), &dst);
  if (size > 0) {
    if (data)
      std::memcpy(dst, data, size);
    else
      std::memset(dst, 0, size);
  }
  return out;
}

Offset<flatbuffers::Vector<Offset<fb::InlineBuffer>>> FlatbufferWriter::InlineConstants() {
  std::vector<Offset<fb::InlineBuffer>> buffers;
  // Inline mode always has the reserved empty buffer 0; segment mode writes an empty vector.
  if (plan_.constants_inline)
    buffers.push_back(fb::CreateInlineBuffer(fbb_, AlignedBytes(nullptr, 0)));
  for (const ConstantData* c : plan_.inline_constants) {
    const uint8_t* data = c->bytes.empty() ? nullptr : c->bytes.data();
    buffers.push_back(fb::CreateInlineBuffer(fbb_, AlignedBytes(data, c->size())));
  }
  for (uint32_t i = 0; i < plan_.extra_inline_buffers; ++i)
    buffers.push_back(fb::CreateInlineBuffer(fbb_, AlignedBytes(nullptr, 0)));
  return fbb_.CreateVector(buffers);
}

Offset<flatbuffers::Vector<Offset<fb::InlineBlob>>> FlatbufferWriter::InlineBlobs() {
  std::vector<Offset<fb::InlineBlob>> blobs;
  for (const std::vector<uint8_t>* b : plan_.inline_blobs)
    blobs.push_back(fb::CreateInlineBlob(fbb_, AlignedBytes(b->data(), b->size())));
  return fbb_.CreateVector(blobs);
}

// Segment mode: {segment 0, offsets}. Inline mode, or no constants: {0, []}, as old writers did
// ({0, [0]} with ProgramOptions::placeholder_constant_offset, as the exporter writes it).
Offset<fb::SubSegments> FlatbufferWriter::ConstantSegment() {
  return fb::CreateSubSegments(fbb_, 0, fbb_.CreateVector(plan_.constant_offsets));
}

Offset<flatbuffers::Vector<Offset<fb::Segment>>> FlatbufferWriter::Segments() {
  std::vector<Offset<fb::Segment>> segments;
  for (const auto& [offset, size] : plan_.segments)
    segments.push_back(fb::CreateSegment(fbb_, offset, size));
  return fbb_.CreateVector(segments);
}

Offset<flatbuffers::Vector<Offset<fb::NamedBlob>>> FlatbufferWriter::NamedData(
    std::span<const NamedDataRecord> named_data) {
  if (named_data.empty()) return 0;
  std::vector<Offset<fb::NamedBlob>> entries;
  for (size_t i = 0; i < named_data.size(); ++i)
    entries.push_back(fb::CreateNamedBlob(fbb_, fbb_.CreateString(named_data[i].key),
                                          plan_.named_data_segments[i]));
  return fbb_.CreateVector(entries);
}

std::vector<uint8_t> FlatbufferWriter::Finish(std::span<const MethodRecord* const> methods,
                                              std::span<const NamedDataRecord> named_data) {
  std::vector<Offset<fb::Method>> method_tables;
  for (size_t i = 0; i < methods.size(); ++i) method_tables.push_back(Method(*methods[i], i));
  auto methods_vector = fbb_.CreateVector(method_tables);
  Offset<flatbuffers::Vector<Offset<fb::InlineBuffer>>> inline_constants = 0;
  if (plan_.inline_constant_vector) inline_constants = InlineConstants();
  auto inline_blobs = InlineBlobs();
  auto segments = plan_.empty_named_data_without_segments
                      ? Offset<flatbuffers::Vector<Offset<fb::Segment>>>()
                      : Segments();
  auto constant_segment = ConstantSegment();
  auto named = plan_.empty_named_data_without_segments || plan_.empty_named_data
                   ? fbb_.CreateVector(std::vector<Offset<fb::NamedBlob>>{})
                   : NamedData(named_data);
  Offset<flatbuffers::Vector<Offset<fb::SubSegments>>> mutable_segments = 0;
  if (plan_.mutable_segment) {
    Offset<flatbuffers::Vector<uint64_t>> offsets = 0;
    if (!plan_.mutable_segment->omit_offsets)
      offsets = fbb_.CreateVector(plan_.mutable_segment->offsets);
    mutable_segments = fbb_.CreateVector(std::vector<Offset<fb::SubSegments>>{
        fb::CreateSubSegments(fbb_, plan_.mutable_segment_index, offsets)});
  } else if (plan_.empty_mutable_segment_list) {
    mutable_segments = fbb_.CreateVector(std::vector<Offset<fb::SubSegments>>{});
  }
  auto root = fb::CreateProgram(fbb_, 0, methods_vector, inline_constants, inline_blobs, segments,
                                constant_segment, mutable_segments, named);
  fb::FinishProgramBuffer(fbb_, root);
  return {fbb_.GetBufferPointer(), fbb_.GetBufferPointer() + fbb_.GetSize()};
}


// Inserts the extended header after the identifier. Flatbuffer offsets are relative, so only
// the root offset, which counts from byte 0, moves.
std::vector<uint8_t> SpliceHeader(const std::vector<uint8_t>& flatbuffer,
                                  const ProgramOptions& options, uint64_t segment_data_size) {
  std::vector<uint8_t> out(flatbuffer.size() + kPaddedHeaderBytes, 0);
  uint32_t root;
  std::memcpy(&root, flatbuffer.data(), 4);
  StoreU32(out.data(), root + static_cast<uint32_t>(kPaddedHeaderBytes));
  std::memcpy(out.data() + 4, flatbuffer.data() + 4, 4);
  uint8_t* header = out.data() + kHeaderOffset;
  std::memcpy(header, "eh00", 4);
  StoreU32(header + 4, options.header_length);
  StoreU64(header + 8, out.size());
  StoreU64(header + 16, AlignUp(out.size(), options.segment_alignment));
  if (options.header_length >= 32) StoreU64(header + 24, segment_data_size);
  std::memcpy(out.data() + kHeaderOffset + kPaddedHeaderBytes, flatbuffer.data() + kHeaderOffset,
              flatbuffer.size() - kHeaderOffset);
  return out;
}

}  // namespace

ProgramImage::ProgramImage(std::vector<uint8_t> head, std::vector<Piece> pieces, uint64_t file_size)
    : head_(std::move(head)), pieces_(std::move(pieces)), file_size_(file_size) {}

std::vector<uint8_t> ProgramImage::Materialize() const {
  std::vector<uint8_t> out(file_size_, 0);
  std::memcpy(out.data(), head_.data(), head_.size());
  for (const Piece& p : pieces_) std::memcpy(out.data() + p.file_offset, p.data, p.size);
  return out;
}

Status ProgramImage::Write(const std::string& path) const {
  auto fail = [&](const std::string& what) {
    return MakeError(ErrorCode::kIo, path + ": " + what);
  };
  {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) return fail("cannot open for writing");
    out.write(reinterpret_cast<const char*>(head_.data()),
              static_cast<std::streamsize>(head_.size()));
    for (const Piece& p : pieces_) {
      out.seekp(static_cast<std::streamoff>(p.file_offset));
      out.write(reinterpret_cast<const char*>(p.data), static_cast<std::streamsize>(p.size));
    }
    if (!out.flush()) return fail("write failed");
  }
  std::error_code ec;
  std::filesystem::resize_file(path, file_size_, ec);  // the trailing zeros become a hole
  if (ec) return fail("cannot set the file size: " + ec.message());
  return Ok{};
}

ProgramImage LayOutProgram(const ProgramOptions& options,
                           std::span<const MethodRecord* const> methods,
                           std::span<const NamedDataRecord> named_data) {
  DataPlan plan = PlanData(options, methods, named_data);
  std::vector<uint8_t> flatbuffer = FlatbufferWriter(plan).Finish(methods, named_data);
  if (plan.segments.empty()) {
    uint64_t size = flatbuffer.size();
    return ProgramImage(std::move(flatbuffer), {}, size);
  }
  std::vector<uint8_t> head = SpliceHeader(flatbuffer, options, plan.segment_data_size());
  const uint64_t base = AlignUp(head.size(), options.segment_alignment);
  for (ProgramImage::Piece& p : plan.pieces) p.file_offset += base;
  return ProgramImage(std::move(head), std::move(plan.pieces), base + plan.segment_data_size());
}

}  // namespace etmem::testing
