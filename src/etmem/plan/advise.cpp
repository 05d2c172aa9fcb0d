// Owns: Advise. Both advisories look at single kernel calls; the saving is the drop in the
// buffer's lower bound (check.h) when the tensor is left out, so it is zero unless the tensor
// is live at the peak.
#include "etmem/plan/advise.h"

#include <algorithm>
#include <array>
#include <string_view>

#include "etmem/plan/check.h"

namespace etmem::plan {
namespace {

constexpr std::array<std::string_view, 6> kViewLikeOps = {
    "permute_copy", "transpose_copy", "view_copy", "expand_copy", "t_copy", "unsqueeze_copy"};

std::string OpName(const pte::MethodView& m, const pte::InstructionView& ins) {
  const pte::OperatorView& op = m.operators[static_cast<size_t>(ins.target)];
  std::string name(op.name);
  if (!op.overload.empty()) name += "." + std::string(op.overload);
  return name;
}

uint64_t Peak(const Lifetimes& l, uint32_t memory_id, uint64_t alignment) {
  std::vector<uint64_t> live = LiveBytes(l, memory_id, alignment);
  return live.empty() ? 0 : *std::max_element(live.begin(), live.end());
}

uint64_t BoundSaving(const Lifetimes& l, size_t tensor, uint64_t alignment) {
  Lifetimes without = l;
  without.tensors[tensor].used = false;
  const uint32_t id = l.tensors[tensor].memory_id;
  return Peak(l, id, alignment) - Peak(without, id, alignment);
}

bool IsViewLike(std::string_view name) {
  for (std::string_view op : kViewLikeOps)
    if (name.ends_with("::" + std::string(op)) || name == op) return true;
  return false;
}

bool IsConstant(const pte::MethodView& m, int32_t value) {
  const pte::TensorView* t = m.TensorAt(value);
  return t && !t->planned && (t->data_index > 0 || t->external);
}

}  // namespace

const char* AdviceKindName(AdviceKind k) {
  return k == AdviceKind::kUnreadOutput ? "unread-output" : "constant-op-at-runtime";
}

std::vector<Advice> Advise(const pte::MethodView& m, const Lifetimes& l, uint64_t alignment) {
  std::vector<int32_t> tensor_of_value(m.values.size(), -1);
  for (size_t t = 0; t < l.tensors.size(); ++t)
    tensor_of_value[static_cast<size_t>(l.tensors[t].value)] = static_cast<int32_t>(t);
  std::vector<Advice> out;
  for (size_t g = 0; g < m.instructions.size(); ++g) {
    const pte::InstructionView& ins = m.instructions[g];
    if (ins.kind != pte::InstructionKind::kKernelCall) continue;
    const std::string op = OpName(m, ins);
    std::span<const int32_t> args = m.ArgsOf(ins);
    const bool constant_input = !args.empty() && IsConstant(m, args.front()) &&
                                IsViewLike(m.operators[static_cast<size_t>(ins.target)].name);
    std::vector<int32_t> seen;
    for (size_t k = 0; k < args.size(); ++k) {
      const int32_t t = tensor_of_value[static_cast<size_t>(args[k])];
      if (t < 0 || std::find(seen.begin(), seen.end(), t) != seen.end()) continue;
      seen.push_back(t);
      const PlannedTensor& p = l.tensors[static_cast<size_t>(t)];
      const auto at = static_cast<int64_t>(g);
      if (constant_input && k > 0) {
        out.push_back({AdviceKind::kConstantOpAtRuntime, p.value, at, op, p.bytes,
                       BoundSaving(l, static_cast<size_t>(t), alignment),
                       "its input is a constant: apply the operator to the weight at export time "
                       "(constant propagation, or store the weight in the layout the next "
                       "operator wants) so the result is a constant, not activation memory"});
        break;
      }
      const bool unread = p.used && p.first == at && p.last == at && !p.input && !p.output &&
                          !p.stateful && k > 0;
      if (unread)
        out.push_back({AdviceKind::kUnreadOutput, p.value, at, op, p.bytes,
                       BoundSaving(l, static_cast<size_t>(t), alignment),
                       "nothing reads this output: export an operator that does not produce it "
                       "(e.g. max_pool2d without indices, or a delegate that fuses it away)"});
    }
  }
  return out;
}

}  // namespace etmem::plan
