// Owns: Advise and ReplannedSizesWithout. Both advisories look at single kernel calls. Two
// savings: the drop in the buffer's lower bound (check.h) when the tensor is left out (zero
// unless the tensor is live at the peak), and the drop in the re-planned buffer size.
#include "etmem/plan/advise.h"

#include <algorithm>
#include <array>
#include <map>
#include <memory>
#include <string_view>
#include <unordered_set>

#include "etmem/base/checked_math.h"
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

// A buffer's live bytes per instruction with a max segment tree over them: the peak, and the
// peak with one storage's bytes taken away over its range, in O(log n) each.
class LivePeaks {
 public:
  LivePeaks(const Lifetimes& l, uint32_t memory_id, uint64_t alignment) {
    std::vector<uint64_t> live = LiveBytes(l, memory_id, alignment);
    while (leaves_ < live.size()) leaves_ *= 2;
    max_.assign(2 * leaves_, 0);
    std::copy(live.begin(), live.end(), max_.begin() + static_cast<ptrdiff_t>(leaves_));
    for (size_t n = leaves_ - 1; n >= 1; --n) max_[n] = std::max(max_[2 * n], max_[2 * n + 1]);
    size_ = live.size();
  }
  uint64_t Peak() const { return max_[1]; }
  // The peak when `bytes` less is live over [first, last]: the larger of the peak outside the
  // range and the peak inside it less `bytes` (LiveBytes' sums, as the subtraction leaves them).
  uint64_t PeakWithout(int64_t first, int64_t last, uint64_t bytes) const {
    const auto lo = static_cast<size_t>(first), hi = static_cast<size_t>(last) + 1;
    const uint64_t inside = Max(lo, hi);
    return std::max({Max(0, lo), Max(hi, size_), inside - bytes});
  }

 private:
  uint64_t Max(size_t lo, size_t hi) const {  // over [lo, hi)
    uint64_t m = 0;
    for (lo += leaves_, hi += leaves_; lo < hi; lo /= 2, hi /= 2) {
      if (lo & 1) m = std::max(m, max_[lo++]);
      if (hi & 1) m = std::max(m, max_[--hi]);
    }
    return m;
  }
  size_t leaves_ = 1;
  size_t size_ = 0;
  std::vector<uint64_t> max_;
};

// The drop in a buffer's lower bound when one tensor is taken out (its `used` cleared): the
// storage of its alias group goes only when it is the group's first member (whose `used` the
// storage takes); otherwise nothing changes.
class BoundSavings {
 public:
  // Each group's bytes as Storages() spans them (lowest member offset to highest member end),
  // without building the member lists.
  BoundSavings(const Lifetimes& l, uint64_t alignment) : l_(l), alignment_(alignment) {
    low_.assign(l.tensors.size(), UINT64_MAX);
    high_.assign(l.tensors.size(), 0);
    for (const PlannedTensor& t : l.tensors) {
      const auto g = static_cast<size_t>(t.group);
      low_[g] = std::min(low_[g], t.offset);
      high_[g] = std::max(high_[g], t.offset + t.bytes);
    }
  }

  uint64_t Of(size_t tensor) {
    const PlannedTensor& s = l_.tensors[tensor];  // the group's first member: its storage
    if (static_cast<size_t>(s.group) != tensor || !s.used) return 0;
    auto [it, added] = peaks_.try_emplace(s.memory_id);
    if (added) it->second = std::make_unique<LivePeaks>(l_, s.memory_id, alignment_);
    const LivePeaks& p = *it->second;
    return p.Peak() -
           p.PeakWithout(s.first, s.last, AlignUp(high_[tensor] - low_[tensor], alignment_));
  }

 private:
  const Lifetimes& l_;
  uint64_t alignment_;
  std::vector<uint64_t> low_, high_;
  std::map<uint32_t, std::unique_ptr<LivePeaks>> peaks_;
};

// `l` with the alias groups of the given values' tensors taking no memory, on the plan `now`
// (sound, re-planned): their tensors get no bytes and offset 0, and each buffer's size is the
// plan `now` without them, no larger than the end of its highest remaining tensor. That plan
// stays a plan, so re-planning can only shrink it.
Lifetimes Without(const Lifetimes& l, const MethodReplan& now, std::span<const int32_t> values) {
  std::unordered_set<int32_t> wanted(values.begin(), values.end());
  std::vector<bool> gone(l.tensors.size(), false);
  for (const PlannedTensor& t : l.tensors)
    if (wanted.contains(t.value)) gone[static_cast<size_t>(t.group)] = true;
  Lifetimes without = l;
  without.planned_buffer_sizes = now.planned_buffer_sizes;
  std::vector<uint64_t> top(l.planned_buffer_sizes.size(), 0);
  std::vector<bool> touched(l.planned_buffer_sizes.size(), false);
  for (size_t i = 0; i < without.tensors.size(); ++i) {
    PlannedTensor& t = without.tensors[i];
    t.offset = now.offsets[i];
    const bool in_buffer = t.memory_id != 0 && t.memory_id < top.size();
    if (gone[static_cast<size_t>(t.group)]) {
      t.bytes = 0;
      t.used = false;
      t.offset = 0;
      if (in_buffer) touched[t.memory_id] = true;
    } else if (in_buffer) {
      top[t.memory_id] = std::max(top[t.memory_id], t.offset + t.bytes);
    }
  }
  for (size_t id = 1; id < top.size(); ++id)
    if (touched[id] && top[id] < static_cast<uint64_t>(std::max<int64_t>(
                                     without.planned_buffer_sizes[id], 0)))
      without.planned_buffer_sizes[id] = static_cast<int64_t>(top[id]);
  return without;
}

std::vector<int64_t> SizesWithout(const Lifetimes& l, const MethodReplan& now,
                                  std::span<const int32_t> values, uint64_t alignment) {
  return ReplanMethod(Without(l, now, values), alignment).planned_buffer_sizes;
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

std::vector<int64_t> ReplannedSizesWithout(const Lifetimes& l, const MethodReplan& now,
                                           std::span<const int32_t> values, uint64_t alignment) {
  return SizesWithout(l, now, values, alignment);
}

std::vector<int32_t> AdvisedValues(std::span<const Advice> advice) {
  std::vector<int32_t> values;
  std::unordered_set<int32_t> seen;
  for (const Advice& a : advice)
    if (seen.insert(a.value).second) values.push_back(a.value);
  return values;
}

namespace {

// Fills in the re-planned sizes of each advice's buffer with and without its tensor: its buffer
// re-planned without it (ReplanBuffer) while the work stays within kAdviceWork placements and
// the buffer holds at most kExactAdviceBuffers pieces of storage; after that, the plan `now`
// without it, a bound the re-plan could only lower (Advice::cut_short).
void AddPlannedSavings(const Lifetimes& l, const MethodReplan& now,
                       const std::vector<int32_t>& tensor_of_value, uint64_t alignment,
                       std::vector<Advice>& advice) {
  if (advice.empty()) return;
  std::vector<size_t> storages_in(l.planned_buffer_sizes.size(), 0);  // used groups per buffer
  for (size_t i = 0; i < l.tensors.size(); ++i) {
    const PlannedTensor& t = l.tensors[i];
    if (static_cast<size_t>(t.group) == i && t.used && t.memory_id < storages_in.size())
      ++storages_in[t.memory_id];
  }
  // Each buffer's tensors by the end of their bytes in `now`, highest first, with their groups:
  // the plan `now` without a group ends at the first that is not in it (Without's sizes).
  std::vector<std::vector<std::pair<uint64_t, int32_t>>> ends(now.planned_buffer_sizes.size());
  for (size_t i = 0; i < l.tensors.size(); ++i) {
    const PlannedTensor& t = l.tensors[i];
    if (t.memory_id != 0 && t.memory_id < ends.size())
      ends[t.memory_id].emplace_back(now.offsets[i] + t.bytes, t.group);
  }
  for (auto& e : ends) std::sort(e.begin(), e.end(), std::greater<>());
  auto size_without = [&](uint32_t id, int32_t group) {
    uint64_t top = 0;
    for (const auto& [end, g] : ends[id])
      if (g != group) {
        top = end;
        break;
      }
    const int64_t size = now.planned_buffer_sizes[id];
    return top < static_cast<uint64_t>(std::max<int64_t>(size, 0)) ? static_cast<int64_t>(top)
                                                                   : size;
  };
  uint64_t work = 0;
  std::map<int32_t, int64_t> by_group;  // one re-plan per alias group
  for (Advice& a : advice) {
    const auto t = static_cast<size_t>(tensor_of_value[static_cast<size_t>(a.value)]);
    a.memory_id = l.tensors[t].memory_id;
    if (a.memory_id == 0 || a.memory_id >= now.planned_buffer_sizes.size()) continue;
    a.replanned = now.planned_buffer_sizes[a.memory_id];
    const int32_t values[] = {a.value};
    if (auto it = by_group.find(l.tensors[t].group); it != by_group.end()) {
      a.replanned_without = it->second;
      continue;
    }
    const size_t pieces = storages_in[a.memory_id];
    const uint64_t cost = BestPlanWork(pieces) + l.tensors.size();
    if (pieces <= kExactAdviceBuffers && work + cost <= kAdviceWork) {
      work += cost;
      a.replanned_without = ReplanBuffer(Without(l, now, values), a.memory_id, alignment)
                                .planned_buffer_sizes[a.memory_id];
      by_group.emplace(l.tensors[t].group, a.replanned_without);
    } else {
      a.replanned_without = size_without(a.memory_id, l.tensors[t].group);
      a.cut_short = true;
    }
  }
}

}  // namespace

std::vector<Advice> Advise(const pte::MethodView& m, const Lifetimes& l, uint64_t alignment) {
  return Advise(m, l, nullptr, alignment);
}

std::vector<Advice> Advise(const pte::MethodView& m, const Lifetimes& l, const MethodReplan* now,
                           uint64_t alignment) {
  BoundSavings bound_saving(l, alignment);
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
      if (!m.HasValue(args[k])) continue;  // past the values: the release model judges it
      const int32_t t = tensor_of_value[static_cast<size_t>(args[k])];
      if (t < 0 || std::find(seen.begin(), seen.end(), t) != seen.end()) continue;
      seen.push_back(t);
      const PlannedTensor& p = l.tensors[static_cast<size_t>(t)];
      const auto at = static_cast<int64_t>(g);
      if (constant_input && k > 0) {
        out.push_back({.kind = AdviceKind::kConstantOpAtRuntime, .value = p.value,
                       .instruction = at, .op = op, .bytes = p.bytes,
                       .bound_saving = bound_saving.Of(static_cast<size_t>(t)),
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
                       .bound_saving = bound_saving.Of(static_cast<size_t>(t)),
                       .change = "nothing reads this output: export an operator that does not produce it "
                       "(e.g. max_pool2d without indices, or a delegate that fuses it away)"});
    }
  }
  if (out.empty()) return out;
  if (now) {
    AddPlannedSavings(l, *now, tensor_of_value, alignment, out);
  } else {
    AddPlannedSavings(l, ReplanMethod(l, alignment), tensor_of_value, alignment, out);
  }
  return out;
}

}  // namespace etmem::plan
