// Owns: the Cortex-M backend's run-time temp formulas: the CMSIS-NN operators' scratch
// (cmsis_nn.h's buffer-size functions) after each kernel's own argument checks.
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
#include "etmem/kernels/cmsis_nn.h"

namespace etmem::kernels::formulas {
namespace {

using pte::ValueKind;

// The Cortex-M backend's CMSIS-NN operators (TempRule kCmsis*), their arguments as
// backends/cortex_m/ops/operators.yaml declares the out variants. Before asking, each kernel
// validates its arguments; the model checks ranks, dtypes and the channel counts, and takes the
// channels_last dim order (which the Cortex-M passes give every 4-D tensor) as given.
struct CmsisArgs {
  std::vector<int32_t> input, weight, output;  // sizes
  cmsis_nn::ConvParams p;
  bool ok = true;
};

cmsis_nn::Dims Nhwc(std::span<const int32_t> nchw) {
  return {nchw[0], nchw[2], nchw[3], nchw[1]};
}

void CortexM(const pte::MethodView& m, std::span<const int32_t> args, TempRule rule,
             const KernelLibrary& lib, const abi::Abi& target, CallTemp& c) {
  constexpr int8_t kChar = 1, kInt = 3;
  const bool bmm = rule == TempRule::kCmsisBatchMatmul;
  const bool transpose = rule == TempRule::kCmsisTransposeConv;
  const bool depthwise = rule == TempRule::kCmsisDepthwise;
  // The out tensor's argument: after 12 (conv), 13 (depthwise, transpose) or 7 (bmm) arguments.
  const size_t out_arg = bmm ? 7 : (depthwise || transpose) ? 13 : 12;
  const char* name = bmm ? "quantized_batch_matmul" : transpose ? "quantized_transpose_conv2d_out"
                     : depthwise ? "quantized_depthwise_conv2d_out" : "quantized_conv2d_out";
  const pte::TensorView* in = args.size() > out_arg ? m.TensorAt(args[0]) : nullptr;
  const pte::TensorView* w = args.size() > out_arg ? m.TensorAt(args[bmm ? 2 : 1]) : nullptr;
  const pte::TensorView* out = args.size() > out_arg ? m.TensorAt(args[out_arg]) : nullptr;
  if (!in || !w || !out) {
    c.unknown = fmt::format("the call's arguments are not {}'s (Tensor ..., *, Tensor out)", name);
    return;
  }
  const auto a = m.SizesOf(*in);
  const auto b = m.SizesOf(*w);
  const auto o = m.SizesOf(*out);
  const cmsis_nn::Build build{target.m_extension, target.armclang};
  const uint32_t align = lib.temp_alignment ? lib.temp_alignment : target.pointer.align;
  auto fail = [&](int64_t bytes, const char* what) {
    return fmt::format("{}: failed to allocate {}scratch buffer ({} bytes, error 33)", name, what,
                       bytes);
  };
  auto ask = [&](int64_t bytes, uint32_t alignment, std::string line) {
    c.requests.push_back({.bytes = static_cast<uint64_t>(std::max<int64_t>(bytes, 0)),
                          .alignment = alignment,
                          .kernel_log = std::move(line),
                          .fails_call = true});
  };
  const char* ext = abi::MExtensionName(target.m_extension);
  if (bmm) {
    const bool valid = in->dtype == kChar && w->dtype == kChar && out->dtype == kChar &&
                       a.size() == 3 && b.size() == 3 && o.size() == 3 && a[0] == b[0] &&
                       a[2] == b[2] && o[0] == a[0] && o[1] == a[1] && o[2] == b[1];
    if (!valid) {
      c.formula = "none: the kernel fails its argument check before asking";
      return;
    }
    const int64_t bytes = cmsis_nn::FullyConnectedS8(build, {1, a[0], a[1], b[1]});
    c.formula = fmt::format("arm_fully_connected_s8_get_buffer_size ({}): rhs_cols {} -> {} B",
                            ext, b[1], bytes);
    if (bytes > 0)
      ask(bytes, target.pointer.align,
          fmt::format("{}: failed to allocate scratch buffer ({} bytes)", name, bytes));
    else
      c.formula += ", not asked";
    return;
  }
  // The three convolutions: 4-D int8 tensors, int32 bias if any, per-channel parameters.
  const pte::TensorView* bias = m.TensorAt(args[2]);
  const size_t list0 = 3;
  auto stride = IntListArg(m, args[list0]);
  auto padding = IntListArg(m, args[list0 + 1]);
  auto dilation = IntListArg(m, args[list0 + (transpose ? 3 : 2)]);
  auto output_padding = transpose ? IntListArg(m, args[list0 + 2]) : std::optional<std::vector<int64_t>>();
  const size_t mult_arg = out_arg - 4;  // requantize_multipliers; shifts follow
  const pte::TensorView* mult = m.TensorAt(args[mult_arg]);
  const pte::TensorView* shift = m.TensorAt(args[mult_arg + 1]);
  bool valid = a.size() == 4 && b.size() == 4 && o.size() == 4 && in->dtype == kChar &&
               out->dtype == kChar && w->dtype == kChar && (!bias || bias->dtype == kInt) &&
               mult && shift && !m.SizesOf(*mult).empty() && !m.SizesOf(*shift).empty() &&
               stride && padding && dilation && (!transpose || output_padding);
  if (valid && !transpose)
    valid = stride->size() == 2 && padding->size() == 2 && dilation->size() == 2;
  if (valid) {
    const int64_t out_channels = o[1];
    valid = m.SizesOf(*mult)[0] == out_channels && m.SizesOf(*shift)[0] == out_channels;
    if (depthwise) {
      const pte::ValueView& dm = m.values[static_cast<size_t>(args[6])];
      valid = valid && a[0] == 1 && b[0] == 1 && b[3] == out_channels &&
              dm.kind == ValueKind::kInt && out_channels == a[1] * dm.int_value();
    }
    if (transpose) valid = valid && b[0] == out_channels;
  }
  if (!valid) {
    c.formula = "none: the kernel fails its argument check before asking";
    return;
  }
  if (stride->size() < 2 || padding->size() < 2 || dilation->size() < 2 || (*stride)[0] <= 0 ||
      (*stride)[1] <= 0) {
    c.unknown = "a stride, padding or dilation list shorter than 2, or a stride below 1 (which "
                "CMSIS-NN's buffer size would divide by)";
    return;
  }
  cmsis_nn::ConvParams p{(*stride)[0], (*stride)[1], (*padding)[0], (*padding)[1], (*dilation)[0],
                         (*dilation)[1]};
  const cmsis_nn::Dims input = Nhwc(a), output = Nhwc(o);
  const cmsis_nn::Dims filter =
      depthwise ? cmsis_nn::Dims{1, b[1], b[2], o[1]} : cmsis_nn::Dims{b[0], b[1], b[2], b[3]};
  std::string compiler;
  if (transpose) {
    const int64_t first = cmsis_nn::TransposeConvS8(build, p, input, filter, output);
    const int64_t second = cmsis_nn::TransposeConvReverseConvS8(p, input, filter);
    ask(first, align, fail(first, ""));
    ask(second, align, fail(second, "output "));
    c.formula = fmt::format("arm_transpose_conv_s8_get_buffer_size ({}) {} B, then "
                            "arm_transpose_conv_s8_get_reverse_conv_buffer_size {} B",
                            ext, first, second);
    return;
  }
  if (depthwise) {
    const int64_t bytes = cmsis_nn::DepthwiseConvWrapperS8(build, p, input, filter, output);
    ask(bytes, align, fail(bytes, ""));
    c.formula = fmt::format("arm_depthwise_conv_wrapper_s8_get_buffer_size ({}{}) {} B{}",
                            ext, target.m_extension == abi::MExtension::kMve && a[1] == 1
                                     ? target.armclang ? ", Arm Compiler 6" : ", not Arm Compiler 6"
                                     : "",
                            bytes, bytes == 0 ? " (asked all the same)" : "");
    return;
  }
  const bool wrapper = rule == TempRule::kCmsisConvolveWrapper;
  const int64_t bytes = wrapper ? cmsis_nn::ConvolveWrapperS8(build, p, input, filter, output)
                                : cmsis_nn::ConvolveS8(build, input, filter);
  c.formula = fmt::format("{} ({}) {} B", wrapper ? "arm_convolve_wrapper_s8_get_buffer_size"
                                                  : "arm_convolve_s8_get_buffer_size",
                          ext, bytes);
  if (bytes <= 0) {
    c.formula += ", not asked";
    return;
  }
  ask(bytes, align,
      wrapper ? fail(bytes, "")
              : fmt::format("{}: failed to allocate scratch buffer (33)", name));
}

void CortexMRule(const RuleCall& r, CallTemp& c) { CortexM(r.m, r.args, r.rule, r.lib, r.target, c); }

constexpr RuleFormula kCortexMFormulas[] = {
    {TempRule::kCmsisConvolve, CortexMRule},
    {TempRule::kCmsisConvolveWrapper, CortexMRule},
    {TempRule::kCmsisDepthwise, CortexMRule},
    {TempRule::kCmsisBatchMatmul, CortexMRule},
    {TempRule::kCmsisTransposeConv, CortexMRule},
};

}  // namespace

std::span<const RuleFormula> CortexMFormulas() { return kCortexMFormulas; }

}  // namespace etmem::kernels::formulas
