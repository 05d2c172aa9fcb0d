// Owns: the scratch sizes the Cadence HiFi 4 NNLib's xa_nn_*_getsize functions return, for the
// HiFi operators that ask allocate_temp for them (aten::mean.out from ExecuTorch 0.6.0,
// cadence::quantized_max_pool2d_nhwc.out from 1.3.0, the quantized convolutions from 0.6.0:
// xa_nn_conv2d_getsize, xa_nn_conv2d_depthwise_getsize, xa_nn_conv1d_std_getsize). Written from
// reading the NNLib at foss-xtensa/nnlib-hifi4 6a9ea45 (NNLib v4.1.0, the submodule ExecuTorch
// 0.4.0 pins); the releases that call these functions pin 102944a (0.5.0 to 1.2.x) or 64d73d7
// (from 1.3.0), which are not public: which source each release is modelled from is the
// library's data (libraries/cadence_hifi.cpp, getsize_source), said as an assumption in the
// report. Each function names the file and function; arithmetic is the C code's 32-bit int,
// wrapping as the Xtensa core does. Not: which operator calls which, with what (formulas/).
#pragma once

#include <array>
#include <cstdint>

namespace etmem::kernels::hifi_nnlib {

// xa_nnlib/include/nnlib/xa_nnlib_standards.h: the precisions the operators pass.
inline constexpr int32_t kPrecAsym8u = -3;  // PREC_ASYM8U
inline constexpr int32_t kPrecSym8s = -5;   // PREC_SYM8S

// xa_nnlib/algo/kernels/basic/hifi4/xa_nn_reduce_asym8s_asym8s.c, xa_nn_reduce_getsize_nhwc with
// reduce_ops REDUCE_MEAN (1; inp_precision is then unused): with at least one axis and a largest
// reduced dim m != 0, ALIGNED_SIZE((inp_length / m) * sizeof(WORD32) + 7, 8), inp_length the
// product of the first num_inp_dims entries of inp_shape; else 0. `axes` are indices into
// inp_shape (the operator's 4-entry array, 1 past the input's rank).
int32_t ReduceMeanGetsizeNhwc(const std::array<int32_t, 4>& inp_shape, int32_t num_inp_dims,
                              const std::array<int32_t, 4>& axes, int32_t num_axes);

// xa_nnlib/algo/kernels/pool/hifi4/xa_nn_maxpool.c, xa_nn_maxpool_getsize as the NNLib's makefile
// builds it (NNLIB_V2) with out_data_format 0 (NHWC): xa_nn_maxpool_getsize_nhwc, which for one
// channel is xa_nn_maxpool_getsize_nchw (its argument checks return -1; so does a precision it
// has no case for), and otherwise sizes by precision (-1: C*W floats; -3 and 8: C*W and C
// int16s, each to 8 B; 16: C*(W+1) int16s; any other: 0). `state_bytes` is
// sizeof(xa_nn_maxpool_state_t), one pointer.
struct MaxpoolArgs {
  int32_t channels = 0, precision = 0, input_width = 0, kernel_height = 0, kernel_width = 0;
  int32_t x_stride = 0, y_stride = 0, x_padding = 0, out_width = 0;
};
int32_t MaxpoolGetsizeNhwc(const MaxpoolArgs& a, uint32_t state_bytes);

// xa_nnlib/algo/kernels/cnn/hifi4/xa_nn_conv2d_std_circ_buf.c, xa_nn_conv2d_getsize with
// input_precision 8 (PREC_8, what the HiFi convolutions pass; kernel_precision, the dilations and
// out_data_format do not change its size then). A non-positive input height or channel count,
// kernel height, width or channel count, stride, output height, width or channel count, or a
// negative padding, returns -1 (XA_NNLIB_CHK_COND); so do input channels that are not a multiple
// of the kernel's and output channels that are not a multiple of the groups this gives
// (XA_NNLIB_ARG_CHK_COND, on: ExecuTorch builds the NNLib without DISABLE_ARG_CHK). With input,
// kernel and output heights all 1 the rows are the widths (a 1-D convolution: heights and widths,
// strides and paddings swapped). Then 8 + ALIGNED_SIZE(sizeof(xa_nn_conv_state_t), 8) +
// ALIGNED_SIZE(circular buffer, 8) + BUS_WIDTH 8, and with kernel channels not a multiple of 4
// ALIGNED_SIZE(kh x kw x padded channels x output channels, 8) for the padded kernel, where this
// file's ALIGNED_SIZE(x, 8) is x + 7 (xa_nn_conv2d_std_state.h) and the circular buffer is
// (top padding + rows + bottom padding) x kernel width x the channels padded to 4 (PADDED_SIZE;
// ENABLE_PADDING_CONV2D_STD is 1), grown by kernel width x padded channels to a multiple of 16.
// `state_bytes`: sizeof(xa_nn_conv_state_t), six pointers.
struct Conv2dArgs {
  int32_t input_height = 0, input_width = 0, input_channels = 0;
  int32_t kernel_height = 0, kernel_width = 0, kernel_channels = 0;
  int32_t y_stride = 0, y_padding = 0, x_stride = 0, x_padding = 0;
  int32_t out_height = 0, out_width = 0, out_channels = 0;
};
int32_t Conv2dGetsizePrec8(const Conv2dArgs& a, uint32_t state_bytes);

// xa_nnlib/algo/kernels/cnn/hifi4/xa_nn_conv2d_depthwise.c, xa_nn_conv2d_depthwise_getsize with
// circ_buf_precision 8 (what the HiFi depthwise convolutions pass: a 1-byte circular buffer, an
// 8-byte scratch) and no dilation. A non-positive input height, width or channel count, kernel
// height or width, channel multiplier, stride, output height or width, or a negative padding,
// returns -1; so does an inp_data_format other than 0 or 1. The state (xa_nn_conv2d_dw_state_t,
// `pointer_bytes` wide pointers) and the circular buffer are each aligned up to 8 (this file's
// ALIGNED_SIZE rounds: xa_nn_circ_buf.h). NHWC (0): the state + the circular buffer
// (max(kh + (oh - 1) x sy, py + ih) rows x the channels (ic x multiplier) rounded up to 4 x kw
// B; a negative product gives -1, which the rounding to 8 makes 0) + kh x kw x 4 rounded up to 8
// (the kernel). NCHW (1): with the circular buffer's width max(kw + (ow - 1) x sx, px + iw)
// rounded up to 4, the state + (kh + sy) x that width (-1 when negative) + the kernel's kw and kh
// each rounded up to 4 + 2 x (the width - kw + 1, rounded up to 4) x 8 (the scratch rows); a
// negative total gives -1.
struct DepthwiseArgs {
  int32_t input_height = 0, input_width = 0, input_channels = 0;
  int32_t kernel_height = 0, kernel_width = 0, channels_multiplier = 0;
  int32_t x_stride = 0, y_stride = 0, x_padding = 0, y_padding = 0;
  int32_t out_height = 0, out_width = 0;
  int32_t inp_data_format = 0;  // 0 NHWC, 1 NCHW
};
int32_t DepthwiseGetsizePrec8(const DepthwiseArgs& a, uint32_t pointer_bytes);

// xa_nnlib/algo/kernels/cnn/hifi4/xa_nn_conv1d_std_circ_buf.c, xa_nn_conv1d_std_getsize with
// input_precision 8: -1 for a non-positive kernel height, input width or channel count; else
// ALIGNED_SIZE(sizeof(xa_nn_conv_state_t), 8) (xa_nn_conv2d_std_state.h's: + 7) + kernel height x
// (channels x width rounded up to 4) + BUS_WIDTH 8. `state_bytes`: six pointers.
int32_t Conv1dStdGetsizePrec8(int32_t kernel_height, int32_t input_width, int32_t input_channels,
                              uint32_t state_bytes);

}  // namespace etmem::kernels::hifi_nnlib
