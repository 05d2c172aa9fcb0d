// Owns: MotivatingCnn, a structural rebuild of the motivating report's program
// (shared/models/real/cnn_trained_2025-04-04_34b7e8d.pte): Conv1d(1->32, k5) -> ReLU ->
// MaxPool(1x3) -> take positions 0 and 1 -> concat -> Linear(64->48, no bias) -> ReLU ->
// Linear(48->2, no bias) -> softmax. Value order, kinds, shapes, placements, constant sizes and
// even the flatbuffer's size follow the real file; the weights are CounterBytes. The comments
// give the value index each line creates.
#include "etmem/testing/scenario_helpers.h"
#include "etmem/testing/scenarios.h"

namespace etmem::testing {
namespace {

struct CnnValues {
  int conv_w, conv_b, fc1_w, fc2_w, x, conv_out, stride, padding, dilation, transposed,
      output_padding, groups, relu_out, unsqueezed, unsqueeze_dim, pooled, pool_indices, kernel,
      pool_stride, pool_padding, pool_dilation, ceil_mode, pool_outs, squeezed, squeeze_dims,
      permuted, permute_dims, col0, col0_dim, col0_index, col1, col1_dim, col1_index, concat,
      concat_inputs, concat_dim, fc1_wt, fc1_wt_dims, fc1_out, relu2_out, fc2_wt, fc2_wt_dims,
      fc2_out, probabilities, softmax_dim, half_to_float;
};

int Weight(MethodBuilder& m, std::vector<int32_t> sizes, WeightBytes weights) {
  ConstantData data{.bytes = weights(TensorBytes(kFloat32, sizes))};
  return m.Tensor({.sizes = std::move(sizes), .requires_grad = true, .constant = std::move(data)});
}

int Activation(MethodBuilder& m, std::vector<int32_t> sizes, uint64_t offset,
               int8_t dtype = kFloat32, bool requires_grad = true) {
  return m.Tensor({.dtype = dtype, .sizes = std::move(sizes), .requires_grad = requires_grad,
                   .placement = Placement{.offset = offset}});
}

void AddConvValues(MethodBuilder& m, CnnValues& v, WeightBytes weights) {
  v.conv_w = Weight(m, {32, 1, 5}, weights);                    // 0
  v.conv_b = Weight(m, {32}, weights);                          // 1
  v.fc1_w = Weight(m, {48, 64}, weights);                       // 2
  v.fc2_w = Weight(m, {2, 48}, weights);                        // 3
  v.x = Activation(m, {1, 1, 100}, 0, kFloat32, false);         // 4
  v.conv_out = Activation(m, {1, 32, 96}, 12288);               // 5
  v.stride = m.IntListOf({1});                                  // 6-7
  v.padding = m.IntListOf({0});                                 // 8-9
  v.dilation = m.IntListOf({1});                                // 10-11
  v.transposed = m.Bool(false);                                 // 12
  v.output_padding = m.IntListOf({0});                          // 13-14
  v.groups = m.Int(1);                                          // 15
  v.relu_out = Activation(m, {1, 32, 96}, 0);                   // 16
}

void AddPoolValues(MethodBuilder& m, CnnValues& v) {
  v.unsqueezed = Activation(m, {1, 32, 1, 96}, 12288);          // 17
  v.unsqueeze_dim = m.Int(-2);                                  // 18
  v.pooled = Activation(m, {1, 32, 1, 32}, 0);                  // 19
  v.pool_indices = Activation(m, {1, 32, 1, 32}, 24576, kInt64, false);  // 20
  v.kernel = m.IntListOf({1, 3});                               // 21-23
  v.pool_stride = m.IntListOf({1, 3});                          // 24-26
  v.pool_padding = m.IntListOf({0, 0});                         // 27-29
  v.pool_dilation = m.IntListOf({1, 1});                        // 30-32
  v.ceil_mode = m.Bool(false);                                  // 33
  v.pool_outs = m.TensorList({v.pooled, v.pool_indices});       // 34
  v.squeezed = Activation(m, {1, 32, 32}, 24576);               // 35
  v.squeeze_dims = m.IntListOf({-2});                           // 36-37
  v.permuted = Activation(m, {1, 32, 32}, 0);                   // 38
  v.permute_dims = m.IntListOf({0, 2, 1});                      // 39-42
}

void AddHeadValues(MethodBuilder& m, CnnValues& v) {
  v.col0 = Activation(m, {1, 32}, 24576);                       // 43
  v.col0_dim = m.Int(2);                                        // 44
  v.col0_index = m.Int(0);                                      // 45
  v.col1 = Activation(m, {1, 32}, 32768);                       // 46
  v.col1_dim = m.Int(2);                                        // 47
  v.col1_index = m.Int(1);                                      // 48
  v.concat = Activation(m, {1, 64}, 0);                         // 49
  v.concat_inputs = m.TensorList({v.col0, v.col1});             // 50
  v.concat_dim = m.Int(1);                                      // 51
  v.fc1_wt = Activation(m, {64, 48}, 12288);                    // 52
  v.fc1_wt_dims = m.IntListOf({1, 0});                          // 53-55
  v.fc1_out = Activation(m, {1, 48}, 32768);                    // 56
  v.relu2_out = Activation(m, {1, 48}, 0);                      // 57
  v.fc2_wt = Activation(m, {48, 2}, 32768);                     // 58
  v.fc2_wt_dims = m.IntListOf({1, 0});                          // 59-61
  v.fc2_out = Activation(m, {1, 2}, 33152);                     // 62
  v.probabilities = Activation(m, {1, 2}, 32768);               // 63
  v.softmax_dim = m.Int(1);                                     // 64
  v.half_to_float = m.Bool(false);                              // 65
}

void AddCnnCalls(MethodBuilder& m, const CnnValues& v) {
  int conv = m.Operator("aten::convolution", "out");
  int relu = m.Operator("aten::relu", "out");
  int unsqueeze = m.Operator("aten::unsqueeze_copy", "out");
  int max_pool = m.Operator("aten::max_pool2d_with_indices", "out");
  int squeeze = m.Operator("aten::squeeze_copy", "dims_out");
  int permute = m.Operator("aten::permute_copy", "out");
  int select = m.Operator("aten::select_copy", "int_out");
  int cat = m.Operator("aten::cat", "out");
  int mm = m.Operator("aten::mm", "out");
  int softmax = m.Operator("aten::_softmax", "out");
  // Out-variant kernels take the output twice: as the `out` argument and as the return value.
  m.KernelCall(conv, {v.x, v.conv_w, v.conv_b, v.stride, v.padding, v.dilation, v.transposed,
                      v.output_padding, v.groups, v.conv_out, v.conv_out});
  m.KernelCall(relu, {v.conv_out, v.relu_out, v.relu_out});
  m.KernelCall(unsqueeze, {v.relu_out, v.unsqueeze_dim, v.unsqueezed, v.unsqueezed});
  m.KernelCall(max_pool, {v.unsqueezed, v.kernel, v.pool_stride, v.pool_padding, v.pool_dilation,
                          v.ceil_mode, v.pooled, v.pool_indices, v.pool_outs});
  m.KernelCall(squeeze, {v.pooled, v.squeeze_dims, v.squeezed, v.squeezed});
  m.KernelCall(permute, {v.squeezed, v.permute_dims, v.permuted, v.permuted});
  m.KernelCall(select, {v.permuted, v.col0_dim, v.col0_index, v.col0, v.col0});
  m.KernelCall(select, {v.permuted, v.col1_dim, v.col1_index, v.col1, v.col1});
  m.KernelCall(cat, {v.concat_inputs, v.concat_dim, v.concat, v.concat});
  m.KernelCall(permute, {v.fc1_w, v.fc1_wt_dims, v.fc1_wt, v.fc1_wt});
  m.KernelCall(mm, {v.concat, v.fc1_wt, v.fc1_out, v.fc1_out});
  m.KernelCall(relu, {v.fc1_out, v.relu2_out, v.relu2_out});
  m.KernelCall(permute, {v.fc2_w, v.fc2_wt_dims, v.fc2_wt, v.fc2_wt});
  m.KernelCall(mm, {v.relu2_out, v.fc2_wt, v.fc2_out, v.fc2_out});
  m.KernelCall(softmax, {v.fc2_out, v.softmax_dim, v.half_to_float, v.probabilities,
                         v.probabilities});
}

}  // namespace

ProgramBuilder MotivatingCnn() { return MotivatingCnnWithWeights(CounterBytes); }

ProgramBuilder MotivatingCnnWithWeights(WeightBytes weights) {
  ProgramBuilder program;
  program.HeaderLength(24);  // written by a 0.x exporter
  MethodBuilder& m = program.Method("forward");
  CnnValues v{};
  AddConvValues(m, v, weights);
  AddPoolValues(m, v);
  AddHeadValues(m, v);
  m.Inputs({v.x});
  m.Outputs({v.probabilities});
  m.Pytree(PositionalArgsTreeSpec(1), SingleTensorTreeSpec());
  m.Chain();
  AddCnnCalls(m, v);
  m.PlannedBufferSizes({33168});
  return program;
}

}  // namespace etmem::testing
