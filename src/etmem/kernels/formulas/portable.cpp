// Owns: the portable kernels' run-time temp formulas (topk.values).
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
#include "etmem/pte/scalar_type.h"

namespace etmem::kernels::formulas {
namespace {

using pte::ValueKind;

// sizeof(std::pair<CTYPE, int64_t>) on the target.
uint64_t PairWithInt64(int8_t dtype, uint32_t element, const abi::Abi& t) {
  uint32_t align = element;  // Half and BFloat16 are 2-byte structs, the rest their size
  if (dtype == 4) align = t.int64.align;    // Long
  if (dtype == 7) align = t.float64.align;  // Double
  const uint64_t second = AlignUp(uint64_t{element}, t.int64.align);
  return AlignUp(second + t.int64.size, std::max(align, t.int64.align));
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

constexpr RuleFormula kPortableFormulas[] = {
    {TempRule::kTopk, Topk},
};

}  // namespace

std::span<const RuleFormula> PortableFormulas() { return kPortableFormulas; }

}  // namespace etmem::kernels::formulas
