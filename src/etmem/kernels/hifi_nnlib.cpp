// Owns: the HiFi NNLib scratch sizes of hifi_nnlib.h, written from reading the functions each
// names (nnlib-hifi4 6a9ea45); C's 32-bit int arithmetic, wrapping, and truncating division.
#include "etmem/kernels/hifi_nnlib.h"

#include <algorithm>

namespace etmem::kernels::hifi_nnlib {
namespace {

// 32-bit int arithmetic as the core does it: two's complement, wrapping.
int32_t Wrap(int64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(v)); }
int32_t Mul(int32_t a, int32_t b) { return Wrap(int64_t{a} * b); }
int32_t Add(int32_t a, int32_t b) { return Wrap(int64_t{a} + b); }
int32_t Sub(int32_t a, int32_t b) { return Wrap(int64_t{a} - b); }
// ALIGNED_SIZE(x, bytes): ((x)+(bytes-1))&(~(bytes-1)).
int32_t AlignedSize(int32_t x, int32_t bytes) { return Add(x, bytes - 1) & ~(bytes - 1); }

constexpr int32_t kAlignment = 8;  // ALIGNMENT (xa_nn_maxpool_state.h)

int32_t MaxpoolGetsizeNchw(const MaxpoolArgs& a, uint32_t state_bytes) {
  // XA_NNLIB_CHK_COND: not switched off by DISABLE_ARG_CHK.
  if (a.input_width <= 0 || a.kernel_height <= 0 || a.kernel_width <= 0 ||
      a.kernel_width > a.input_width || a.x_stride <= 0 || a.y_stride <= 0 || a.x_padding < 0 ||
      a.out_width <= 0)
    return -1;
  int32_t acc_bytewidth = 0;
  switch (a.precision) {
    case 8: case 16: acc_bytewidth = 2; break;   // WORD16
    case -1: case -3: acc_bytewidth = 4; break;  // WORD32
    default: return -1;
  }
  const int32_t state_size = AlignedSize(static_cast<int32_t>(state_bytes), kAlignment);
  int32_t full_buf_width = Add(a.kernel_width, Mul(a.out_width - 1, a.x_stride));
  full_buf_width = std::max(full_buf_width, Add(a.x_padding, a.input_width));
  full_buf_width = AlignedSize(full_buf_width, kAlignment / 2);
  const int32_t full_out_width = AlignedSize(Add(full_buf_width, a.kernel_width), 4);
  return Add(state_size, Mul(Mul(2, full_out_width), acc_bytewidth));
}

}  // namespace

int32_t ReduceMeanGetsizeNhwc(const std::array<int32_t, 4>& inp_shape, int32_t num_inp_dims,
                              const std::array<int32_t, 4>& axes, int32_t num_axes) {
  if (num_axes == 0) return 0;
  int32_t inp_shape_max = inp_shape[static_cast<size_t>(axes[0])];
  for (int32_t i = 1; i < num_axes; ++i)
    inp_shape_max = std::max(inp_shape_max, inp_shape[static_cast<size_t>(axes[static_cast<size_t>(i)])]);
  int32_t inp_length = 1;
  for (int32_t i = 0; i < num_inp_dims; ++i) inp_length = Mul(inp_length, inp_shape[static_cast<size_t>(i)]);
  if (inp_shape_max == 0) return 0;
  constexpr int32_t kBusWidth8 = 7;  // BUS_WIDTH_8
  return AlignedSize(Add(Mul(inp_length / inp_shape_max, 4), kBusWidth8), kAlignment);
}

int32_t MaxpoolGetsizeNhwc(const MaxpoolArgs& a, uint32_t state_bytes) {
  if (a.channels == 1) return MaxpoolGetsizeNchw(a, state_bytes);
  switch (a.precision) {
    case -1: return AlignedSize(Mul(Mul(a.channels, a.input_width), 4), kAlignment);
    case -3:
    case 8:
      return Add(AlignedSize(Mul(Mul(a.channels, a.input_width), 2), kAlignment),
                 AlignedSize(Mul(a.channels, 2), kAlignment));
    case 16: return AlignedSize(Mul(Mul(a.channels, Add(a.input_width, 1)), 2), kAlignment);
    default: return 0;
  }
}

int32_t Conv2dGetsizePrec8(const Conv2dArgs& a, uint32_t state_bytes) {
  if (a.input_height <= 0 || a.input_channels <= 0 || a.kernel_height <= 0 ||
      a.kernel_width <= 0 || a.kernel_channels <= 0 || a.y_stride <= 0 || a.y_padding < 0 ||
      a.x_stride <= 0 || a.x_padding < 0 || a.out_height <= 0 || a.out_width <= 0 ||
      a.out_channels <= 0)
    return -1;
  const int32_t groups = a.input_channels / a.kernel_channels;
  if (groups <= 0 || a.input_channels % a.kernel_channels != 0 || a.out_channels % groups != 0 ||
      a.out_channels / groups <= 0)
    return -1;
  // A 1-D convolution along the width: its rows are the widths.
  const bool one_d = a.input_height == 1 && a.kernel_height == 1 && a.out_height == 1;
  const int32_t inp_h = one_d ? a.input_width : a.input_height;
  const int32_t ker_h = one_d ? a.kernel_width : a.kernel_height;
  const int32_t ker_w = one_d ? a.kernel_height : a.kernel_width;
  const int32_t y_str = one_d ? a.x_stride : a.y_stride;
  const int32_t y_pad = one_d ? a.x_padding : a.y_padding;
  const int32_t out_h = one_d ? a.out_width : a.out_height;
  // xa_nn_conv2d_std_state.h's ALIGNED_SIZE(size, align): (size_t)(size) + align - 1.
  auto aligned_size = [](int32_t x) { return Add(x, kAlignment - 1); };
  int32_t mem = kAlignment;
  mem = Add(mem, aligned_size(static_cast<int32_t>(state_bytes)));
  constexpr int32_t kInputSize = 1, kAlignSize = kAlignment >> 1;  // sizeof(WORD8), 4
  int32_t y_b_pad = Sub(Add(ker_h, Mul(out_h - 1, y_str)), Add(y_pad, inp_h));
  y_b_pad = std::max(y_b_pad, 0);
  const int32_t channels_pad = Add(a.kernel_channels, kAlignSize - 1) & ~(kAlignSize - 1);
  const int32_t total_height = Add(Add(y_pad, inp_h), y_b_pad);
  const int32_t row = Mul(Mul(ker_w, channels_pad), kInputSize);
  int32_t circ = Mul(total_height, row);
  // row is a multiple of 4 (channels_pad is): at most three steps to a multiple of 16.
  while (circ % 16 != 0) circ = Add(circ, row);
  mem = Add(mem, aligned_size(circ));
  constexpr int32_t kBusWidth = 8;  // BUS_WIDTH
  mem = Add(mem, kBusWidth);
  if (channels_pad != a.kernel_channels) {
    const int32_t padded_kernel =
        Mul(Mul(Mul(Mul(a.kernel_height, a.kernel_width), channels_pad), a.out_channels),
            kInputSize);
    mem = Add(mem, aligned_size(padded_kernel));
  }
  return mem;
}

int32_t DepthwiseGetsizePrec8(const DepthwiseArgs& a, uint32_t pointer_bytes) {
  if (a.input_height <= 0 || a.input_width <= 0 || a.input_channels <= 0 ||
      a.kernel_height <= 0 || a.kernel_width <= 0 || a.channels_multiplier <= 0 ||
      a.x_stride <= 0 || a.y_stride <= 0 || a.x_padding < 0 || a.y_padding < 0 ||
      a.out_height <= 0 || a.out_width <= 0 || (a.inp_data_format != 0 && a.inp_data_format != 1))
    return -1;
  // sizeof(xa_nn_conv2d_dw_state_t): xa_nn_circ_buf_t (three pointers, three WORD32), then a
  // pointer.
  const int32_t p = static_cast<int32_t>(pointer_bytes);
  const int32_t state_bytes = AlignedSize(AlignedSize(3 * p + 12, p) + p, p);
  const int32_t state = AlignedSize(state_bytes, kAlignment);
  constexpr int32_t kCircBytes = 1, kScratchBytes = 8;  // circ_buf_precision 8
  if (a.inp_data_format == 0) {
    // xa_nn_dilated_conv2d_depthwise_nhwc_getsize with dilation 1 (its gcd is 1: the stride and
    // output height as given), xa_nn_dilated_circ_buf_nhwc_getsize.
    int32_t rows = Add(a.kernel_height, Mul(a.out_height - 1, a.y_stride));
    rows = std::max(rows, Add(a.y_padding, a.input_height));
    const int32_t channels = AlignedSize(Mul(a.input_channels, a.channels_multiplier), 4);
    int32_t circ = Mul(Mul(Mul(kCircBytes, rows), channels), a.kernel_width);
    if (circ < 0) circ = -1;
    circ = AlignedSize(circ, kAlignment);
    const int32_t kernel =
        AlignedSize(Mul(Mul(Mul(kCircBytes, a.kernel_height), a.kernel_width), 4), kAlignment);
    if (circ < 0) return -1;
    return Add(Add(state, circ), kernel);
  }
  // xa_nn_dilated_conv2d_depthwise_nchw_getsize with dilation 1, xa_nn_circ_buf_nchw_getsize.
  constexpr int32_t kOutHeightPerIter = 2;  // OUT_HEIGHT_PER_ITER
  const int32_t kernel_width_pad = AlignedSize(a.kernel_width, 4);
  const int32_t kernel_height_pad = AlignedSize(a.kernel_height, 4);
  const int32_t rows = Add(a.kernel_height, Mul(kOutHeightPerIter - 1, a.y_stride));
  int32_t width = Add(a.kernel_width, Mul(a.out_width - 1, a.x_stride));
  width = std::max(width, Add(a.x_padding, a.input_width));
  width = AlignedSize(width, 4);
  if (Sub(rows, a.kernel_height) % a.y_stride != 0) return -1;  // the circular buffer's -2
  int32_t circ = Mul(Mul(kCircBytes, rows), width);
  if (circ < 0) return -1;  // its -3
  circ = AlignedSize(circ, kAlignment);
  const int32_t out_width_stride_1 = AlignedSize(Add(1, Sub(width, a.kernel_width)), 4);
  const int32_t out_rows = Add(1, Sub(rows, a.kernel_height) / a.y_stride);
  const int32_t scratch =
      AlignedSize(Mul(Mul(out_rows, out_width_stride_1), kScratchBytes), kAlignment);
  const int32_t padded_kernel = Mul(Mul(kernel_width_pad, kernel_height_pad), kCircBytes);
  const int32_t total = Add(Add(Add(state, circ), padded_kernel), scratch);
  return total < 0 ? -1 : total;
}

int32_t Conv1dStdGetsizePrec8(int32_t kernel_height, int32_t input_width, int32_t input_channels,
                              uint32_t state_bytes) {
  if (kernel_height <= 0 || input_width <= 0 || input_channels <= 0) return -1;
  int32_t mem = Add(static_cast<int32_t>(state_bytes), kAlignment - 1);
  const int32_t padded = AlignedSize(Mul(input_channels, input_width), 4);  // PADDED_SIZE
  mem = Add(mem, Mul(kernel_height, padded));  // sizeof(WORD8)
  constexpr int32_t kBusWidth = 8;
  return Add(mem, kBusWidth);
}

}  // namespace etmem::kernels::hifi_nnlib
