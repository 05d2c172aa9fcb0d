// Owns: the scenarios whose kernels ask the temp allocator for memory while the method runs
// (TempScenarios): `topk`, three portable topk.values calls of different sizes and dtypes, the
// largest in the middle, for the run-time temp figure and its measurement with the real kernel
// (tests/measured/x86_64_run_temp.json); `hifi_matmul`, the aten mm.out and bmm.out calls the
// Cadence HiFi kernels answer (a Float mm, a Float bmm, a Long mm that takes the portable path),
// for --kernels cadence_hifi and its measurement with the real HiFi kernels
// (tests/measured/x86_64_run_temp_hifi.json); `hifi_softmax`, three Float _softmax.out calls
// (over the first dim, the last, and the middle of three) for the HiFi softmax's transposes;
// `hifi_broadcast`, the HiFi atan2.out, pow.*, clamp.Tensor_out and where.self_out in each of their
// broadcast cases, `hifi_bitwise`, the HiFi bitwise_{and,or,xor} (their broadcast buffers), and
// `hifi_quantized_matmul` / `hifi_quantized_matmul_asym8`, the HiFi cadence::quantized_matmul*
// (whose failed requests abort); `cortex_m_conv` and `cortex_m_matmul`, the Cortex-M backend's
// CMSIS-NN operators (conv2d and depthwise conv2d; batch matmul and transpose conv2d, from 1.2.0)
// in shapes that take CMSIS-NN's different buffer-size branches, for --kernels cortex_m on targets
// with and without DSP / MVE and their measurement with the real operators
// (tests/measured/x86_64_run_temp_cortex_m.json); `fusion_g3_layer_norm`, the Cadence Fusion G3
// native_layer_norm.out without weight and bias, with one of them, with both, and on Double, and
// `vision_softmax`, the Cadence Vision _softmax.out off and on its iDMA paths
// (tests/measured/x86_64_run_temp_cadence_g3_vision.json); `hifi_mean`, the Cadence HiFi
// mean.out on and off its NNLib path, and `hifi_quantized_max_pool2d_nhwc`, the HiFi
// cadence::quantized_max_pool2d_nhwc.out on Byte input with several channels, with one, and on
// Float (tests/measured/x86_64_run_temp_hifi_nnlib.json); `hifi_quantized_conv` (1.0.x names) and
// `hifi_quantized_conv2d` (from 1.1.0), the HiFi specialised quantized convolutions, NHWC and NCHW,
// 2-D and 1-D, and `hifi_quantized_conv_depthwise` / `hifi_quantized_conv2d_depthwise`, their
// depthwise siblings, and `hifi_quantized_conv_generic` (1.0.x names),
// `hifi_quantized_conv2d_generic` (1.1.x) and `hifi_quantized_conv2d_nchw_generic` (NCHW only, from
// 1.2.0), the generic quantized_conv{,2d}_{nchw,nhwc}.out / .per_tensor_out on and off their NNLib
// paths, `hifi_quantized_conv2d_nhwc_generic_12` (1.2.x) and `hifi_quantized_conv2d_nhwc_generic`
// (from 1.3.0, whose .per_tensor_out takes an offset), the generic NHWC one reading NHWC sizes, and
// `hifi_quantized_conv_channel_last`, 0.6.x's and 0.7.x's cadence::quantized_conv.out, and
// `hifi_quantized_conv1d_10` (1.0.x names), `hifi_quantized_conv1d` (1.1.x, 1.2.x) and
// `hifi_quantized_conv1d_ncl`, `hifi_quantized_conv1d_nlc` and
// `hifi_quantized_depthwise_conv1d_nlc` (1.3.0 on), the 1-D ones
// (tests/measured/x86_64_run_temp_hifi_conv.json); `ethos_u_scratch` and `ethos_u_scratch_in_blob`,
// an Ethos-U delegate whose Vela payload asks for its scratch from the temp allocator or carries
// it, for the measurement with the real backend (tests/measured/x86_64_run_temp_ethos_u.json).
// Not: the builder (program_builder.h).
#include "etmem/testing/scenario_helpers.h"
#include "etmem/testing/scenarios.h"

namespace etmem::testing {
namespace {

// topk.values(in, k, dim, largest, sorted, *, values, indices) -> (values, indices): the out
// variant's arguments, then what it returns.
int Topk(MethodBuilder& m, BumpPlanner& planner, int op, int in, std::vector<int32_t> out_sizes,
          int8_t dtype, int64_t k, int64_t dim) {
  const int values = PlannedTensor(m, planner, out_sizes, dtype);
  const int indices = PlannedTensor(m, planner, out_sizes, kInt64);
  const int k_value = m.Int(k);
  const int dim_value = m.Int(dim);
  const int largest = m.Bool(true);
  const int sorted = m.Bool(true);
  const int returned = m.TensorList({values, indices});
  m.KernelCall(op, {in, k_value, dim_value, largest, sorted, values, indices, returned});
  return values;
}

ProgramBuilder ProgramWithTopk() {
  ProgramBuilder program;
  MethodBuilder& m = program.Method("forward");
  BumpPlanner planner;
  const int a = PlannedTensor(m, planner, {3, 5});                  // float, topk over 5
  const int b = PlannedTensor(m, planner, {40, 2}, kFloat64);       // double, topk over 40
  const int c = PlannedTensor(m, planner, {7}, kInt64);             // long, topk over 7
  m.Inputs({a, b, c});
  const int topk = m.Operator("aten::topk", "values");
  const int x = Topk(m, planner, topk, a, {3, 2}, kFloat32, 2, 1);
  const int y = Topk(m, planner, topk, b, {3, 2}, kFloat64, 3, 0);
  const int z = Topk(m, planner, topk, c, {4}, kInt64, 4, -1);
  m.Outputs({x, y, z});
  m.PlannedBufferSizes({planner.high_water()});
  return program;
}

// mm.out(self, mat2, *, out) and bmm.out(self, mat2, *, out): the out variant's arguments, then
// what it returns.
int Matmul(MethodBuilder& m, BumpPlanner& planner, int op, int a, int b,
           std::vector<int32_t> out_sizes, int8_t dtype) {
  const int out = PlannedTensor(m, planner, out_sizes, dtype);
  m.KernelCall(op, {a, b, out, out});
  return out;
}

ProgramBuilder ProgramWithHifiMatmul() {
  ProgramBuilder program;
  MethodBuilder& m = program.Method("forward");
  BumpPlanner planner;
  const int a = PlannedTensor(m, planner, {3, 5});           // mm: m 3, n 5
  const int b = PlannedTensor(m, planner, {5, 4});           //     p 4
  const int c = PlannedTensor(m, planner, {2, 3, 5});        // bmm: batch 2, m 3, n 5
  const int d = PlannedTensor(m, planner, {2, 5, 4});        //      p 4
  const int e = PlannedTensor(m, planner, {6, 7}, kInt64);   // a Long mm: the portable path
  const int f = PlannedTensor(m, planner, {7, 2}, kInt64);
  m.Inputs({a, b, c, d, e, f});
  const int mm = m.Operator("aten::mm", "out");
  const int bmm = m.Operator("aten::bmm", "out");
  const int x = Matmul(m, planner, mm, a, b, {3, 4}, kFloat32);
  const int y = Matmul(m, planner, bmm, c, d, {2, 3, 4}, kFloat32);
  const int z = Matmul(m, planner, mm, e, f, {6, 2}, kInt64);
  m.Outputs({x, y, z});
  m.PlannedBufferSizes({planner.high_water()});
  return program;
}

// _softmax.out(self, dim, half_to_float, *, out): the out variant's arguments, then what it
// returns.
int Softmax(MethodBuilder& m, BumpPlanner& planner, int op, int in, std::vector<int32_t> sizes,
            int64_t dim) {
  const int out = PlannedTensor(m, planner, sizes);
  m.KernelCall(op, {in, m.Int(dim), m.Bool(false), out, out});
  return out;
}

ProgramBuilder ProgramWithHifiSoftmax() {
  ProgramBuilder program;
  MethodBuilder& m = program.Method("forward");
  BumpPlanner planner;
  const int a = PlannedTensor(m, planner, {3, 5});
  const int b = PlannedTensor(m, planner, {2, 4, 6});
  m.Inputs({a, b});
  const int softmax = m.Operator("aten::_softmax", "out");
  const int x = Softmax(m, planner, softmax, a, {3, 5}, 0);      // the first dim: transposed
  const int y = Softmax(m, planner, softmax, a, {3, 5}, -1);     // the last: not from 1.0.0
  const int z = Softmax(m, planner, softmax, b, {2, 4, 6}, 1);   // the middle of three
  m.Outputs({x, y, z});
  m.PlannedBufferSizes({planner.high_water()});
  return program;
}

// An out variant `op`(args..., *, out) on a new planned output: its arguments, then what it
// returns.
int OutCall(MethodBuilder& m, BumpPlanner& planner, int op, std::vector<int32_t> args,
            std::vector<int32_t> out_sizes, int8_t dtype = kFloat32) {
  const int out = PlannedTensor(m, planner, out_sizes, dtype);
  args.push_back(out);
  args.push_back(out);
  m.KernelCall(op, args);
  return out;
}

// The Cadence HiFi atan2, pow, clamp and where: each broadcast case of each (two inputs
// broadcast, one, none; the portable paths of other dtypes and of more than 4 dimensions; one
// clamp bound), the largest request at instruction 1.
ProgramBuilder ProgramWithHifiBroadcast() {
  ProgramBuilder program;
  MethodBuilder& m = program.Method("forward");
  BumpPlanner planner;
  auto in = [&](std::vector<int32_t> sizes, int8_t dtype = kFloat32) {
    return PlannedTensor(m, planner, sizes, dtype);
  };
  // Inputs, in the order of the calls that read them.
  const std::vector<int> x = {
      in({3, 4}), in({4}),                          // atan2: the second broadcast
      in({2, 1, 3}), in({4, 1}),                    // atan2: both
      in({5, 1}), in({5, 6}),                       // pow: the first
      in({2, 3}), in({2, 3}),                       // pow: none
      in({2, 1}, kFloat64), in({1, 3}, kFloat64),   // pow: Double, the portable path
      in({4, 4}), in({4, 4}),                       // pow.Tensor_Scalar, pow.Scalar
      in({1, 5}), in({4, 1}), in({1}),              // clamp: in broadcast
      in({4, 5}), in({5}), in({4, 1}),              // clamp: in not broadcast
      in({1, 5}), in({4, 1}),                       // clamp: min only
      in({1, 1, 1, 1, 3}), in({2, 1, 1, 1, 1}), in({3}),  // clamp: 5 dimensions
      in({3, 1}, kBool), in({3, 4}), in({4}),       // where: cond broadcast
      in({3, 4}, kBool), in({3, 1}), in({4}),       // where: cond not broadcast
  };
  m.Inputs(std::vector<int32_t>(x.begin(), x.end()));
  const int atan2 = m.Operator("aten::atan2", "out");
  const int pow_tt = m.Operator("aten::pow", "Tensor_Tensor_out");
  const int pow_ts = m.Operator("aten::pow", "Tensor_Scalar_out");
  const int pow_s = m.Operator("aten::pow", "Scalar_out");
  const int clamp = m.Operator("aten::clamp", "Tensor_out");
  const int where = m.Operator("aten::where", "self_out");
  const int none = m.Null();
  std::vector<int32_t> outs = {
      OutCall(m, planner, atan2, {x[0], x[1]}, {3, 4}),
      OutCall(m, planner, atan2, {x[2], x[3]}, {2, 4, 3}),
      OutCall(m, planner, pow_tt, {x[4], x[5]}, {5, 6}),
      OutCall(m, planner, pow_tt, {x[6], x[7]}, {2, 3}),
      OutCall(m, planner, pow_tt, {x[8], x[9]}, {2, 3}, kFloat64),
      OutCall(m, planner, pow_ts, {x[10], m.Double(2.0)}, {4, 4}),
      OutCall(m, planner, pow_s, {m.Double(2.0), x[11]}, {4, 4}),
      OutCall(m, planner, clamp, {x[12], x[13], x[14]}, {4, 5}),
      OutCall(m, planner, clamp, {x[15], x[16], x[17]}, {4, 5}),
      OutCall(m, planner, clamp, {x[18], x[19], none}, {4, 5}),
      OutCall(m, planner, clamp, {x[20], x[21], x[22]}, {2, 1, 1, 1, 3}),
      OutCall(m, planner, where, {x[23], x[24], x[25]}, {3, 4}),
      OutCall(m, planner, where, {x[26], x[27], x[28]}, {3, 4}),
  };
  m.Outputs(outs);
  m.PlannedBufferSizes({planner.high_water()});
  return program;
}

// The Cadence HiFi bitwise_{and,or,xor}: two Bool inputs broadcast, the second, the first; a Long
// call (the portable path), none broadcast, a Scalar variant.
ProgramBuilder ProgramWithHifiBitwise() {
  ProgramBuilder program;
  MethodBuilder& m = program.Method("forward");
  BumpPlanner planner;
  auto in = [&](std::vector<int32_t> sizes, int8_t dtype = kBool) {
    return PlannedTensor(m, planner, sizes, dtype);
  };
  const std::vector<int> x = {
      in({3, 1}), in({1, 5}),                   // and: both
      in({2, 4}), in({4}),                      // or: the second
      in({1, 6}), in({3, 6}),                   // xor: the first
      in({2, 2}, kInt64), in({2}, kInt64),      // and: Long, the portable path
      in({2, 3}), in({2, 3}),                   // xor: none
      in({4}),                                  // or.Scalar
  };
  m.Inputs(std::vector<int32_t>(x.begin(), x.end()));
  const int and_t = m.Operator("aten::bitwise_and", "Tensor_out");
  const int or_t = m.Operator("aten::bitwise_or", "Tensor_out");
  const int xor_t = m.Operator("aten::bitwise_xor", "Tensor_out");
  const int or_s = m.Operator("aten::bitwise_or", "Scalar_out");
  std::vector<int32_t> outs = {
      OutCall(m, planner, and_t, {x[0], x[1]}, {3, 5}, kBool),
      OutCall(m, planner, or_t, {x[2], x[3]}, {2, 4}, kBool),
      OutCall(m, planner, xor_t, {x[4], x[5]}, {3, 6}, kBool),
      OutCall(m, planner, and_t, {x[6], x[7]}, {2, 2}, kInt64),
      OutCall(m, planner, xor_t, {x[8], x[9]}, {2, 3}, kBool),
      OutCall(m, planner, or_s, {x[10], m.Bool(true)}, {4}, kBool),
  };
  m.Outputs(outs);
  m.PlannedBufferSizes({planner.high_water()});
  return program;
}

// cadence::quantized_matmul*(X, X_zero_point, Y, Y_zero_point, bias?, out_multiplier,
// out_shift, out_zero_point, transposed, *, out) on a new planned output.
int QuantizedMatmul(MethodBuilder& m, BumpPlanner& planner, int op, int x, int y, bool transposed,
                    std::vector<int32_t> out_sizes, int8_t dtype) {
  return OutCall(m, planner, op,
                 {x, m.Int(0), y, m.Int(0), m.Null(), m.Int(1), m.Int(0), m.Int(0),
                  m.Bool(transposed)},
                 out_sizes, dtype);
}

// The Cadence HiFi cadence::quantized_matmul.out: a Char batch not transposed (bias and Y's
// buffer), a larger Byte one transposed (the bias only).
ProgramBuilder ProgramWithHifiQuantizedMatmul() {
  ProgramBuilder program;
  MethodBuilder& m = program.Method("forward");
  BumpPlanner planner;
  const int a = PlannedTensor(m, planner, {2, 3, 4}, kChar);
  const int b = PlannedTensor(m, planner, {2, 4, 5}, kChar);
  const int c = PlannedTensor(m, planner, {6, 8}, kByte);
  const int d = PlannedTensor(m, planner, {5, 8}, kByte);
  m.Inputs({a, b, c, d});
  const int op = m.Operator("cadence::quantized_matmul", "out");
  const int x = QuantizedMatmul(m, planner, op, a, b, false, {2, 3, 5}, kChar);
  const int y = QuantizedMatmul(m, planner, op, c, d, true, {6, 5}, kByte);
  m.Outputs({x, y});
  m.PlannedBufferSizes({planner.high_water()});
  return program;
}

// Its asym8uxasym8u_asym8u (transposed) and asym8sxasym8s_asym8s (not) variants, from 1.0.0.
ProgramBuilder ProgramWithHifiQuantizedMatmulAsym8() {
  ProgramBuilder program;
  MethodBuilder& m = program.Method("forward");
  BumpPlanner planner;
  const int a = PlannedTensor(m, planner, {4, 4}, kByte);
  const int b = PlannedTensor(m, planner, {3, 4}, kByte);
  const int c = PlannedTensor(m, planner, {5, 6}, kChar);
  const int d = PlannedTensor(m, planner, {6, 2}, kChar);
  m.Inputs({a, b, c, d});
  const int u8 = m.Operator("cadence::quantized_matmul_asym8uxasym8u_asym8u", "out");
  const int s8 = m.Operator("cadence::quantized_matmul_asym8sxasym8s_asym8s", "out");
  const int x = QuantizedMatmul(m, planner, u8, a, b, true, {4, 3}, kByte);
  const int y = QuantizedMatmul(m, planner, s8, c, d, false, {5, 2}, kChar);
  m.Outputs({x, y});
  m.PlannedBufferSizes({planner.high_water()});
  return program;
}

// The Cortex-M operators take int8 NCHW tensors in channels_last dim order (NHWC in memory);
// their bias and per-channel parameters are int32.

int Nhwc(MethodBuilder& m, BumpPlanner& planner, std::vector<int32_t> sizes) {
  const Placement p = planner.Take(TensorBytes(kChar, sizes));
  return m.Tensor({.dtype = kChar, .sizes = std::move(sizes),
                   .dim_order = std::vector<uint8_t>{0, 2, 3, 1}, .placement = p});
}

// quantized_conv2d.out / quantized_depthwise_conv2d.out / quantized_transpose_conv2d.out(input,
// weight, bias, stride, padding, [output_padding,] dilation, [depth_multiplier,] input_offset,
// output_offset, requantize_multipliers, requantize_shifts, activation_min, activation_max, *,
// out), then what it returns. The weight is [O, kh, kw, I] (depthwise: [1, kh, kw, C_out]).
struct Conv {
  int in_c, h, w, out_c, kh, kw, stride, pad_h, pad_w, out_h, out_w;
  int depth_multiplier = 0;  // depthwise
  int output_padding = -1;   // transpose
};

int ConvCall(MethodBuilder& m, BumpPlanner& planner, int op, const Conv& c,
             std::vector<int32_t>& inputs) {
  const int in = Nhwc(m, planner, {1, c.in_c, c.h, c.w});
  inputs.push_back(in);
  const bool depthwise = c.depth_multiplier > 0;
  const int weight = depthwise ? ConstantTensor(m, {1, c.kh, c.kw, c.out_c}, kChar)
                               : ConstantTensor(m, {c.out_c, c.kh, c.kw, c.in_c}, kChar);
  const int bias = ConstantTensor(m, {c.out_c}, kInt32);
  const int multipliers = ConstantTensor(m, {c.out_c}, kInt32);
  const int shifts = ConstantTensor(m, {c.out_c}, kInt32);
  const int out = Nhwc(m, planner, {1, c.out_c, c.out_h, c.out_w});
  std::vector<int32_t> args = {in, weight, bias, m.IntListOf({c.stride, c.stride}),
                               m.IntListOf({c.pad_h, c.pad_w})};
  if (c.output_padding >= 0) args.push_back(m.IntListOf({c.output_padding, c.output_padding}));
  args.push_back(m.IntListOf({1, 1}));
  if (depthwise) args.push_back(m.Int(c.depth_multiplier));
  for (int v : {m.Int(0), m.Int(0), multipliers, shifts, m.Int(-128), m.Int(127), out, out})
    args.push_back(v);
  m.KernelCall(op, args);
  return out;
}

ProgramBuilder ProgramWithCortexMConv() {
  ProgramBuilder program;
  MethodBuilder& m = program.Method("forward");
  BumpPlanner planner;
  const int conv = m.Operator("cortex_m::quantized_conv2d", "out");
  const int dw = m.Operator("cortex_m::quantized_depthwise_conv2d", "out");
  std::vector<int32_t> ins, outs;
  // 3x3, C 3 -> 8, pad 1: CMSIS-NN's general im2col conv.
  outs.push_back(ConvCall(m, planner, conv, {3, 8, 8, 8, 3, 3, 1, 1, 1, 8, 8}, ins));
  // 1x1, stride 1, no padding, C 20 -> 8: the wrapper's 1x1 fast path (1.3.0 on).
  outs.push_back(ConvCall(m, planner, conv, {20, 6, 6, 8, 1, 1, 1, 0, 0, 6, 6}, ins));
  // 1x3 on a one-row input, C 4 -> 8, pad (0, 1): the wrapper's 1xN path.
  outs.push_back(ConvCall(m, planner, conv, {4, 1, 10, 8, 1, 3, 1, 0, 1, 1, 10}, ins));
  // Depthwise 3x3, C 8, pad 1 (without MVE, the 3x3 kernel: no buffer); 5x5, pad 2 (the opt
  // kernel); 3x3 on one input channel times 4 (with MVE, as a regular conv).
  outs.push_back(ConvCall(m, planner, dw, {8, 8, 8, 8, 3, 3, 1, 1, 1, 8, 8, 1}, ins));
  outs.push_back(ConvCall(m, planner, dw, {8, 8, 8, 8, 5, 5, 1, 2, 2, 8, 8, 1}, ins));
  outs.push_back(ConvCall(m, planner, dw, {1, 6, 6, 4, 3, 3, 1, 1, 1, 6, 6, 4}, ins));
  m.Inputs(ins);
  m.Outputs(outs);
  m.PlannedBufferSizes({planner.high_water()});
  return program;
}

// quantized_batch_matmul.out(lhs, lhs_zero_point, rhs_transposed, rhs_zero_point,
// output_zero_point, output_multiplier, output_shift, *, out), then what it returns; and two
// transpose convs: C 4 -> 6, stride 2 (CMSIS-NN's column buffer), and C 20 -> 8, stride 1 (more
// than 16 input channels: the reverse conv, with its second buffer).
ProgramBuilder ProgramWithCortexMMatmul() {
  ProgramBuilder program;
  MethodBuilder& m = program.Method("forward");
  BumpPlanner planner;
  const int bmm = m.Operator("cortex_m::quantized_batch_matmul", "out");
  const int tconv = m.Operator("cortex_m::quantized_transpose_conv2d", "out");
  const int lhs = PlannedTensor(m, planner, {2, 3, 8}, kChar);
  const int rhs = PlannedTensor(m, planner, {2, 5, 8}, kChar);
  std::vector<int32_t> ins = {lhs, rhs}, outs;
  const int y = PlannedTensor(m, planner, {2, 3, 5}, kChar);
  m.KernelCall(bmm, {lhs, m.Int(0), rhs, m.Int(0), m.Int(0), m.Int(1073741824), m.Int(0), y, y});
  outs.push_back(y);
  Conv a{4, 5, 5, 6, 3, 3, 2, 1, 1, 10, 10};
  a.output_padding = 1;
  outs.push_back(ConvCall(m, planner, tconv, a, ins));
  Conv b{20, 5, 5, 8, 3, 3, 1, 1, 1, 5, 5};
  b.output_padding = 0;
  outs.push_back(ConvCall(m, planner, tconv, b, ins));
  m.Inputs(ins);
  m.Outputs(outs);
  m.PlannedBufferSizes({planner.high_water()});
  return program;
}

// native_layer_norm.out(input, normalized_shape, weight?, bias?, eps, *, out, mean_out, rstd_out)
// -> (out, mean_out, rstd_out): the out variant's arguments, then what it returns; weight and bias
// are Null when not given (-1).
int LayerNorm(MethodBuilder& m, BumpPlanner& planner, int op, int in, std::vector<int32_t> sizes,
              std::vector<int64_t> normalized, int weight, int bias, int8_t dtype = kFloat32) {
  const int out = PlannedTensor(m, planner, sizes, dtype);
  std::vector<int32_t> stats = sizes;
  for (size_t i = 0; i < normalized.size(); ++i) stats[stats.size() - 1 - i] = 1;
  const int mean = PlannedTensor(m, planner, stats, dtype);
  const int rstd = PlannedTensor(m, planner, stats, dtype);
  m.KernelCall(op, {in, m.IntListOf(normalized), weight < 0 ? m.Null() : weight,
                    bias < 0 ? m.Null() : bias, m.Double(1e-5), out, mean, rstd,
                    m.TensorList({out, mean, rstd})});
  return out;
}

ProgramBuilder ProgramWithFusionG3LayerNorm() {
  ProgramBuilder program;
  MethodBuilder& m = program.Method("forward");
  BumpPlanner planner;
  const int a = PlannedTensor(m, planner, {2, 3, 4});
  const int b = PlannedTensor(m, planner, {4, 5});
  const int w = PlannedTensor(m, planner, {5});
  const int c = PlannedTensor(m, planner, {2, 6});
  const int bias = PlannedTensor(m, planner, {6});
  const int d = PlannedTensor(m, planner, {3, 8});
  const int dw = PlannedTensor(m, planner, {8});
  const int db = PlannedTensor(m, planner, {8});
  const int e = PlannedTensor(m, planner, {2, 5}, kFloat64);
  m.Inputs({a, b, w, c, bias, d, dw, db, e});
  const int ln = m.Operator("aten::native_layer_norm", "out");
  const int x = LayerNorm(m, planner, ln, a, {2, 3, 4}, {3, 4}, -1, -1);  // weight and bias
  const int y = LayerNorm(m, planner, ln, b, {4, 5}, {5}, w, -1);         // the bias only
  const int z = LayerNorm(m, planner, ln, c, {2, 6}, {6}, -1, bias);      // the weight only
  const int u = LayerNorm(m, planner, ln, d, {3, 8}, {8}, dw, db);        // neither
  const int v = LayerNorm(m, planner, ln, e, {2, 5}, {5}, -1, -1, kFloat64);  // the portable path
  m.Outputs({x, y, z, u, v});
  m.PlannedBufferSizes({planner.high_water()});
  return program;
}

// The Cadence Vision softmax: the first dim (transposed), the last of 5 (iDMA ping-pong), the
// middle of three (transposed), a last dim of 2100 (past the iDMA buffers: transposed, the peak),
// a 1-D last dim of 1500 (iDMA ping-process-pong) and a 6-D input (the portable path).
ProgramBuilder ProgramWithVisionSoftmax() {
  ProgramBuilder program;
  MethodBuilder& m = program.Method("forward");
  BumpPlanner planner;
  const int a = PlannedTensor(m, planner, {3, 5});
  const int b = PlannedTensor(m, planner, {2, 4, 6});
  const int c = PlannedTensor(m, planner, {1, 2100});
  const int d = PlannedTensor(m, planner, {1500});
  const int e = PlannedTensor(m, planner, {1, 1, 1, 1, 2, 3});
  m.Inputs({a, b, c, d, e});
  const int softmax = m.Operator("aten::_softmax", "out");
  std::vector<int32_t> outs;
  outs.push_back(Softmax(m, planner, softmax, a, {3, 5}, 0));
  outs.push_back(Softmax(m, planner, softmax, a, {3, 5}, -1));
  outs.push_back(Softmax(m, planner, softmax, b, {2, 4, 6}, 1));
  outs.push_back(Softmax(m, planner, softmax, c, {1, 2100}, 1));
  outs.push_back(Softmax(m, planner, softmax, d, {1500}, 0));
  outs.push_back(Softmax(m, planner, softmax, e, {1, 1, 1, 1, 2, 3}, 0));
  m.Outputs(outs);
  m.PlannedBufferSizes({planner.high_water()});
  return program;
}

// x (int8 [1,1,1,1]) -> an Ethos-U delegate (its Vela payload in a segment, 16-aligned as the
// backend checks; the input at scratch offset 0, the output at 16) -> y. `scratch_block`
// "scratch_size" (1536 B from the temp allocator, 0.7 on) or "scratch_data" (64 B carried in the
// blob, up to 0.6).
ProgramBuilder ProgramWithEthosU(const std::string& scratch_block, uint32_t scratch_bytes) {
  ProgramBuilder program;
  MethodBuilder& m = program.Method("forward");
  BumpPlanner planner;
  const int x = PlannedTensor(m, planner, {1, 1, 1, 1}, kChar);
  const int y = PlannedTensor(m, planner, {1, 1, 1, 1}, kChar);
  m.Inputs({x});
  const VelaIo in{.shape = {1, 1, 1, 1}, .elem_size = 1, .offset = 0};
  const VelaIo out{.shape = {1, 1, 1, 1}, .elem_size = 1, .offset = 16};
  const int d = m.Delegate({.backend_id = "EthosUBackend",
                            .blob = VelaPayload(scratch_block, scratch_bytes, {in}, {out}),
                            .blob_in_segment = true});
  m.DelegateCall(d, {x, y});
  m.Outputs({y});
  m.PlannedBufferSizes({planner.high_water()});
  return program;
}
ProgramBuilder ProgramWithEthosUScratch() { return ProgramWithEthosU("scratch_size", 1536); }
ProgramBuilder ProgramWithEthosUScratchInBlob() { return ProgramWithEthosU("scratch_data", 64); }

// mean.out(in, dim?, keepdim, *, dtype?, out) -> out: the out variant's arguments, then what it
// returns; dtype is Null when not given (-1).
int Mean(MethodBuilder& m, BumpPlanner& planner, int op, int in, std::vector<int64_t> dims,
         bool keepdim, std::vector<int32_t> out_sizes, int8_t out_dtype = kFloat32,
         int dtype = -1) {
  const int out = PlannedTensor(m, planner, out_sizes, out_dtype);
  m.KernelCall(op, {in, m.IntListOf(dims), m.Bool(keepdim), dtype < 0 ? m.Null() : m.Int(dtype),
                    out, out});
  return out;
}

// The Cadence HiFi mean: Float over two middle dims (keepdim), the last (negative), the first and
// last of three, no dim (every one: a 0-dimensional output, getsize 0), a 5-D input (the portable
// path), Double input to a Float output (dtype Float: the NNLib path, which does not look at the
// input's dtype), Double to Double (the portable path), and the largest, over the last of three.
ProgramBuilder ProgramWithHifiMean() {
  ProgramBuilder program;
  MethodBuilder& m = program.Method("forward");
  BumpPlanner planner;
  const int a = PlannedTensor(m, planner, {2, 3, 4, 5});
  const int b = PlannedTensor(m, planner, {6, 7});
  const int c = PlannedTensor(m, planner, {3, 5, 2});
  const int d = PlannedTensor(m, planner, {2, 2});
  const int e = PlannedTensor(m, planner, {1, 2, 1, 3, 4});
  const int f = PlannedTensor(m, planner, {8, 6}, kFloat64);
  const int g = PlannedTensor(m, planner, {3, 4}, kFloat64);
  const int h = PlannedTensor(m, planner, {16, 32, 8});
  m.Inputs({a, b, c, d, e, f, g, h});
  const int mean = m.Operator("aten::mean", "out");
  std::vector<int32_t> outs;
  outs.push_back(Mean(m, planner, mean, a, {1, 2}, true, {2, 1, 1, 5}));
  outs.push_back(Mean(m, planner, mean, b, {-1}, false, {6}));
  outs.push_back(Mean(m, planner, mean, c, {0, 2}, false, {5}));
  outs.push_back(Mean(m, planner, mean, d, {}, false, {}));
  outs.push_back(Mean(m, planner, mean, e, {4}, false, {1, 2, 1, 3}));
  outs.push_back(Mean(m, planner, mean, f, {1}, false, {8}, kFloat32, kFloat32));
  outs.push_back(Mean(m, planner, mean, g, {1}, false, {3}, kFloat64));
  outs.push_back(Mean(m, planner, mean, h, {2}, false, {16, 32}));
  m.Outputs(outs);
  m.PlannedBufferSizes({planner.high_water()});
  return program;
}

// cadence::quantized_max_pool2d_nhwc.out(input, kernel_size, stride, padding, dilation, ceil_mode,
// *, out) -> out.
int MaxPoolNhwc(MethodBuilder& m, BumpPlanner& planner, int op, int in, std::vector<int64_t> kernel,
                std::vector<int64_t> stride, std::vector<int64_t> padding,
                std::vector<int32_t> out_sizes, int8_t dtype = kByte) {
  const int out = PlannedTensor(m, planner, out_sizes, dtype);
  m.KernelCall(op, {in, m.IntListOf(kernel), m.IntListOf(stride), m.IntListOf(padding),
                    m.IntListOf({1, 1}), m.Bool(false), out, out});
  return out;
}

// The Cadence HiFi NHWC max pool on Byte input: 4 channels, 3 channels over 2 batches with
// padding, one channel (the NNLib's NCHW-style size), the largest (16 channels of width 32), and
// Float input, which the kernel returns on before asking.
ProgramBuilder ProgramWithHifiQuantizedMaxPool2dNhwc() {
  ProgramBuilder program;
  MethodBuilder& m = program.Method("forward");
  BumpPlanner planner;
  const int a = PlannedTensor(m, planner, {1, 8, 8, 4}, kByte);
  const int b = PlannedTensor(m, planner, {2, 5, 7, 3}, kByte);
  const int c = PlannedTensor(m, planner, {1, 6, 9, 1}, kByte);
  const int d = PlannedTensor(m, planner, {1, 16, 32, 16}, kByte);
  const int e = PlannedTensor(m, planner, {1, 4, 4, 2});
  m.Inputs({a, b, c, d, e});
  const int pool = m.Operator("cadence::quantized_max_pool2d_nhwc", "out");
  std::vector<int32_t> outs;
  outs.push_back(MaxPoolNhwc(m, planner, pool, a, {2, 2}, {2, 2}, {0, 0}, {1, 4, 4, 4}));
  outs.push_back(MaxPoolNhwc(m, planner, pool, b, {3, 3}, {1, 1}, {1, 1}, {2, 5, 7, 3}));
  outs.push_back(MaxPoolNhwc(m, planner, pool, c, {3, 2}, {2, 3}, {0, 1}, {1, 2, 4, 1}));
  outs.push_back(MaxPoolNhwc(m, planner, pool, d, {2, 2}, {2, 2}, {0, 0}, {1, 8, 16, 16}));
  outs.push_back(MaxPoolNhwc(m, planner, pool, e, {2, 2}, {2, 2}, {0, 0}, {1, 2, 2, 2}, kFloat32));
  m.Outputs(outs);
  m.PlannedBufferSizes({planner.high_water()});
  return program;
}

// cadence::quantized_conv{,2d}_*.per_tensor_out(input, weight, bias, stride, padding, dilation,
// groups, input_zero_point, weight_zero_point, bias_scale, out_scale, out_zero_point,
// out_multiplier, out_shift, *, out) -> out; groups 1, dilation [1, 1].
int QuantizedConv(MethodBuilder& m, BumpPlanner& planner, int op, int8_t dtype,
                  std::vector<int32_t> in_sizes, std::vector<int32_t> weight_sizes,
                  std::vector<int32_t> out_sizes, std::vector<int64_t> stride,
                  std::vector<int64_t> padding) {
  const int in = PlannedTensor(m, planner, in_sizes, dtype);
  const int weight = PlannedTensor(m, planner, weight_sizes, dtype);
  const int bias = PlannedTensor(m, planner, {weight_sizes[0]}, kInt32);
  const int out = PlannedTensor(m, planner, out_sizes, dtype);
  m.KernelCall(op, {in, weight, bias, m.IntListOf(stride), m.IntListOf(padding),
                    m.IntListOf({1, 1}), m.Int(1), m.Int(0), m.Int(0), m.Double(0.5),
                    m.Double(0.25), m.Int(0), m.Int(0), m.Int(0), out, out});
  return out;
}

// The Cadence HiFi specialised quantized convolutions (`prefix`: quantized_conv at 1.0.x,
// quantized_conv2d from 1.1.0), whose sizes the kernels read as NCHW: NHWC on an NHWC-shaped
// Char input (its channels, read from size(1), are no multiple of the kernel's: getsize -1, a 0 B
// request), on 16 channels, on Byte with 3 kernel channels (padded to 4) and stride 2 with
// padding, and on a 3-D input (a 1-D convolution); NCHW on Char over 2 batches, on Byte with
// padding (the peak), and on a 3-D Byte input with stride [1, 2] and padding.
ProgramBuilder ProgramWithHifiQuantizedConv(const std::string& prefix) {
  ProgramBuilder program;
  MethodBuilder& m = program.Method("forward");
  BumpPlanner planner;
  const std::string q = "cadence::" + prefix;
  const int nhwc_s = m.Operator(q + "_nhwc_asym8sxsym8s_asym8s", "per_tensor_out");
  const int nhwc_u = m.Operator(q + "_nhwc_asym8uxsym8u_asym8u", "per_tensor_out");
  const int nchw_s = m.Operator(q + "_nchw_asym8sxsym8s_asym8s", "per_tensor_out");
  const int nchw_u = m.Operator(q + "_nchw_asym8uxsym8u_asym8u", "per_tensor_out");
  std::vector<int32_t> outs;
  outs.push_back(QuantizedConv(m, planner, nhwc_s, kChar, {1, 8, 8, 3}, {4, 3, 3, 3},
                               {1, 6, 6, 4}, {1, 1}, {0, 0}));
  outs.push_back(QuantizedConv(m, planner, nhwc_s, kChar, {1, 16, 10, 12}, {8, 16, 3, 3},
                               {1, 8, 8, 10}, {1, 1}, {0, 0}));
  outs.push_back(QuantizedConv(m, planner, nhwc_u, kByte, {1, 3, 9, 9}, {5, 3, 3, 3},
                               {1, 5, 4, 4}, {2, 2}, {1, 1}));
  outs.push_back(QuantizedConv(m, planner, nhwc_s, kChar, {1, 6, 20}, {4, 6, 5}, {1, 4, 16},
                               {1, 1}, {0, 0}));
  outs.push_back(QuantizedConv(m, planner, nchw_s, kChar, {2, 4, 7, 7}, {6, 4, 3, 3},
                               {2, 6, 5, 5}, {1, 1}, {0, 0}));
  outs.push_back(QuantizedConv(m, planner, nchw_u, kByte, {1, 16, 32, 32}, {32, 16, 3, 3},
                               {1, 32, 32, 32}, {1, 1}, {1, 1}));
  outs.push_back(QuantizedConv(m, planner, nchw_u, kByte, {1, 5, 12}, {3, 5, 4}, {1, 3, 5},
                               {1, 2}, {1, 1}));
  m.Outputs(outs);
  m.PlannedBufferSizes({planner.high_water()});
  return program;
}

// Their depthwise siblings (`prefix` as above): NHWC on NHWC-shaped input and weight [3, 3, 4, 1]
// (from 1.2.0 the kernel reads [KH, KW, OC]; to 1.1.x it reads every size as NCHW, 3 out channels
// over 8, a channel multiplier of 0: getsize -1, a 0 B request), on Byte with a multiplier of 2,
// stride 2 and padding, on NCHW-shaped input (what the kernel to 1.1.x reads as meant; from 1.2.0
// getsize -1), and on a 3-D input; NCHW on Char over 2 batches with a multiplier of 2, on Byte
// with stride 2 and padding (the peak), and on a 3-D Byte input with stride [1, 2] and padding
// [0, 2].
ProgramBuilder ProgramWithHifiQuantizedDepthwise(const std::string& prefix) {
  ProgramBuilder program;
  MethodBuilder& m = program.Method("forward");
  BumpPlanner planner;
  const std::string q = "cadence::" + prefix;
  const int nhwc_s = m.Operator(q + "_nhwc_depthwise_asym8sxsym8s_asym8s", "per_tensor_out");
  const int nhwc_u = m.Operator(q + "_nhwc_depthwise_asym8uxsym8u_asym8u", "per_tensor_out");
  const int nchw_s = m.Operator(q + "_nchw_depthwise_asym8sxsym8s_asym8s", "per_tensor_out");
  const int nchw_u = m.Operator(q + "_nchw_depthwise_asym8uxsym8u_asym8u", "per_tensor_out");
  std::vector<int32_t> outs;
  outs.push_back(QuantizedConv(m, planner, nhwc_s, kChar, {1, 8, 8, 4}, {3, 3, 4, 1},
                               {1, 6, 6, 4}, {1, 1}, {0, 0}));
  outs.push_back(QuantizedConv(m, planner, nhwc_u, kByte, {1, 10, 12, 6}, {3, 3, 12, 1},
                               {1, 5, 6, 12}, {2, 2}, {1, 1}));
  outs.push_back(QuantizedConv(m, planner, nhwc_s, kChar, {1, 6, 9, 9}, {6, 1, 3, 3},
                               {1, 6, 7, 7}, {1, 1}, {0, 0}));
  outs.push_back(QuantizedConv(m, planner, nhwc_s, kChar, {1, 20, 8}, {5, 8, 1}, {1, 16, 8},
                               {1, 1}, {0, 0}));
  outs.push_back(QuantizedConv(m, planner, nchw_s, kChar, {2, 4, 7, 7}, {8, 1, 3, 3},
                               {2, 8, 5, 5}, {1, 1}, {0, 0}));
  outs.push_back(QuantizedConv(m, planner, nchw_u, kByte, {1, 32, 28, 28}, {32, 1, 3, 3},
                               {1, 32, 14, 14}, {2, 2}, {1, 1}));
  outs.push_back(QuantizedConv(m, planner, nchw_u, kByte, {1, 6, 30}, {6, 1, 5}, {1, 6, 13},
                               {1, 2}, {0, 2}));
  m.Outputs(outs);
  m.PlannedBufferSizes({planner.high_water()});
  return program;
}

// cadence::quantized_conv{,2d}_{nchw,nhwc}.out(input, weight, bias, stride, padding, dilation,
// groups, input_zero_point, Tensor weight_zero_point, Tensor bias_scale, out_scale,
// out_zero_point, Tensor out_multiplier, Tensor out_shift, *, out) -> out.
int QuantizedConvOut(MethodBuilder& m, BumpPlanner& planner, int op, int8_t dtype,
                     std::vector<int32_t> in_sizes, std::vector<int32_t> weight_sizes,
                     std::vector<int32_t> out_sizes, int64_t groups) {
  const int in = PlannedTensor(m, planner, in_sizes, dtype);
  const int weight = PlannedTensor(m, planner, weight_sizes, dtype);
  const int bias = PlannedTensor(m, planner, {weight_sizes[0]}, kInt32);
  const int weight_zero_point = PlannedTensor(m, planner, {1}, kInt32);
  const int bias_scale = PlannedTensor(m, planner, {1});
  const int out_multiplier = PlannedTensor(m, planner, {1}, kInt32);
  const int out_shift = PlannedTensor(m, planner, {1}, kInt32);
  const int out = PlannedTensor(m, planner, out_sizes, dtype);
  m.KernelCall(op, {in, weight, bias, m.IntListOf({1, 1}), m.IntListOf({0, 0}),
                    m.IntListOf({1, 1}), m.Int(groups), m.Int(0), weight_zero_point, bias_scale,
                    m.Double(0.25), m.Int(0), out_multiplier, out_shift, out, out});
  return out;
}

// The generic .per_tensor_out with `dilation` and `groups`, stride 1, no padding.
int QuantizedConvPerTensor(MethodBuilder& m, BumpPlanner& planner, int op, int8_t dtype,
                           std::vector<int32_t> in_sizes, std::vector<int32_t> weight_sizes,
                           std::vector<int32_t> out_sizes, std::vector<int64_t> dilation,
                           int64_t groups) {
  const int in = PlannedTensor(m, planner, in_sizes, dtype);
  const int weight = PlannedTensor(m, planner, weight_sizes, dtype);
  const int bias = PlannedTensor(m, planner, {weight_sizes[0]}, kInt32);
  const int out = PlannedTensor(m, planner, out_sizes, dtype);
  m.KernelCall(op, {in, weight, bias, m.IntListOf({1, 1}), m.IntListOf({0, 0}),
                    m.IntListOf(dilation), m.Int(groups), m.Int(0), m.Int(0), m.Double(0.5),
                    m.Double(0.25), m.Int(0), m.Int(0), m.Int(0), out, out});
  return out;
}

// The Cadence HiFi generic quantized convolutions (`prefix` as above): NCHW .per_tensor_out on
// Char with groups 1, .out on Char with groups = the input channels (depthwise, multiplier 2),
// .per_tensor_out on Byte with groups 1 (3 kernel channels; to 1.1.x the NNLib path handles only
// Char: nothing asked), on Char with dilation 2 and with groups 2 (neither asks); then, with
// `nhwc` (to 1.1.x, where NHWC reads its sizes as NCHW), NHWC .per_tensor_out with groups 1 and
// .out with groups = the input channels (its scratch and a temporary output).
ProgramBuilder ProgramWithHifiQuantizedConvGeneric(const std::string& prefix, bool nhwc) {
  ProgramBuilder program;
  MethodBuilder& m = program.Method("forward");
  BumpPlanner planner;
  const std::string q = "cadence::" + prefix;
  const int nchw_pt = m.Operator(q + "_nchw", "per_tensor_out");
  const int nchw_out = m.Operator(q + "_nchw", "out");
  std::vector<int32_t> outs;
  outs.push_back(QuantizedConvPerTensor(m, planner, nchw_pt, kChar, {1, 4, 9, 9}, {6, 4, 3, 3},
                                        {1, 6, 7, 7}, {1, 1}, 1));
  outs.push_back(QuantizedConvOut(m, planner, nchw_out, kChar, {2, 4, 8, 8}, {8, 1, 3, 3},
                                  {2, 8, 6, 6}, 4));
  outs.push_back(QuantizedConvPerTensor(m, planner, nchw_pt, kByte, {1, 3, 10, 10}, {4, 3, 3, 3},
                                        {1, 4, 8, 8}, {1, 1}, 1));
  outs.push_back(QuantizedConvPerTensor(m, planner, nchw_pt, kChar, {1, 4, 9, 9}, {6, 4, 3, 3},
                                        {1, 6, 5, 5}, {2, 2}, 1));
  outs.push_back(QuantizedConvPerTensor(m, planner, nchw_pt, kChar, {1, 4, 9, 9}, {6, 2, 3, 3},
                                        {1, 6, 7, 7}, {1, 1}, 2));
  if (nhwc) {
    const int nhwc_pt = m.Operator(q + "_nhwc", "per_tensor_out");
    const int nhwc_out = m.Operator(q + "_nhwc", "out");
    outs.push_back(QuantizedConvPerTensor(m, planner, nhwc_pt, kChar, {1, 16, 10, 12},
                                          {8, 16, 3, 3}, {1, 8, 8, 10}, {1, 1}, 1));
    outs.push_back(QuantizedConvOut(m, planner, nhwc_out, kChar, {1, 6, 9, 9}, {6, 1, 3, 3},
                                    {1, 6, 7, 7}, 6));
  }
  m.Outputs(outs);
  m.PlannedBufferSizes({planner.high_water()});
  return program;
}
// 0.6.0's and 0.7.0's cadence::quantized_conv.out(..., Tensor out_shift, bool channel_last=False,
// *, out) -> out, stride 1, no padding: NCHW on Char with groups 1 and with groups = the input
// channels, on Byte (its NNLib path handles only Char: nothing asked), NHWC (channel_last, sizes
// read as NCHW) on Char with groups 1 and with groups = the input channels, and NCHW on Char with
// dilation 2 (the generic loop: nothing asked).
ProgramBuilder ProgramWithHifiQuantizedConvChannelLast() {
  ProgramBuilder program;
  MethodBuilder& m = program.Method("forward");
  BumpPlanner planner;
  const int op = m.Operator("cadence::quantized_conv", "out");
  std::vector<int32_t> outs;
  auto conv = [&](int8_t dtype, std::vector<int32_t> in_sizes, std::vector<int32_t> weight_sizes,
                  std::vector<int32_t> out_sizes, std::vector<int64_t> dilation, int64_t groups,
                  bool channel_last) {
    const int in = PlannedTensor(m, planner, in_sizes, dtype);
    const int weight = PlannedTensor(m, planner, weight_sizes, dtype);
    const int bias = PlannedTensor(m, planner, {weight_sizes[0]}, kInt32);
    const int weight_zero_point = PlannedTensor(m, planner, {1}, kInt32);
    const int bias_scale = PlannedTensor(m, planner, {1});
    const int out_multiplier = PlannedTensor(m, planner, {1}, kInt32);
    const int out_shift = PlannedTensor(m, planner, {1}, kInt32);
    const int out = PlannedTensor(m, planner, out_sizes, dtype);
    m.KernelCall(op, {in, weight, bias, m.IntListOf({1, 1}), m.IntListOf({0, 0}),
                      m.IntListOf(dilation), m.Int(groups), m.Int(0), weight_zero_point,
                      bias_scale, m.Double(0.25), m.Int(0), out_multiplier, out_shift,
                      m.Bool(channel_last), out, out});
    outs.push_back(out);
  };
  conv(kChar, {1, 4, 9, 9}, {6, 4, 3, 3}, {1, 6, 7, 7}, {1, 1}, 1, false);
  conv(kChar, {2, 4, 8, 8}, {8, 1, 3, 3}, {2, 8, 6, 6}, {1, 1}, 4, false);
  conv(kByte, {1, 3, 10, 10}, {4, 3, 3, 3}, {1, 4, 8, 8}, {1, 1}, 1, false);
  conv(kChar, {1, 16, 10, 12}, {8, 16, 3, 3}, {1, 8, 8, 10}, {1, 1}, 1, true);
  conv(kChar, {1, 6, 9, 9}, {6, 1, 3, 3}, {1, 6, 7, 7}, {1, 1}, 6, true);
  conv(kChar, {1, 4, 9, 9}, {6, 4, 3, 3}, {1, 6, 5, 5}, {2, 2}, 1, false);
  m.Outputs(outs);
  m.PlannedBufferSizes({planner.high_water()});
  return program;
}
// The Cadence HiFi generic quantized_conv2d_nhwc from 1.2.0 (its sizes read as NHWC; from 1.3.0
// .per_tensor_out takes a Tensor? offset before out, here None: `offset`): .per_tensor_out on
// Char with groups 1, .out on Char with groups = the input channels and a [KH, KW, OC] weight
// (depthwise), .per_tensor_out on a 3-D Char input with groups = the channels and a 3-D weight (at
// 1.2.x the depthwise path with the weight read as regular, a multiplier of 0: getsize -1, a 0 B
// request; from 1.3.0 not depthwise: the generic fallback), with groups 2 (neither asks), on Byte
// (nothing asked), and on Char with 3 kernel channels, stride 2 and padding 1.
ProgramBuilder ProgramWithHifiQuantizedConvNhwcGeneric(bool offset) {
  ProgramBuilder program;
  MethodBuilder& m = program.Method("forward");
  BumpPlanner planner;
  const int pt = m.Operator("cadence::quantized_conv2d_nhwc", "per_tensor_out");
  const int op_out = m.Operator("cadence::quantized_conv2d_nhwc", "out");
  std::vector<int32_t> outs;
  auto per_tensor = [&](int8_t dtype, std::vector<int32_t> in_sizes,
                        std::vector<int32_t> weight_sizes, std::vector<int32_t> out_sizes,
                        std::vector<int64_t> stride, std::vector<int64_t> padding,
                        int64_t groups) {
    const int in = PlannedTensor(m, planner, in_sizes, dtype);
    const int weight = PlannedTensor(m, planner, weight_sizes, dtype);
    const int bias = PlannedTensor(m, planner, {8}, kInt32);
    const int out = PlannedTensor(m, planner, out_sizes, dtype);
    std::vector<int32_t> args{in, weight, bias, m.IntListOf(stride), m.IntListOf(padding),
                          m.IntListOf({1, 1}), m.Int(groups), m.Int(0), m.Int(0), m.Double(0.5),
                          m.Double(0.25), m.Int(0), m.Int(0), m.Int(0)};
    if (offset) args.push_back(m.Null());
    args.push_back(out);
    args.push_back(out);
    m.KernelCall(pt, args);
    outs.push_back(out);
  };
  per_tensor(kChar, {1, 10, 12, 16}, {8, 3, 3, 16}, {1, 8, 10, 8}, {1, 1}, {0, 0}, 1);
  outs.push_back(QuantizedConvOut(m, planner, op_out, kChar, {1, 9, 9, 6}, {3, 3, 6},
                                  {1, 7, 7, 6}, 6));
  per_tensor(kChar, {1, 20, 8}, {5, 8, 1}, {1, 16, 8}, {1, 1}, {0, 0}, 8);
  per_tensor(kChar, {1, 9, 9, 4}, {6, 3, 3, 2}, {1, 7, 7, 6}, {1, 1}, {0, 0}, 2);
  per_tensor(kByte, {1, 10, 12, 16}, {8, 3, 3, 16}, {1, 8, 10, 8}, {1, 1}, {0, 0}, 1);
  per_tensor(kChar, {1, 9, 9, 3}, {5, 3, 3, 3}, {1, 4, 4, 5}, {2, 2}, {1, 1}, 1);
  m.Outputs(outs);
  m.PlannedBufferSizes({planner.high_water()});
  return program;
}
ProgramBuilder ProgramWithHifiQuantizedConv2dNhwcGeneric12() {
  return ProgramWithHifiQuantizedConvNhwcGeneric(false);
}
ProgramBuilder ProgramWithHifiQuantizedConv2dNhwcGeneric() {
  return ProgramWithHifiQuantizedConvNhwcGeneric(true);
}
ProgramBuilder ProgramWithHifiQuantizedConvGeneric10() {
  return ProgramWithHifiQuantizedConvGeneric("quantized_conv", true);
}
ProgramBuilder ProgramWithHifiQuantizedConv2dGeneric() {
  return ProgramWithHifiQuantizedConvGeneric("quantized_conv2d", true);
}
ProgramBuilder ProgramWithHifiQuantizedConv2dNchwGeneric() {
  return ProgramWithHifiQuantizedConvGeneric("quantized_conv2d", false);
}
// The Cadence HiFi 1-D quantized convolutions (`ncl`, `nlc`: conv1d_nchw / conv1d_nhwc at 1.0.x,
// conv1d_ncl / conv1d_nlc at 1.1.x), whose sizes the kernels read as NCL: NCL on Char and on Byte
// over 2 batches (its transposes, then xa_nn_conv1d_std_getsize), NLC on an NLC-shaped Char input
// (read as 20 channels of width 6) and on Byte, and NCL on Char with stride [1, 2] and padding
// [0, 3] (which 1.2.x's NCL asym8s hands to xa_nn_conv2d_getsize swapped).
ProgramBuilder ProgramWithHifiQuantizedConv1d(const std::string& ncl, const std::string& nlc) {
  ProgramBuilder program;
  MethodBuilder& m = program.Method("forward");
  BumpPlanner planner;
  const std::string q = "cadence::quantized_conv1d_";
  const int ncl_s = m.Operator(q + ncl + "_asym8sxsym8s_asym8s", "per_tensor_out");
  const int ncl_u = m.Operator(q + ncl + "_asym8uxsym8u_asym8u", "per_tensor_out");
  const int nlc_s = m.Operator(q + nlc + "_asym8sxsym8s_asym8s", "per_tensor_out");
  const int nlc_u = m.Operator(q + nlc + "_asym8uxsym8u_asym8u", "per_tensor_out");
  std::vector<int32_t> outs;
  outs.push_back(QuantizedConv(m, planner, ncl_s, kChar, {1, 6, 20}, {4, 6, 5}, {1, 4, 16},
                               {1, 1}, {0, 0}));
  outs.push_back(QuantizedConv(m, planner, ncl_u, kByte, {2, 3, 33}, {8, 3, 3}, {2, 8, 31},
                               {1, 1}, {0, 0}));
  outs.push_back(QuantizedConv(m, planner, nlc_s, kChar, {1, 20, 6}, {4, 5, 6}, {1, 16, 4},
                               {1, 1}, {0, 0}));
  outs.push_back(QuantizedConv(m, planner, nlc_u, kByte, {1, 7, 10}, {2, 3, 5}, {1, 2, 6},
                               {1, 1}, {0, 0}));
  outs.push_back(QuantizedConv(m, planner, ncl_s, kChar, {1, 16, 21}, {3, 16, 3}, {1, 3, 11},
                               {1, 2}, {0, 3}));
  m.Outputs(outs);
  m.PlannedBufferSizes({planner.high_water()});
  return program;
}
// The Cadence HiFi quantized_conv1d_ncl.per_tensor_out from 1.3.0 (1-entry stride, padding and
// dilation lists): Byte (its conv1d_std scratch, then the transposes), Char (the transposes, the
// per-channel multipliers and shifts, the conv2d scratch), Char with stride 2 and Byte with
// groups 2 (the generic kernel: nothing asked), and Char with padding 2 (which the kernel hands
// to getsize where it does not count).
ProgramBuilder ProgramWithHifiQuantizedConv1dNcl() {
  ProgramBuilder program;
  MethodBuilder& m = program.Method("forward");
  BumpPlanner planner;
  const int op = m.Operator("cadence::quantized_conv1d_ncl", "per_tensor_out");
  std::vector<int32_t> outs;
  auto conv = [&](int8_t dtype, std::vector<int32_t> in_sizes, std::vector<int32_t> weight_sizes,
                  std::vector<int32_t> out_sizes, int64_t stride, int64_t padding, int64_t groups) {
    const int in = PlannedTensor(m, planner, in_sizes, dtype);
    const int weight = PlannedTensor(m, planner, weight_sizes, dtype);
    const int bias = PlannedTensor(m, planner, {weight_sizes[0]}, kInt32);
    const int out = PlannedTensor(m, planner, out_sizes, dtype);
    m.KernelCall(op, {in, weight, bias, m.IntListOf({stride}), m.IntListOf({padding}),
                      m.IntListOf({1}), m.Int(groups), m.Int(0), m.Int(0), m.Double(0.5),
                      m.Double(0.25), m.Int(0), m.Int(0), m.Int(0), out, out});
    outs.push_back(out);
  };
  conv(kByte, {2, 3, 33}, {8, 3, 3}, {2, 8, 31}, 1, 0, 1);
  conv(kChar, {1, 6, 20}, {4, 6, 5}, {1, 4, 16}, 1, 0, 1);
  conv(kChar, {1, 6, 20}, {4, 6, 5}, {1, 4, 8}, 2, 0, 1);
  conv(kByte, {1, 4, 10}, {4, 2, 3}, {1, 4, 8}, 1, 0, 2);
  conv(kChar, {1, 16, 21}, {3, 16, 3}, {1, 3, 19}, 1, 2, 1);
  m.Outputs(outs);
  m.PlannedBufferSizes({planner.high_water()});
  return program;
}
// The Cadence HiFi quantized_conv1d_nlc.per_tensor_out from 1.3.0 (an offset, None, before out;
// 1-entry stride, padding and dilation lists): Byte [N, W, C] (its conv1d_std scratch), Char (the
// per-channel multipliers and shifts, the conv2d scratch), Char with groups 2 and Byte with
// stride 2 (the generic kernel: nothing asked), and Char with padding 2 (which the kernel hands to
// getsize where it does not count).
ProgramBuilder ProgramWithHifiQuantizedConv1dNlc() {
  ProgramBuilder program;
  MethodBuilder& m = program.Method("forward");
  BumpPlanner planner;
  const int op = m.Operator("cadence::quantized_conv1d_nlc", "per_tensor_out");
  std::vector<int32_t> outs;
  auto conv = [&](int8_t dtype, std::vector<int32_t> in_sizes, std::vector<int32_t> weight_sizes,
                  std::vector<int32_t> out_sizes, int64_t stride, int64_t padding, int64_t groups) {
    const int in = PlannedTensor(m, planner, in_sizes, dtype);
    const int weight = PlannedTensor(m, planner, weight_sizes, dtype);
    const int bias = PlannedTensor(m, planner, {weight_sizes[0]}, kInt32);
    const int out = PlannedTensor(m, planner, out_sizes, dtype);
    m.KernelCall(op, {in, weight, bias, m.IntListOf({stride}), m.IntListOf({padding}),
                      m.IntListOf({1}), m.Int(groups), m.Int(0), m.Int(0), m.Double(0.5),
                      m.Double(0.25), m.Int(0), m.Int(0), m.Int(0), m.Null(), out, out});
    outs.push_back(out);
  };
  conv(kByte, {1, 33, 3}, {8, 3, 3}, {1, 31, 8}, 1, 0, 1);
  conv(kChar, {1, 20, 6}, {4, 5, 6}, {1, 16, 4}, 1, 0, 1);
  conv(kChar, {1, 20, 6}, {4, 5, 3}, {1, 16, 4}, 1, 0, 2);
  conv(kByte, {1, 33, 3}, {8, 3, 3}, {1, 16, 8}, 2, 0, 1);
  conv(kChar, {1, 21, 16}, {3, 3, 16}, {1, 19, 3}, 1, 2, 1);
  m.Outputs(outs);
  m.PlannedBufferSizes({planner.high_water()});
  return program;
}
// The Cadence HiFi quantized_depthwise_conv1d_nlc.per_tensor_out from 1.3.0 (1-entry stride,
// padding and dilation lists): Char [N, W, C] with weight [OC, K, 1], Byte with a channel
// multiplier of 2, stride 2 and padding 1, Char with dilation 2 (the generic kernel: nothing
// asked), a Float output (nothing asked), and Char with 16 channels and kernel width 7 (the peak).
ProgramBuilder ProgramWithHifiQuantizedDepthwiseConv1dNlc() {
  ProgramBuilder program;
  MethodBuilder& m = program.Method("forward");
  BumpPlanner planner;
  const int op = m.Operator("cadence::quantized_depthwise_conv1d_nlc", "per_tensor_out");
  std::vector<int32_t> outs;
  auto conv = [&](int8_t dtype, std::vector<int32_t> in_sizes, std::vector<int32_t> weight_sizes,
                  std::vector<int32_t> out_sizes, int64_t stride, int64_t padding,
                  int64_t dilation) {
    const int in = PlannedTensor(m, planner, in_sizes, dtype);
    const int weight = PlannedTensor(m, planner, weight_sizes, dtype);
    const int bias = PlannedTensor(m, planner, {weight_sizes[0]}, kInt32);
    const int out = PlannedTensor(m, planner, out_sizes, dtype);
    m.KernelCall(op, {in, weight, bias, m.IntListOf({stride}), m.IntListOf({padding}),
                      m.IntListOf({dilation}), m.Int(in_sizes[2]), m.Int(0), m.Int(0),
                      m.Double(0.5), m.Double(0.25), m.Int(0), m.Int(0), m.Int(0), out, out});
    outs.push_back(out);
  };
  conv(kChar, {1, 20, 8}, {8, 5, 1}, {1, 16, 8}, 1, 0, 1);
  conv(kByte, {1, 30, 6}, {12, 3, 1}, {1, 14, 12}, 2, 1, 1);
  conv(kChar, {1, 20, 8}, {8, 5, 1}, {1, 12, 8}, 1, 0, 2);
  conv(kFloat32, {1, 20, 8}, {8, 5, 1}, {1, 16, 8}, 1, 0, 1);
  conv(kChar, {1, 40, 16}, {16, 7, 1}, {1, 34, 16}, 1, 0, 1);
  m.Outputs(outs);
  m.PlannedBufferSizes({planner.high_water()});
  return program;
}
ProgramBuilder ProgramWithHifiQuantizedConv1d10() {
  return ProgramWithHifiQuantizedConv1d("nchw", "nhwc");
}
ProgramBuilder ProgramWithHifiQuantizedConv1d11() {
  return ProgramWithHifiQuantizedConv1d("ncl", "nlc");
}
ProgramBuilder ProgramWithHifiQuantizedConv10() {
  return ProgramWithHifiQuantizedConv("quantized_conv");
}
ProgramBuilder ProgramWithHifiQuantizedDepthwise10() {
  return ProgramWithHifiQuantizedDepthwise("quantized_conv");
}
ProgramBuilder ProgramWithHifiQuantizedDepthwise2d() {
  return ProgramWithHifiQuantizedDepthwise("quantized_conv2d");
}
ProgramBuilder ProgramWithHifiQuantizedConv2d() {
  return ProgramWithHifiQuantizedConv("quantized_conv2d");
}

constexpr NamedScenario kTemp[] = {
    {"topk", ProgramWithTopk},
    {"hifi_matmul", ProgramWithHifiMatmul},
    {"hifi_softmax", ProgramWithHifiSoftmax},
    {"cortex_m_conv", ProgramWithCortexMConv},
    {"cortex_m_matmul", ProgramWithCortexMMatmul},
    {"hifi_broadcast", ProgramWithHifiBroadcast},
    {"hifi_bitwise", ProgramWithHifiBitwise},
    {"hifi_quantized_matmul", ProgramWithHifiQuantizedMatmul},
    {"hifi_quantized_matmul_asym8", ProgramWithHifiQuantizedMatmulAsym8},
    {"fusion_g3_layer_norm", ProgramWithFusionG3LayerNorm},
    {"vision_softmax", ProgramWithVisionSoftmax},
    {"ethos_u_scratch", ProgramWithEthosUScratch},
    {"ethos_u_scratch_in_blob", ProgramWithEthosUScratchInBlob},
    {"hifi_mean", ProgramWithHifiMean},
    {"hifi_quantized_max_pool2d_nhwc", ProgramWithHifiQuantizedMaxPool2dNhwc},
    {"hifi_quantized_conv", ProgramWithHifiQuantizedConv10},
    {"hifi_quantized_conv2d", ProgramWithHifiQuantizedConv2d},
    {"hifi_quantized_conv_depthwise", ProgramWithHifiQuantizedDepthwise10},
    {"hifi_quantized_conv2d_depthwise", ProgramWithHifiQuantizedDepthwise2d},
    {"hifi_quantized_conv_generic", ProgramWithHifiQuantizedConvGeneric10},
    {"hifi_quantized_conv2d_generic", ProgramWithHifiQuantizedConv2dGeneric},
    {"hifi_quantized_conv2d_nchw_generic", ProgramWithHifiQuantizedConv2dNchwGeneric},
    {"hifi_quantized_conv_channel_last", ProgramWithHifiQuantizedConvChannelLast},
    {"hifi_quantized_conv2d_nhwc_generic_12", ProgramWithHifiQuantizedConv2dNhwcGeneric12},
    {"hifi_quantized_conv2d_nhwc_generic", ProgramWithHifiQuantizedConv2dNhwcGeneric},
    {"hifi_quantized_conv1d_10", ProgramWithHifiQuantizedConv1d10},
    {"hifi_quantized_conv1d", ProgramWithHifiQuantizedConv1d11},
    {"hifi_quantized_conv1d_ncl", ProgramWithHifiQuantizedConv1dNcl},
    {"hifi_quantized_conv1d_nlc", ProgramWithHifiQuantizedConv1dNlc},
    {"hifi_quantized_depthwise_conv1d_nlc", ProgramWithHifiQuantizedDepthwiseConv1dNlc},
};

}  // namespace

std::span<const NamedScenario> TempScenarios() { return kTemp; }

}  // namespace etmem::testing
