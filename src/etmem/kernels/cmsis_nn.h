// Owns: the scratch sizes CMSIS-NN's arm_*_get_buffer_size functions return, as the Cortex-M
// backend's operators call them before asking allocate_temp (ExecuTorch 1.1.0 to 1.3.1; from 1.4.0
// the scratch is a planned tensor). Written from reading CMSIS-NN at the commits those releases
// pin in backends/cortex_m/CMakeLists.txt (CMSIS_NN_VERSION: v7.0.0 at 1.1.x and 1.2.x,
// d933672e7ca97eec70ef43230baee7b20c2a28ae at 1.3.x); each function names the file and function.
// The sizes depend on the core's extensions (abi::MExtension) and, in two places, on whether
// CMSIS-NN was built by Arm Compiler 6 (__ARMCC_VERSION). Not: which operator calls which
// (formulas/cortex_m.cpp), the releases (libraries/cortex_m.cpp).
#pragma once

#include <cstdint>

#include "etmem/abi/abi.h"

namespace etmem::kernels::cmsis_nn {

// cmsis_nn_dims: {n, h, w, c}.
struct Dims {
  int64_t n = 0, h = 0, w = 0, c = 0;
};

// The fields of cmsis_nn_conv_params / cmsis_nn_dw_conv_params / cmsis_nn_transpose_conv_params
// the sizes read.
struct ConvParams {
  int64_t stride_h = 1, stride_w = 1, pad_h = 0, pad_w = 0, dilation_h = 1, dilation_w = 1;
};

struct Build {
  abi::MExtension extension = abi::MExtension::kNone;
  bool armclang = false;
};

// Each returns the int32 CMSIS-NN returns, computed in 64 bits (nullopt-free: the callers reject
// a zero stride first, which CMSIS-NN would divide by).

// Source/ConvolutionFunctions/arm_convolve_get_buffer_sizes_s8.c, arm_convolve_s8_get_buffer_size
// (the same at both commits).
int64_t ConvolveS8(const Build& b, const Dims& input, const Dims& filter);

// The same file, arm_convolve_wrapper_s8_get_buffer_size at d933672e (1.3.x), whose 1x1 and 1xN
// tests (arm_nn_is_convolve_1x1 / arm_nn_is_convolve_1_x_n in Include/arm_nnsupportfunctions.h)
// also ask that input and filter channels agree.
int64_t ConvolveWrapperS8(const Build& b, const ConvParams& p, const Dims& input,
                          const Dims& filter, const Dims& output);

// Source/ConvolutionFunctions/arm_depthwise_conv_get_buffer_sizes_s8.c,
// arm_depthwise_conv_wrapper_s8_get_buffer_size (the same at both commits; its MVE one-input-
// channel case calls arm_convolve_wrapper_s8_get_buffer_size_mve, whose added channel test always
// holds there).
int64_t DepthwiseConvWrapperS8(const Build& b, const ConvParams& p, const Dims& input,
                               const Dims& filter, const Dims& output);

// Source/ConvolutionFunctions/arm_transpose_conv_get_buffer_sizes_s8.c,
// arm_transpose_conv_s8_get_buffer_size and arm_transpose_conv_s8_get_reverse_conv_buffer_size
// (at d933672e the MVE case moved to arm_transpose_conv_s8_get_buffer_size_mve, same sizes).
int64_t TransposeConvS8(const Build& b, const ConvParams& p, const Dims& input,
                        const Dims& filter, const Dims& output);
int64_t TransposeConvReverseConvS8(const ConvParams& p, const Dims& input, const Dims& filter);

// Source/FullyConnectedFunctions/arm_fully_connected_get_buffer_sizes_s8.c,
// arm_fully_connected_s8_get_buffer_size.
int64_t FullyConnectedS8(const Build& b, const Dims& filter);

}  // namespace etmem::kernels::cmsis_nn
