// Owns: the Cadence HiFi quantized convolutions' run-time temp formulas (2-D, depthwise,
// generic, 1-D; each release's files as they differ), from the NNLib's getsize functions
// (hifi_nnlib.h).
#include <algorithm>
#include <array>
#include <initializer_list>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <fmt/format.h>

#include "etmem/base/checked_math.h"
#include "etmem/kernels/formulas/formula.h"
#include "etmem/kernels/hifi_nnlib.h"

namespace etmem::kernels::formulas {
namespace {

using pte::ValueKind;

// A convolution's arguments as the HiFi kernels read them: (input, weight, bias, stride, padding,
// dilation, groups, ..., *, out) with out at `out_arg`; each null (nullopt) where the call has no
// argument of that kind, all of them when it has no argument `out_arg`.
struct ConvArgs {
  const pte::TensorView* in = nullptr;
  const pte::TensorView* weight = nullptr;
  std::optional<std::vector<int64_t>> stride, padding, dilation;
  std::optional<int64_t> groups;
  const pte::TensorView* out = nullptr;
};

ConvArgs ReadConvArgs(const RuleCall& r, size_t out_arg) {
  const pte::MethodView& m = r.m;
  if (r.args.size() <= out_arg) return {};
  const pte::ValueView& groups = m.values[static_cast<size_t>(r.args[6])];
  return {.in = m.TensorAt(r.args[0]),
          .weight = m.TensorAt(r.args[1]),
          .stride = IntListArg(m, r.args[3]),
          .padding = IntListArg(m, r.args[4]),
          .dilation = IntListArg(m, r.args[5]),
          .groups = groups.kind == ValueKind::kInt ? std::optional(groups.int_value())
                                                   : std::nullopt,
          .out = m.TensorAt(r.args[out_arg])};
}

// The call's arguments are not a convolution's as the kernel `name` reads them.
std::string NotConvArgs(std::string_view name, std::string_view before_out = "") {
  return fmt::format("the call's arguments are not {}(Tensor input, Tensor weight, Tensor bias, "
                     "int[] stride, int[] padding, int[] dilation, int groups, ..., {}*, Tensor "
                     "out)",
                     name, before_out);
}

// An NCL kernel's two unchecked requests for the transposes of its input (N x C x W + 8 B) and
// its kernel (OC x KC x KW + 8 B), int arithmetic (wrapping) passed as size_t; the formula's words.
std::string NclTransposes(const RuleCall& r, CallTemp& c, std::span<const int32_t> i,
                          std::span<const int32_t> w) {
  const uint64_t input = AsSizeT(r.target, I32(int64_t{I32(int64_t{i[0]} * i[1])} * i[2] + 8));
  const uint64_t kernel = AsSizeT(r.target, I32(int64_t{I32(int64_t{w[0]} * w[1])} * w[2] + 8));
  HelperRequest(r, c, input, "");
  HelperRequest(r, c, kernel, "");
  return fmt::format("the input's and the kernel's transposes, N x C x W + 8 = {} and OC x KC x "
                     "KW + 8 = {} B",
                     input, kernel);
}

// One unchecked request of what an NNLib getsize returned: -1 (its argument check failing) asks
// for 0 B.
void AskGetsize(const RuleCall& r, CallTemp& c, int32_t size) {
  HelperRequest(r, c, static_cast<uint64_t>(std::max(size, 0)), "");
}

// The formula's words for that request: "<getsize> <size> B<detail>".
std::string GetsizeWords(std::string_view getsize, int32_t size, std::string_view detail = "") {
  return size < 0 ? fmt::format("{} -1 (its argument check fails), asked as 0 B", getsize)
                  : fmt::format("{} {} B{}", getsize, size, detail);
}

// What follows a refused request the kernel hands on unchecked to `convolution`, which (as at
// NNLib v4.1.0, its XA_NNLIB_ARG_CHK_PTR) returns -1 without writing the output.
std::string HandsNullTo(std::string_view convolution) {
  return fmt::format("the kernel does not check the pointer and hands NULL to {}, which (as at "
                     "NNLib v4.1.0, its XA_NNLIB_ARG_CHK_PTR) returns -1 without writing the "
                     "output, which the kernel ignores: the call succeeds with its output "
                     "unwritten, with no line saying so",
                     convolution);
}

// The same for a kernel that first transposes (`what`, else its input and weight) into the
// requested buffers: xa_nn_transpose_8_8 and `convolution` reject NULL.
std::string TransposesWithNull(std::string_view convolution, std::string_view what = "") {
  return fmt::format("the kernel does not check the pointers: it transposes {}into and convolves "
                     "with NULL, which (as at NNLib v4.1.0, XA_NNLIB_ARG_CHK_PTR) "
                     "xa_nn_transpose_8_8 and {} reject, returning -1, which the kernel ignores: "
                     "the call succeeds with its output unwritten, with no line saying so",
                     what, convolution);
}

// The Cadence HiFi specialised quantized convolutions quantized_conv{,2d}_{nhwc,nchw}_asym8sxsym8s_
// asym8s / asym8uxsym8u_asym8u.per_tensor_out(input, weight, bias, stride, padding, dilation,
// groups, ..., *, out) (kHifiQuantizedConvNhwc, kHifiQuantizedConvNchw): no dtype is checked; a 3-D
// input is a 1-D convolution (heights 1, widths from size(2)); sizes are read as NCHW whatever the
// layout (channels input.size(1), weight.size(1); the NHWC kernel too); ET_CHECK_MSG(groups == 1)
// (on the int16_t the kernel narrows groups to) aborts before asking; then, NCHW only, the input
// (N x C x H x W + 8 B) and the kernel (OC x KC x KH x KW + 8 B) for their NHWC transposes, and
// the scratch of xa_nn_conv2d_getsize(..., 8, 8, 1) (negative: 0) B, each unchecked.
void ConvRequests(const RuleCall& r, CallTemp& c, bool nchw, size_t out_arg = 14) {
  const pte::MethodView& m = r.m;
  const auto [in, weight, stride, padding, dilation, groups, out] = ReadConvArgs(r, out_arg);
  if (!in || !weight || !out || !stride || !padding || !dilation ||
      !groups) {
    c.unknown = NotConvArgs("quantized_conv");
    return;
  }
  const auto i = m.SizesOf(*in);
  const auto w = m.SizesOf(*weight);
  const auto o = m.SizesOf(*out);
  const bool conv1d = i.size() == 3;
  const size_t need = conv1d ? 3 : 4;
  if (i.size() < 3 || w.size() < need || o.size() < need || stride->size() < 2 ||
      padding->size() < 2 || dilation->size() < 2) {
    c.unknown = fmt::format("the kernel reads input.size(0..{0}), weight.size(0..{0}), "
                            "out.size({0}) and two entries of stride, padding and dilation, which "
                            "this call does not have: not modelled",
                            need - 1);
    return;
  }
  if (static_cast<int16_t>(*groups) != 1) {
    c.fails = "groups is not 1: the kernel's ET_CHECK_MSG (\"Only groups=1 supported for regular "
              "convolution\") aborts the runtime before asking";
    return;
  }
  const hifi_nnlib::Conv2dArgs a{.input_height = conv1d ? 1 : i[2],
                                 .input_width = conv1d ? i[2] : i[3],
                                 .input_channels = i[1],
                                 .kernel_height = conv1d ? 1 : w[2],
                                 .kernel_width = conv1d ? w[2] : w[3],
                                 .kernel_channels = w[1],
                                 .y_stride = I32((*stride)[0]),
                                 .y_padding = I32((*padding)[0]),
                                 .x_stride = I32((*stride)[1]),
                                 .x_padding = I32((*padding)[1]),
                                 .out_height = conv1d ? 1 : o[2],
                                 .out_width = conv1d ? o[2] : o[3],
                                 .out_channels = w[0]};
  // int arithmetic (wrapping), then size_t.
  auto plus8 = [&](std::initializer_list<int32_t> dims) {
    int64_t n = 1;
    for (int32_t d : dims) n = I32(n * d);
    return AsSizeT(r.target, I32(n + 8));
  };
  std::string transposes;
  if (nchw) {
    const uint64_t input = plus8({i[0], a.input_channels, a.input_height, a.input_width});
    const uint64_t kernel =
        plus8({a.out_channels, a.kernel_channels, a.kernel_height, a.kernel_width});
    HelperRequest(r, c, input, "");
    HelperRequest(r, c, kernel, "");
    transposes = fmt::format("the input's and the kernel's NHWC copies, N x C x H x W + 8 = {} and "
                             "OC x KC x KH x KW + 8 = {} B; then ",
                             input, kernel);
  }
  const int32_t size = hifi_nnlib::Conv2dGetsizePrec8(a, 6 * r.target.pointer.size);
  AskGetsize(r, c, size);
  for (TempRequest& q : c.requests)
    q.unchecked_then =
        nchw ? TransposesWithNull("xa_nn_conv2d_per_chan_sym8sxasym8s")
            : HandsNullTo("xa_nn_conv2d_per_chan_sym8sxasym8s");
  c.formula = transposes +
              GetsizeWords("xa_nn_conv2d_getsize", size,
                           (a.kernel_channels & 3) != 0
                               ? " (8 + (the state + 7) + (the circular buffer + 7) + 8 + (the "
                                 "kernel padded to 4 channels + 7))"
                               : " (8 + (the state + 7) + (the circular buffer + 7) + 8)");
  GetsizeAssumed(r, c);
}

// The Cadence HiFi specialised depthwise quantized convolutions quantized_conv{,2d}_{nhwc,nchw}_
// depthwise_asym8sxsym8s_asym8s / asym8uxsym8u_asym8u.per_tensor_out (same arguments as
// HifiQuantizedConv; kHifiQuantizedDepthwiseNchw, kHifiQuantizedDepthwiseNhwcAsNchw,
// kHifiQuantizedDepthwiseNhwc): no dtype, groups or dilation is looked at; a 3-D input is a 1-D
// convolution; the channel multiplier is out channels / input channels. NCHW and the NHWC kernel
// to 1.1.x read input [N, C, H, W], weight [OC, _, KH, KW] and out [_, _, OH, OW]; the NHWC kernel
// from 1.2.0 reads input [N, H, W, C], weight [KH, KW, OC] and out [_, OH, OW, _] (3-D input:
// [N, W, C], [K, OC], [_, OW, _]). One unchecked request of xa_nn_conv2d_depthwise_getsize(...,
// 8, 0 NHWC / 1 NCHW) (negative: 0) B, then, NCHW only, N x OC x OH x OW + 8 B for the NHWC
// output it transposes back.
void DepthwiseRequests(const RuleCall& r, CallTemp& c, bool nhwc, bool nchw, bool out_temp,
                       size_t out_arg = 14) {
  const pte::MethodView& m = r.m;
  const auto [in, weight, stride, padding, dilation, groups, out] = ReadConvArgs(r, out_arg);
  if (!in || !weight || !out || !stride || !padding) {
    c.unknown = NotConvArgs("quantized_conv");
    return;
  }
  const auto i = m.SizesOf(*in);
  const auto w = m.SizesOf(*weight);
  const auto o = m.SizesOf(*out);
  const bool conv1d = i.size() == 3;
  // The highest index read of weight and out.
  const size_t need = nhwc ? (conv1d ? 2 : 3) : (conv1d ? 3 : 4);
  if (i.size() < 3 || w.size() < need || o.size() < need || stride->size() < 2 ||
      padding->size() < 2) {
    c.unknown = fmt::format("the kernel reads input.size(0..{0}), weight.size(0..{1}), "
                            "out.size({1}) and two entries of stride and padding, which this "
                            "call does not have: not modelled",
                            conv1d ? 2 : 3, need - 1);
    return;
  }
  hifi_nnlib::DepthwiseArgs a;
  int32_t out_channels = 0;
  if (nhwc) {
    a.input_height = conv1d ? 1 : i[1];
    a.input_width = conv1d ? i[1] : i[2];
    a.input_channels = conv1d ? i[2] : i[3];
    a.kernel_height = conv1d ? 1 : w[0];
    a.kernel_width = conv1d ? w[0] : w[1];
    out_channels = conv1d ? w[1] : w[2];
    a.out_height = conv1d ? 1 : o[1];
    a.out_width = conv1d ? o[1] : o[2];
  } else {
    a.input_height = conv1d ? 1 : i[2];
    a.input_width = conv1d ? i[2] : i[3];
    a.input_channels = i[1];
    a.kernel_height = conv1d ? 1 : w[2];
    a.kernel_width = conv1d ? w[2] : w[3];
    out_channels = w[0];
    a.out_height = conv1d ? 1 : o[2];
    a.out_width = conv1d ? o[2] : o[3];
  }
  if (a.input_channels == 0) {
    c.unknown = "no input channels: the kernel divides out channels by 0 for the channel "
                "multiplier before asking: not modelled";
    return;
  }
  a.channels_multiplier = I32(int64_t{out_channels} / a.input_channels);
  a.x_stride = I32((*stride)[1]);
  a.y_stride = I32((*stride)[0]);
  a.x_padding = I32((*padding)[1]);
  a.y_padding = I32((*padding)[0]);
  a.inp_data_format = nchw ? 1 : 0;
  const int32_t size = hifi_nnlib::DepthwiseGetsizePrec8(a, r.target.pointer.size);
  AskGetsize(r, c, size);
  c.formula = GetsizeWords("xa_nn_conv2d_depthwise_getsize", size,
                           nchw ? " (NCHW: the state + the circular buffer + the kernel + the "
                                  "scratch rows)"
                                : " (NHWC: the state + the circular buffer + the kernel)");
  if (out_temp) {
    int64_t n = 1;
    for (int32_t d : {i[0], out_channels, a.out_height, a.out_width}) n = I32(n * d);
    const uint64_t bytes = AsSizeT(r.target, I32(n + 8));
    HelperRequest(r, c, bytes, "");
    c.formula += fmt::format("; the {} output, N x OC x OH x OW + 8 = {} B",
                             nchw ? "NHWC" : "temporary", bytes);
  }
  for (TempRequest& q : c.requests)
    q.unchecked_then =
        nchw ? "the kernel does not check the pointers: "
               "xa_nn_conv2d_depthwise_per_chan_sym8sxasym8s rejects a NULL scratch or output (as "
               "at NNLib v4.1.0, XA_NNLIB_ARG_CHK_PTR: -1, "
               "which the kernel ignores) and xa_nn_transpose_8_8 then copies the unwritten NHWC "
               "buffer to the output, or rejects it too: the call succeeds with its output not "
               "computed, with no line saying so"
             : HandsNullTo("xa_nn_conv2d_depthwise_per_chan_sym8sxasym8s");
  GetsizeAssumed(r, c);
}

void HifiQuantizedConv(const RuleCall& r, CallTemp& c) {
  ConvRequests(r, c, r.rule == TempRule::kHifiQuantizedConvNchw);
}

void HifiQuantizedDepthwise(const RuleCall& r, CallTemp& c) {
  const bool nchw = r.rule == TempRule::kHifiQuantizedDepthwiseNchw;
  DepthwiseRequests(r, c, r.rule == TempRule::kHifiQuantizedDepthwiseNhwc, nchw, nchw);
}

// The Cadence HiFi generic quantized convolutions quantized_conv{,2d}_{nchw,nhwc}.out and
// .per_tensor_out (same argument positions; kHifiQuantizedConvGenericNchw10 and
// kHifiQuantizedConvGenericNhwc10 at 1.0.x and 1.1.x, kHifiQuantizedConvGenericNchw from 1.2.0):
// Char or Byte input with dilation [1, 1] takes the NNLib path (anything else, Short among them,
// the generic loop, which asks for nothing); there, Char input (1.0.x, 1.1.x) or Char and Byte
// (from 1.2.0), sizes read as NCHW, groups (narrowed to int16_t) 1 asks as the specialised kernel
// (HifiQuantizedConv), groups equal to the input channels as the depthwise one, with NCHW's NHWC
// output and, NHWC, a temporary output of the same size (never copied to out); other groups, and
// Byte input at 1.0.x and 1.1.x, do nothing at all (the output is not written). 0.6.0's and
// 0.7.0's cadence::quantized_conv.out (kHifiQuantizedConvChannelLast), the same code as 1.0.x's,
// takes the layout from its bool channel_last (argument 14; out is 15).
void HifiQuantizedConvGeneric(const RuleCall& r, CallTemp& c) {
  const pte::MethodView& m = r.m;
  const bool channel_last_arg = r.rule == TempRule::kHifiQuantizedConvChannelLast;
  const size_t out_arg = channel_last_arg ? 15 : 14;
  const auto [in, weight, stride, padding, dilation, groups, out] = ReadConvArgs(r, out_arg);
  const pte::ValueView* channel_last = in && channel_last_arg
                                           ? &m.values[static_cast<size_t>(r.args[14])]
                                           : nullptr;
  if (!in || !dilation || !groups ||
      (channel_last_arg && channel_last->kind != ValueKind::kBool)) {
    c.unknown = channel_last_arg
                    ? NotConvArgs("quantized_conv.out", "bool channel_last, ")
                    : NotConvArgs("quantized_conv");
    return;
  }
  constexpr int8_t kByte = 0, kChar = 1;
  if (in->dtype != kByte && in->dtype != kChar) {
    c.formula = "none: neither Char nor Byte input, the generic loop asks for nothing";
    return;
  }
  if (dilation->size() < 2) {
    c.unknown = "the kernel reads two entries of dilation, which this call does not have: not "
                "modelled";
    return;
  }
  if ((*dilation)[0] != 1 || (*dilation)[1] != 1) {
    c.formula = "none: a dilation, the generic loop asks for nothing";
    return;
  }
  const bool nchw = channel_last_arg ? !channel_last->bool_value()
                                     : r.rule != TempRule::kHifiQuantizedConvGenericNhwc10;
  if (in->dtype == kByte && r.rule != TempRule::kHifiQuantizedConvGenericNchw) {
    c.formula = "none: Byte input takes the NNLib path, which at this release handles only Char: "
                "it asks for nothing and leaves the output unwritten";
    return;
  }
  const auto i = m.SizesOf(*in);
  if (i.size() < 3) {
    c.unknown = "the kernel reads input.size(0..2), which this call does not have: not modelled";
    return;
  }
  const int16_t g = static_cast<int16_t>(*groups);
  if (g == 1) {
    ConvRequests(r, c, nchw, out_arg);
  } else if (g == i[1]) {
    DepthwiseRequests(r, c, false, nchw, true, out_arg);
  } else {
    c.formula = "none: groups neither 1 nor the input channels, the NNLib path does nothing (the "
                "output is not written)";
  }
}

// The Cadence HiFi generic quantized_conv2d_nhwc.out / .per_tensor_out from 1.2.0
// (kHifiQuantizedConvGenericNhwc12 at 1.2.x, kHifiQuantizedConvGenericNhwc from 1.3.0): Char input
// with dilation 1 takes the NNLib path (Byte input asks for nothing: at 1.2.x the path does
// nothing, from 1.3.0 it falls back to the generic kernel), which reads NHWC sizes (input
// [N, H, W, C], 3-D [N, W, C]; out [_, OH, OW, _]); the weight is depthwise ([KH, KW, OC], 1-D
// [K, OC]) when groups equals the input channels and it has fewer dimensions than the input (not
// for a 3-D input at 1.2.x), else [OC, KH, KW, IC] (1-D [OC, K, IC]). Groups 1 asks once,
// unchecked, for xa_nn_conv2d_getsize(..., 8, 8, 0) B; else a depthwise weight (at 1.2.x:
// groups equal to the input channels, whatever the weight) once for
// xa_nn_conv2d_depthwise_getsize(..., 8, 0) B;
// else nothing (1.2.x does nothing, later releases fall back to the generic kernel). From 1.3.0
// .per_tensor_out takes a Tensor? offset before out (argument 14; out is 15).
void HifiQuantizedConvGenericNhwc(const RuleCall& r, CallTemp& c) {
  const pte::MethodView& m = r.m;
  const bool v12 = r.rule == TempRule::kHifiQuantizedConvGenericNhwc12;
  const size_t out_arg = !v12 && r.op.ends_with(".per_tensor_out") ? 15 : 14;
  const auto [in, weight, stride, padding, dilation, groups, out] = ReadConvArgs(r, out_arg);
  if (!in || !weight || !out || !stride || !padding || !dilation ||
      !groups) {
    c.unknown = NotConvArgs("quantized_conv2d_nhwc");
    return;
  }
  constexpr int8_t kByte = 0, kChar = 1;
  if (in->dtype != kByte && in->dtype != kChar) {
    c.formula = "none: neither Char nor Byte input, the generic loop asks for nothing";
    return;
  }
  if (dilation->size() < 2) {
    c.unknown = "the kernel reads two entries of dilation, which this call does not have: not "
                "modelled";
    return;
  }
  if ((*dilation)[0] != 1 || (*dilation)[1] != 1) {
    c.formula = "none: a dilation, the generic loop asks for nothing";
    return;
  }
  if (in->dtype == kByte) {
    c.formula = v12 ? "none: Byte input takes the NNLib path, which at this release handles only "
                      "Char: it asks for nothing and leaves the output unwritten"
                    : "none: Byte input, the NNLib path falls back to the generic kernel, which "
                      "asks for nothing";
    return;
  }
  const auto i = m.SizesOf(*in);
  const auto w = m.SizesOf(*weight);
  const auto o = m.SizesOf(*out);
  const bool conv1d = i.size() == 3;
  if (i.size() < 3 || stride->size() < 2 || padding->size() < 2) {
    c.unknown = "the kernel reads input.size(0..2) and two entries of stride and padding, which "
                "this call does not have: not modelled";
    return;
  }
  const int16_t g = static_cast<int16_t>(*groups);
  const int32_t ih = conv1d ? 1 : i[1], iw = conv1d ? i[1] : i[2], ic = conv1d ? i[2] : i[3];
  const bool depthwise_weight = (!v12 || !conv1d) && ic == g && w.size() < i.size();
  const size_t weight_rank = (depthwise_weight ? 2 : 3) + (conv1d ? 0 : 1);
  if (w.size() < weight_rank || o.size() < (conv1d ? 2u : 3u)) {
    c.unknown = fmt::format("the kernel reads weight.size(0..{}) and out.size({}), which this "
                            "call does not have: not modelled",
                            weight_rank - 1, conv1d ? 1 : 2);
    return;
  }
  int32_t kh = 0, kw = 0, kc = 1, oc = 0;
  if (depthwise_weight) {
    kh = conv1d ? 1 : w[0];
    kw = conv1d ? w[0] : w[1];
    oc = conv1d ? w[1] : w[2];
  } else {
    kh = conv1d ? 1 : w[1];
    kw = conv1d ? w[1] : w[2];
    kc = conv1d ? w[2] : w[3];
    oc = w[0];
  }
  const int32_t oh = conv1d ? 1 : o[1], ow = conv1d ? o[1] : o[2];
  int32_t size = 0;
  if (g == 1) {
    const hifi_nnlib::Conv2dArgs a{.input_height = ih,
                                   .input_width = iw,
                                   .input_channels = ic,
                                   .kernel_height = kh,
                                   .kernel_width = kw,
                                   .kernel_channels = kc,
                                   .y_stride = I32((*stride)[0]),
                                   .y_padding = I32((*padding)[0]),
                                   .x_stride = I32((*stride)[1]),
                                   .x_padding = I32((*padding)[1]),
                                   .out_height = oh,
                                   .out_width = ow,
                                   .out_channels = oc};
    size = hifi_nnlib::Conv2dGetsizePrec8(a, 6 * r.target.pointer.size);
    c.formula = GetsizeWords("xa_nn_conv2d_getsize", size, " (NHWC sizes)");
  } else if (v12 ? g == ic : depthwise_weight) {
    if (ic == 0) {
      c.unknown = "no input channels: the kernel divides out channels by 0 for the channel "
                  "multiplier before asking: not modelled";
      return;
    }
    hifi_nnlib::DepthwiseArgs a{.input_height = ih,
                                .input_width = iw,
                                .input_channels = ic,
                                .kernel_height = kh,
                                .kernel_width = kw,
                                .channels_multiplier = I32(int64_t{oc} / ic),
                                .x_stride = I32((*stride)[1]),
                                .y_stride = I32((*stride)[0]),
                                .x_padding = I32((*padding)[1]),
                                .y_padding = I32((*padding)[0]),
                                .out_height = oh,
                                .out_width = ow,
                                .inp_data_format = 0};
    size = hifi_nnlib::DepthwiseGetsizePrec8(a, r.target.pointer.size);
    c.formula = GetsizeWords("xa_nn_conv2d_depthwise_getsize", size,
                             " (NHWC: the state + the circular buffer + the kernel)");
  } else {
    c.formula = v12 ? "none: groups neither 1 nor the input channels, the NNLib path does nothing "
                      "(the output is not written)"
                    : "none: neither groups 1 nor a depthwise weight, the NNLib path falls back "
                      "to the generic kernel, which asks for nothing";
    return;
  }
  AskGetsize(r, c, size);
  c.requests.back().unchecked_then = HandsNullTo("the NNLib's convolution");
  GetsizeAssumed(r, c);
}

// The Cadence HiFi 1-D quantized convolutions of 1.0.x (quantized_conv1d_{nchw,nhwc}_...) and
// 1.1.x (quantized_conv1d_{ncl,nlc}_...), asym8sxsym8s_asym8s and asym8uxsym8u_asym8u
// .per_tensor_out (kHifiQuantizedConv1dNcl, kHifiQuantizedConv1dNlc): no dtype or groups looked
// at; sizes read as NCL whatever the layout (channels input.size(1), width input.size(2), kernel
// width weight.size(2)); NCL first asks for the input's (N x C x W + 8 B) and the kernel's
// (OC x KC x KW + 8 B) transposes; then xa_nn_conv1d_std_getsize(kw, w, c, 8) B (negative: 0),
// each unchecked.
void HifiQuantizedConv1d(const RuleCall& r, CallTemp& c) {
  const pte::MethodView& m = r.m;
  const auto [in, weight, stride, padding, dilation, groups, out] = ReadConvArgs(r, 14);
  if (!in || !weight || !out || !stride || !padding) {
    c.unknown = NotConvArgs("quantized_conv1d");
    return;
  }
  const auto i = m.SizesOf(*in);
  const auto w = m.SizesOf(*weight);
  const auto o = m.SizesOf(*out);
  if (i.size() < 3 || w.size() < 3 || o.size() < 3 || stride->size() < 2 || padding->size() < 2) {
    c.unknown = "the kernel reads input.size(0..2), weight.size(0..2), out.size(2) and two "
                "entries of stride and padding, which this call does not have: not modelled";
    return;
  }
  const bool ncl = r.rule == TempRule::kHifiQuantizedConv1dNcl;
  const std::string transposes = ncl ? NclTransposes(r, c, i, w) + "; then " : "";
  const int32_t size =
      hifi_nnlib::Conv1dStdGetsizePrec8(w[2], i[2], i[1], 6 * r.target.pointer.size);
  AskGetsize(r, c, size);
  c.formula = transposes +
              GetsizeWords("xa_nn_conv1d_std_getsize", size,
                           fmt::format(" ((the state + 7) + kernel width {} x (C x W, rounded up "
                                       "to 4) + 8)",
                                       w[2]));
  for (TempRequest& q : c.requests)
    q.unchecked_then =
        ncl ? TransposesWithNull("the 1-D convolution")
            : HandsNullTo("the NNLib's 1-D convolution");
  GetsizeAssumed(r, c);
}

// The Cadence HiFi 1-D quantized convolutions of 1.2.x, quantized_conv1d_{ncl,nlc}_asym8sxsym8s_
// asym8s / _asym8uxsym8u_asym8u.per_tensor_out, each file its own way (dtypes, groups and dilation
// not looked at; every request unchecked): NCL asym8s (kHifiQuantizedConv1dNclS12), reading NCL,
// asks for the input's (N x C x W + 8 B) and the kernel's (OC x KC x KW + 8 B) transposes, then
// xa_nn_conv2d_getsize with heights 1 and the strides and paddings handed over swapped (stride[1]
// and padding[1] as y, stride[0] and padding[0] as x); NCL asym8u (kHifiQuantizedConv1dNclU12)
// first xa_nn_conv1d_std_getsize(KW, W, C, 8), then the two transposes; NLC asym8s
// (kHifiQuantizedConv1dNlcS12), still reading NCL (C input.size(1), W input.size(2), KC
// weight.size(1), KW weight.size(2)), once xa_nn_conv2d_getsize with heights 1; NLC asym8u
// (kHifiQuantizedConv1dNlcU12), reading NLC (W input.size(1), C input.size(2), KW weight.size(1)),
// once xa_nn_conv1d_std_getsize(KW, W, C, 8). A negative getsize asks for 0.
void HifiQuantizedConv1d12(const RuleCall& r, CallTemp& c) {
  const pte::MethodView& m = r.m;
  const auto [in, weight, stride, padding, dilation, groups, out] = ReadConvArgs(r, 14);
  if (!in || !weight || !out || !stride || !padding) {
    c.unknown = NotConvArgs("quantized_conv1d");
    return;
  }
  const auto i = m.SizesOf(*in);
  const auto w = m.SizesOf(*weight);
  const auto o = m.SizesOf(*out);
  if (i.size() < 3 || w.size() < 3 || o.size() < 3 || stride->size() < 2 || padding->size() < 2) {
    c.unknown = "the kernel reads input.size(0..2), weight.size(0..2), out.size(1 or 2) and two "
                "entries of stride and padding, which this call does not have: not modelled";
    return;
  }
  const uint32_t state = 6 * r.target.pointer.size;
  // Not captured as structured bindings: clang before 16 (the page's Emscripten) refuses that.
  const int32_t s0 = I32((*stride)[0]), s1 = I32((*stride)[1]);
  const int32_t p0 = I32((*padding)[0]), p1 = I32((*padding)[1]);
  auto conv2d = [&](bool swapped) {
    const hifi_nnlib::Conv2dArgs a{.input_height = 1,
                                   .input_width = i[2],
                                   .input_channels = i[1],
                                   .kernel_height = 1,
                                   .kernel_width = w[2],
                                   .kernel_channels = w[1],
                                   .y_stride = swapped ? s1 : s0,
                                   .y_padding = swapped ? p1 : p0,
                                   .x_stride = swapped ? s0 : s1,
                                   .x_padding = swapped ? p0 : p1,
                                   .out_height = 1,
                                   .out_width = o[2],
                                   .out_channels = w[0]};
    const int32_t size = hifi_nnlib::Conv2dGetsizePrec8(a, state);
    AskGetsize(r, c, size);
    return GetsizeWords("xa_nn_conv2d_getsize", size, " (heights 1)");
  };
  auto conv1d = [&](int32_t kw, int32_t width, int32_t channels) {
    const int32_t size = hifi_nnlib::Conv1dStdGetsizePrec8(kw, width, channels, state);
    AskGetsize(r, c, size);
    return GetsizeWords("xa_nn_conv1d_std_getsize", size);
  };
  switch (r.rule) {
    case TempRule::kHifiQuantizedConv1dNclS12: {
      const std::string t = NclTransposes(r, c, i, w);
      c.formula = t + "; then " + conv2d(true);
      break;
    }
    case TempRule::kHifiQuantizedConv1dNclU12: {
      const std::string g = conv1d(w[2], i[2], i[1]);
      c.formula = g + "; then " + NclTransposes(r, c, i, w);
      break;
    }
    case TempRule::kHifiQuantizedConv1dNlcS12: c.formula = conv2d(false); break;
    default: c.formula = conv1d(w[1], i[1], i[2]); break;
  }
  const bool ncl = c.requests.size() > 1;
  for (TempRequest& q : c.requests)
    q.unchecked_then =
        ncl ? TransposesWithNull("the convolution")
            : HandsNullTo("the NNLib's convolution");
  GetsizeAssumed(r, c);
}

// The Cadence HiFi quantized_conv1d_ncl.per_tensor_out from 1.3.0 (kHifiQuantizedConv1dNcl13):
// dilation[0] other than 1 falls back to the generic kernel (nothing asked); by out's dtype, Char
// with stride[0] at most 1 asks for the input's (N x C x W + 8 B) and the kernel's
// (OC x KC x KW + 8 B) transposes, the per-channel multipliers and shifts (OC x 4 B each, written
// without a check) and xa_nn_conv2d_getsize(..., 8, 8, 1) with heights 1 (stride[0] and
// padding[0] handed over as y, so that its rows take stride 1 and no padding); Byte with groups
// and stride[0] at most 1 asks for xa_nn_conv1d_std_getsize(KW, W, C, 8), then the two
// transposes; anything else asks for nothing. Sizes read as NCL; every request unchecked.
void HifiQuantizedConv1dNcl13(const RuleCall& r, CallTemp& c) {
  const pte::MethodView& m = r.m;
  const auto [in, weight, stride, padding, dilation, groups, out] = ReadConvArgs(r, 14);
  if (!in || !weight || !out || !stride || !padding || !dilation ||
      !groups) {
    c.unknown = NotConvArgs("quantized_conv1d_ncl.per_tensor_out");
    return;
  }
  if (dilation->empty() || stride->empty()) {
    c.unknown = "the kernel reads dilation[0] and stride[0], which this call does not have: not "
                "modelled";
    return;
  }
  if ((*dilation)[0] != 1) {
    c.formula = "none: a dilation, the generic kernel asks for nothing";
    return;
  }
  constexpr int8_t kByte = 0, kChar = 1;
  const bool s8 = out->dtype == kChar;
  if (out->dtype != kChar && out->dtype != kByte) {
    c.formula = "none: neither a Char nor a Byte output, the kernel does nothing";
    return;
  }
  if ((*stride)[0] > 1 || (!s8 && *groups > 1)) {
    c.formula = s8 ? "none: stride[0] above 1, the generic kernel asks for nothing"
                   : "none: groups or stride[0] above 1, the generic kernel asks for nothing";
    return;
  }
  const auto i = m.SizesOf(*in);
  const auto w = m.SizesOf(*weight);
  const auto o = m.SizesOf(*out);
  if (i.size() < 3 || w.size() < 3 || o.size() < 3 || padding->empty()) {
    c.unknown = "the kernel reads input.size(0..2), weight.size(0..2), out.size(2) and "
                "padding[0], which this call does not have: not modelled";
    return;
  }
  const uint32_t state = 6 * r.target.pointer.size;
  if (s8) {
    const std::string t = NclTransposes(r, c, i, w);
    const uint64_t per_channel = AsSizeT(r.target, int64_t{w[0]} * 4);
    HelperRequest(r, c, per_channel, "");
    HelperRequest(r, c, per_channel, "");
    const hifi_nnlib::Conv2dArgs a{.input_height = 1,
                                   .input_width = i[2],
                                   .input_channels = i[1],
                                   .kernel_height = 1,
                                   .kernel_width = w[2],
                                   .kernel_channels = w[1],
                                   .y_stride = I32((*stride)[0]),
                                   .y_padding = I32((*padding)[0]),
                                   .x_stride = 1,
                                   .x_padding = 0,
                                   .out_height = 1,
                                   .out_width = o[2],
                                   .out_channels = w[0]};
    const int32_t size = hifi_nnlib::Conv2dGetsizePrec8(a, state);
    AskGetsize(r, c, size);
    c.formula = t +
                fmt::format("; the multipliers and shifts, OC x 4 = {} B each; then ",
                            per_channel) +
                (GetsizeWords("xa_nn_conv2d_getsize", size, " (heights 1)"));
    for (size_t q = 0; q < c.requests.size(); ++q)
      c.requests[q].unchecked_then =
          q == 2 || q == 3
              ? "the kernel writes its per-channel multipliers and shifts through the NULL "
                "pointer: undefined behaviour (on the device, typically a fault), with no line "
                "saying so"
              : TransposesWithNull("the convolution");
  } else {
    const int32_t size = hifi_nnlib::Conv1dStdGetsizePrec8(w[2], i[2], i[1], state);
    AskGetsize(r, c, size);
    const std::string t = NclTransposes(r, c, i, w);
    c.formula = (GetsizeWords("xa_nn_conv1d_std_getsize", size)) +
                "; then " + t;
    for (TempRequest& q : c.requests)
      q.unchecked_then = TransposesWithNull("the 1-D convolution");
  }
  GetsizeAssumed(r, c);
}

// The Cadence HiFi quantized_conv1d_nlc.per_tensor_out from 1.3.0 (kHifiQuantizedConv1dNlc13;
// a Tensor? offset before out, argument 14): the last entry of dilation other than 1 falls back
// to the generic kernel; by out's dtype, with groups and the last stride at most 1, Char asks for
// the per-channel multipliers and shifts (OC x 4 B each, written without a check) and
// xa_nn_conv2d_getsize(..., 8, 8, 0) with heights 1 (the last stride and padding handed over as
// y, so that its rows take stride 1 and no padding), Byte for xa_nn_conv1d_std_getsize(KW, W,
// C, 8); anything else asks for nothing. Sizes read as NLC: W input.size(1), C input.size(2),
// OC weight.size(0), KW weight.size(1), KC weight.size(2), OW out.size(1); every request unchecked.
void HifiQuantizedConv1dNlc13(const RuleCall& r, CallTemp& c) {
  const pte::MethodView& m = r.m;
  const auto [in, weight, stride, padding, dilation, groups, out] = ReadConvArgs(r, 15);
  if (!in || !weight || !out || !stride || !padding || !dilation ||
      !groups) {
    c.unknown = NotConvArgs("quantized_conv1d_nlc.per_tensor_out", "Tensor? offset, ");
    return;
  }
  if (dilation->empty() || stride->empty()) {
    c.unknown = "the kernel reads the last entry of dilation and of stride, which this call does "
                "not have: not modelled";
    return;
  }
  if (dilation->back() != 1) {
    c.formula = "none: a dilation, the generic kernel asks for nothing";
    return;
  }
  constexpr int8_t kByte = 0, kChar = 1;
  const bool s8 = out->dtype == kChar;
  if (out->dtype != kChar && out->dtype != kByte) {
    c.formula = "none: neither a Char nor a Byte output, the kernel does nothing";
    return;
  }
  if (*groups > 1 || stride->back() > 1) {
    c.formula = "none: groups or the stride above 1, the generic kernel asks for nothing";
    return;
  }
  const auto i = m.SizesOf(*in);
  const auto w = m.SizesOf(*weight);
  const auto o = m.SizesOf(*out);
  if (i.size() < 3 || w.size() < (s8 ? 3u : 2u) || o.size() < 2 || padding->empty()) {
    c.unknown = "the kernel reads input.size(0..2), weight.size(0..2), out.size(1) and the last "
                "entry of padding, which this call does not have: not modelled";
    return;
  }
  const uint32_t state = 6 * r.target.pointer.size;
  if (s8) {
    const uint64_t per_channel = AsSizeT(r.target, int64_t{w[0]} * 4);
    HelperRequest(r, c, per_channel, "");
    HelperRequest(r, c, per_channel, "");
    const hifi_nnlib::Conv2dArgs a{.input_height = 1,
                                   .input_width = i[1],
                                   .input_channels = i[2],
                                   .kernel_height = 1,
                                   .kernel_width = w[1],
                                   .kernel_channels = w[2],
                                   .y_stride = I32(stride->back()),
                                   .y_padding = I32(padding->back()),
                                   .x_stride = 1,
                                   .x_padding = 0,
                                   .out_height = 1,
                                   .out_width = o[1],
                                   .out_channels = w[0]};
    const int32_t size = hifi_nnlib::Conv2dGetsizePrec8(a, state);
    AskGetsize(r, c, size);
    c.formula = fmt::format("the multipliers and shifts, OC x 4 = {} B each; then ", per_channel) +
                (GetsizeWords("xa_nn_conv2d_getsize", size, " (heights 1)"));
    for (size_t q = 0; q < c.requests.size(); ++q)
      c.requests[q].unchecked_then =
          q < 2 ? "the kernel writes its per-channel multipliers and shifts through the NULL "
                  "pointer: undefined behaviour (on the device, typically a fault), with no line "
                  "saying so"
                : HandsNullTo("xa_nn_conv2d_per_chan_sym8sxasym8s");
  } else {
    const int32_t size = hifi_nnlib::Conv1dStdGetsizePrec8(w[1], i[1], i[2], state);
    AskGetsize(r, c, size);
    c.formula = GetsizeWords("xa_nn_conv1d_std_getsize", size);
    c.requests.back().unchecked_then = HandsNullTo("the NNLib's 1-D convolution");
  }
  GetsizeAssumed(r, c);
}

// The Cadence HiFi quantized_depthwise_conv1d_nlc.per_tensor_out from 1.3.0
// (kHifiQuantizedDepthwiseConv1dNlc13): the last entry of dilation other than 1 falls back to the
// generic kernel; a Char or Byte output asks, unchecked, for the weight's [K, OC] copy
// (OC x KW + 8 B), then xa_nn_conv2d_depthwise_getsize(1, W, C, 1, KW, OC / C, the last stride, 1,
// the last padding, 0, 1, OW, 8, 0 NHWC) B (negative: 0); other dtypes ask for nothing. Sizes read
// as NLC: W input.size(1), C input.size(2), OC weight.size(0), KW weight.size(1), OW out.size(1).
void HifiQuantizedDepthwiseConv1dNlc13(const RuleCall& r, CallTemp& c) {
  const pte::MethodView& m = r.m;
  const auto [in, weight, stride, padding, dilation, groups, out] = ReadConvArgs(r, 14);
  if (!in || !weight || !out || !stride || !padding || !dilation) {
    c.unknown = NotConvArgs("quantized_depthwise_conv1d_nlc.per_tensor_out");
    return;
  }
  if (dilation->empty()) {
    c.unknown = "the kernel reads the last entry of dilation, which this call does not have: not "
                "modelled";
    return;
  }
  if (dilation->back() != 1) {
    c.formula = "none: a dilation, the generic kernel asks for nothing";
    return;
  }
  constexpr int8_t kByte = 0, kChar = 1;
  if (out->dtype != kChar && out->dtype != kByte) {
    c.formula = "none: neither a Char nor a Byte output, the kernel does nothing";
    return;
  }
  const auto i = m.SizesOf(*in);
  const auto w = m.SizesOf(*weight);
  const auto o = m.SizesOf(*out);
  if (i.size() < 3 || w.size() < 2 || o.size() < 2 || stride->empty() || padding->empty()) {
    c.unknown = "the kernel reads input.size(0..2), weight.size(0..1), out.size(1) and the last "
                "entries of stride and padding, which this call does not have: not modelled";
    return;
  }
  if (i[2] == 0) {
    c.unknown = "no input channels: the kernel divides out channels by 0 for the channel "
                "multiplier before asking: not modelled";
    return;
  }
  const uint64_t copy = AsSizeT(r.target, I32(int64_t{I32(int64_t{w[0]} * w[1])} + 8));
  HelperRequest(r, c, copy, "");
  const hifi_nnlib::DepthwiseArgs a{.input_height = 1,
                                    .input_width = i[1],
                                    .input_channels = i[2],
                                    .kernel_height = 1,
                                    .kernel_width = w[1],
                                    .channels_multiplier = I32(int64_t{w[0]} / i[2]),
                                    .x_stride = I32(stride->back()),
                                    .y_stride = 1,
                                    .x_padding = I32(padding->back()),
                                    .y_padding = 0,
                                    .out_height = 1,
                                    .out_width = o[1],
                                    .inp_data_format = 0};
  const int32_t size = hifi_nnlib::DepthwiseGetsizePrec8(a, r.target.pointer.size);
  AskGetsize(r, c, size);
  c.formula = fmt::format("the weight's copy, OC x KW + 8 = {} B; then ", copy) +
              (GetsizeWords("xa_nn_conv2d_depthwise_getsize", size, " (NHWC, height 1)"));
  for (TempRequest& q : c.requests)
    q.unchecked_then =
        TransposesWithNull("xa_nn_conv2d_depthwise_per_chan_sym8sxasym8s", "the weight ");
  GetsizeAssumed(r, c);
}

constexpr RuleFormula kCadenceHifiConvFormulas[] = {
    {TempRule::kHifiQuantizedConvNhwc, HifiQuantizedConv},
    {TempRule::kHifiQuantizedConvNchw, HifiQuantizedConv},
    {TempRule::kHifiQuantizedDepthwiseNchw, HifiQuantizedDepthwise},
    {TempRule::kHifiQuantizedDepthwiseNhwcAsNchw, HifiQuantizedDepthwise},
    {TempRule::kHifiQuantizedDepthwiseNhwc, HifiQuantizedDepthwise},
    {TempRule::kHifiQuantizedConvGenericNchw10, HifiQuantizedConvGeneric},
    {TempRule::kHifiQuantizedConvGenericNhwc10, HifiQuantizedConvGeneric},
    {TempRule::kHifiQuantizedConvGenericNchw, HifiQuantizedConvGeneric},
    {TempRule::kHifiQuantizedConvChannelLast, HifiQuantizedConvGeneric},
    {TempRule::kHifiQuantizedConvGenericNhwc12, HifiQuantizedConvGenericNhwc},
    {TempRule::kHifiQuantizedConvGenericNhwc, HifiQuantizedConvGenericNhwc},
    {TempRule::kHifiQuantizedConv1dNcl, HifiQuantizedConv1d},
    {TempRule::kHifiQuantizedConv1dNlc, HifiQuantizedConv1d},
    {TempRule::kHifiQuantizedConv1dNclS12, HifiQuantizedConv1d12},
    {TempRule::kHifiQuantizedConv1dNclU12, HifiQuantizedConv1d12},
    {TempRule::kHifiQuantizedConv1dNlcS12, HifiQuantizedConv1d12},
    {TempRule::kHifiQuantizedConv1dNlcU12, HifiQuantizedConv1d12},
    {TempRule::kHifiQuantizedConv1dNcl13, HifiQuantizedConv1dNcl13},
    {TempRule::kHifiQuantizedConv1dNlc13, HifiQuantizedConv1dNlc13},
    {TempRule::kHifiQuantizedDepthwiseConv1dNlc13, HifiQuantizedDepthwiseConv1dNlc13},
};

}  // namespace

std::span<const RuleFormula> CadenceHifiConvFormulas() { return kCadenceHifiConvFormulas; }

}  // namespace etmem::kernels::formulas
