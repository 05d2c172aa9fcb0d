// Owns: ComputeRunTemp and RunTemp::Describe: each call's requests from its library's rule
// (kFormulas, one formula per rule), one temp pool per instruction (reset after each, as
// Method::step does), the check of a pool size, and the heap of PlatformMemoryAllocator.
#include "etmem/kernels/run_temp.h"

#include <algorithm>
#include <array>
#include <initializer_list>
#include <optional>
#include <span>
#include <string_view>

#include <fmt/format.h>

#include "etmem/base/checked_math.h"
#include "etmem/base/printable.h"
#include "etmem/kernels/cmsis_nn.h"
#include "etmem/kernels/hifi_nnlib.h"
#include "etmem/kernels/library.h"
#include "etmem/plan/ethosu_scratch.h"
#include "etmem/pte/mapped_file.h"
#include "etmem/pte/scalar_type.h"
#include "etmem/sim/simulate.h"

namespace etmem::kernels {
namespace {

using pte::ValueKind;

uint64_t SaturatingMul(uint64_t a, uint64_t b) { return CheckedMul(a, b).value_or(UINT64_MAX); }
uint64_t SaturatingAdd(uint64_t a, uint64_t b) { return CheckedAdd(a, b).value_or(UINT64_MAX); }

struct Libraries {
  std::vector<const KernelLibrary*> chosen;  // --kernels, in order
  const std::vector<KernelLibrary>* all = nullptr;  // every modelled library (custom namespaces)
  const std::vector<DelegateLibrary>* delegates = nullptr;
};

std::string Namespace(std::string_view op) {
  const size_t colons = op.find("::");
  return colons == std::string_view::npos ? "aten" : std::string(op.substr(0, colons));
}

// The library that implements `op`, and the rule: the chosen libraries first, then (for a
// custom namespace) every library serving that namespace.
std::pair<const KernelLibrary*, TempRule> Resolve(const Libraries& libs, const std::string& op) {
  auto in = [&](const KernelLibrary& l) -> std::optional<TempRule> {
    auto it = l.ops.find(op);
    if (it == l.ops.end()) return std::nullopt;
    return it->second;
  };
  for (const KernelLibrary* l : libs.chosen)
    if (auto r = in(*l)) return {l, *r};
  for (const KernelLibrary& l : *libs.all)
    if (l.always)
      if (auto r = in(l)) return {&l, *r};
  const std::string ns = Namespace(op);
  if (ns != "aten")
    for (const KernelLibrary& l : *libs.all)
      if (std::find(l.namespaces.begin(), l.namespaces.end(), ns) != l.namespaces.end())
        if (auto r = in(l)) return {&l, *r};
  return {nullptr, TempRule::kNone};
}

// sizeof(std::pair<CTYPE, int64_t>) on the target.
uint64_t PairWithInt64(int8_t dtype, uint32_t element, const abi::Abi& t) {
  uint32_t align = element;  // Half and BFloat16 are 2-byte structs, the rest their size
  if (dtype == 4) align = t.int64.align;    // Long
  if (dtype == 7) align = t.float64.align;  // Double
  const uint64_t second = AlignUp(uint64_t{element}, t.int64.align);
  return AlignUp(second + t.int64.size, std::max(align, t.int64.align));
}

bool DynamicArgs(const pte::MethodView& m, std::span<const int32_t> args) {
  for (int32_t a : args) {
    const pte::TensorView* t = m.TensorAt(a);
    if (t && t->dynamism != pte::Dynamism::kStatic) return true;
  }
  return false;
}

// One kernel call as a rule's formula sees it: the call's arguments, the rule, the library whose
// kernel runs (and whose temp helper asks), the release and the target.
struct RuleCall {
  std::string_view op;  // "cadence::quantized_matmul.out"
  const pte::MethodView& m;
  std::span<const int32_t> args;
  TempRule rule;
  const KernelLibrary& lib;
  const runtime::RuntimeTraits& release;
  const abi::Abi& target;
};

// A request through the library's temp helper (the Cadence kernels' allocate_temp_memory): the
// helper's alignment (else the allocator's default) and the line it logs when the request fails.
// `check`: the condition the kernel checks on the pointer (empty: it goes on with NULL).
void HelperRequest(const RuleCall& r, CallTemp& c, uint64_t bytes, std::string check) {
  const uint32_t align = r.lib.temp_alignment ? r.lib.temp_alignment : r.target.pointer.align;
  c.failure_log = r.lib.temp_failure_log;
  c.requests.push_back({bytes, align, std::move(check)});
}

// The portable topk.values(in, k, dim, largest, sorted, values, indices).
void Topk(const RuleCall& r, CallTemp& c) {
  const pte::MethodView& m = r.m;
  const std::span<const int32_t> args = r.args;
  const runtime::RuntimeTraits& release = r.release;
  const abi::Abi& target = r.target;
  // The out variant's arguments, then what it returns (the values, indices pair).
  const bool enough = args.size() >= 7;
  const pte::TensorView* in = enough ? m.TensorAt(args[0]) : nullptr;
  const pte::ValueView* k = enough ? &m.values[static_cast<size_t>(args[1])] : nullptr;
  const pte::ValueView* dim = enough ? &m.values[static_cast<size_t>(args[2])] : nullptr;
  if (!in || k->kind != ValueKind::kInt || dim->kind != ValueKind::kInt) {
    c.unknown = "the call's arguments are not topk.values(Tensor, int k, int dim, ...)";
    return;
  }
  const auto sizes = m.SizesOf(*in);
  uint64_t numel = 1;
  for (int32_t s : sizes) numel = s < 0 ? 0 : SaturatingMul(numel, static_cast<uint64_t>(s));
  const int64_t rank = static_cast<int64_t>(sizes.size());
  int64_t d = dim->int_value();
  if (d < 0) d += std::max<int64_t>(rank, 1);  // nonzero_dim(in)
  const std::optional<uint32_t> element = pte::ScalarTypeBytes(in->dtype);
  // The dtypes topk's switch takes (REALH, and BFloat16 from 0.7): others fail the call first.
  const bool real = in->dtype >= 0 && in->dtype <= 7;
  const bool bf16 = in->dtype == 15 && release.parser_scalar_types >> 15 & 1;
  c.formula = "nonempty_size(in, dim) x sizeof(std::pair<CTYPE, int64_t>)";
  if (numel == 0 || (k->int_value() == 0 && rank > 0)) {
    c.formula = "none: the input is empty or k == 0, and topk returns before asking";
    return;
  }
  if (!element || !(real || bf16) || d < 0 || (rank > 0 && d >= rank)) {
    c.formula = "none: topk fails its argument or dtype check before asking";
    return;
  }
  const uint64_t n = rank == 0 ? 1 : static_cast<uint64_t>(std::max(sizes[static_cast<size_t>(d)], 0));
  const uint64_t pair = PairWithInt64(in->dtype, *element, target);
  c.requests.push_back({SaturatingMul(n, pair), target.pointer.align, "temp_mem_allocated"});
  c.formula = fmt::format("nonempty_size(in, dim) {} x sizeof(std::pair<CTYPE, int64_t>) {}", n,
                          pair);
}

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
              : r.rule == TempRule::kHifiPowBroadcast &&
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
  const bool where = r.rule == TempRule::kHifiWhereScratch;
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

// Each rule's formula (kNone, kUnknownSize and kOtherLibrary have none).
// The Cortex-M backend's CMSIS-NN operators (TempRule kCmsis*), their arguments as
// backends/cortex_m/ops/operators.yaml declares the out variants. Before asking, each kernel
// validates its arguments; the model checks ranks, dtypes and the channel counts, and takes the
// channels_last dim order (which the Cortex-M passes give every 4-D tensor) as given.
struct CmsisArgs {
  std::vector<int32_t> input, weight, output;  // sizes
  cmsis_nn::ConvParams p;
  bool ok = true;
};

std::optional<std::vector<int64_t>> IntListArg(const pte::MethodView& m, int32_t arg) {
  const pte::ValueView& v = m.values[static_cast<size_t>(arg)];
  if (v.kind != ValueKind::kIntList) return std::nullopt;
  std::vector<int64_t> out;
  for (int64_t item : m.ItemsOf(v)) {
    if (item < 0 || static_cast<size_t>(item) >= m.values.size()) return std::nullopt;
    const pte::ValueView& i = m.values[static_cast<size_t>(item)];
    if (i.kind != ValueKind::kInt) return std::nullopt;
    out.push_back(i.int_value());
  }
  return out;
}

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

// An int the kernel passes as size_t: converted, wrapping, to the target's size_t width.
uint64_t AsSizeT(const abi::Abi& t, int64_t v) {
  const uint32_t bits = 8 * t.size_type.size;
  return bits >= 64 ? static_cast<uint64_t>(v) : static_cast<uint64_t>(v) & ((uint64_t{1} << bits) - 1);
}

// The call's size came from a vendor getsize the library models from another source than the
// release pins (KernelLibrary::getsize_source): the call says so.
void GetsizeAssumed(const RuleCall& r, CallTemp& c) {
  c.assumed = r.lib.getsize_source.assumed;
  c.assumed_brief = r.lib.getsize_source.brief;
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
  HelperRequest(r, c, AsSizeT(r.target, int64_t{size} * 4), "p_scratch_in != nullptr");
  c.formula = fmt::format("xa_nn_reduce_getsize_nhwc {} (ALIGNED_SIZE(numel / the largest "
                          "reduced dim x 4 + 7, 8); 0 without an axis) x sizeof(int)",
                          size);
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
  auto i32 = [](int64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(v)); };
  const hifi_nnlib::MaxpoolArgs p{.channels = a[3],
                                  .precision = hifi_nnlib::kPrecAsym8u,
                                  .input_width = a[2],
                                  .kernel_height = i32((*kernel)[0]),
                                  .kernel_width = i32((*kernel)[1]),
                                  .x_stride = i32((*stride)[1]),
                                  .y_stride = i32((*stride)[0]),
                                  .x_padding = i32((*padding)[1]),
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
  const std::span<const int32_t> args = r.args;
  const bool enough = args.size() > out_arg;
  const pte::TensorView* in = enough ? m.TensorAt(args[0]) : nullptr;
  const pte::TensorView* weight = enough ? m.TensorAt(args[1]) : nullptr;
  const auto stride = enough ? IntListArg(m, args[3]) : std::nullopt;
  const auto padding = enough ? IntListArg(m, args[4]) : std::nullopt;
  const auto dilation = enough ? IntListArg(m, args[5]) : std::nullopt;
  const pte::ValueView* groups = enough ? &m.values[static_cast<size_t>(args[6])] : nullptr;
  const pte::TensorView* out = enough ? m.TensorAt(args[out_arg]) : nullptr;
  if (!in || !weight || !out || !stride || !padding || !dilation ||
      groups->kind != ValueKind::kInt) {
    c.unknown = "the call's arguments are not quantized_conv(Tensor input, Tensor weight, Tensor "
                "bias, int[] stride, int[] padding, int[] dilation, int groups, ..., *, Tensor "
                "out)";
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
  if (static_cast<int16_t>(groups->int_value()) != 1) {
    c.fails = "groups is not 1: the kernel's ET_CHECK_MSG (\"Only groups=1 supported for regular "
              "convolution\") aborts the runtime before asking";
    return;
  }
  auto i32 = [](int64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(v)); };
  const hifi_nnlib::Conv2dArgs a{.input_height = conv1d ? 1 : i[2],
                                 .input_width = conv1d ? i[2] : i[3],
                                 .input_channels = i[1],
                                 .kernel_height = conv1d ? 1 : w[2],
                                 .kernel_width = conv1d ? w[2] : w[3],
                                 .kernel_channels = w[1],
                                 .y_stride = i32((*stride)[0]),
                                 .y_padding = i32((*padding)[0]),
                                 .x_stride = i32((*stride)[1]),
                                 .x_padding = i32((*padding)[1]),
                                 .out_height = conv1d ? 1 : o[2],
                                 .out_width = conv1d ? o[2] : o[3],
                                 .out_channels = w[0]};
  // int arithmetic (wrapping), then size_t.
  auto plus8 = [&](std::initializer_list<int32_t> dims) {
    int64_t n = 1;
    for (int32_t d : dims) n = i32(n * d);
    return AsSizeT(r.target, i32(n + 8));
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
  HelperRequest(r, c, static_cast<uint64_t>(std::max(size, 0)), "");
  for (TempRequest& q : c.requests)
    q.unchecked_then =
        nchw ? "the kernel does not check the pointers: it transposes into and convolves with "
              "NULL, which (as at NNLib v4.1.0, XA_NNLIB_ARG_CHK_PTR) xa_nn_transpose_8_8 and "
              "xa_nn_conv2d_per_chan_sym8sxasym8s reject, returning -1, which the kernel ignores: "
              "the call succeeds with its output unwritten, with no line saying so"
            : "the kernel does not check the pointer and hands NULL to "
              "xa_nn_conv2d_per_chan_sym8sxasym8s, which (as at NNLib v4.1.0, its "
              "XA_NNLIB_ARG_CHK_PTR) returns -1 without writing the output, which the kernel "
              "ignores: the call succeeds with its output unwritten, with no line saying so";
  c.formula = transposes +
              (size < 0 ? std::string("xa_nn_conv2d_getsize -1 (its argument check fails), "
                                      "asked as 0 B")
                        : fmt::format("xa_nn_conv2d_getsize {} B (8 + (the state + 7) + (the "
                                      "circular buffer + 7) + 8{})",
                                      size,
                                      (a.kernel_channels & 3) != 0
                                          ? " + (the kernel padded to 4 channels + 7)"
                                          : ""));
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
  const std::span<const int32_t> args = r.args;
  const bool enough = args.size() > out_arg;
  const pte::TensorView* in = enough ? m.TensorAt(args[0]) : nullptr;
  const pte::TensorView* weight = enough ? m.TensorAt(args[1]) : nullptr;
  const auto stride = enough ? IntListArg(m, args[3]) : std::nullopt;
  const auto padding = enough ? IntListArg(m, args[4]) : std::nullopt;
  const pte::TensorView* out = enough ? m.TensorAt(args[out_arg]) : nullptr;
  if (!in || !weight || !out || !stride || !padding) {
    c.unknown = "the call's arguments are not quantized_conv(Tensor input, Tensor weight, Tensor "
                "bias, int[] stride, int[] padding, int[] dilation, int groups, ..., *, Tensor "
                "out)";
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
  auto i32 = [](int64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(v)); };
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
  a.channels_multiplier = i32(int64_t{out_channels} / a.input_channels);
  a.x_stride = i32((*stride)[1]);
  a.y_stride = i32((*stride)[0]);
  a.x_padding = i32((*padding)[1]);
  a.y_padding = i32((*padding)[0]);
  a.inp_data_format = nchw ? 1 : 0;
  const int32_t size = hifi_nnlib::DepthwiseGetsizePrec8(a, r.target.pointer.size);
  HelperRequest(r, c, static_cast<uint64_t>(std::max(size, 0)), "");
  c.formula = size < 0 ? std::string("xa_nn_conv2d_depthwise_getsize -1 (its argument check "
                                     "fails), asked as 0 B")
                       : fmt::format("xa_nn_conv2d_depthwise_getsize {} B ({}: the state + the "
                                     "circular buffer + the kernel{})",
                                     size, nchw ? "NCHW" : "NHWC",
                                     nchw ? " + the scratch rows" : "");
  if (out_temp) {
    int64_t n = 1;
    for (int32_t d : {i[0], out_channels, a.out_height, a.out_width}) n = i32(n * d);
    const uint64_t bytes = AsSizeT(r.target, i32(n + 8));
    HelperRequest(r, c, bytes, "");
    c.formula += fmt::format("; the {} output, N x OC x OH x OW + 8 = {} B",
                             nchw ? "NHWC" : "temporary", bytes);
  }
  for (TempRequest& q : c.requests)
    q.unchecked_then =
        nchw ? "the kernel does not check the pointers: "
               "xa_nn_conv2d_depthwise_per_chan_sym8sxasym8s rejects a NULL scratch or output (as at NNLib v4.1.0, XA_NNLIB_ARG_CHK_PTR: -1, "
               "which the kernel ignores) and xa_nn_transpose_8_8 then copies the unwritten NHWC "
               "buffer to the output, or rejects it too: the call succeeds with its output not "
               "computed, with no line saying so"
             : "the kernel does not check the pointer and hands NULL to "
               "xa_nn_conv2d_depthwise_per_chan_sym8sxasym8s, which (as at NNLib v4.1.0, its "
               "XA_NNLIB_ARG_CHK_PTR) returns -1 without writing the output, which the kernel "
               "ignores: the call succeeds with its output unwritten, with no line saying so";
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
  const std::span<const int32_t> args = r.args;
  const bool channel_last_arg = r.rule == TempRule::kHifiQuantizedConvChannelLast;
  const size_t out_arg = channel_last_arg ? 15 : 14;
  const bool enough = args.size() > out_arg;
  const pte::TensorView* in = enough ? m.TensorAt(args[0]) : nullptr;
  const auto dilation = enough ? IntListArg(m, args[5]) : std::nullopt;
  const pte::ValueView* groups = enough ? &m.values[static_cast<size_t>(args[6])] : nullptr;
  const pte::ValueView* channel_last =
      enough && channel_last_arg ? &m.values[static_cast<size_t>(args[14])] : nullptr;
  if (!in || !dilation || groups->kind != ValueKind::kInt ||
      (channel_last_arg && channel_last->kind != ValueKind::kBool)) {
    c.unknown = channel_last_arg
                    ? "the call's arguments are not quantized_conv.out(Tensor input, Tensor "
                      "weight, Tensor bias, int[] stride, int[] padding, int[] dilation, int "
                      "groups, ..., bool channel_last, *, Tensor out)"
                    : "the call's arguments are not quantized_conv(Tensor input, Tensor weight, "
                      "Tensor bias, int[] stride, int[] padding, int[] dilation, int groups, ..., "
                      "*, Tensor out)";
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
  const int16_t g = static_cast<int16_t>(groups->int_value());
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
// unchecked, for xa_nn_conv2d_getsize(..., 8, 8, 0) B; else a depthwise weight (at 1.2.x: groups equal to the
// input channels, whatever the weight) once for xa_nn_conv2d_depthwise_getsize(..., 8, 0) B;
// else nothing (1.2.x does nothing, later releases fall back to the generic kernel). From 1.3.0
// .per_tensor_out takes a Tensor? offset before out (argument 14; out is 15).
void HifiQuantizedConvGenericNhwc(const RuleCall& r, CallTemp& c) {
  const pte::MethodView& m = r.m;
  const std::span<const int32_t> args = r.args;
  const bool v12 = r.rule == TempRule::kHifiQuantizedConvGenericNhwc12;
  const size_t out_arg = !v12 && r.op.ends_with(".per_tensor_out") ? 15 : 14;
  const bool enough = args.size() > out_arg;
  const pte::TensorView* in = enough ? m.TensorAt(args[0]) : nullptr;
  const pte::TensorView* weight = enough ? m.TensorAt(args[1]) : nullptr;
  const auto stride = enough ? IntListArg(m, args[3]) : std::nullopt;
  const auto padding = enough ? IntListArg(m, args[4]) : std::nullopt;
  const auto dilation = enough ? IntListArg(m, args[5]) : std::nullopt;
  const pte::ValueView* groups = enough ? &m.values[static_cast<size_t>(args[6])] : nullptr;
  const pte::TensorView* out = enough ? m.TensorAt(args[out_arg]) : nullptr;
  if (!in || !weight || !out || !stride || !padding || !dilation ||
      groups->kind != ValueKind::kInt) {
    c.unknown = "the call's arguments are not quantized_conv2d_nhwc(Tensor input, Tensor weight, "
                "Tensor bias, int[] stride, int[] padding, int[] dilation, int groups, ..., *, "
                "Tensor out)";
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
  auto i32 = [](int64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(v)); };
  const int16_t g = static_cast<int16_t>(groups->int_value());
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
                                   .y_stride = i32((*stride)[0]),
                                   .y_padding = i32((*padding)[0]),
                                   .x_stride = i32((*stride)[1]),
                                   .x_padding = i32((*padding)[1]),
                                   .out_height = oh,
                                   .out_width = ow,
                                   .out_channels = oc};
    size = hifi_nnlib::Conv2dGetsizePrec8(a, 6 * r.target.pointer.size);
    c.formula = size < 0 ? std::string("xa_nn_conv2d_getsize -1 (its argument check fails), "
                                       "asked as 0 B")
                         : fmt::format("xa_nn_conv2d_getsize {} B (NHWC sizes)", size);
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
                                .channels_multiplier = i32(int64_t{oc} / ic),
                                .x_stride = i32((*stride)[1]),
                                .y_stride = i32((*stride)[0]),
                                .x_padding = i32((*padding)[1]),
                                .y_padding = i32((*padding)[0]),
                                .out_height = oh,
                                .out_width = ow,
                                .inp_data_format = 0};
    size = hifi_nnlib::DepthwiseGetsizePrec8(a, r.target.pointer.size);
    c.formula = size < 0 ? std::string("xa_nn_conv2d_depthwise_getsize -1 (its argument check "
                                       "fails), asked as 0 B")
                         : fmt::format("xa_nn_conv2d_depthwise_getsize {} B (NHWC: the state + "
                                       "the circular buffer + the kernel)",
                                       size);
  } else {
    c.formula = v12 ? "none: groups neither 1 nor the input channels, the NNLib path does nothing "
                      "(the output is not written)"
                    : "none: neither groups 1 nor a depthwise weight, the NNLib path falls back "
                      "to the generic kernel, which asks for nothing";
    return;
  }
  HelperRequest(r, c, static_cast<uint64_t>(std::max(size, 0)), "");
  c.requests.back().unchecked_then =
      "the kernel does not check the pointer and hands NULL to the NNLib's convolution, which "
      "(as at NNLib v4.1.0, its XA_NNLIB_ARG_CHK_PTR) returns -1 without writing the output, "
      "which the kernel ignores: the call succeeds with its output unwritten, with no line "
      "saying so";
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
  const std::span<const int32_t> args = r.args;
  const bool enough = args.size() >= 15;
  const pte::TensorView* in = enough ? m.TensorAt(args[0]) : nullptr;
  const pte::TensorView* weight = enough ? m.TensorAt(args[1]) : nullptr;
  const auto stride = enough ? IntListArg(m, args[3]) : std::nullopt;
  const auto padding = enough ? IntListArg(m, args[4]) : std::nullopt;
  const pte::TensorView* out = enough ? m.TensorAt(args[14]) : nullptr;
  if (!in || !weight || !out || !stride || !padding) {
    c.unknown = "the call's arguments are not quantized_conv1d(Tensor input, Tensor weight, Tensor "
                "bias, int[] stride, int[] padding, int[] dilation, int groups, ..., *, Tensor "
                "out)";
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
  auto i32 = [](int64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(v)); };
  const bool ncl = r.rule == TempRule::kHifiQuantizedConv1dNcl;
  std::string transposes;
  if (ncl) {
    const uint64_t input = AsSizeT(r.target, i32(int64_t{i32(int64_t{i[0]} * i[1])} * i[2] + 8));
    const uint64_t kernel = AsSizeT(r.target, i32(int64_t{i32(int64_t{w[0]} * w[1])} * w[2] + 8));
    HelperRequest(r, c, input, "");
    HelperRequest(r, c, kernel, "");
    transposes = fmt::format("the input's and the kernel's transposes, N x C x W + 8 = {} and "
                             "OC x KC x KW + 8 = {} B; then ",
                             input, kernel);
  }
  const int32_t size =
      hifi_nnlib::Conv1dStdGetsizePrec8(w[2], i[2], i[1], 6 * r.target.pointer.size);
  HelperRequest(r, c, static_cast<uint64_t>(std::max(size, 0)), "");
  c.formula = transposes +
              (size < 0 ? std::string("xa_nn_conv1d_std_getsize -1 (its argument check fails), "
                                      "asked as 0 B")
                        : fmt::format("xa_nn_conv1d_std_getsize {} B ((the state + 7) + kernel "
                                      "width {} x (C x W, rounded up to 4) + 8)",
                                      size, w[2]));
  for (TempRequest& q : c.requests)
    q.unchecked_then =
        ncl ? "the kernel does not check the pointers: it transposes into and convolves with "
              "NULL, which (as at NNLib v4.1.0, XA_NNLIB_ARG_CHK_PTR) xa_nn_transpose_8_8 and the "
              "1-D convolution reject, returning -1, which the kernel ignores: the call succeeds "
              "with its output unwritten, with no line saying so"
            : "the kernel does not check the pointer and hands NULL to the NNLib's 1-D "
              "convolution, which (as at NNLib v4.1.0, its XA_NNLIB_ARG_CHK_PTR) returns -1 "
              "without writing the output, which the kernel ignores: the call succeeds with its "
              "output unwritten, with no line saying so";
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
  const std::span<const int32_t> args = r.args;
  const bool enough = args.size() >= 15;
  const pte::TensorView* in = enough ? m.TensorAt(args[0]) : nullptr;
  const pte::TensorView* weight = enough ? m.TensorAt(args[1]) : nullptr;
  const auto stride = enough ? IntListArg(m, args[3]) : std::nullopt;
  const auto padding = enough ? IntListArg(m, args[4]) : std::nullopt;
  const pte::TensorView* out = enough ? m.TensorAt(args[14]) : nullptr;
  if (!in || !weight || !out || !stride || !padding) {
    c.unknown = "the call's arguments are not quantized_conv1d(Tensor input, Tensor weight, Tensor "
                "bias, int[] stride, int[] padding, int[] dilation, int groups, ..., *, Tensor "
                "out)";
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
  auto i32 = [](int64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(v)); };
  const uint32_t state = 6 * r.target.pointer.size;
  auto transposes = [&] {
    const uint64_t input = AsSizeT(r.target, i32(int64_t{i32(int64_t{i[0]} * i[1])} * i[2] + 8));
    const uint64_t kernel = AsSizeT(r.target, i32(int64_t{i32(int64_t{w[0]} * w[1])} * w[2] + 8));
    HelperRequest(r, c, input, "");
    HelperRequest(r, c, kernel, "");
    return fmt::format("the input's and the kernel's transposes, N x C x W + 8 = {} and OC x KC x "
                       "KW + 8 = {} B",
                       input, kernel);
  };
  auto conv2d = [&](bool swapped) {
    const int32_t s0 = i32((*stride)[0]), s1 = i32((*stride)[1]);
    const int32_t p0 = i32((*padding)[0]), p1 = i32((*padding)[1]);
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
    HelperRequest(r, c, static_cast<uint64_t>(std::max(size, 0)), "");
    return size < 0 ? std::string("xa_nn_conv2d_getsize -1 (its argument check fails), asked as "
                                  "0 B")
                    : fmt::format("xa_nn_conv2d_getsize {} B (heights 1)", size);
  };
  auto conv1d = [&](int32_t kw, int32_t width, int32_t channels) {
    const int32_t size = hifi_nnlib::Conv1dStdGetsizePrec8(kw, width, channels, state);
    HelperRequest(r, c, static_cast<uint64_t>(std::max(size, 0)), "");
    return size < 0 ? std::string("xa_nn_conv1d_std_getsize -1 (its argument check fails), "
                                  "asked as 0 B")
                    : fmt::format("xa_nn_conv1d_std_getsize {} B", size);
  };
  switch (r.rule) {
    case TempRule::kHifiQuantizedConv1dNclS12: {
      const std::string t = transposes();
      c.formula = t + "; then " + conv2d(true);
      break;
    }
    case TempRule::kHifiQuantizedConv1dNclU12: {
      const std::string g = conv1d(w[2], i[2], i[1]);
      c.formula = g + "; then " + transposes();
      break;
    }
    case TempRule::kHifiQuantizedConv1dNlcS12: c.formula = conv2d(false); break;
    default: c.formula = conv1d(w[1], i[1], i[2]); break;
  }
  const bool ncl = c.requests.size() > 1;
  for (TempRequest& q : c.requests)
    q.unchecked_then =
        ncl ? "the kernel does not check the pointers: it transposes into and convolves with "
              "NULL, which (as at NNLib v4.1.0, XA_NNLIB_ARG_CHK_PTR) xa_nn_transpose_8_8 and the "
              "convolution reject, returning -1, which the kernel ignores: the call succeeds with "
              "its output unwritten, with no line saying so"
            : "the kernel does not check the pointer and hands NULL to the NNLib's convolution, "
              "which (as at NNLib v4.1.0, its XA_NNLIB_ARG_CHK_PTR) returns -1 without writing "
              "the output, which the kernel ignores: the call succeeds with its output "
              "unwritten, with no line saying so";
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
  const std::span<const int32_t> args = r.args;
  const bool enough = args.size() >= 15;
  const pte::TensorView* in = enough ? m.TensorAt(args[0]) : nullptr;
  const pte::TensorView* weight = enough ? m.TensorAt(args[1]) : nullptr;
  const auto stride = enough ? IntListArg(m, args[3]) : std::nullopt;
  const auto padding = enough ? IntListArg(m, args[4]) : std::nullopt;
  const auto dilation = enough ? IntListArg(m, args[5]) : std::nullopt;
  const pte::ValueView* groups = enough ? &m.values[static_cast<size_t>(args[6])] : nullptr;
  const pte::TensorView* out = enough ? m.TensorAt(args[14]) : nullptr;
  if (!in || !weight || !out || !stride || !padding || !dilation ||
      groups->kind != ValueKind::kInt) {
    c.unknown = "the call's arguments are not quantized_conv1d_ncl.per_tensor_out(Tensor input, "
                "Tensor weight, Tensor bias, int[] stride, int[] padding, int[] dilation, int "
                "groups, ..., *, Tensor out)";
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
  if ((*stride)[0] > 1 || (!s8 && groups->int_value() > 1)) {
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
  auto i32 = [](int64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(v)); };
  const uint32_t state = 6 * r.target.pointer.size;
  auto transposes = [&] {
    const uint64_t input = AsSizeT(r.target, i32(int64_t{i32(int64_t{i[0]} * i[1])} * i[2] + 8));
    const uint64_t kernel = AsSizeT(r.target, i32(int64_t{i32(int64_t{w[0]} * w[1])} * w[2] + 8));
    HelperRequest(r, c, input, "");
    HelperRequest(r, c, kernel, "");
    return fmt::format("the input's and the kernel's transposes, N x C x W + 8 = {} and OC x KC x "
                       "KW + 8 = {} B",
                       input, kernel);
  };
  if (s8) {
    const std::string t = transposes();
    const uint64_t per_channel = AsSizeT(r.target, int64_t{w[0]} * 4);
    HelperRequest(r, c, per_channel, "");
    HelperRequest(r, c, per_channel, "");
    const hifi_nnlib::Conv2dArgs a{.input_height = 1,
                                   .input_width = i[2],
                                   .input_channels = i[1],
                                   .kernel_height = 1,
                                   .kernel_width = w[2],
                                   .kernel_channels = w[1],
                                   .y_stride = i32((*stride)[0]),
                                   .y_padding = i32((*padding)[0]),
                                   .x_stride = 1,
                                   .x_padding = 0,
                                   .out_height = 1,
                                   .out_width = o[2],
                                   .out_channels = w[0]};
    const int32_t size = hifi_nnlib::Conv2dGetsizePrec8(a, state);
    HelperRequest(r, c, static_cast<uint64_t>(std::max(size, 0)), "");
    c.formula = t +
                fmt::format("; the multipliers and shifts, OC x 4 = {} B each; then ", per_channel) +
                (size < 0 ? std::string("xa_nn_conv2d_getsize -1 (its argument check fails), "
                                        "asked as 0 B")
                          : fmt::format("xa_nn_conv2d_getsize {} B (heights 1)", size));
    for (size_t q = 0; q < c.requests.size(); ++q)
      c.requests[q].unchecked_then =
          q == 2 || q == 3
              ? "the kernel writes its per-channel multipliers and shifts through the NULL "
                "pointer: undefined behaviour (on the device, typically a fault), with no line "
                "saying so"
              : "the kernel does not check the pointers: it transposes into and convolves with "
                "NULL, which (as at NNLib v4.1.0, XA_NNLIB_ARG_CHK_PTR) xa_nn_transpose_8_8 and "
                "the convolution reject, returning -1, which the kernel ignores: the call "
                "succeeds with its output unwritten, with no line saying so";
  } else {
    const int32_t size = hifi_nnlib::Conv1dStdGetsizePrec8(w[2], i[2], i[1], state);
    HelperRequest(r, c, static_cast<uint64_t>(std::max(size, 0)), "");
    const std::string t = transposes();
    c.formula = (size < 0 ? std::string("xa_nn_conv1d_std_getsize -1 (its argument check fails), "
                                        "asked as 0 B")
                          : fmt::format("xa_nn_conv1d_std_getsize {} B", size)) +
                "; then " + t;
    for (TempRequest& q : c.requests)
      q.unchecked_then =
          "the kernel does not check the pointers: it transposes into and convolves with NULL, "
          "which (as at NNLib v4.1.0, XA_NNLIB_ARG_CHK_PTR) xa_nn_transpose_8_8 and the 1-D "
          "convolution reject, returning -1, which the kernel ignores: the call succeeds with "
          "its output unwritten, with no line saying so";
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
  const std::span<const int32_t> args = r.args;
  const bool enough = args.size() >= 16;
  const pte::TensorView* in = enough ? m.TensorAt(args[0]) : nullptr;
  const pte::TensorView* weight = enough ? m.TensorAt(args[1]) : nullptr;
  const auto stride = enough ? IntListArg(m, args[3]) : std::nullopt;
  const auto padding = enough ? IntListArg(m, args[4]) : std::nullopt;
  const auto dilation = enough ? IntListArg(m, args[5]) : std::nullopt;
  const pte::ValueView* groups = enough ? &m.values[static_cast<size_t>(args[6])] : nullptr;
  const pte::TensorView* out = enough ? m.TensorAt(args[15]) : nullptr;
  if (!in || !weight || !out || !stride || !padding || !dilation ||
      groups->kind != ValueKind::kInt) {
    c.unknown = "the call's arguments are not quantized_conv1d_nlc.per_tensor_out(Tensor input, "
                "Tensor weight, Tensor bias, int[] stride, int[] padding, int[] dilation, int "
                "groups, ..., Tensor? offset, *, Tensor out)";
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
  if (groups->int_value() > 1 || stride->back() > 1) {
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
  auto i32 = [](int64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(v)); };
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
                                   .y_stride = i32(stride->back()),
                                   .y_padding = i32(padding->back()),
                                   .x_stride = 1,
                                   .x_padding = 0,
                                   .out_height = 1,
                                   .out_width = o[1],
                                   .out_channels = w[0]};
    const int32_t size = hifi_nnlib::Conv2dGetsizePrec8(a, state);
    HelperRequest(r, c, static_cast<uint64_t>(std::max(size, 0)), "");
    c.formula = fmt::format("the multipliers and shifts, OC x 4 = {} B each; then ", per_channel) +
                (size < 0 ? std::string("xa_nn_conv2d_getsize -1 (its argument check fails), "
                                        "asked as 0 B")
                          : fmt::format("xa_nn_conv2d_getsize {} B (heights 1)", size));
    for (size_t q = 0; q < c.requests.size(); ++q)
      c.requests[q].unchecked_then =
          q < 2 ? "the kernel writes its per-channel multipliers and shifts through the NULL "
                  "pointer: undefined behaviour (on the device, typically a fault), with no line "
                  "saying so"
                : "the kernel does not check the pointer and hands NULL to "
                  "xa_nn_conv2d_per_chan_sym8sxasym8s, which (as at NNLib v4.1.0, its "
                  "XA_NNLIB_ARG_CHK_PTR) returns -1 without writing the output, which the kernel "
                  "ignores: the call succeeds with its output unwritten, with no line saying so";
  } else {
    const int32_t size = hifi_nnlib::Conv1dStdGetsizePrec8(w[1], i[1], i[2], state);
    HelperRequest(r, c, static_cast<uint64_t>(std::max(size, 0)), "");
    c.formula = size < 0 ? std::string("xa_nn_conv1d_std_getsize -1 (its argument check fails), "
                                       "asked as 0 B")
                         : fmt::format("xa_nn_conv1d_std_getsize {} B", size);
    c.requests.back().unchecked_then =
        "the kernel does not check the pointer and hands NULL to the NNLib's 1-D convolution, "
        "which (as at NNLib v4.1.0, its XA_NNLIB_ARG_CHK_PTR) returns -1 without writing the "
        "output, which the kernel ignores: the call succeeds with its output unwritten, with no "
        "line saying so";
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
  const std::span<const int32_t> args = r.args;
  const bool enough = args.size() >= 15;
  const pte::TensorView* in = enough ? m.TensorAt(args[0]) : nullptr;
  const pte::TensorView* weight = enough ? m.TensorAt(args[1]) : nullptr;
  const auto stride = enough ? IntListArg(m, args[3]) : std::nullopt;
  const auto padding = enough ? IntListArg(m, args[4]) : std::nullopt;
  const auto dilation = enough ? IntListArg(m, args[5]) : std::nullopt;
  const pte::TensorView* out = enough ? m.TensorAt(args[14]) : nullptr;
  if (!in || !weight || !out || !stride || !padding || !dilation) {
    c.unknown = "the call's arguments are not quantized_depthwise_conv1d_nlc.per_tensor_out(Tensor "
                "input, Tensor weight, Tensor bias, int[] stride, int[] padding, int[] dilation, "
                "int groups, ..., *, Tensor out)";
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
  auto i32 = [](int64_t v) { return static_cast<int32_t>(static_cast<uint32_t>(v)); };
  const uint64_t copy = AsSizeT(r.target, i32(int64_t{i32(int64_t{w[0]} * w[1])} + 8));
  HelperRequest(r, c, copy, "");
  const hifi_nnlib::DepthwiseArgs a{.input_height = 1,
                                    .input_width = i[1],
                                    .input_channels = i[2],
                                    .kernel_height = 1,
                                    .kernel_width = w[1],
                                    .channels_multiplier = i32(int64_t{w[0]} / i[2]),
                                    .x_stride = i32(stride->back()),
                                    .y_stride = 1,
                                    .x_padding = i32(padding->back()),
                                    .y_padding = 0,
                                    .out_height = 1,
                                    .out_width = o[1],
                                    .inp_data_format = 0};
  const int32_t size = hifi_nnlib::DepthwiseGetsizePrec8(a, r.target.pointer.size);
  HelperRequest(r, c, static_cast<uint64_t>(std::max(size, 0)), "");
  c.formula = fmt::format("the weight's copy, OC x KW + 8 = {} B; then ", copy) +
              (size < 0 ? std::string("xa_nn_conv2d_depthwise_getsize -1 (its argument check "
                                      "fails), asked as 0 B")
                        : fmt::format("xa_nn_conv2d_depthwise_getsize {} B (NHWC, height 1)",
                                      size));
  for (TempRequest& q : c.requests)
    q.unchecked_then =
        "the kernel does not check the pointers: it transposes the weight into and convolves "
        "with NULL, which (as at NNLib v4.1.0, XA_NNLIB_ARG_CHK_PTR) xa_nn_transpose_8_8 and "
        "xa_nn_conv2d_depthwise_per_chan_sym8sxasym8s reject, returning -1, which the kernel "
        "ignores: the call succeeds with its output unwritten, with no line saying so";
  GetsizeAssumed(r, c);
}

constexpr std::pair<TempRule, void (*)(const RuleCall&, CallTemp&)> kFormulas[] = {
    {TempRule::kTopk, Topk},
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
    {TempRule::kCmsisConvolve, CortexMRule},
    {TempRule::kCmsisConvolveWrapper, CortexMRule},
    {TempRule::kCmsisDepthwise, CortexMRule},
    {TempRule::kCmsisBatchMatmul, CortexMRule},
    {TempRule::kCmsisTransposeConv, CortexMRule},
    {TempRule::kG3LayerNormDefaults, G3LayerNorm},
    {TempRule::kG3LayerNormDefaults16, G3LayerNorm},
    {TempRule::kVisionSoftmaxTransposed, VisionSoftmax},
    {TempRule::kHifiMeanReduce, HifiMean},
    {TempRule::kHifiMaxPool2dNhwc, HifiMaxPoolNhwc},
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

void Delegate(const pte::ProgramView& program, const pte::MethodView& m,
              const pte::InstructionView& ins, const Libraries& libs, const abi::Abi& target,
              CallTemp& c) {
  const pte::DelegateView& d = m.delegates[static_cast<size_t>(ins.target)];
  c.delegate = true;
  c.what = fmt::format("delegate {} ({})", ins.target, Printable(d.backend));
  for (const DelegateLibrary& l : *libs.delegates) {
    auto it = l.backends.find(d.backend);
    if (it == l.backends.end()) continue;
    c.library = l.name;
    if (it->second == DelegateRule::kUnknownSize) c.unknown = l.why;
    const bool reads_size = it->second == DelegateRule::kEthosUScratch;
    if (!reads_size && it->second != DelegateRule::kEthosUScratchInBlob) return;
    std::span<const uint8_t> file =
        program.file ? program.file->bytes() : std::span<const uint8_t>{};
    const bool inside = d.blob_file_offset <= file.size() &&
                        d.blob_bytes <= file.size() - d.blob_file_offset;
    if (!inside) {
      c.unknown = "the delegate's blob is not in the file";
      return;
    }
    auto s = plan::ReadVelaScratch(file.subspan(d.blob_file_offset, d.blob_bytes));
    if (!s) {
      c.unknown = s.error().message;
      return;
    }
    if ((s->kind == plan::ScratchKind::kTempAllocation) != reads_size) {
      // VelaBinStream's vela_bin_read: an unknown block fails execute() before it asks.
      c.fails = fmt::format(
          "this release's backend reads {} blocks, not this payload's {}: execute() fails before "
          "asking the temp allocator (\"Invalid block name or malformed binary\", "
          "InvalidProgram); the method loads but does not run",
          reads_size ? "scratch_size" : "scratch_data",
          reads_size ? "scratch_data" : "scratch_size");
      return;
    }
    if (s->kind == plan::ScratchKind::kInBlob) {
      c.formula = fmt::format("none: the Vela payload carries its {} B scratch inside the blob",
                              s->bytes);
      return;
    }
    const uint32_t align = l.scratch_align ? l.scratch_align : target.pointer.align;
    c.requests.push_back({s->bytes, align});
    c.formula = "the Vela payload's scratch_size";
    return;
  }
  c.unknown = fmt::format("backend {} is not in a modelled library", Printable(d.backend));
}

uint64_t PoolBytes(const std::vector<TempRequest>& requests, uint32_t pool_align) {
  sim::BumpAllocator a({pool_align, std::nullopt, 0});
  sim::Placement p;
  uint64_t available = 0;
  for (const TempRequest& r : requests) a.Allocate(r.bytes, r.alignment, p, available);
  return a.peak();
}

}  // namespace

std::vector<uint64_t> TempPoolsLoggingFailure(const RunTemp& t, uint64_t requested,
                                              uint64_t available, uint32_t pool_align) {
  std::vector<uint64_t> out;
  for (const CallTemp& c : t.calls) {
    sim::BumpAllocator a({pool_align, std::nullopt, 0});  // reset before each instruction
    for (const TempRequest& r : c.requests) {
      const uint64_t before = a.used();
      sim::Placement p;
      uint64_t free = 0;
      a.Allocate(r.bytes, r.alignment, p, free);
      if (p.consumed(r.bytes) == requested) out.push_back(SaturatingAdd(before, available));
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

namespace {

uint64_t HeapBytes(const std::vector<TempRequest>& requests, const runtime::RuntimeTraits& release,
                   const abi::Abi& target) {
  uint64_t total = 0;
  for (const TempRequest& r : requests) {
    const uint64_t slack = release.platform_allocator_slack_minus_one ? r.alignment - 1 : r.alignment;
    total = SaturatingAdd(total, SaturatingAdd(2 * uint64_t{target.pointer.size},
                                               SaturatingAdd(r.bytes, slack)));
  }
  return total;
}

// Where a call's temp requests go when one fails: a bounded pool, no temp allocator at all
// (0.3.0), or a PlatformMemoryAllocator whose et_pal_allocate returns NULL (a firmware without a
// heap, 0.4.0 on).
enum class FailingPool : uint8_t { kBounded, kNone, kNoHeap };

// What the runtime and the kernel log when `c`'s requests do not fit (`pool` bytes for
// kBounded), in order, and in `then` what follows when the kernel goes on without checking.
std::vector<std::string> FailureLog(const CallTemp& c, FailingPool where, uint64_t pool,
                                    uint32_t pool_align, const runtime::RuntimeTraits& release,
                                    const abi::Abi& target, std::string& then) {
  std::vector<std::string> log;
  sim::BumpAllocator a({pool_align, pool, 0});
  if (c.delegate) {
    uint64_t size = c.requests.empty() ? 0 : c.requests.front().bytes;
    for (const TempRequest& r : c.requests) {
      if (where != FailingPool::kBounded) break;
      sim::Placement p;
      uint64_t available = 0;
      a.Allocate(r.bytes, r.alignment, p, available);
      if (p.failed) {
        log.push_back(sim::FailureLog(p.consumed(r.bytes), available));
        size = r.bytes;
        break;
      }
    }
    if (where == FailingPool::kNoHeap)
      log.push_back(fmt::format("Failed to allocate {} bytes",
                                HeapBytes({c.requests.front()}, release, target)));
    log.push_back(fmt::format("Failed to allocate scratch buffer of {} bytes from temp_allocator",
                              size));
    log.push_back(fmt::format("CALL_DELEGATE execute failed at instruction {}: 0x21",
                              c.chain_instruction));
    return log;
  }
  bool unchecked = false;
  std::string unchecked_then;
  for (const TempRequest& r : c.requests) {
    if (where == FailingPool::kBounded) {
      sim::Placement p;
      uint64_t available = 0;
      a.Allocate(r.bytes, r.alignment, p, available);
      if (!p.failed) continue;
      log.push_back(sim::FailureLog(p.consumed(r.bytes), available));
    } else if (where == FailingPool::kNoHeap) {
      log.push_back(fmt::format("Failed to allocate {} bytes", HeapBytes({r}, release, target)));
    }
    log.push_back(where == FailingPool::kNone
                      ? std::string("No temp allocator provided")
                      : fmt::format("Failed to allocate temp memory. Bytes requested: {}", r.bytes));
    log.insert(log.end(), c.failure_log.begin(), c.failure_log.end());
    if (!r.kernel_log.empty()) log.push_back(r.kernel_log);
    if (!r.abort.empty()) {
      log.push_back(r.abort);
      then = "the kernel's ET_CHECK aborts the runtime (et_pal_abort): the process stops and "
             "Method::execute does not return";
      return log;
    }
    if (r.check.empty() && r.fails_call) {
      log.push_back(fmt::format("KernelCall failed at instruction {}:{} in operator {}: 0x{:x}",
                                c.chain, c.chain_instruction, c.what, 0x21));
      return log;
    }
    if (!r.check.empty()) {
      log.push_back(fmt::format("Check failed ({}): ", r.check));
      log.push_back(fmt::format("KernelCall failed at instruction {}:{} in operator {}: 0x{:x}",
                                c.chain, c.chain_instruction, c.what, 0x21));
      return log;
    }
    unchecked = true;  // the kernel goes on: its next request is made as well
    if (unchecked_then.empty()) unchecked_then = r.unchecked_then;
  }
  if (unchecked)
    then = !unchecked_then.empty()
               ? unchecked_then
               : "the kernel does not check the pointer and goes on with NULL: undefined behaviour "
                 "(on the device, typically a fault), with no line saying so";
  return log;
}

}  // namespace

std::string RunTemp::Describe() const {
  if (calls.empty() && kernel_calls + delegate_calls == 0)
    return "0 B: the method calls no kernel or delegate";
  std::string text;
  if (peak_call) {
    const CallTemp& c = calls[*peak_call];
    text = fmt::format("{}{} B{}, set by instruction {} ({}{})", known() ? "" : "at least ",
                       peak_bytes, upper_bound ? " (upper bound: dynamic shapes)" : "",
                       c.instruction, c.what, c.library.empty() ? "" : ", " + c.library);
    if (!reset_each_instruction) text += "; no reset between instructions: the sum of them";
  } else if (known()) {
    text = "0 B: none of these kernels allocates temp memory while running";
  } else {
    text = "at least 0 B";
  }
  if (!known()) {
    const CallTemp* first = nullptr;
    for (const CallTemp& c : calls)
      if (!c.unknown.empty()) { first = &c; break; }
    text += fmt::format("; unknown for {} call(s), first instruction {} ({}{}): {}",
                        unknown_calls, first->instruction, first->what,
                        first->library.empty() ? "" : ", " + first->library, first->unknown);
  }
  std::string libs;
  for (const std::string& l : libraries) libs += (libs.empty() ? "" : ",") + l;
  if (!assumed_brief.empty()) text += "; " + assumed_brief;
  text += fmt::format(" [kernels: {}]", libs);
  return text;
}

Result<RunTemp> ComputeRunTemp(const pte::ProgramView& program, const pte::MethodView& m,
                               const runtime::RuntimeTraits& release, const abi::Abi& target,
                               const RunTempOptions& options) {
  Libraries libs;
  RunTemp out;
  out.libraries = options.kernels.empty() ? std::vector<std::string>{kDefaultKernelLibrary} : options.kernels;
  for (const std::string& name : out.libraries) {
    ETMEM_TRY(const KernelLibrary* l, LibraryAt(name, release));
    libs.chosen.push_back(l);
  }
  libs.all = &AllLibrariesAt(release);
  libs.delegates = &DelegateLibrariesAt(release);
  out.reset_each_instruction = release.temp_reset_each_instruction;
  out.platform_fallback = !options.temp_allocator && release.platform_allocator_when_no_temp;
  out.no_temp_allocator = !options.temp_allocator && !release.platform_allocator_when_no_temp;

  uint64_t running = 0, heap_running = 0;
  std::vector<std::string> getsize_briefs;  // the calls' assumed sources, once each
  bool cmsis = false;  // a CMSIS-NN size was computed: it depends on the target's core
  for (uint32_t ci = 0; ci < m.chains.size(); ++ci) {
    const pte::ChainView& chain = m.chains[ci];
    for (uint32_t k = 0; k < chain.instructions_count; ++k) {
      const size_t i = chain.instructions_begin + k;
      if (i >= m.instructions.size()) break;
      const pte::InstructionView& ins = m.instructions[i];
      CallTemp c;
      c.instruction = i;
      c.chain = ci;
      c.chain_instruction = k;
      if (ins.kind == pte::InstructionKind::kKernelCall) {
        ++out.kernel_calls;
        const pte::OperatorView& op = m.operators[static_cast<size_t>(ins.target)];
        c.what = Printable(op.overload.empty() ? std::string(op.name)
                                               : std::string(op.name) + "." + std::string(op.overload));
        const std::string name = op.overload.empty()
                                     ? std::string(op.name)
                                     : std::string(op.name) + "." + std::string(op.overload);
        auto [lib, rule] = Resolve(libs, name);
        const KernelLibrary* kernel_lib = lib;  // whose kernel runs (and whose temp helper)
        if (rule == TempRule::kOtherLibrary) {  // another library's kernel: its rule
          rule = TempRule::kNone;
          for (const KernelLibrary& other : *libs.all) {
            auto it = other.name == lib->other_library ? other.ops.find(name) : other.ops.end();
            if (it != other.ops.end()) {
              rule = it->second;
              kernel_lib = &other;
            }
          }
        }
        if (!lib) {
          std::string asked;
          for (const std::string& l : out.libraries) asked += (asked.empty() ? "" : ",") + l;
          const std::string ns = Namespace(name);
          c.unknown = fmt::format("no modelled library implements {} (asked: {}{})", c.what, asked,
                                  ns == "aten" ? "" : " and the " + Printable(ns) + ":: libraries");
        } else {
          c.library = lib->name;
          for (const auto& [r, formula] : kFormulas)
            if (r == rule) formula({name, m, m.ArgsOf(ins), rule, *kernel_lib, release, target}, c);
          if (rule >= TempRule::kCmsisConvolve && rule <= TempRule::kCmsisTransposeConv) cmsis = true;
          if (rule == TempRule::kUnknownSize) c.unknown = lib->unknown_size_why;
        }
      } else if (ins.kind == pte::InstructionKind::kDelegateCall) {
        ++out.delegate_calls;
        Delegate(program, m, ins, libs, target, c);
      } else {
        continue;
      }
      if (!c.fails.empty())
        out.run_failures.push_back(
            fmt::format("instruction {} {} ({}): {}", c.instruction, c.what, c.library, c.fails));
      if (c.requests.empty() && c.unknown.empty()) continue;
      if (!c.assumed.empty() &&
          std::find(getsize_briefs.begin(), getsize_briefs.end(), c.assumed_brief) ==
              getsize_briefs.end()) {
        getsize_briefs.push_back(c.assumed_brief);
        out.assumptions.push_back(c.assumed);
      }
      c.upper_bound = !c.requests.empty() && DynamicArgs(m, m.ArgsOf(ins));
      c.pool_bytes = PoolBytes(c.requests, options.pool_align);
      c.heap_bytes = HeapBytes(c.requests, release, target);
      if (!c.unknown.empty()) ++out.unknown_calls;
      out.upper_bound |= c.upper_bound;
      // Without a reset between instructions every request stays: the need is the running sum.
      running = out.reset_each_instruction ? c.pool_bytes : SaturatingAdd(running, c.pool_bytes);
      heap_running = out.reset_each_instruction ? c.heap_bytes
                                                : SaturatingAdd(heap_running, c.heap_bytes);
      out.calls.push_back(std::move(c));
      if (running > out.peak_bytes) {
        out.peak_bytes = running;
        out.peak_call = out.calls.size() - 1;
      }
      if (out.platform_fallback) out.heap_peak_bytes = std::max(out.heap_peak_bytes, heap_running);
    }
  }

  if (cmsis) {
    if (!target.m_extension_assumed.empty()) {
      out.assumed_brief = fmt::format("CMSIS-NN's m_extension {} assumed (the target does not say)",
                                      abi::MExtensionName(target.m_extension));
      out.assumptions.push_back(fmt::format("CMSIS-NN built for m_extension {}: {}",
                                            abi::MExtensionName(target.m_extension),
                                            target.m_extension_assumed));
    }
    if (!target.m_extension_from.empty()) {
      out.assumed_brief = fmt::format("CMSIS-NN built for m_extension {} ({})",
                                      abi::MExtensionName(target.m_extension),
                                      target.m_extension_from);
      out.assumptions.push_back(fmt::format("CMSIS-NN built for m_extension {}: {}",
                                            abi::MExtensionName(target.m_extension),
                                            target.m_extension_from));
    }
    if (!target.armclang_assumed.empty())
      out.assumptions.push_back("CMSIS-NN's compiler: " + target.armclang_assumed);
  }
  for (const std::string& brief : getsize_briefs)
    out.assumed_brief += (out.assumed_brief.empty() ? "" : "; ") + brief;

  if (out.platform_fallback) {
    for (size_t n = 0; n < out.calls.size() && !out.no_heap_failing_call; ++n) {
      const CallTemp& c = out.calls[n];
      if (c.requests.empty()) continue;
      out.no_heap_failing_call = n;
      out.no_heap_log = FailureLog(c, FailingPool::kNoHeap, 0, options.pool_align, release, target,
                                   out.no_heap_then);
    }
  }
  // A temp pool is checked when the runner passes one; with none, only where nothing replaces it.
  if (out.no_temp_allocator || (options.temp_allocator && options.temp_pool_bytes)) {
    TempPoolCheck check;
    check.pool_bytes = options.temp_pool_bytes.value_or(0);
    for (size_t n = 0; n < out.calls.size(); ++n) {
      const CallTemp& c = out.calls[n];
      if (c.requests.empty()) continue;
      const bool fits = !out.no_temp_allocator && c.pool_bytes <= check.pool_bytes;
      if (fits) continue;
      check.fits = false;
      check.failing_call = n;
      check.log = FailureLog(c, out.no_temp_allocator ? FailingPool::kNone : FailingPool::kBounded,
                             check.pool_bytes, options.pool_align, release, target, check.then);
      break;
    }
    out.check = std::move(check);
  }
  return out;
}

}  // namespace etmem::kernels
