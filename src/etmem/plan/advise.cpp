// Owns: Advise and ReplannedSizesWithout. Both advisories look at single kernel calls. Two
// savings: the drop in the buffer's lower bound (check.h) when the tensor is left out (zero
// unless the tensor is live at the peak), and the drop in the re-planned buffer size.
#include "etmem/plan/advise.h"

#include <algorithm>
#include <array>
#include <string_view>

#include "etmem/base/printable.h"
#include "etmem/plan/check.h"
#include "etmem/plan/replan.h"

namespace etmem::plan {
namespace {

constexpr std::array<std::string_view, 6> kViewLikeOps = {
    "permute_copy", "transpose_copy", "view_copy", "expand_copy", "t_copy", "unsqueeze_copy"};

std::string OpName(const pte::MethodView& m, const pte::InstructionView& ins) {
  const pte::OperatorView* found = m.OperatorOf(ins);
  if (!found) return "operator " + std::to_string(ins.target);
  const pte::OperatorView& op = *found;
  std::string name = Printable(op.name);  // quoted in advice
  if (!op.overload.empty()) name += "." + Printable(op.overload);
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

// Re-plans `l` with the alias groups of the given values' tensors taking no memory, starting
// from the plan `now` (sound, re-planned), so no buffer ends above its size in `now`.
std::vector<int64_t> SizesWithout(const Lifetimes& l, const MethodReplan& now,
                                  std::span<const int32_t> values, uint64_t alignment) {
  std::vector<int32_t> groups;
  for (const PlannedTensor& t : l.tensors)
    if (std::find(values.begin(), values.end(), t.value) != values.end())
      groups.push_back(t.group);
  Lifetimes without = l;
  without.planned_buffer_sizes = now.planned_buffer_sizes;
  for (size_t i = 0; i < without.tensors.size(); ++i) {
    PlannedTensor& t = without.tensors[i];
    t.offset = now.offsets[i];
    if (std::find(groups.begin(), groups.end(), t.group) == groups.end()) continue;
    t.bytes = 0;
    t.used = false;
  }
  return ReplanMethod(without, alignment).planned_buffer_sizes;
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

std::vector<int64_t> ReplannedSizesWithout(const Lifetimes& l, std::span<const int32_t> values,
                                           uint64_t alignment) {
  return SizesWithout(l, ReplanMethod(l, alignment), values, alignment);
}

std::vector<int32_t> AdvisedValues(std::span<const Advice> advice) {
  std::vector<int32_t> values;
  for (const Advice& a : advice)
    if (std::find(values.begin(), values.end(), a.value) == values.end())
      values.push_back(a.value);
  return values;
}

namespace {

// Fills in the re-planned sizes of each advice's buffer with and without its tensor.
void AddPlannedSavings(const Lifetimes& l, const std::vector<int32_t>& tensor_of_value,
                       uint64_t alignment, std::vector<Advice>& advice) {
  if (advice.empty()) return;
  const MethodReplan now = ReplanMethod(l, alignment);
  for (Advice& a : advice) {
    const auto t = static_cast<size_t>(tensor_of_value[static_cast<size_t>(a.value)]);
    a.memory_id = l.tensors[t].memory_id;
    if (a.memory_id == 0 || a.memory_id >= now.planned_buffer_sizes.size()) continue;
    a.replanned = now.planned_buffer_sizes[a.memory_id];
    const int32_t values[] = {a.value};
    a.replanned_without = SizesWithout(l, now, values, alignment)[a.memory_id];
  }
}

}  // namespace

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
                                m.OperatorOf(ins) && IsViewLike(m.OperatorOf(ins)->name);
    std::vector<int32_t> seen;
    for (size_t k = 0; k < args.size(); ++k) {
      const int32_t t = tensor_of_value[static_cast<size_t>(args[k])];
      if (t < 0 || std::find(seen.begin(), seen.end(), t) != seen.end()) continue;
      seen.push_back(t);
      const PlannedTensor& p = l.tensors[static_cast<size_t>(t)];
      const auto at = static_cast<int64_t>(g);
      if (constant_input && k > 0) {
        out.push_back({.kind = AdviceKind::kConstantOpAtRuntime, .value = p.value,
                       .instruction = at, .op = op, .bytes = p.bytes,
                       .bound_saving = BoundSaving(l, static_cast<size_t>(t), alignment),
                       .change = "its input is a constant: apply the operator to the weight at export time "
                       "(constant propagation, or store the weight in the layout the next "
                       "operator wants) so the result is a constant, not activation memory"});
        break;
      }
      const bool unread = p.used && p.first == at && p.last == at && !p.input && !p.output &&
                          !p.stateful && k > 0;
      if (unread)
        out.push_back({.kind = AdviceKind::kUnreadOutput, .value = p.value, .instruction = at,
                       .op = op, .bytes = p.bytes,
                       .bound_saving = BoundSaving(l, static_cast<size_t>(t), alignment),
                       .change = "nothing reads this output: export an operator that does not produce it "
                       "(e.g. max_pool2d without indices, or a delegate that fuses it away)"});
    }
  }
  AddPlannedSavings(l, tensor_of_value, alignment, out);
  return out;
}

}  // namespace etmem::plan
