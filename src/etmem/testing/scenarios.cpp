// Owns: the feature scenarios (every value kind, dynamic shapes, delegates, two methods,
// control flow, external data). Shapes are small and arbitrary; what matters is which
// features appear and how often. MotivatingCnn and the scaled programs have files of their own.
#include "etmem/testing/scenarios.h"

#include "etmem/testing/scenario_helpers.h"

namespace etmem::testing {
namespace {

using pte::Dynamism;

std::vector<uint8_t> Bytes(std::initializer_list<uint8_t> bytes) { return bytes; }

}  // namespace

ProgramBuilder ProgramWithEveryValueKind() {
  ProgramBuilder program;
  MethodBuilder& m = program.Method("forward");
  BumpPlanner planner;
  int a = PlannedTensor(m, planner, {2, 3});
  int b = PlannedTensor(m, planner, {2, 3});
  int w = ConstantTensor(m, {2, 3});
  int scalar = PlannedTensor(m, planner, {});
  int dynamic =
      m.Tensor({.sizes = {4}, .dynamism = Dynamism::kDynamicBound, .placement = planner.Take(16)});
  int alpha = m.Int(2);
  int sizes = m.IntList({alpha, alpha});
  int mask = m.BoolList({true, false, true});
  int scales = m.DoubleList({0.5, 2.0});
  int reduction = m.String("mean");
  int pair = m.TensorList({a, b});
  int maybe = m.OptionalTensorList({a, -1});
  int none = m.Null();
  int flag = m.Bool(true);
  int eps = m.Double(1e-5);
  m.Inputs({a, b});
  m.Outputs({dynamic});
  m.PlannedBufferSizes({planner.high_water()});

  int add = m.Operator("aten::add", "out");
  int index = m.Operator("aten::index", "Tensor_out");
  int d = m.Delegate({.backend_id = "FakeBackend",
                      .compile_specs = {{"mode", Bytes({1})}, {"threads", Bytes({4, 0, 0, 0})}},
                      .blob = CounterBytes(48)});
  m.Chain();
  m.KernelCall(add, {a, w, alpha, scalar});
  m.KernelCall(index, {pair, maybe, sizes, dynamic, dynamic});
  m.DelegateCall(d, {dynamic, scalar});
  // Values only read by a made-up custom op, so every kind appears in some call's args.
  int custom = m.Operator("etmem_test::every_kind", "out");
  m.KernelCall(custom, {mask, scales, reduction, none, flag, eps, scalar});
  return program;
}

ProgramBuilder ProgramWithDynamicShapes() {
  ProgramBuilder program;
  MethodBuilder& m = program.Method("forward");
  BumpPlanner planner;
  auto bound = [&](std::vector<int32_t> sizes) {
    Placement p = planner.Take(TensorBytes(kFloat32, sizes));
    return m.Tensor(
        {.sizes = std::move(sizes), .dynamism = Dynamism::kDynamicBound, .placement = p});
  };
  int tokens = bound({1, 128});
  int hidden = bound({1, 128, 64});
  int scores = bound({1, 4, 128, 128});
  int length = bound({});
  int unbound = m.Tensor({.sizes = {1, 16}, .dynamism = Dynamism::kDynamicUnbound});
  int fixed = PlannedTensor(m, planner, {64, 64});
  int weight = ConstantTensor(m, {64, 64});
  int transposed_order = m.Tensor({.sizes = {8, 16},
                                   .dim_order = std::vector<uint8_t>{1, 0},
                                   .dynamism = Dynamism::kDynamicBound,
                                   .placement = planner.Take(512)});
  m.Inputs({tokens, unbound});
  m.Outputs({scores, length});
  m.PlannedBufferSizes({planner.high_water()});

  int embed = m.Operator("aten::embedding", "out");
  int matmul = m.Operator("aten::matmul", "out");
  int size = m.Operator("aten::sym_size", "int");
  m.KernelCall(embed, {weight, tokens, hidden, hidden});
  m.KernelCall(matmul, {hidden, fixed, scores, scores});
  m.KernelCall(size, {unbound, length});
  m.KernelCall(matmul, {transposed_order, unbound, transposed_order});
  return program;
}

ProgramBuilder ProgramWithDelegate(const std::string& backend_id, bool blob_in_segment) {
  ProgramBuilder program;
  MethodBuilder& m = program.Method("forward");
  BumpPlanner planner;
  int x = PlannedTensor(m, planner, {1, 16});
  int w = ConstantTensor(m, {16, 16});
  int delegated = PlannedTensor(m, planner, {1, 16});
  int y = PlannedTensor(m, planner, {1, 16});
  m.Inputs({x});
  m.Outputs({y});
  m.PlannedBufferSizes({planner.high_water()});
  int d = m.Delegate({.backend_id = backend_id,
                      .compile_specs = {{"precision", Bytes({'f', 'p', '3', '2'})},
                                        {"num_threads", Bytes({2, 0, 0, 0})}},
                      .blob = CounterBytes(200),
                      .blob_in_segment = blob_in_segment});
  int relu = m.Operator("aten::relu", "out");
  m.DelegateCall(d, {x, w, delegated});
  m.KernelCall(relu, {delegated, y, y});
  return program;
}

namespace {

// One linear layer "y = x @ w + b" with its own constants. The output goes to planned buffer
// `out_buffer` (1 or 2); the input always to buffer 1.
void AddLinearMethod(MethodBuilder& m, int in, int out, uint32_t out_buffer) {
  BumpPlanner planners[2];
  auto planned = [&](std::vector<int32_t> sizes, uint32_t memory_id) {
    Placement p = planners[memory_id - 1].Take(TensorBytes(kFloat32, sizes));
    p.memory_id = memory_id;
    return m.Tensor({.sizes = std::move(sizes), .placement = p});
  };
  int x = planned({1, in}, 1);
  int w = ConstantTensor(m, {in, out});
  int b = ConstantTensor(m, {out});
  int y = planned({1, out}, out_buffer);
  int beta = m.Int(1);
  int alpha = m.Int(1);
  m.Inputs({x});
  m.Outputs({y});
  int addmm = m.Operator("aten::addmm", "out");
  m.KernelCall(addmm, {b, x, w, beta, alpha, y, y});
  if (out_buffer == 1)
    m.PlannedBufferSizes({planners[0].high_water()});
  else
    m.PlannedBufferSizes({planners[0].high_water(), planners[1].high_water()});
}

}  // namespace

ProgramBuilder ProgramWithTwoMethods() {
  ProgramBuilder program;
  AddLinearMethod(program.Method("forward"), 32, 8, 1);
  AddLinearMethod(program.Method("encode"), 64, 16, 2);
  return program;
}

ProgramBuilder ProgramWithControlFlow() {
  ProgramBuilder program;
  MethodBuilder& m = program.Method("forward");
  BumpPlanner planner;
  int x = PlannedTensor(m, planner, {4});
  int acc = PlannedTensor(m, planner, {4});
  int tmp = PlannedTensor(m, planner, {4});
  int cond = m.Bool(true);
  int alpha = m.Int(1);
  m.Inputs({x});
  m.Outputs({acc});
  m.PlannedBufferSizes({planner.high_water()});
  int add = m.Operator("aten::add", "out");
  int gt = m.Operator("aten::gt", "Scalar_out");

  m.Chain();  // 0: a loop: jump back to the start while `cond` is false
  int loop_start = m.next_instruction();
  m.KernelCall(add, {x, acc, alpha, tmp, tmp});
  m.Move(tmp, acc);
  m.JumpFalse(cond, loop_start);
  m.Free(tmp);
  m.Chain();  // 1: a forward jump over one call
  m.JumpFalse(cond, m.next_instruction() + 2);
  m.KernelCall(gt, {acc, alpha, tmp, tmp});
  m.KernelCall(add, {acc, x, alpha, acc, acc});
  m.Chain();  // 2: only bookkeeping
  m.Move(acc, tmp);
  m.Free(x);
  return program;
}

ProgramBuilder ProgramWithExternalData() {
  ProgramBuilder program;
  MethodBuilder& m = program.Method("forward");
  BumpPlanner planner;
  int x = PlannedTensor(m, planner, {1, 8});
  auto external = [&](std::string fqn, std::vector<int32_t> sizes) {
    return m.Tensor({.sizes = std::move(sizes), .external_fqn = std::move(fqn)});
  };
  int w = external("linear.weight", {8, 8});
  int w_again = external("linear.weight", {8, 8});  // the same key a second time
  int b = external("linear.bias", {8});
  // Planned and external: mutable state whose initial value comes from the .ptd.
  int state =
      m.Tensor({.sizes = {1, 8}, .placement = planner.Take(32), .external_fqn = "cache.state"});
  int local = ConstantTensor(m, {8});  // an ordinary constant beside them
  int y = PlannedTensor(m, planner, {1, 8});
  int beta = m.Int(1);
  m.Inputs({x});
  m.Outputs({y});
  m.PlannedBufferSizes({planner.high_water()});
  int addmm = m.Operator("aten::addmm", "out");
  int add = m.Operator("aten::add", "out");
  m.KernelCall(addmm, {b, x, w, beta, beta, y, y});
  m.KernelCall(addmm, {local, y, w_again, beta, beta, y, y});
  m.KernelCall(add, {y, state, beta, state, state});
  return program;
}

namespace {

ProgramBuilder CnnWithInlineConstants() {
  ProgramBuilder program = MotivatingCnn();
  program.ConstantsInSegment(false);
  return program;
}

constexpr NamedScenario kNamed[] = {
    {"cnn", MotivatingCnn},
    {"cnn_inline_constants", CnnWithInlineConstants},
    {"every_value_kind", ProgramWithEveryValueKind},
    {"dynamic_shapes", ProgramWithDynamicShapes},
    {"delegate_inline", [] { return ProgramWithDelegate("XnnpackBackend"); }},
    {"delegate_segment", [] { return ProgramWithDelegate("XnnpackBackend", true); }},
    {"two_methods", ProgramWithTwoMethods},
    {"control_flow", ProgramWithControlFlow},
    {"external_data", ProgramWithExternalData},
    {"lstm_like", [] { return LstmLike(1); }},
    {"scaled_cnn", [] { return ScaledCnn(1); }},
};

}  // namespace

std::span<const NamedScenario> NamedScenarios() { return kNamed; }

ProgramBuilder NamedScenarioProgram(std::string_view name) {
  for (const NamedScenario& s : kNamed)
    if (s.name == name) return s.make();
  for (const NamedScenario& s : RefusalScenarios())
    if (s.name == name) return s.make();
  for (const NamedScenario& s : ExecutableScenarios())
    if (s.name == name) return s.make();
  for (const NamedScenario& s : AcceptanceScenarios())
    if (s.name == name) return s.make();
  for (const NamedScenario& s : TempScenarios())
    if (s.name == name) return s.make();
  ETMEM_CHECK(false && "unknown scenario name");
  return {};
}

}  // namespace etmem::testing
