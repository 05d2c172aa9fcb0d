// Owns: the CMSIS-NN buffer sizes of cmsis_nn.h, written from reading the functions each names
// (CMSIS-NN v7.0.0 and d933672e); C's truncating division and remainder, as C++'s.
#include "etmem/kernels/cmsis_nn.h"

#include <algorithm>

namespace etmem::kernels::cmsis_nn {
namespace {

using abi::MExtension;

// Include/arm_nnsupportfunctions.h at both commits.
constexpr int64_t kChInBlockMve = 124;                // CH_IN_BLOCK_MVE
constexpr int64_t kReverseTcolEfficientThreshold = 16;  // REVERSE_TCOL_EFFICIENT_THRESHOLD
// CONVERT_DW_CONV_WITH_ONE_INPUT_CH_AND_OUTPUT_CH_ABOVE_THRESHOLD: 8 under Arm Compiler 6, else 1.
int64_t DwOneInputChannelThreshold(const Build& b) { return b.armclang ? 8 : 1; }

// arm_convolve_s8_get_buffer_size_mve: four im2col columns, each rounded up to whole 16-lane
// int8 vectors.
int64_t ConvolveS8Mve(const Dims& input, const Dims& filter) {
  const int64_t columns = input.c * filter.w * filter.h;
  return 4 * ((columns + 15) / 16) * 16;
}

// arm_convolve_1x1_s8_fast_get_buffer_size_dsp: 2 x C int16 under Arm Compiler 6, else nothing.
int64_t Convolve1x1FastDsp(const Build& b, const Dims& input) {
  return b.armclang ? 2 * input.c * 2 : 0;
}

// arm_convolve_1_x_n_s8_get_buffer_size_mve: the padded columns of one output position, unless
// the left / unpadded / right split does not cover the output row (then as a general conv).
int64_t Convolve1xNMve(const ConvParams& p, const Dims& input, const Dims& filter,
                       const Dims& output) {
  const int64_t stride_x = p.stride_w, pad_x = p.pad_w;
  const int64_t total_pad = (output.w - 1) * stride_x + filter.w - input.w;
  const int64_t asym_pad = total_pad % 2;
  const int64_t right_pad_num =
      pad_x + asym_pad != 0 ? std::max<int64_t>(1, (pad_x + asym_pad + stride_x - 1) / stride_x) : 0;
  const int64_t left_pad_num = pad_x != 0 ? std::max<int64_t>(1, (pad_x + stride_x - 1) / stride_x) : 0;
  const int64_t no_pad_num = std::max<int64_t>(output.w - (right_pad_num + left_pad_num), 0);
  if (right_pad_num + no_pad_num + left_pad_num != output.w) return ConvolveS8Mve(input, filter);
  const int64_t pad_size_left = pad_x * input.c;
  const int64_t pad_size_right = asym_pad ? right_pad_num * input.c : pad_size_left;
  const int64_t num_elem_left = filter.w * input.c;
  const int64_t num_elem_right = num_elem_left - input.c;
  return std::max(num_elem_left + pad_size_left, num_elem_right + pad_size_right);
}

// arm_nn_is_convolve_1x1 / arm_nn_is_convolve_1x1_fast / arm_nn_is_convolve_1_x_n (d933672e).
bool Is1x1(const ConvParams& p, const Dims& input, const Dims& filter) {
  return p.pad_w == 0 && p.pad_h == 0 && filter.w == 1 && filter.h == 1 && p.dilation_w == 1 &&
         p.dilation_h == 1 && input.c == filter.c;
}
bool Is1x1Fast(const ConvParams& p) { return p.stride_w == 1 && p.stride_h == 1; }
bool Is1xN(const ConvParams& p, const Dims& input, const Dims& filter) {
  return input.h == 1 && p.dilation_w == 1 && filter.h == 1 && (p.stride_w * input.c) % 4 == 0 &&
         input.c == filter.c;
}

}  // namespace

int64_t ConvolveS8(const Build& b, const Dims& input, const Dims& filter) {
  if (b.extension == MExtension::kMve) return ConvolveS8Mve(input, filter);
  const int64_t rhs_cols = filter.w * filter.h * input.c;  // two int16 columns, 4-aligned
  const int64_t remainder = rhs_cols % 4;
  return 2 * (remainder != 0 ? rhs_cols + 4 - remainder : rhs_cols) * 2;
}

int64_t ConvolveWrapperS8(const Build& b, const ConvParams& p, const Dims& input,
                          const Dims& filter, const Dims& output) {
  // The three cases (_mve, _dsp and the plain one) share their tests; they differ in the sizes.
  if (Is1x1(p, input, filter)) {
    // arm_convolve_1x1_s8_fast_get_buffer_size: DSP without MVE only; the _dsp wrapper calls the
    // _dsp helper itself.
    if (!Is1x1Fast(p)) return 0;
    return b.extension == MExtension::kDsp ? Convolve1x1FastDsp(b, input) : 0;
  }
  if (Is1xN(p, input, filter)) {
    // arm_convolve_1_x_n_s8_get_buffer_size: the MVE split, else as a general conv.
    return b.extension == MExtension::kMve ? Convolve1xNMve(p, input, filter, output)
                                           : ConvolveS8(b, input, filter);
  }
  return ConvolveS8(b, input, filter);
}

int64_t DepthwiseConvWrapperS8(const Build& b, const ConvParams& p, const Dims& input,
                               const Dims& filter, const Dims& output) {
  const bool mve = b.extension == MExtension::kMve;
  if (mve && input.c == 1 && output.c > DwOneInputChannelThreshold(b)) {
    // arm_deptwise_conv_s8_one_in_ch_get_buffer_size_mve: as a regular conv with the filter
    // {c, h, w, n}, plus a copy of the filter.
    const Dims conv_filter{filter.c, filter.h, filter.w, filter.n};
    return ConvolveWrapperS8(b, p, input, conv_filter, output) +
           filter.c * filter.h * filter.w * filter.n;
  }
  if (input.c == output.c && input.n == 1 && p.dilation_w == 1 && p.dilation_h == 1) {
    // Without MVE a 3x3 with padding of at most 1 takes arm_depthwise_conv_3x3_s8: no buffer.
    if (!mve && filter.w == 3 && filter.h == 3 && p.pad_h <= 1 && p.pad_w <= 1) return 0;
    // arm_depthwise_conv_s8_opt_get_buffer_size
    if (mve) return 4 * kChInBlockMve * filter.w * filter.h;
    if (b.extension == MExtension::kDsp) return input.c * filter.w * filter.h * 2;
    return 0;
  }
  return 0;
}

int64_t TransposeConvS8(const Build& b, const ConvParams& p, const Dims& input,
                        const Dims& filter, const Dims& output) {
  const bool reverse_conv = p.stride_w <= 2 && p.stride_h <= 2 &&
                            input.c > kReverseTcolEfficientThreshold;
  if (reverse_conv) {
    const Dims upscaled{input.n, input.h * p.stride_h, input.w * p.stride_w, input.c};
    return ConvolveS8(b, upscaled, filter);
  }
  // CMSIS-NN takes the larger of the filter width and the *height* stride here.
  const int64_t buf_x = ((input.w - 1) * p.stride_w + std::max(filter.w, p.stride_h)) * output.c;
  const int64_t buf_y = std::max(filter.h, p.stride_h);
  return buf_x * buf_y * 4;
}

int64_t TransposeConvReverseConvS8(const ConvParams& p, const Dims& input, const Dims& filter) {
  const bool reverse_conv = p.stride_w <= 2 && p.stride_h <= 2 &&
                            input.c > kReverseTcolEfficientThreshold;
  return reverse_conv ? input.c * filter.w * filter.h * filter.n : 0;
}

int64_t FullyConnectedS8(const Build& b, const Dims& filter) {
  // _mve: one int32 per output column (the kernel sums); _dsp and the plain case: nothing.
  return b.extension == MExtension::kMve ? filter.c * 4 : 0;
}

}  // namespace etmem::kernels::cmsis_nn
