// Owns: recording. MethodBuilder appends values, operators, delegates and instructions to its
// MethodRecord; ProgramBuilder keeps the methods and options and hands them to the writer.
// Nothing recorded is validated: the builder writes what it is told, so tests can also build
// programs the reader must reject (an index out of range, a dim_order of the wrong length).
// The scenarios are valid programs; only layout options are checked, with ETMEM_CHECK.
#include "etmem/testing/program_builder.h"

#include <numeric>

#include "etmem/testing/program_writer.h"

namespace etmem::testing {
namespace {

std::vector<uint8_t> IdentityDimOrder(size_t rank) {
  std::vector<uint8_t> order(rank);
  std::iota(order.begin(), order.end(), uint8_t{0});
  return order;
}

}  // namespace

int MethodBuilder::Null() { return AddValue(NullValue{}); }
int MethodBuilder::Int(int64_t value) { return AddValue(IntValue{value}); }
int MethodBuilder::Bool(bool value) { return AddValue(BoolValue{value}); }
int MethodBuilder::Double(double value) { return AddValue(DoubleValue{value}); }
int MethodBuilder::String(std::string value) { return AddValue(StringValue{std::move(value)}); }
int MethodBuilder::AbsentString() { return AddValue(StringValue{{}, true}); }

int MethodBuilder::Tensor(TensorSpec spec) {
  TensorRecord t;
  t.dtype = spec.dtype;
  t.dim_order = spec.dim_order ? std::move(*spec.dim_order) : IdentityDimOrder(spec.sizes.size());
  t.sizes = std::move(spec.sizes);
  t.dynamism = spec.dynamism;
  t.requires_grad = spec.requires_grad;
  t.placement = spec.placement;
  t.external_fqn = std::move(spec.external_fqn);
  t.external_without_key = spec.external_without_key;
  t.data_index = spec.data_index;
  t.storage_offset = spec.storage_offset;
  if (spec.constant) {
    t.constant = static_cast<int32_t>(record_.constants.size());
    record_.constants.push_back(std::move(*spec.constant));
  }
  return AddValue(std::move(t));
}

int MethodBuilder::IntList(std::vector<int64_t> value_indices) {
  return AddValue(IntListValue{std::move(value_indices)});
}

int MethodBuilder::IntListOf(const std::vector<int64_t>& ints) {
  std::vector<int64_t> items;
  items.reserve(ints.size());
  for (int64_t v : ints) items.push_back(Int(v));
  return IntList(std::move(items));
}

int MethodBuilder::DoubleList(std::vector<double> items) {
  return AddValue(DoubleListValue{std::move(items)});
}
int MethodBuilder::BoolList(std::vector<bool> items) {
  return AddValue(BoolListValue{std::move(items)});
}
int MethodBuilder::TensorList(std::vector<int32_t> value_indices) {
  return AddValue(TensorListValue{std::move(value_indices)});
}
int MethodBuilder::OptionalTensorList(std::vector<int32_t> value_indices) {
  return AddValue(OptionalTensorListValue{std::move(value_indices)});
}

int MethodBuilder::Operator(const std::string& name, const std::string& overload) {
  for (size_t i = 0; i < record_.operators.size(); ++i)
    if (record_.operators[i].name == name && record_.operators[i].overload == overload)
      return static_cast<int>(i);
  record_.operators.push_back({name, overload});
  return static_cast<int>(record_.operators.size()) - 1;
}

int MethodBuilder::NamelessOperator(const std::string& overload) {
  record_.operators.push_back({"", overload, true});
  return static_cast<int>(record_.operators.size()) - 1;
}

int MethodBuilder::Delegate(DelegateSpec spec) {
  record_.delegates.push_back(std::move(spec));
  return static_cast<int>(record_.delegates.size()) - 1;
}

int MethodBuilder::Chain() {
  record_.chains.emplace_back();
  return static_cast<int>(record_.chains.size()) - 1;
}

int MethodBuilder::next_instruction() const {
  return record_.chains.empty() ? 0 : static_cast<int>(record_.chains.back().size());
}

int MethodBuilder::KernelCall(int op, std::vector<int32_t> args) {
  return AddInstruction(KernelCallRecord{op, std::move(args)});
}

int MethodBuilder::DelegateCall(int delegate, std::vector<int32_t> args) {
  return AddInstruction(DelegateCallRecord{delegate, std::move(args)});
}

int MethodBuilder::Move(int from, int to) { return AddInstruction(MoveRecord{from, to}); }
int MethodBuilder::JumpFalse(int condition, int destination) {
  return AddInstruction(JumpFalseRecord{condition, destination});
}
int MethodBuilder::Free(int value) { return AddInstruction(FreeRecord{value}); }

MethodBuilder& ProgramBuilder::Method(const std::string& name) {
  for (const auto& m : methods_)
    if (m->record().name == name) return *m;
  methods_.push_back(std::make_unique<MethodBuilder>(name));
  return *methods_.back();
}

ProgramBuilder& ProgramBuilder::OmitInlineConstantVector() {
  options_.inline_constant_vector = false;
  return *this;
}

ProgramBuilder& ProgramBuilder::PlaceholderConstantOffset() {
  options_.placeholder_constant_offset = true;
  return *this;
}

ProgramBuilder& ProgramBuilder::AlsoInlineConstantBuffers(uint32_t n) {
  options_.extra_inline_constant_buffers = n;
  return *this;
}

ProgramBuilder& ProgramBuilder::MutableDataSegment(MutableSegmentRecord segment) {
  options_.mutable_segment = std::move(segment);
  return *this;
}

ProgramBuilder& ProgramBuilder::EmptyNamedDataWithoutSegments() {
  options_.empty_named_data_without_segments = true;
  return *this;
}

ProgramBuilder& ProgramBuilder::EmptyNamedData() {
  options_.empty_named_data = true;
  return *this;
}

ProgramBuilder& ProgramBuilder::EmptyMutableDataSegmentList() {
  options_.empty_mutable_segment_list = true;
  return *this;
}

ProgramBuilder& ProgramBuilder::ConstantOffset(uint32_t data_index, uint64_t offset) {
  options_.constant_offset_override = {data_index, offset};
  return *this;
}

ProgramBuilder& ProgramBuilder::ConstantsInSegment(bool in_segment) {
  options_.constants_in_segment = in_segment;
  return *this;
}

ProgramBuilder& ProgramBuilder::HeaderLength(uint32_t length) {
  ETMEM_CHECK(length <= 32);  // the header area is 32 bytes; 24 and 32 are the real lengths
  options_.header_length = length;
  return *this;
}

ProgramBuilder& ProgramBuilder::SegmentAlignment(uint64_t alignment) {
  ETMEM_CHECK(alignment > 0);
  options_.segment_alignment = alignment;
  return *this;
}

ProgramBuilder& ProgramBuilder::ConstantAlignment(uint64_t alignment) {
  ETMEM_CHECK(alignment > 0);
  options_.constant_alignment = alignment;
  return *this;
}

ProgramBuilder& ProgramBuilder::NamedData(std::string key, std::vector<uint8_t> bytes) {
  named_data_.push_back({std::move(key), std::move(bytes)});
  return *this;
}

std::vector<const MethodRecord*> ProgramBuilder::records() const {
  std::vector<const MethodRecord*> out;
  out.reserve(methods_.size());
  for (const auto& m : methods_) out.push_back(&m->record());
  return out;
}

std::vector<uint8_t> ProgramBuilder::Build() const {
  return LayOutProgram(options_, records(), named_data_).Materialize();
}

Status ProgramBuilder::WriteFile(const std::string& path) const {
  return LayOutProgram(options_, records(), named_data_).Write(path);
}

}  // namespace etmem::testing
