// Owns: the Cadence kernels' run-time temp formulas but the HiFi quantized convolutions: HiFi
// mm/bmm, softmax, the broadcasting elementwise ops, clamp/where, quantized_matmul, mean and
// quantized_max_pool2d_nhwc; Fusion G3's native_layer_norm; Vision's _softmax.
// Not: the HiFi quantized convolutions (cadence_hifi_conv.cpp).
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

// The Cadence HiFi mm.out / bmm.out (TempRule kHifi*): the optimized path runs for a Float
// output once the argument checks pass (bmm: at most 3 dimensions); it asks through the
// library's allocate_temp_memory (HelperRequest).
void HifiMatmul(const RuleCall& r, CallTemp& c) {
  const pte::MethodView& m = r.m;
  const std::span<const int32_t> args = r.args;
  const bool bmm = r.rule == TempRule::kHifiBmm;
  const pte::TensorView* in = args.size() >= 3 ? m.TensorAt(args[0]) : nullptr;
  const pte::TensorView* mat2 = args.size() >= 3 ? m.TensorAt(args[1]) : nullptr;
  const pte::TensorView* out = args.size() >= 3 ? m.TensorAt(args[2]) : nullptr;
  if (!in || !mat2 || !out) {
    c.unknown = fmt::format("the call's arguments are not {}(Tensor, Tensor, *, Tensor out)",
                            bmm ? "bmm.out" : "mm.out");
    return;
  }
  const auto a = m.SizesOf(*in);
  const auto b = m.SizesOf(*mat2);
  const size_t rank = bmm ? 3 : 2;
  const size_t k = bmm ? 1 : 0;  // the first matrix dimension
  // check_mm_args / check_bmm_args: ranks, one dtype, inner dimensions agree.
  const auto o = m.SizesOf(*out);
  const bool args_ok = a.size() == rank && b.size() == rank && o.size() == rank &&
                       in->dtype == mat2->dtype && in->dtype == out->dtype && a[k + 1] == b[k] &&
                       (!bmm || a[0] == b[0]);
  // resize_tensor(out, {.., m, p}) fails on a static output of other sizes.
  const bool resizes = !args_ok || out->dynamism != pte::Dynamism::kStatic ||
                       (o[k] == a[k] && o[k + 1] == b[k + 1] && (!bmm || o[0] == a[0]));
  constexpr int8_t kFloat = 6;
  if (!args_ok || !resizes) {
    c.formula = "none: the kernel fails its argument check before asking";
    return;
  }
  if (out->dtype != kFloat) {
    c.formula = "none: not a Float output, the portable path asks for nothing";
    return;
  }
  auto dim = [](int32_t s) { return static_cast<uint64_t>(std::max(s, 0)); };
  if (bmm) {
    const uint64_t words = SaturatingMul(SaturatingMul(dim(a[0]), dim(a[1])), dim(b[2]));
    HelperRequest(r, c, SaturatingMul(words, 4), "tmp != nullptr");
    HelperRequest(r, c, SaturatingMul(words, 4), "p_o != nullptr");
    c.formula = fmt::format("batch {} x m {} x p {} x 4 B, twice (bias, transposed mat2)", a[0],
                            a[1], b[2]);
    return;
  }
  HelperRequest(r, c, SaturatingMul(SaturatingMul(dim(a[1]), dim(b[1])), 4), "");
  c.formula = fmt::format("n {} x p {} x 4 B (transposed mat2)", a[1], b[1]);
  if (r.rule == TempRule::kHifiMmTransposeAndBias) {
    HelperRequest(r, c, SaturatingMul(dim(a[0]), 4), "");
    c.formula += fmt::format(", m {} x 4 B (zeroed bias)", a[0]);
  }
}

// A Cadence _softmax.out(in, dim, half_to_float, *, out) call the kernel takes to its Float fast
// path: check_softmax_args passed (one floating dtype, a valid dim), a Float output of at most
// max_rank dimensions. Otherwise nullopt, with c saying why nothing is asked (or not modelled).
struct SoftmaxCall {
  std::span<const int32_t> sizes;
  int64_t rank = 0;
  int64_t dim = 0;  // in [0, max(rank, 1))
};
std::optional<SoftmaxCall> CadenceSoftmaxCall(const RuleCall& r, CallTemp& c, int64_t max_rank) {
  const pte::MethodView& m = r.m;
  const std::span<const int32_t> args = r.args;
  const pte::TensorView* in = args.size() >= 4 ? m.TensorAt(args[0]) : nullptr;
  const pte::ValueView* dim = args.size() >= 4 ? &m.values[static_cast<size_t>(args[1])] : nullptr;
  const pte::TensorView* out = args.size() >= 4 ? m.TensorAt(args[3]) : nullptr;
  if (!in || !out || dim->kind != ValueKind::kInt) {
    c.unknown = "the call's arguments are not _softmax.out(Tensor, int dim, bool, *, Tensor out)";
    return std::nullopt;
  }
  SoftmaxCall call{m.SizesOf(*in), 0, dim->int_value()};
  call.rank = static_cast<int64_t>(call.sizes.size());
  const int64_t nonzero = std::max<int64_t>(call.rank, 1);
  const bool floating = in->dtype == 5 || in->dtype == 6 || in->dtype == 7 || in->dtype == 15;
  if (in->dtype != out->dtype || !floating || call.dim < -nonzero || call.dim >= nonzero) {
    c.formula = "none: the kernel fails its argument check before asking";
    return std::nullopt;
  }
  constexpr int8_t kFloat = 6;
  if (out->dtype != kFloat || call.rank > max_rank) {
    c.formula = fmt::format(
        "none: not a Float output of at most {} dimensions, the portable path asks for nothing",
        max_rank);
    return std::nullopt;
  }
  if (call.dim < 0) call.dim += nonzero;
  return call;
}

// The two numel-word transposes (dim to last and back) both Cadence softmax kernels ask for,
// each checked with the kernel's own condition.
void SoftmaxTransposes(const RuleCall& r, CallTemp& c, const SoftmaxCall& call,
                       std::string_view first_check, std::string_view second_check) {
  uint64_t numel = 1;
  for (int32_t s : call.sizes) numel = SaturatingMul(numel, static_cast<uint64_t>(std::max(s, 0)));
  HelperRequest(r, c, SaturatingMul(numel, 4), std::string(first_check));
  HelperRequest(r, c, SaturatingMul(numel, 4), std::string(second_check));
  c.formula =
      fmt::format("numel {} x 4 B, twice (dim {} transposed last and back)", numel, call.dim);
}

// The Cadence HiFi _softmax.out (TempRule kHifiSoftmax*).
void HifiSoftmax(const RuleCall& r, CallTemp& c) {
  const auto call = CadenceSoftmaxCall(r, c, 16);
  if (!call) return;
  if (r.rule == TempRule::kHifiSoftmaxWhenPermuted &&
      (call->rank == 0 || call->dim == call->rank - 1)) {
    c.formula = "none: dim is the last, no transpose";
    return;
  }
  SoftmaxTransposes(r, c, *call, "p_out != nullptr", "p_out1 != nullptr");
}

// The shape resize_to_broadcast_target_size gives the output of a call on `inputs`: right-aligned,
// each dimension equal or 1 in every input; nullopt when they do not broadcast.
std::optional<std::vector<int32_t>> BroadcastShape(
    const pte::MethodView& m, std::initializer_list<const pte::TensorView*> inputs) {
  std::vector<int32_t> out;
  for (const pte::TensorView* t : inputs) {
    const auto sizes = m.SizesOf(*t);
    if (sizes.size() > out.size()) out.insert(out.begin(), sizes.size() - out.size(), 1);
    for (size_t i = 0; i < sizes.size(); ++i) {
      int32_t& o = out[out.size() - sizes.size() + i];
      const int32_t s = sizes[i];
      if (s == o || s == 1) continue;
      if (o != 1) return std::nullopt;
      o = s;
    }
  }
  return out;
}

// Whether a call's output takes the broadcast shape of `inputs` (resize_to_broadcast_target_size
// succeeds: a static output must already have it); sets `shape` to the output's sizes after it.
bool ResizesToBroadcast(const pte::MethodView& m, const pte::TensorView& out,
                        std::initializer_list<const pte::TensorView*> inputs,
                        std::vector<int32_t>& shape) {
  const auto target = BroadcastShape(m, inputs);
  if (!target) return false;
  const auto o = m.SizesOf(out);
  if (out.dynamism == pte::Dynamism::kStatic && !std::equal(o.begin(), o.end(), target->begin(),
                                                            target->end()))
    return false;
  shape = *target;
  return true;
}

bool SameSizes(const pte::MethodView& m, const pte::TensorView& t, const std::vector<int32_t>& s) {
  const auto sizes = m.SizesOf(t);
  return std::equal(sizes.begin(), sizes.end(), s.begin(), s.end());
}

uint64_t Numel(std::span<const int32_t> sizes) {
  uint64_t n = 1;
  for (int32_t s : sizes) n = SaturatingMul(n, static_cast<uint64_t>(std::max(s, 0)));
  return n;
}

// t's sizes padded on the left to 4 dimensions with 1s, as the HiFi 4-D kernels take them.
std::array<int32_t, 4> Pad4(std::span<const int32_t> sizes) {
  std::array<int32_t, 4> p = {1, 1, 1, 1};
  for (size_t i = 0; i < sizes.size() && i < 4; ++i) p[4 - sizes.size() + i] = sizes[i];
  return p;
}

constexpr int8_t kHalf = 5, kFloat = 6, kDouble = 7, kBool = 11, kBFloat16 = 15;
bool Complex(int8_t d) { return d == 8 || d == 9 || d == 10; }
bool Floating(int8_t d) { return d == kHalf || d == kFloat || d == kDouble || d == kBFloat16; }

// The Cadence HiFi atan2.out (kHifiAtan2Broadcast), pow.Tensor_Tensor_out (kHifiPowBroadcast) and
// bitwise_{and,or,xor}.Tensor_out (kHifiBitwiseBroadcast) on (a, b, *, out): the NNLib path (a
// Float, resp. Bool, output of at most 16 dimensions) broadcasts each input whose sizes are not the
// output's into a temp buffer of out.numel() elements (4 B, resp. 1 B): both, one, or none.
// 0.5.0's pow (kHifiPowMalloc) mallocs them instead, the first input's two words longer.
void HifiBroadcastBinary(const RuleCall& r, CallTemp& c) {
  const bool bitwise = r.rule == TempRule::kHifiBitwiseBroadcast;
  const pte::TensorView* a = r.args.size() >= 3 ? r.m.TensorAt(r.args[0]) : nullptr;
  const pte::TensorView* b = r.args.size() >= 3 ? r.m.TensorAt(r.args[1]) : nullptr;
  const pte::TensorView* out = r.args.size() >= 3 ? r.m.TensorAt(r.args[2]) : nullptr;
  if (!a || !b || !out) {
    c.unknown = "the call's arguments are not (Tensor, Tensor, *, Tensor out)";
    return;
  }
  std::vector<int32_t> shape;
  if (!ResizesToBroadcast(r.m, *out, {a, b}, shape)) {
    c.formula = "none: the kernel fails its argument check before asking";
    return;
  }
  const int8_t optimized = bitwise ? kBool : kFloat;
  const size_t max_dim = std::max({r.m.SizesOf(*a).size(), r.m.SizesOf(*b).size(), shape.size()});
  if (out->dtype != optimized || max_dim > 16) {
    c.formula = fmt::format("none: not a {} output of at most 16 dimensions, the portable path "
                            "asks for nothing", bitwise ? "Bool" : "Float");
    return;
  }
  // pow: a Bool or complex common dtype fails its check (atan2 checks none); bitwise: only a
  // Bool common dtype casts to the Bool output.
  const bool dtypes_fail =
      bitwise ? (a->dtype != kBool || b->dtype != kBool)
              : (r.rule == TempRule::kHifiPowBroadcast || r.rule == TempRule::kHifiPowMalloc) &&
                    ((a->dtype == kBool && b->dtype == kBool) || Complex(a->dtype) ||
                     Complex(b->dtype));
  if (dtypes_fail) {
    c.formula = "none: the kernel fails its dtype check before asking";
    return;
  }
  const bool a_broadcast = !SameSizes(r.m, *a, shape);
  const bool b_broadcast = !SameSizes(r.m, *b, shape);
  const uint64_t numel = Numel(shape);
  const uint64_t bytes = bitwise ? numel : SaturatingMul(numel, 4);
  if (!a_broadcast && !b_broadcast) {
    c.formula = "none: neither input is broadcast";
    return;
  }
  if (r.rule == TempRule::kHifiPowMalloc) {
    // 0.5.0: malloc'd, unchecked, freed before it returns; num_elm is an int, the first input's
    // buffer two words longer when only it is broadcast.
    const int64_t n = I32(static_cast<int64_t>(numel));
    const uint64_t words = AsSizeT(r.target, n * 4);
    if (a_broadcast && b_broadcast) {
      c.mallocs = {{words, true}, {words, true}};
    } else {
      c.mallocs = {{a_broadcast ? AsSizeT(r.target, (n + 2) * 4) : words, true}};
    }
    c.formula = fmt::format("from malloc, freed before it returns: {}",
                            a_broadcast && b_broadcast
                                ? fmt::format("out.numel() {} x 4 B for each input (twice)", n)
                            : a_broadcast
                                ? fmt::format("(out.numel() {} + 2) x 4 B for the first input", n)
                                : fmt::format("out.numel() {} x 4 B for the second input", n));
    return;
  }
  // atan2 and pow check each pointer (ET_KERNEL_CHECK); bitwise checks neither.
  HelperRequest(r, c, bytes, bitwise ? "" : "ptr1 != nullptr");
  if (a_broadcast && b_broadcast) HelperRequest(r, c, bytes, bitwise ? "" : "ptr2 != nullptr");
  c.formula = fmt::format("out.numel() {} x {} B, for {} broadcast", numel, bitwise ? 1 : 4,
                          a_broadcast && b_broadcast ? "each input (twice)"
                          : a_broadcast              ? "the first input"
                                                     : "the second input");
}

// The Cadence HiFi clamp.Tensor_out(in, min?, max?, *, out) (kHifiClampScratch) and
// where.self_out(cond, a, b, *, out) (kHifiWhereScratch): on the NNLib path (Float inputs; a
// broadcast of at most 4 dimensions; where: no 0-dimensional operand) with both bounds (clamp), a
// broadcast `in` (clamp) or `cond` (where) whose 4-D shape is not the output's is broadcast into a
// temp buffer of out.numel() x 4 B, checked.
void HifiScratch(const RuleCall& r, CallTemp& c) {
  const bool where = r.rule == TempRule::kHifiWhereScratch || r.rule == TempRule::kHifiWhereMalloc;
  const pte::TensorView* in = r.args.size() >= 4 ? r.m.TensorAt(r.args[0]) : nullptr;
  const pte::TensorView* out = r.args.size() >= 4 ? r.m.TensorAt(r.args[3]) : nullptr;
  const pte::TensorView* x = r.args.size() >= 4 ? r.m.TensorAt(r.args[1]) : nullptr;  // min, a
  const pte::TensorView* y = r.args.size() >= 4 ? r.m.TensorAt(r.args[2]) : nullptr;  // max, b
  auto null = [&](size_t i) {
    const bool some = r.args.size() >= 4;
    return some && r.m.values[static_cast<size_t>(r.args[i])].kind == ValueKind::kNull;
  };
  const bool x_none = null(1), y_none = null(2);
  if (!in || !out || (!x && !(x_none && !where)) || (!y && !(y_none && !where))) {
    c.unknown = where ? "the call's arguments are not where.self_out(Tensor, Tensor, Tensor, *, "
                        "Tensor out)"
                      : "the call's arguments are not clamp.Tensor_out(Tensor, Tensor?, Tensor?, "
                        "*, Tensor out)";
    return;
  }
  if (!x) x = in;  // clamp: a missing bound is `in` itself
  if (!y) y = in;
  std::vector<int32_t> shape;
  // where: promoteTypes(a, b) must be out's dtype; clamp: a bound, and the common dtype casts to
  // out's (for Float operands: a floating or complex output).
  const bool dtypes_ok =
      where ? (x->dtype != kFloat || y->dtype != kFloat || out->dtype == kFloat)
            : ((!x_none || !y_none) && (in->dtype != kFloat || x->dtype != kFloat ||
                                        y->dtype != kFloat || Floating(out->dtype) ||
                                        Complex(out->dtype)));
  if (!dtypes_ok || !ResizesToBroadcast(r.m, *out, {in, x, y}, shape)) {
    c.formula = "none: the kernel fails its argument check before asking";
    return;
  }
  constexpr int8_t kByte = 0;
  if (r.rule == TempRule::kHifiWhereMalloc && in->dtype != kBool && in->dtype != kByte) {
    c.fails = "cond is neither Bool nor Byte: the kernel's ET_CHECK_MSG (\"Unhandled dtype ... for "
              "where.self_out\") aborts the runtime";
    return;
  }
  const auto ranks = {r.m.SizesOf(*in).size(), r.m.SizesOf(*x).size(), r.m.SizesOf(*y).size(),
                      shape.size()};
  const size_t max_dim = std::max(ranks);
  const bool broadcast = !SameSizes(r.m, *in, shape) || !SameSizes(r.m, *x, shape) ||
                         !SameSizes(r.m, *y, shape);
  const bool zero_dim = where && (r.m.SizesOf(*in).empty() || r.m.SizesOf(*x).empty() ||
                                  r.m.SizesOf(*y).empty());
  const bool float_operands = where ? (x->dtype == kFloat && y->dtype == kFloat)
                                    : (in->dtype == kFloat && x->dtype == kFloat &&
                                       y->dtype == kFloat);
  if (!float_operands || zero_dim || (broadcast && max_dim > 4)) {
    c.formula = where ? "none: not Float operands of at least one dimension broadcast in at most "
                        "4, the portable path asks for nothing"
                      : "none: not Float operands broadcast in at most 4 dimensions, the "
                        "portable path asks for nothing";
    return;
  }
  if (!where && (x_none || y_none)) {
    c.formula = "none: one bound only, the NNLib takes the broadcast itself";
    return;
  }
  if (!broadcast || Pad4(r.m.SizesOf(*in)) == Pad4(shape)) {
    c.formula = fmt::format("none: {} has the output's 4-D shape", where ? "cond" : "in");
    return;
  }
  const uint64_t numel = Numel(shape);
  if (r.rule == TempRule::kHifiWhereMalloc) {  // 0.5.0: malloc of the int product, freed
    c.mallocs.push_back({AsSizeT(r.target, I32(static_cast<int64_t>(numel))), true});
    c.formula = fmt::format("out.numel() {} x 1 B (cond broadcast to the output) from malloc, "
                            "unchecked, freed before it returns",
                            numel);
    return;
  }
  HelperRequest(r, c, SaturatingMul(numel, 4), "p_scratch != nullptr");
  c.formula = fmt::format("out.numel() {} x 4 B ({} broadcast to the output)", numel,
                          where ? "cond" : "in");
}

// The Cadence HiFi cadence::quantized_matmul.out (kHifiQuantizedMatmul) and
// quantized_matmul_asym8{s,u}x..._asym8{s,u}.out (kHifiQuantizedMatmulAsym8) on (X, X_zero_point,
// Y, Y_zero_point, bias?, out_multiplier, out_shift, out_zero_point, transposed, *, out): a zeroed
// bias of leading_dim x in_dim words and, not transposed, leading_dim x in_dim bytes for Y, no
// argument checked first; each pointer is ET_CHECK_MSG'd (a failed request aborts). The Fatal line
// names the function as GCC's __builtin_FUNCTION does (with the template argument; clang gives the
// bare name).
void HifiQuantizedMatmul(const RuleCall& r, CallTemp& c) {
  const bool enough = r.args.size() >= 10;
  const pte::TensorView* x = enough ? r.m.TensorAt(r.args[0]) : nullptr;
  const pte::ValueView* transposed = enough ? &r.m.values[static_cast<size_t>(r.args[8])] : nullptr;
  const pte::TensorView* out = enough ? r.m.TensorAt(r.args[9]) : nullptr;
  if (!x || !out || transposed->kind != ValueKind::kBool || r.m.SizesOf(*x).size() < 2) {
    c.unknown = "the call's arguments are not quantized_matmul(Tensor X (2 or more dimensions), "
                "int, Tensor, int, Tensor?, int, int, int, bool transposed, *, Tensor out)";
    return;
  }
  constexpr int8_t kByte = 0, kChar = 1;
  std::string function;
  if (r.rule == TempRule::kHifiQuantizedMatmulAsym8) {
    function = std::string(r.op.substr(r.op.find("::") + 2));  // the operator's kernel function
    function = function.substr(0, function.rfind('.')) + "_out";
  } else if (out->dtype == kByte || out->dtype == kChar) {
    function = out->dtype == kByte ? "_typed_quantized_matmul<unsigned char>"
                                   : "_typed_quantized_matmul<signed char>";
  } else {
    c.formula = "none: not a Byte or Char output (Short takes the generic kernel from 1.1.0; "
                "other dtypes abort, Unhandled input dtype)";
    return;
  }
  const auto sizes = r.m.SizesOf(*x);
  const uint64_t leading = static_cast<uint64_t>(std::max(sizes[sizes.size() - 2], 0));
  const uint64_t in_dim = static_cast<uint64_t>(std::max(sizes[sizes.size() - 1], 0));
  const uint64_t elements = SaturatingMul(leading, in_dim);
  auto abort_line = [&](const char* what) {
    return fmt::format("In function {}(), assert failed ({} != nullptr): MemoryAllocationFailed",
                       function, what);
  };
  HelperRequest(r, c, SaturatingMul(elements, 4), "");
  c.requests.back().abort = abort_line("bias_data");
  c.formula = fmt::format("leading_dim {} x in_dim {} x 4 B (zeroed bias)", leading, in_dim);
  if (!transposed->bool_value()) {
    HelperRequest(r, c, elements, "");
    c.requests.back().abort = abort_line("y_data_temp");
    c.formula += fmt::format(", leading_dim x in_dim {} B (Y transposed)", elements);
  }
}

// The Cadence Fusion G3 native_layer_norm.out(input, normalized_shape, weight?, bias?, eps, *,
// out, mean_out, rstd_out) (kG3LayerNormDefaults*). Its argument checks are compiled only with
// OP_ARG_CHECK, which the Cadence builds do not define: the model takes the call as it comes.
void G3LayerNorm(const RuleCall& r, CallTemp& c) {
  const pte::MethodView& m = r.m;
  const std::span<const int32_t> args = r.args;
  const bool enough = args.size() >= 8;
  const pte::TensorView* in = enough ? m.TensorAt(args[0]) : nullptr;
  const auto shape = enough ? IntListArg(m, args[1]) : std::nullopt;
  const pte::ValueView* weight = enough ? &m.values[static_cast<size_t>(args[2])] : nullptr;
  const pte::ValueView* bias = enough ? &m.values[static_cast<size_t>(args[3])] : nullptr;
  const pte::TensorView* outs[3] = {enough ? m.TensorAt(args[5]) : nullptr,
                                    enough ? m.TensorAt(args[6]) : nullptr,
                                    enough ? m.TensorAt(args[7]) : nullptr};
  auto optional_tensor = [](const pte::ValueView* v) {
    return v && (v->kind == ValueKind::kNull || v->kind == ValueKind::kNone ||
                 v->kind == ValueKind::kTensor);
  };
  if (!in || !shape || !optional_tensor(weight) || !optional_tensor(bias) || !outs[0] ||
      !outs[1] || !outs[2]) {
    c.unknown = "the call's arguments are not native_layer_norm.out(Tensor, int[] "
                "normalized_shape, Tensor?, Tensor?, float, *, Tensor, Tensor, Tensor)";
    return;
  }
  constexpr int8_t kFloat = 6;
  const pte::TensorView* w = weight->kind == ValueKind::kTensor ? m.TensorAt(args[2]) : nullptr;
  const pte::TensorView* b = bias->kind == ValueKind::kTensor ? m.TensorAt(args[3]) : nullptr;
  bool optimized = in->dtype == kFloat;
  for (const pte::TensorView* t : outs) optimized = optimized && t->dtype == kFloat;
  if (w) optimized = optimized && w->dtype == kFloat;
  if (b) optimized = optimized && b->dtype == kFloat;
  if (!optimized) {
    c.formula = "none: not all Float, the portable path asks for nothing";
    return;
  }
  if (w && b) {
    c.formula = "none: weight and bias are given";
    return;
  }
  // num_elm is an int: the product of normalized_shape, as the kernel computes it.
  int64_t elements = 1;
  for (int64_t s : *shape) elements = static_cast<int64_t>(static_cast<int32_t>(elements * s));
  const uint64_t bytes = static_cast<uint64_t>(elements) * 4;  // size_t of a (negative) int
  if (r.rule == TempRule::kG3LayerNormMalloc) {  // 0.5.0: malloc'd, written unchecked, freed
    if (!w) c.mallocs.push_back({bytes, true});
    if (!b) c.mallocs.push_back({bytes, true});
    c.formula = fmt::format("prod(normalized_shape) {} x 4 B ({}) from malloc, written without a "
                            "check, freed before it returns (the kernel's argument checks, "
                            "check_layer_norm_args and the dim orders, taken as passing)",
                            elements,
                            !w && !b ? "ones for weight, then zeros for bias"
                            : !w     ? "ones for weight"
                                     : "zeros for bias");
    return;
  }
  const uint32_t align = r.rule == TempRule::kG3LayerNormDefaults16 ? 16 : r.target.pointer.align;
  const std::string abort = "In function CheckOk(), assert failed: hasValue_";
  if (!w) c.requests.push_back({bytes, align, "", abort});
  if (!b) c.requests.push_back({bytes, align, "", abort});
  c.formula = fmt::format("prod(normalized_shape) {} x 4 B ({})", elements,
                          !w && !b ? "ones for weight, then zeros for bias"
                          : !w     ? "ones for weight"
                                   : "zeros for bias");
}

// The Cadence Vision _softmax.out(in, dim, half_to_float, *, out) (kVisionSoftmaxTransposed):
// IDMA_BUFF_SIZE (4096 floats, backends/cadence/vision/third-party idma_init.h) bounds the iDMA
// paths over the last dim.
void VisionSoftmax(const RuleCall& r, CallTemp& c) {
  const auto call = CadenceSoftmaxCall(r, c, 5);
  if (!call) return;
  if (call->rank == 0) {
    c.unknown = "a 0-dimensional input: the kernel reads in.size(0), which is not modelled";
    return;
  }
  constexpr uint64_t kIdmaBuffer = 4096;
  const uint64_t size = static_cast<uint64_t>(std::max(call->sizes[static_cast<size_t>(call->dim)], 0));
  if (call->dim == call->rank - 1 && size <= kIdmaBuffer / 2) {
    c.formula = fmt::format("none: dim is the last and its size {} fits the iDMA buffers", size);
    return;
  }
  SoftmaxTransposes(r, c, *call, "ptr_out != nullptr", "ptr_out1 != nullptr");
}

// The Cadence HiFi mean.out(in, dim?, keepdim, *, dtype?, out) (kHifiMeanReduce):
// check_mean_dim_args first (the dtype, the dims in range and unique; the resize is taken to
// give out's stored sizes), then the NNLib path on a Float output of an input of at most 4
// dimensions (op_mean.cpp's kNnlibMaxDim; the input's dtype is not looked at): one checked request
// of xa_nn_reduce_getsize_nhwc(-3, inp_shape, rank, p_axis, axes, 1) x sizeof(int).
void HifiMean(const RuleCall& r, CallTemp& c) {
  const pte::MethodView& m = r.m;
  const std::span<const int32_t> args = r.args;
  const bool enough = args.size() >= 5;
  const pte::TensorView* in = enough ? m.TensorAt(args[0]) : nullptr;
  const pte::ValueView* dim = enough ? &m.values[static_cast<size_t>(args[1])] : nullptr;
  const pte::ValueView* dtype = enough ? &m.values[static_cast<size_t>(args[3])] : nullptr;
  const pte::TensorView* out = enough ? m.TensorAt(args[4]) : nullptr;
  const auto dims = enough ? IntListArg(m, args[1]) : std::nullopt;
  auto absent = [](const pte::ValueView* v) {
    return v->kind == ValueKind::kNull || v->kind == ValueKind::kNone;
  };
  if (!in || !out || (!dims && !absent(dim)) || (!absent(dtype) && dtype->kind != ValueKind::kInt)) {
    c.unknown = "the call's arguments are not mean.out(Tensor, int[]? dim, bool, *, ScalarType? "
                "dtype, Tensor out)";
    return;
  }
  auto floating = [](int64_t t) { return t == 5 || t == 6 || t == 7 || t == 15; };
  const auto sizes = m.SizesOf(*in);
  const int64_t rank = static_cast<int64_t>(sizes.size());
  bool valid = absent(dtype) ? floating(in->dtype) && floating(out->dtype)
                             : dtype->int_value() == out->dtype && floating(out->dtype);
  std::array<bool, 16> seen{};  // kTensorDimensionLimit
  std::array<int32_t, 4> axis{1, 1, 1, 1};  // p_axis
  int32_t axes = 0;
  bool reads_outside = false;
  for (int64_t d : dims.value_or(std::vector<int64_t>{})) {
    const bool in_range = rank == 0 ? d == 0 || d == -1 : d >= -rank && d < rank;
    const int64_t n = d < 0 ? d + std::max<int64_t>(rank, 1) : d;
    if (!in_range || n >= 16 || seen[static_cast<size_t>(n)]) {
      valid = false;
      break;
    }
    seen[static_cast<size_t>(n)] = true;
    // prepare_data: rank + d for a negative d (-1 on a 0-dimensional input: inp_shape[-1]).
    reads_outside |= rank + d < 0;
    if (axes < 4) axis[static_cast<size_t>(axes++)] = static_cast<int32_t>(d < 0 ? rank + d : d);
  }
  if (!valid) {
    c.formula = "none: the kernel fails its argument check before asking";
    return;
  }
  constexpr int8_t kFloat = 6;
  if (out->dtype != kFloat || rank > 4) {
    c.formula = "none: not a Float output of an input of at most 4 dimensions, the portable path "
                "asks for nothing";
    return;
  }
  if (!dims) {
    c.unknown = "dim is None: the NNLib path's dim_list.value() on an empty std::optional throws "
                "(aborts without exceptions) before asking: not modelled";
    return;
  }
  if (reads_outside) {
    c.unknown = "a 0-dimensional input reduced over dim -1: the NNLib path reads inp_shape[-1], "
                "outside its array: not modelled";
    return;
  }
  std::array<int32_t, 4> shape{1, 1, 1, 1};
  for (size_t i = 0; i < sizes.size(); ++i) shape[i] = sizes[i];
  const int32_t size = hifi_nnlib::ReduceMeanGetsizeNhwc(shape, static_cast<int32_t>(rank), axis, axes);
  const std::string getsize = fmt::format("xa_nn_reduce_getsize_nhwc {} (ALIGNED_SIZE(numel / "
                                          "the largest reduced dim x 4 + 7, 8); 0 without an "
                                          "axis)",
                                          size);
  if (r.rule == TempRule::kHifiMeanMalloc) {  // 0.5.0: malloc(scratch_size), never freed
    c.mallocs.push_back({AsSizeT(r.target, size), false});
    c.formula = getsize + " B from malloc, never freed (unchecked)";
  } else {
    HelperRequest(r, c, AsSizeT(r.target, int64_t{size} * 4), "p_scratch_in != nullptr");
    c.formula = getsize + " x sizeof(int)";
  }
  GetsizeAssumed(r, c);
}

// The Cadence HiFi quantized_max_pool2d_nhwc.out(input, kernel_size, stride, padding, dilation,
// ceil_mode, *, out) (kHifiMaxPool2dNhwc): no argument check; NHWC sizes from input.size(0..3)
// and output.size(1..2); one unchecked request of xa_nn_maxpool_getsize(...) B, an int.
void HifiMaxPoolNhwc(const RuleCall& r, CallTemp& c) {
  const pte::MethodView& m = r.m;
  const std::span<const int32_t> args = r.args;
  const bool enough = args.size() >= 7;
  const pte::TensorView* in = enough ? m.TensorAt(args[0]) : nullptr;
  const auto kernel = enough ? IntListArg(m, args[1]) : std::nullopt;
  const auto stride = enough ? IntListArg(m, args[2]) : std::nullopt;
  const auto padding = enough ? IntListArg(m, args[3]) : std::nullopt;
  const pte::TensorView* out = enough ? m.TensorAt(args[6]) : nullptr;
  if (!in || !out || !kernel || !stride || !padding) {
    c.unknown = "the call's arguments are not quantized_max_pool2d_nhwc.out(Tensor, int[] "
                "kernel_size, int[] stride, int[] padding, int[] dilation, bool, *, Tensor out)";
    return;
  }
  constexpr int8_t kByte = 0, kChar = 1;
  if (in->dtype != kByte && in->dtype != kChar) {
    c.formula = "none: neither Byte nor Char, the kernel returns before asking (its ET_DCHECK_MSG "
                "aborts a debug build first)";
    return;
  }
  const auto a = m.SizesOf(*in);
  const auto o = m.SizesOf(*out);
  if (a.size() < 4 || o.size() < 3 || kernel->size() < 2 || stride->size() < 2 ||
      padding->size() < 2) {
    c.unknown = "the kernel reads input.size(0..3), output.size(1..2) and two entries of "
                "kernel_size, stride and padding, which this call does not have: not modelled";
    return;
  }
  if (in->dtype == kChar) {
    c.unknown = "Char input: the kernel passes PREC_SYM8S (-5) to xa_nn_maxpool_getsize, for "
                "which the modelled NNLib has no case (it returns 0, or -1 with one channel, "
                "while xa_nn_maxpool_8 uses a scratch): not modelled; " +
                r.lib.getsize_source.assumed;
    return;
  }
  const hifi_nnlib::MaxpoolArgs p{.channels = a[3],
                                  .precision = hifi_nnlib::kPrecAsym8u,
                                  .input_width = a[2],
                                  .kernel_height = I32((*kernel)[0]),
                                  .kernel_width = I32((*kernel)[1]),
                                  .x_stride = I32((*stride)[1]),
                                  .y_stride = I32((*stride)[0]),
                                  .x_padding = I32((*padding)[1]),
                                  .out_width = o[2]};
  const int32_t size = hifi_nnlib::MaxpoolGetsizeNhwc(p, r.target.pointer.size);
  HelperRequest(r, c, AsSizeT(r.target, size), "");
  c.requests.back().unchecked_then =
      "the kernel does not check the pointer and hands NULL to xa_nn_maxpool_asym8, which (as at "
      "NNLib v4.1.0, its XA_NNLIB_ARG_CHK_PTR) returns -1 without writing the output; the kernel's "
      "ET_DCHECK_MSG on that is off in a release build: the call succeeds with its output "
      "unwritten, with no line saying so";
  c.formula = size < 0 ? "xa_nn_maxpool_getsize -1 (its argument check fails), asked as size_t"
              : p.channels == 1
                  ? fmt::format("xa_nn_maxpool_getsize {} B (one channel: the state and two "
                                "padded rows of int32)",
                                size)
                  : fmt::format("xa_nn_maxpool_getsize {} B (ALIGNED_SIZE(C {} x W {} x 2, 8) + "
                                "ALIGNED_SIZE(C x 2, 8))",
                                size, p.channels, p.input_width);
  GetsizeAssumed(r, c);
}

constexpr RuleFormula kCadenceFormulas[] = {
    {TempRule::kHifiMmTranspose, HifiMatmul},
    {TempRule::kHifiMmTransposeAndBias, HifiMatmul},
    {TempRule::kHifiBmm, HifiMatmul},
    {TempRule::kHifiSoftmax, HifiSoftmax},
    {TempRule::kHifiSoftmaxWhenPermuted, HifiSoftmax},
    {TempRule::kHifiAtan2Broadcast, HifiBroadcastBinary},
    {TempRule::kHifiPowBroadcast, HifiBroadcastBinary},
    {TempRule::kHifiBitwiseBroadcast, HifiBroadcastBinary},
    {TempRule::kHifiClampScratch, HifiScratch},
    {TempRule::kHifiWhereScratch, HifiScratch},
    {TempRule::kHifiQuantizedMatmul, HifiQuantizedMatmul},
    {TempRule::kHifiQuantizedMatmulAsym8, HifiQuantizedMatmul},
    {TempRule::kG3LayerNormDefaults, G3LayerNorm},
    {TempRule::kG3LayerNormDefaults16, G3LayerNorm},
    {TempRule::kVisionSoftmaxTransposed, VisionSoftmax},
    {TempRule::kHifiMeanReduce, HifiMean},
    {TempRule::kHifiMeanMalloc, HifiMean},
    {TempRule::kHifiPowMalloc, HifiBroadcastBinary},
    {TempRule::kHifiWhereMalloc, HifiScratch},
    {TempRule::kG3LayerNormMalloc, G3LayerNorm},
    {TempRule::kHifiMaxPool2dNhwc, HifiMaxPoolNhwc},
};

}  // namespace

std::span<const RuleFormula> CadenceFormulas() { return kCadenceFormulas; }

}  // namespace etmem::kernels::formulas
