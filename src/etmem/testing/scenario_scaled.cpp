// Owns: the programs whose size is a parameter, for benchmarks: LstmLike, ScaledCnn and the
// sparse-segment program. Their weights are zero-filled constants (the builder holds no bytes
// for them; WriteFile leaves holes), and planned tensors reuse two regions in turn. Scale 1000
// (about 300k values) builds in well under a second.
#include <limits>

#include "etmem/testing/scenario_helpers.h"
#include "etmem/testing/scenarios.h"

namespace etmem::testing {
namespace {

constexpr int32_t kLstmSteps = 5;
constexpr int32_t kLstmHidden = 8;
constexpr int32_t kLstmInput = 4;
constexpr uint64_t kLstmRegion = 64 * 1024;  // planned bytes one layer may use

int ZeroWeight(MethodBuilder& m, std::vector<int32_t> sizes) {
  ConstantData data{.zero_bytes = TensorBytes(kFloat32, sizes)};
  return m.Tensor({.sizes = std::move(sizes), .constant = std::move(data)});
}

// One LSTM layer as an exporter unrolls it: a prologue that projects every time step's input
// at once, then per step a recurrent projection, the four gates and the state update, then an
// epilogue that stacks the step outputs. 13 + 17 * kLstmSteps = 98 kernel calls.
class LstmLayer {
 public:
  LstmLayer(MethodBuilder& m, BumpPlanner& planner, int32_t input_size)
      : m_(m), planner_(planner), input_size_(input_size) {}

  // `input` is [1, steps, input_size]; returns the layer output [1, steps, hidden].
  int Build(int input);

 private:
  int T(std::vector<int32_t> sizes) { return PlannedTensor(m_, planner_, std::move(sizes)); }
  int Op(const char* name, const char* overload) { return m_.Operator(name, overload); }
  int Call(const char* name, const char* overload, std::vector<int32_t> args,
           std::vector<int32_t> out_sizes);
  int View(int x, std::vector<int64_t> sizes);
  int Step(int gates_in, int& h, int& c);

  MethodBuilder& m_;
  BumpPlanner& planner_;
  int32_t input_size_;
  int w_hh_ = 0;
  int b_hh_ = 0;
};

// Adds the output tensor after the arguments' values and passes it twice (out argument and
// return value), the out-variant calling convention. Returns the output.
int LstmLayer::Call(const char* name, const char* overload, std::vector<int32_t> args,
                    std::vector<int32_t> out_sizes) {
  int out = T(std::move(out_sizes));
  args.push_back(out);
  args.push_back(out);
  m_.KernelCall(Op(name, overload), std::move(args));
  return out;
}

int LstmLayer::View(int x, std::vector<int64_t> sizes) {
  int size_list = m_.IntListOf(sizes);
  int out = T(std::vector<int32_t>(sizes.begin(), sizes.end()));
  m_.KernelCall(Op("executorch_prim::et_view", "default"), {x, size_list, out});
  return out;
}

int LstmLayer::Step(int gates_in, int& h, int& c) {
  const int32_t H = kLstmHidden;
  int h2d = View(h, {1, H});
  int w_hh_t = Call("aten::permute_copy", "out", {w_hh_, m_.IntListOf({1, 0})}, {H, 4 * H});
  int gh = Call("aten::addmm", "out", {b_hh_, h2d, w_hh_t, m_.Int(1), m_.Int(1)}, {1, 4 * H});
  int gh3 = View(gh, {1, 1, 4 * H});
  int sum = Call("aten::add", "out", {gh3, gates_in, m_.Int(1)}, {1, 1, 4 * H});
  std::vector<int32_t> gates;
  for (int g = 0; g < 4; ++g) gates.push_back(T({1, 1, H}));
  int sizes = m_.IntListOf({H, H, H, H});
  int dim = m_.Int(2);
  int gate_list = m_.TensorList(gates);
  m_.KernelCall(Op("aten::split_with_sizes_copy", "out"), {sum, sizes, dim, gate_list, gate_list});
  int i = Call("aten::sigmoid", "out", {gates[0]}, {1, 1, H});
  int f = Call("aten::sigmoid", "out", {gates[1]}, {1, 1, H});
  int g = Call("aten::tanh", "out", {gates[2]}, {1, 1, H});
  int o = Call("aten::sigmoid", "out", {gates[3]}, {1, 1, H});
  int fc = Call("aten::mul", "out", {f, c}, {1, 1, H});
  int ig = Call("aten::mul", "out", {i, g}, {1, 1, H});
  c = Call("aten::add", "out", {fc, ig, m_.Int(1)}, {1, 1, H});
  int tc = Call("aten::tanh", "out", {c}, {1, 1, H});
  h = Call("aten::mul", "out", {o, tc}, {1, 1, H});
  return h;
}

int LstmLayer::Build(int input) {
  const int32_t H = kLstmHidden, S = kLstmSteps, I = input_size_;
  int w_ih = ZeroWeight(m_, {4 * H, I});
  w_hh_ = ZeroWeight(m_, {4 * H, H});
  int b_ih = ZeroWeight(m_, {4 * H});
  b_hh_ = ZeroWeight(m_, {4 * H});
  auto full = [&] {
    return Call("aten::full", "out", {m_.IntListOf({1, 1, H}), m_.Int(0)}, {1, 1, H});
  };
  int h0 = full(), c0 = full();
  auto squeeze = [&](int x, std::vector<int32_t> out_sizes) {
    return Call("aten::squeeze_copy", "dims_out", {x, m_.IntListOf({0})}, std::move(out_sizes));
  };
  int h = squeeze(h0, {1, H}), c = squeeze(c0, {1, H});
  int steps_first = Call("aten::permute_copy", "out", {input, m_.IntListOf({1, 0, 2})}, {S, 1, I});
  h = Call("aten::unsqueeze_copy", "out", {h, m_.Int(0)}, {1, 1, H});
  c = Call("aten::unsqueeze_copy", "out", {c, m_.Int(0)}, {1, 1, H});
  int x2d = View(steps_first, {S, I});
  int w_ih_t = Call("aten::permute_copy", "out", {w_ih, m_.IntListOf({1, 0})}, {I, 4 * H});
  int gx = Call("aten::addmm", "out", {b_ih, x2d, w_ih_t, m_.Int(1), m_.Int(1)}, {S, 4 * H});
  int gx3 = View(gx, {S, 1, 4 * H});
  std::vector<int> slices, step_inputs;
  for (int t = 0; t < S; ++t)
    slices.push_back(Call("aten::slice_copy", "Tensor_out",
                          {gx3, m_.Int(0), m_.Int(t), m_.Int(t + 1), m_.Int(1)}, {1, 1, 4 * H}));
  for (int t = 0; t < S; ++t) step_inputs.push_back(squeeze(slices[t], {1, 4 * H}));
  std::vector<int32_t> outputs;
  for (int t = 0; t < S; ++t) outputs.push_back(Step(step_inputs[t], h, c));
  int stacked = Call("aten::cat", "out", {m_.TensorList(outputs), m_.Int(0)}, {S, 1, H});
  return Call("aten::permute_copy", "out", {stacked, m_.IntListOf({1, 0, 2})}, {1, S, H});
}

constexpr int32_t kCnnChannels = 8;
constexpr int32_t kCnnLength = 32;
constexpr int kCnnPairsPerUnit = 49;

// Conv arguments an exporter repeats for every call; one set per unit here.
struct ConvLiterals {
  int stride, dilation, transposed, output_padding, groups;
};

ConvLiterals AddConvLiterals(MethodBuilder& m) {
  return {.stride = m.IntListOf({1}),
          .dilation = m.IntListOf({1}),
          .transposed = m.Bool(false),
          .output_padding = m.IntListOf({0}),
          .groups = m.Int(1)};
}

}  // namespace

ProgramBuilder LstmLike(int scale) {
  ETMEM_CHECK(scale >= 1);
  ProgramBuilder program;
  MethodBuilder& m = program.Method("forward");
  BumpPlanner planner;
  int x = PlannedTensor(m, planner, {1, kLstmSteps, kLstmInput});
  int y = x;
  for (int layer = 0; layer < scale; ++layer) {
    // Layers alternate between two regions: each reads the other one and writes its own.
    // Layer 0 writes region 1; x, at the start of region 0, is dead once layer 0 is done.
    const uint64_t start = ((layer + 1) % 2) * kLstmRegion;
    planner.Rewind(start);
    y = LstmLayer(m, planner, layer == 0 ? kLstmInput : kLstmHidden).Build(y);
    ETMEM_CHECK(planner.cursor() - start <= kLstmRegion);
  }
  m.Inputs({x});
  m.Outputs({y});
  m.PlannedBufferSizes({planner.high_water()});
  return program;
}

ProgramBuilder ScaledCnn(int scale) {
  ETMEM_CHECK(scale >= 1);
  ProgramBuilder program;
  MethodBuilder& m = program.Method("forward");
  const std::vector<int32_t> shape{1, kCnnChannels, kCnnLength};
  const uint64_t slot = TensorBytes(kFloat32, shape);
  auto activation = [&](uint64_t slot_index) {
    return m.Tensor({.sizes = shape, .placement = Placement{.offset = slot_index * slot}});
  };
  int conv = m.Operator("aten::convolution", "out");
  int relu = m.Operator("aten::relu", "out");
  int x = activation(1);
  int y = x;
  for (int unit = 0; unit < scale; ++unit) {
    ConvLiterals lit = AddConvLiterals(m);
    for (int pair = 0; pair < kCnnPairsPerUnit; ++pair) {
      int w = ZeroWeight(m, {kCnnChannels, kCnnChannels, 3});
      int b = ZeroWeight(m, {kCnnChannels});
      int padding = m.IntListOf({1});
      int conv_out = activation(0);  // slot 0 for conv outputs, slot 1 for relu outputs
      m.KernelCall(conv, {y, w, b, lit.stride, padding, lit.dilation, lit.transposed,
                          lit.output_padding, lit.groups, conv_out, conv_out});
      y = activation(1);
      m.KernelCall(relu, {conv_out, y, y});
    }
  }
  m.Inputs({x});
  m.Outputs({y});
  m.PlannedBufferSizes({static_cast<int64_t>(2 * slot)});
  return program;
}

ProgramBuilder ProgramWithSparseSegment(uint64_t weight_bytes) {
  constexpr uint64_t kMiB = 1 << 20;
  constexpr uint64_t kMaxDim = std::numeric_limits<int32_t>::max();
  std::vector<int32_t> table_sizes, row_sizes;
  if (weight_bytes <= kMaxDim) {
    table_sizes = {static_cast<int32_t>(weight_bytes)};
    row_sizes = {4};
  } else {
    ETMEM_CHECK(weight_bytes % kMiB == 0 && weight_bytes / kMiB <= kMaxDim);
    table_sizes = {static_cast<int32_t>(weight_bytes / kMiB), static_cast<int32_t>(kMiB)};
    row_sizes = {4, static_cast<int32_t>(kMiB)};
  }
  ProgramBuilder program;
  MethodBuilder& m = program.Method("forward");
  BumpPlanner planner;
  int indices = PlannedTensor(m, planner, {4}, kInt64);
  int table = m.Tensor(
      {.dtype = kByte, .sizes = table_sizes, .constant = ConstantData{.zero_bytes = weight_bytes}});
  int rows = PlannedTensor(m, planner, row_sizes, kByte);
  m.Inputs({indices});
  m.Outputs({rows});
  m.PlannedBufferSizes({planner.high_water()});
  int index_select = m.Operator("aten::index_select", "out");
  m.KernelCall(index_select, {table, m.Int(0), indices, rows, rows});
  return program;
}

Status WriteProgramWithSparseSegment(const std::string& path, uint64_t weight_bytes) {
  return ProgramWithSparseSegment(weight_bytes).WriteFile(path);
}

}  // namespace etmem::testing
