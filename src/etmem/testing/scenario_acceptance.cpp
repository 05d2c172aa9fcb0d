// Owns: the programs laid out as ExecuTorch's exporter lays them out that a strict reader could
// wrongly call invalid (issue 25 item 3; docs/acceptance.md): no constants at all (constant
// segment {segment 0, offsets [0]}, no segments), the same with a delegate blob in segment 0, and
// constants only inline. Named so the measurements in tests/measured/ can name them.
// Not: the scenarios every release loads (scenarios.cpp), the refusal programs.
#include "etmem/testing/scenarios.h"

#include "etmem/testing/scenario_helpers.h"

namespace etmem::testing {
namespace {

// x -> add(x, x) -> relu -> y, all planned: no constants anywhere.
ProgramBuilder NoConstants() {
  ProgramBuilder program;
  program.PlaceholderConstantOffset();
  MethodBuilder& m = program.Method("forward");
  BumpPlanner planner;
  int x = PlannedTensor(m, planner, {1, 8});
  int sum = PlannedTensor(m, planner, {1, 8});
  int y = PlannedTensor(m, planner, {1, 8});
  int alpha = m.Int(1);
  m.Inputs({x});
  m.Outputs({y});
  m.PlannedBufferSizes({planner.high_water()});
  int add = m.Operator("aten::add", "out");
  int relu = m.Operator("aten::relu", "out");
  m.KernelCall(add, {x, x, alpha, sum, sum});
  m.KernelCall(relu, {sum, y, y});
  return program;
}

// The same layout with a delegate whose processed blob is the program's only segment, index 0:
// the segment the constant_segment entry names holds the delegate's bytes.
ProgramBuilder NoConstantsDelegateSegment() {
  ProgramBuilder program;
  program.PlaceholderConstantOffset();
  MethodBuilder& m = program.Method("forward");
  BumpPlanner planner;
  int x = PlannedTensor(m, planner, {1, 16});
  int delegated = PlannedTensor(m, planner, {1, 16});
  int y = PlannedTensor(m, planner, {1, 16});
  m.Inputs({x});
  m.Outputs({y});
  m.PlannedBufferSizes({planner.high_water()});
  int d = m.Delegate({.backend_id = "XnnpackBackend",
                      .compile_specs = {},
                      .blob = CounterBytes(200),
                      .blob_in_segment = true});
  int relu = m.Operator("aten::relu", "out");
  m.DelegateCall(d, {x, delegated});
  m.KernelCall(relu, {delegated, y, y});
  return program;
}

// Two weights stored inline (Program.constant_buffer), constant_segment {0, []}, no segments.
ProgramBuilder InlineConstantsOnly() {
  ProgramBuilder program;
  program.ConstantsInSegment(false);
  MethodBuilder& m = program.Method("forward");
  BumpPlanner planner;
  int x = PlannedTensor(m, planner, {1, 4});
  int w = ConstantTensor(m, {1, 4});
  int b = ConstantTensor(m, {1, 4});
  int t = PlannedTensor(m, planner, {1, 4});
  int y = PlannedTensor(m, planner, {1, 4});
  int alpha = m.Int(1);
  m.Inputs({x});
  m.Outputs({y});
  m.PlannedBufferSizes({planner.high_water()});
  int add = m.Operator("aten::add", "out");
  m.KernelCall(add, {x, w, alpha, t, t});
  m.KernelCall(add, {t, b, alpha, y, y});
  return program;
}

constexpr NamedScenario kAcceptance[] = {
    {"no_constants", NoConstants},
    {"no_constants_delegate_segment", NoConstantsDelegateSegment},
    {"inline_constants_only", InlineConstantsOnly},
};

}  // namespace

std::span<const NamedScenario> AcceptanceScenarios() { return kAcceptance; }

}  // namespace etmem::testing
