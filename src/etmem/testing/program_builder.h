// Owns: the program builder, a C++ API that writes valid ExecuTorch programs (".pte") for
// tests, examples and benchmarks. A MethodBuilder records values, operators, delegates and
// chains of instructions; ProgramBuilder::Build lays out the segments and serializes it all.
// Not: the flatbuffer and file-layout code (program_writer.h) or named test programs
// (scenarios.h).
//
//   ProgramBuilder program;
//   MethodBuilder& forward = program.Method("forward");
//   int x = forward.Tensor({.sizes = {1, 4}, .placement = Placement{.offset = 0}});
//   int y = forward.Tensor({.sizes = {1, 4}, .placement = Placement{.offset = 16}});
//   forward.Inputs({x});
//   forward.Outputs({y});
//   forward.KernelCall(forward.Operator("aten::relu", "out"), {x, y, y});
//   forward.PlannedBufferSizes({32});
//   std::vector<uint8_t> pte = program.Build();
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "etmem/base/result.h"
#include "etmem/pte/program_view.h"
#include "etmem/testing/program_record.h"

namespace etmem::testing {

// Records one method. Every value-adding call returns the new value's index; every
// instruction-adding call returns the instruction's index inside the current chain.
class MethodBuilder {
 public:
  explicit MethodBuilder(std::string name) { record_.name = std::move(name); }

  // Values, in the order they are added.
  int Null();
  int Int(int64_t value);
  int Bool(bool value);
  int Double(double value);
  int String(std::string value);
  int AbsentString();  // a String value without its string (refusal programs)
  int Tensor(TensorSpec spec);
  int IntList(std::vector<int64_t> value_indices);  // items are Int value indices
  int IntListOf(const std::vector<int64_t>& ints);  // one Int value per entry, then the list
  int DoubleList(std::vector<double> items);
  int BoolList(std::vector<bool> items);
  int TensorList(std::vector<int32_t> value_indices);
  int OptionalTensorList(std::vector<int32_t> value_indices);  // -1 = None

  void Inputs(std::vector<int32_t> value_indices) { record_.inputs = std::move(value_indices); }
  void Outputs(std::vector<int32_t> value_indices) { record_.outputs = std::move(value_indices); }
  // The exporter's input and output treespecs (only get_output_flattening_encoding reads them).
  void Pytree(std::string inputs, std::string outputs) {
    record_.pytree.emplace(std::move(inputs), std::move(outputs));
  }
  // Planned buffer sizes as MethodMeta reports them; the reserved leading 0 is added on write.
  void PlannedBufferSizes(std::vector<int64_t> sizes) { record_.planned_sizes = std::move(sizes); }

  // Returns the operator's index; the same name and overload twice give the same index.
  int Operator(const std::string& name, const std::string& overload);
  // An operator whose name string is absent (refusal programs); returns its index.
  int NamelessOperator(const std::string& overload);
  // Returns the delegate's index.
  int Delegate(DelegateSpec spec);
  // Writes no delegates vector at all, not even an empty one (refusal programs).
  void OmitDelegatesVector() { record_.omit_delegates_vector = true; }
  // Write no inputs / outputs / non_const_buffer_sizes vector (refusal programs: method_meta).
  void OmitInputsVector() { record_.omit_inputs_vector = true; }
  void OmitOutputsVector() { record_.omit_outputs_vector = true; }
  void OmitPlannedBufferSizesVector() { record_.omit_planned_sizes_vector = true; }
  // Renames the method, which may then share an earlier method's name (refusal programs).
  void Rename(std::string name) { record_.name = std::move(name); }

  // Starts a new chain and returns its index; instructions go to the newest chain. An
  // instruction added before any Chain() call starts chain 0.
  int Chain();
  int KernelCall(int op, std::vector<int32_t> args);
  int DelegateCall(int delegate, std::vector<int32_t> args);
  int Move(int from, int to);
  int JumpFalse(int condition, int destination);  // destination: index in the current chain
  int Free(int value);
  // Index the next instruction of the current chain will get (a jump target).
  int next_instruction() const;

  int value_count() const { return static_cast<int>(record_.values.size()); }
  const MethodRecord& record() const { return record_; }

 private:
  // Constructs the alternative in place (a temporary variant trips g++ 12's
  // -Wmaybe-uninitialized).
  template <typename V>
  int AddValue(V value) {
    record_.values.emplace_back(std::in_place_type<V>, std::move(value));
    return value_count() - 1;
  }
  template <typename I>
  int AddInstruction(I instruction) {
    if (record_.chains.empty()) Chain();
    record_.chains.back().emplace_back(std::in_place_type<I>, std::move(instruction));
    return next_instruction() - 1;
  }

  MethodRecord record_;
};

// A whole program: its methods in order, plus program-level data and layout options.
class ProgramBuilder {
 public:
  ProgramBuilder() = default;
  ProgramBuilder(ProgramBuilder&&) = default;
  ProgramBuilder& operator=(ProgramBuilder&&) = default;

  // Returns the method called `name`, adding it (after the existing ones) on first use.
  MethodBuilder& Method(const std::string& name);

  ProgramBuilder& ConstantsInSegment(bool in_segment);
  ProgramBuilder& HeaderLength(uint32_t length);  // 24 or 32 (less makes a header runtimes reject)
  ProgramBuilder& SegmentAlignment(uint64_t alignment);
  ProgramBuilder& ConstantAlignment(uint64_t alignment);
  // Writes no Program.constant_buffer vector (ProgramOptions::inline_constant_vector).
  ProgramBuilder& OmitInlineConstantVector();
  // Without constants, writes constant_segment {segment 0, offsets [0]} and no constant segment,
  // as ExecuTorch's exporter does (ProgramOptions::placeholder_constant_offset); with inline
  // constants, that placeholder beside them.
  ProgramBuilder& PlaceholderConstantOffset();
  // In segment mode, also writes `n` empty buffers into Program.constant_buffer: constants in
  // both storages (ProgramOptions::extra_inline_constant_buffers).
  ProgramBuilder& AlsoInlineConstantBuffers(uint32_t n);
  // Adds Program.mutable_data_segments with one entry: a segment of `bytes`, `offsets` into it
  // (ProgramOptions::mutable_segment). Mutable state names an offset by its TensorSpec::data_index.
  ProgramBuilder& MutableDataSegment(MutableSegmentRecord segment);
  // Writes Program.mutable_data_segments as an empty vector (ProgramOptions::
  // empty_mutable_segment_list; refusal programs).
  ProgramBuilder& EmptyMutableDataSegmentList();
  // Writes `offset` as constant_segment.offsets[data_index] (ProgramOptions::
  // constant_offset_override; refusal programs).
  ProgramBuilder& ConstantOffset(uint32_t data_index, uint64_t offset);
  // Writes Program.named_data as an empty vector and no Program.segments vector at all
  // (ProgramOptions::empty_named_data_without_segments; refusal programs).
  ProgramBuilder& EmptyNamedDataWithoutSegments();
  // Writes Program.named_data as an empty vector (ProgramOptions::empty_named_data).
  ProgramBuilder& EmptyNamedData();
  // Adds Program.named_data entry `key`, whose bytes get a segment of their own.
  ProgramBuilder& NamedData(std::string key, std::vector<uint8_t> bytes);

  // The file's bytes. Zero-filled constants are materialised here; use WriteFile for big ones.
  std::vector<uint8_t> Build() const;
  // Writes the file, leaving holes for zero-filled constants instead of writing them.
  Status WriteFile(const std::string& path) const;

  const ProgramOptions& options() const { return options_; }

 private:
  std::vector<const MethodRecord*> records() const;

  ProgramOptions options_;
  std::vector<std::unique_ptr<MethodBuilder>> methods_;  // stable addresses for Method()
  std::vector<NamedDataRecord> named_data_;
};

}  // namespace etmem::testing
