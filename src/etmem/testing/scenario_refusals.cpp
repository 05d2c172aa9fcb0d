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
};

}  // namespace

std::span<const NamedScenario> RefusalScenarios() { return kRefusals; }

}  // namespace etmem::testing
