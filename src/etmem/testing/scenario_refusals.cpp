// Owns: the programs that some release refuses to load (issue 13 item 4), one per refusal
// class, named so the measurements in tests/measured/ can name them.
// Not: the scenarios every release loads (scenarios.cpp), the refusal model (runtime/).
#include "etmem/testing/scenarios.h"

#include "etmem/testing/scenario_helpers.h"

namespace etmem::testing {
namespace {

// A float input, a float output and, between them, a planned tensor of `dtype` that a kernel
// call reads: the dtype is the only thing that differs between the programs.
ProgramBuilder WithPlannedTensorOf(int8_t dtype, uint64_t element_bytes) {
  ProgramBuilder program;
  MethodBuilder& m = program.Method("forward");
  BumpPlanner planner;
  int x = PlannedTensor(m, planner, {2, 4});
  int odd = m.Tensor({.dtype = dtype, .sizes = {2, 4}, .placement = planner.Take(8 * element_bytes)});
  int y = PlannedTensor(m, planner, {2, 4});
  m.Inputs({x});
  m.Outputs({y});
  m.PlannedBufferSizes({planner.high_water()});
  int to = m.Operator("aten::_to_copy", "out");
  m.KernelCall(to, {x, odd, odd});
  m.KernelCall(to, {odd, y, y});
  return program;
}

// A planned tensor with an initial value (mutable state, e.g. a buffer the model updates) whose
// bytes the writer puts among the constants: the program has no mutable data segment.
ProgramBuilder MutableStateWithoutSegment() {
  ProgramBuilder program;
  MethodBuilder& m = program.Method("forward");
  BumpPlanner planner;
  int x = PlannedTensor(m, planner, {1, 4});
  int w = ConstantTensor(m, {1, 4});
  int state = m.Tensor({.sizes = {1, 4},
                        .constant = ConstantData{CounterBytes(16)},
                        .placement = planner.Take(16)});
  int y = PlannedTensor(m, planner, {1, 4});
  m.Inputs({x});
  m.Outputs({y});
  m.PlannedBufferSizes({planner.high_water()});
  int add = m.Operator("aten::add", "out");
  m.KernelCall(add, {x, w, y, y});
  m.KernelCall(add, {y, state, state, state});
  return program;
}

// x -> add(x, w) -> add(., c) -> y, with a float [1, 4] input and output, where w is an
// ordinary constant and c the tensor under test: `c` describes it, `setup` sets program options.
ProgramBuilder AddsTensor(TensorSpec c, void (*setup)(ProgramBuilder&) = nullptr) {
  ProgramBuilder program;
  if (setup) setup(program);
  MethodBuilder& m = program.Method("forward");
  BumpPlanner planner;
  int x = PlannedTensor(m, planner, {1, 4});
  int w = ConstantTensor(m, {1, 4});
  if (c.placement) c.placement = planner.Take(16);  // a planned `c` gets its room here
  int t = m.Tensor(std::move(c));
  int y = PlannedTensor(m, planner, {1, 4});
  m.Inputs({x});
  m.Outputs({y});
  m.PlannedBufferSizes({planner.high_water()});
  int add = m.Operator("aten::add", "out");
  m.KernelCall(add, {x, w, y, y});
  m.KernelCall(add, {y, t, y, y});
  return program;
}

// A constant [1, 4] float tensor (16 bytes) whose data index is `index`, or (0) whose own
// `bytes` bytes are stored as its constant.
TensorSpec ConstantSpec(uint32_t index, uint64_t bytes = 16) {
  TensorSpec s{.sizes = {1, 4}};
  if (index > 0) s.data_index = index;
  else s.constant = ConstantData{CounterBytes(bytes)};
  return s;
}

void Inline(ProgramBuilder& p) { p.ConstantsInSegment(false); }

// A float [1, 4] tensor whose data lives in a .ptd under key "c"; planned: a training-style
// tensor (its initial value loaded into planned memory), else an external constant.
TensorSpec ExternalSpec(bool planned) {
  TensorSpec s{.sizes = {1, 4}, .external_fqn = "c"};
  if (planned) s.placement = Placement{};
  return s;
}

// Only `c` refers to constant data (index 1), and the program has no constant storage at all:
// no constant segment and no Program.constant_buffer vector.
ProgramBuilder ConstantWithoutConstantStorage() {
  ProgramBuilder program;
  program.OmitInlineConstantVector();
  MethodBuilder& m = program.Method("forward");
  BumpPlanner planner;
  int x = PlannedTensor(m, planner, {1, 4});
  int c = m.Tensor({.sizes = {1, 4}, .data_index = 1});
  int y = PlannedTensor(m, planner, {1, 4});
  m.Inputs({x});
  m.Outputs({y});
  m.PlannedBufferSizes({planner.high_water()});
  m.KernelCall(m.Operator("aten::add", "out"), {x, c, y, y});
  return program;
}

ProgramBuilder MethodWithoutDelegatesVector() {
  ProgramBuilder program;
  MethodBuilder& m = program.Method("forward");
  BumpPlanner planner;
  int x = PlannedTensor(m, planner, {1, 4});
  int y = PlannedTensor(m, planner, {1, 4});
  m.Inputs({x});
  m.Outputs({y});
  m.PlannedBufferSizes({planner.high_water()});
  m.KernelCall(m.Operator("aten::relu", "out"), {x, y});
  m.OmitDelegatesVector();
  return program;
}

constexpr NamedScenario kRefusals[] = {
    // ScalarType 27 (UInt16): added to the enum in 0.5.
    {"scalar_uint16", [] { return WithPlannedTensorOf(27, 2); }},
    // ScalarType 15 (BFloat16): refused by 0.2's tensor parser only.
    {"scalar_bfloat16", [] { return WithPlannedTensorOf(15, 2); }},
    // ScalarType 9 (ComplexFloat): refused by the tensor parser of 0.2 to 0.5.
    {"scalar_complex_float", [] { return WithPlannedTensorOf(9, 8); }},
    // Mutable state (planned, with an initial value) and no mutable data segment: from 0.4 the
    // runtime copies the value from that segment at load and finds none (NotFound).
    {"mutable_state_without_segment", MutableStateWithoutSegment},
    // Constants the release cannot resolve. A data index no entry of the constant segment has
    // (the segment has the reserved entry and w's): InvalidArgument from 0.2.
    {"constant_index_beyond_segment", [] { return AddsTensor(ConstantSpec(2)); }},
    // The same in a program whose constants are inline (Program.constant_buffer).
    {"constant_index_beyond_inline", [] { return AddsTensor(ConstantSpec(2), Inline); }},
    // The last constant of the segment has 8 bytes, its tensor needs 16: past the segment's end.
    {"constant_past_segment_end", [] { return AddsTensor(ConstantSpec(0, 8)); }},
    // Inline constants of 8 and of 32 bytes for a 16-byte tensor: 1.2 reversed the check.
    {"inline_constant_smaller_than_tensor", [] { return AddsTensor(ConstantSpec(0, 8), Inline); }},
    {"inline_constant_larger_than_tensor", [] { return AddsTensor(ConstantSpec(0, 32), Inline); }},
    // A data index in a program with no constant storage at all (no Program.constant_buffer
    // vector): 0.1 to 0.5 read the absent vector (a crash).
    {"constant_without_constant_storage", ConstantWithoutConstantStorage},
    // Tensors that take their data from outside the program, loaded without a .ptd: an external
    // constant (EXTERNAL, no placement) and a training-style planned tensor (EXTERNAL, planned:
    // its initial value is loaded from the data map into planned memory).
    {"external_constant_without_map", [] { return AddsTensor(ExternalSpec(false)); }},
    {"external_planned_without_map", [] { return AddsTensor(ExternalSpec(true)); }},
    // An external constant whose key the program's own Program.named_data holds: tensors read
    // only the .ptd map passed to load_method, never the program's named data.
    {"external_constant_in_named_data",
     [] { return AddsTensor(ExternalSpec(false), [](ProgramBuilder& p) {
            p.NamedData("c", CounterBytes(16));
          }); }},
    // An absent optional vector the runtime reads: a method without a delegates vector (no
    // delegate, and not even an empty list): InvalidProgram from 0.2, an ET_CHECK abort at 0.1.
    {"method_without_delegates_vector", MethodWithoutDelegatesVector},
};

}  // namespace

std::span<const NamedScenario> RefusalScenarios() { return kRefusals; }

}  // namespace etmem::testing
