// Owns: the plain data the builders record: the specs callers fill in, the per-method records
// and the layout options the writer serializes. No flatbuffers here: the API stays schema-free.
// Not: recording (program_builder.h) or serializing (program_writer.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "etmem/pte/program_view.h"

namespace etmem::testing {

// ExecuTorch ScalarType codes used by the scenarios (the schema has the full list).
inline constexpr int8_t kByte = 0;
inline constexpr int8_t kChar = 1;
inline constexpr int8_t kInt32 = 3;
inline constexpr int8_t kInt64 = 4;
inline constexpr int8_t kFloat32 = 6;
inline constexpr int8_t kFloat64 = 7;
inline constexpr int8_t kBool = 11;

// Bytes of a constant tensor: explicit contents, or a run of zeros that is never held in memory
// (WriteFile leaves a hole in the file for it).
struct ConstantData {
  std::vector<uint8_t> bytes;  // the contents, when explicit
  uint64_t zero_bytes = 0;     // otherwise this many zero bytes
  uint64_t size() const { return bytes.empty() ? zero_bytes : bytes.size(); }
};

// Where a memory-planned tensor lives.
struct Placement {
  uint32_t memory_id = 1;  // 1-based planned buffer id
  uint64_t offset = 0;     // bytes into that buffer
};

struct TensorSpec {
  int8_t dtype = kFloat32;  // ExecuTorch ScalarType code
  std::vector<int32_t> sizes;
  std::optional<std::vector<uint8_t>> dim_order;  // default: identity (contiguous)
  pte::Dynamism dynamism = pte::Dynamism::kStatic;
  bool requires_grad = false;
  std::optional<ConstantData> constant;  // constant data, stored in the constant segment/buffers
  std::optional<Placement> placement;    // memory-planned tensor
  std::string external_fqn;              // non-empty: data comes from a .ptd under this key
  // Written EXTERNAL without a fully_qualified_name (refusal programs: an external tensor
  // without a key); external_fqn stays empty.
  bool external_without_key = false;
  // Written as the tensor's data index instead of the one its constant gets (refusal programs:
  // an index no constant has).
  std::optional<uint32_t> data_index;
  int32_t storage_offset = 0;  // written as Tensor.storage_offset (exporters write 0)
};

using CompileSpecEntry = std::pair<std::string, std::vector<uint8_t>>;

struct DelegateSpec {
  std::string backend_id;  // registered backend name, e.g. "XnnpackBackend"
  std::vector<CompileSpecEntry> compile_specs;
  std::vector<uint8_t> blob;     // the processed blob handed to the backend's init
  bool blob_in_segment = false;  // false: inline in Program.inline_blobs
  bool omit_compile_specs = false;  // write no compile_specs vector at all (not even empty)
  bool omit_backend_id = false;     // write no id string at all (refusal programs)
};

// What the builder keeps per tensor: the spec without its data, plus where the data went.
struct TensorRecord {
  int8_t dtype = kFloat32;
  std::vector<int32_t> sizes;
  std::vector<uint8_t> dim_order;
  pte::Dynamism dynamism = pte::Dynamism::kStatic;
  bool requires_grad = false;
  int32_t constant = -1;  // index into MethodRecord::constants, -1 = not a constant
  std::optional<Placement> placement;
  std::string external_fqn;
  bool external_without_key = false;   // TensorSpec::external_without_key
  std::optional<uint32_t> data_index;  // TensorSpec::data_index
  int32_t storage_offset = 0;
};

struct NullValue {};
struct IntValue { int64_t value = 0; };
struct BoolValue { bool value = false; };
struct DoubleValue { double value = 0; };
struct StringValue {
  std::string value;
  bool omit = false;  // write the String table without its string (refusal programs)
};
struct IntListValue { std::vector<int64_t> items; };
struct DoubleListValue { std::vector<double> items; };
struct BoolListValue { std::vector<bool> items; };
struct TensorListValue { std::vector<int32_t> items; };
struct OptionalTensorListValue { std::vector<int32_t> items; };

// Alternatives in the schema's union order: index + 1 is the payload type (pte::ValueKind).
using ValueRecord =
    std::variant<NullValue, IntValue, BoolValue, DoubleValue, TensorRecord, StringValue,
                 IntListValue, DoubleListValue, BoolListValue, TensorListValue,
                 OptionalTensorListValue>;

struct KernelCallRecord { int32_t op = 0; std::vector<int32_t> args; };
struct DelegateCallRecord { int32_t delegate = 0; std::vector<int32_t> args; };
struct MoveRecord { int32_t from = 0; int32_t to = 0; };
struct JumpFalseRecord { int32_t condition = 0; int32_t destination = 0; };
struct FreeRecord { int32_t value = 0; };

// Alternatives in the schema's union order: index + 1 is the step type (pte::InstructionKind).
using InstructionRecord =
    std::variant<KernelCallRecord, DelegateCallRecord, MoveRecord, JumpFalseRecord, FreeRecord>;

struct OperatorRecord {
  std::string name;
  std::string overload;
  bool omit_name = false;  // write no name string at all (refusal programs)
};

struct MethodRecord {
  std::string name;
  std::optional<std::pair<std::string, std::string>> pytree;  // {inputs, outputs} treespecs
  std::vector<ValueRecord> values;
  std::vector<ConstantData> constants;  // in data-index order within this method
  std::vector<int32_t> inputs;
  std::vector<int32_t> outputs;
  std::vector<std::vector<InstructionRecord>> chains;
  std::vector<OperatorRecord> operators;
  std::vector<DelegateSpec> delegates;
  std::vector<int64_t> planned_sizes;  // without the reserved leading 0
  bool omit_delegates_vector = false;  // write no delegates vector (refusal programs)
  // Write no inputs / outputs / non_const_buffer_sizes vector (refusal programs: method_meta).
  bool omit_inputs_vector = false;
  bool omit_outputs_vector = false;
  bool omit_planned_sizes_vector = false;
};

// Settings that decide the file layout rather than any method's content.
// One Program.mutable_data_segments entry (mutable state's initial values, 0.4+): a segment of
// `bytes` and the offsets of the values in it; `segment_index` written instead of the segment's
// own index (refusal programs: a segment that does not exist); `omit_offsets`: the entry is
// written without an offsets vector (refusal programs).
struct MutableSegmentRecord {
  std::vector<uint8_t> bytes;
  std::vector<uint64_t> offsets;
  std::optional<uint32_t> segment_index;
  bool omit_offsets = false;
};

struct ProgramOptions {
  bool constants_in_segment = true;  // false: legacy inline constant buffers
  uint32_t header_length = 32;       // extended-header length: 24 (writers <= 0.7) or 32
  uint64_t segment_alignment = 128;  // alignment of each segment relative to the segment base
  uint64_t constant_alignment = 16;  // alignment of each constant inside the constant segment
  // false: no Program.constant_buffer vector at all, not even an empty one (refusal programs;
  // only with no inline constants)
  bool inline_constant_vector = true;
  // Segment mode without constants: write constant_segment {segment 0, offsets [0]} (the
  // reserved entry only) and no constant segment, as ExecuTorch's exporter does. false: {0, []}.
  // In inline mode: the same placeholder beside the inline constants (refusal programs).
  bool placeholder_constant_offset = false;
  // Segment mode: also write this many empty buffers into Program.constant_buffer, so the
  // program keeps constants in both storages (refusal programs; Program::load refuses it).
  uint32_t extra_inline_constant_buffers = 0;
  // Program.mutable_data_segments with this one entry (after every other segment).
  std::optional<MutableSegmentRecord> mutable_segment;
  // Without mutable_segment: write Program.mutable_data_segments as an empty vector rather than
  // leave it out (refusal programs).
  bool empty_mutable_segment_list = false;
  // Write Program.named_data as an empty vector and leave Program.segments out (refusal
  // programs; only for a program that puts nothing in segments).
  bool empty_named_data_without_segments = false;
  // Write Program.named_data as an empty vector, the segments as usual (refusal programs: the
  // runtime's PteDataMap exists for a present vector, even an empty one).
  bool empty_named_data = false;
  // Segment mode: constant_segment.offsets[index] written as `offset` instead of where the
  // constant was placed (refusal programs: an offset past the segment, or one that wraps).
  std::optional<std::pair<uint32_t, uint64_t>> constant_offset_override;
};

struct NamedDataRecord {
  std::string key;
  std::vector<uint8_t> bytes;
};

}  // namespace etmem::testing
