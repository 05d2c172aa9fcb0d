// Owns: ComputeLifetimes and ElementSize. One pass over the instructions records first and last
// uses; a fixed-point pass then stretches every range that meets a loop over the whole loop.
#include "etmem/plan/lifetimes.h"

#include <algorithm>
#include <span>
#include <string>
#include <utility>

#include "etmem/base/checked_math.h"
#include "etmem/base/printable.h"
#include "etmem/pte/scalar_type.h"

namespace etmem::plan {
namespace {

using pte::InstructionKind;
using pte::MethodView;
using pte::ValueKind;

struct Loop {
  int64_t begin = 0;  // the jump's destination
  int64_t end = 0;    // the jump itself
};

class UseRecorder {
 public:
  UseRecorder(const MethodView& m, std::vector<int32_t> tensor_of_value,
              std::vector<PlannedTensor>& tensors)
      : m_(m), tensor_of_value_(std::move(tensor_of_value)), tensors_(tensors) {}

  void Use(int64_t value, int64_t at) {
    if (value < 0 || static_cast<size_t>(value) >= m_.values.size()) return;
    const pte::ValueView& v = m_.values[static_cast<size_t>(value)];
    if (v.kind == ValueKind::kTensorList || v.kind == ValueKind::kOptionalTensorList)
      for (int64_t item : m_.ItemsOf(v)) Touch(item, at);
    else
      Touch(value, at);
  }

 private:
  void Touch(int64_t value, int64_t at) {
    // A list item may name no value (the release model judges it): nothing to touch.
    if (value < 0 || static_cast<size_t>(value) >= tensor_of_value_.size()) return;
    int32_t t = tensor_of_value_[static_cast<size_t>(value)];
    if (t < 0) return;
    PlannedTensor& p = tensors_[static_cast<size_t>(t)];
    if (!p.used) {
      p.used = true;
      p.first = p.last = at;
    }
    p.first = std::min(p.first, at);
    p.last = std::max(p.last, at);
  }

  const MethodView& m_;
  std::vector<int32_t> tensor_of_value_;
  std::vector<PlannedTensor>& tensors_;
};

Result<uint64_t> TensorBytes(const MethodView& m, const pte::TensorView& t, int32_t value) {
  std::optional<uint32_t> element = ElementSize(t.dtype);
  if (!element)
    return MakeError(ErrorCode::kInvalidProgram,
                     "method '" + Printable(m.name) + "', value " + std::to_string(value) +
                         ": planned tensor has unknown dtype " + std::to_string(t.dtype));
  std::optional<uint64_t> bytes = *element;
  for (int32_t s : m.SizesOf(t))
    if (bytes) bytes = CheckedMul(*bytes, static_cast<uint64_t>(s));
  if (!bytes)
    return MakeError(ErrorCode::kInvalidProgram,
                     "method '" + Printable(m.name) + "', value " + std::to_string(value) +
                         ": planned tensor's byte size overflows 64 bits");
  return *bytes;
}

std::vector<Loop> FindLoops(const MethodView& m) {
  std::vector<Loop> loops;
  for (const pte::ChainView& c : m.chains)
    for (uint32_t k = 0; k < c.instructions_count; ++k) {
      const pte::InstructionView& ins = m.instructions[c.instructions_begin + k];
      if (ins.kind == InstructionKind::kJumpFalse && static_cast<uint32_t>(ins.second) <= k)
        loops.push_back({c.instructions_begin + static_cast<int64_t>(ins.second),
                         c.instructions_begin + static_cast<int64_t>(k)});
    }
  return loops;
}

// Stretches ranges over the loops they meet until nothing changes (loops may overlap). Loops
// that meet (touching counts) are merged first into disjoint spans: a range that meets one loop
// of a span ends up over the whole span, and over no span it does not meet (spans never meet
// each other), so one pass with a binary search per range gives the fixed point.
void StretchOverLoops(std::vector<Loop> loops, std::vector<PlannedTensor>& tensors) {
  if (loops.empty()) return;
  std::sort(loops.begin(), loops.end(),
            [](const Loop& a, const Loop& b) { return a.begin < b.begin; });
  std::vector<Loop> spans;
  for (const Loop& l : loops)
    if (!spans.empty() && l.begin <= spans.back().end)
      spans.back().end = std::max(spans.back().end, l.end);
    else
      spans.push_back(l);
  for (PlannedTensor& t : tensors) {
    if (!t.used) continue;
    // The spans meeting [first, last]: from the first ending at or after `first` while they
    // begin at or before `last`.
    auto it = std::lower_bound(spans.begin(), spans.end(), t.first,
                               [](const Loop& s, int64_t first) { return s.end < first; });
    int64_t first = t.first, last = t.last;
    for (; it != spans.end() && it->begin <= t.last; ++it) {
      first = std::min(first, it->begin);
      last = std::max(last, it->end);
    }
    t.first = first;
    t.last = last;
  }
}

size_t Root(std::vector<int32_t>& parent, size_t i) {
  while (parent[i] != static_cast<int32_t>(i)) {
    parent[i] = parent[static_cast<size_t>(parent[i])];
    i = static_cast<size_t>(parent[i]);
  }
  return i;
}

// Joins each et_view output with its input, then gives every member the group's range.
void GroupAliases(const MethodView& m, const std::vector<int32_t>& tensor_of_value,
                  std::vector<PlannedTensor>& tensors) {
  std::vector<int32_t> parent(tensors.size());
  for (size_t i = 0; i < parent.size(); ++i) parent[i] = static_cast<int32_t>(i);
  for (const pte::InstructionView& ins : m.instructions) {
    if (ins.kind != InstructionKind::kKernelCall || ins.args_count < 2) continue;
    const pte::OperatorView* op = m.OperatorOf(ins);
    if (!op || !op->name.ends_with("::et_view")) continue;
    std::span<const int32_t> args = m.ArgsOf(ins);
    if (!m.HasValue(args.front()) || !m.HasValue(args.back())) continue;  // the release's to judge
    const int32_t a = tensor_of_value[static_cast<size_t>(args.front())];
    const int32_t b = tensor_of_value[static_cast<size_t>(args.back())];
    if (a < 0 || b < 0 || tensors[static_cast<size_t>(a)].memory_id !=
                              tensors[static_cast<size_t>(b)].memory_id)
      continue;  // a view in another buffer is not an alias we can keep together
    size_t ra = Root(parent, static_cast<size_t>(a)), rb = Root(parent, static_cast<size_t>(b));
    parent[std::max(ra, rb)] = static_cast<int32_t>(std::min(ra, rb));
  }
  std::vector<PlannedTensor> unions(tensors.size());
  for (size_t i = 0; i < tensors.size(); ++i) {
    const size_t r = Root(parent, i);
    tensors[i].group = static_cast<int32_t>(r);
    PlannedTensor& u = unions[r];
    if (!tensors[i].used) continue;
    u.first = u.used ? std::min(u.first, tensors[i].first) : tensors[i].first;
    u.last = u.used ? std::max(u.last, tensors[i].last) : tensors[i].last;
    u.used = true;
  }
  for (PlannedTensor& t : tensors) {
    const PlannedTensor& u = unions[static_cast<size_t>(t.group)];
    if (!u.used) continue;
    t.used = true;
    t.first = u.first;
    t.last = u.last;
  }
}

void RecordInstructionUses(const MethodView& m, UseRecorder& uses) {
  for (size_t g = 0; g < m.instructions.size(); ++g) {
    const pte::InstructionView& ins = m.instructions[g];
    const auto at = static_cast<int64_t>(g);
    switch (ins.kind) {
      case InstructionKind::kKernelCall:
      case InstructionKind::kDelegateCall:
        for (int32_t a : m.ArgsOf(ins)) uses.Use(a, at);
        break;
      case InstructionKind::kMove:
        uses.Use(ins.target, at);
        uses.Use(ins.second, at);
        break;
      case InstructionKind::kJumpFalse:
      case InstructionKind::kFree:
        uses.Use(ins.target, at);
        break;
      case InstructionKind::kNone:
        break;
    }
  }
}

}  // namespace

std::optional<uint32_t> ElementSize(int8_t dtype) { return pte::ScalarTypeBytes(dtype); }

Result<Lifetimes> ComputeLifetimes(const MethodView& m) {
  Lifetimes out;
  out.instructions = static_cast<int64_t>(m.instructions.size());
  out.planned_buffer_sizes = m.planned_buffer_sizes;
  std::vector<int32_t> tensor_of_value(m.values.size(), -1);
  out.tensors.reserve(m.values.size());  // at most one per value: grown once, not by doubling
  for (size_t v = 0; v < m.values.size(); ++v) {
    const pte::TensorView* t = m.TensorAt(static_cast<int64_t>(v));
    if (!t || !t->planned) continue;
    PlannedTensor p;
    p.value = static_cast<int32_t>(v);
    p.memory_id = t->memory_id;
    p.offset = t->offset;
    p.dtype = t->dtype;
    p.stateful = t->data_index > 0;
    ETMEM_TRY(p.bytes, TensorBytes(m, *t, p.value));
    tensor_of_value[v] = static_cast<int32_t>(out.tensors.size());
    out.tensors.push_back(p);
  }
  const int64_t end = std::max<int64_t>(out.instructions - 1, 0);
  UseRecorder uses(m, tensor_of_value, out.tensors);
  RecordInstructionUses(m, uses);
  for (int32_t v : m.inputs) uses.Use(v, 0);
  for (int32_t v : m.outputs) uses.Use(v, end);
  for (PlannedTensor& t : out.tensors) {
    if (t.stateful) {
      t.used = true;
      t.first = 0;
      t.last = end;
    }
  }
  // (An input or output past the values names no tensor: the release model judges it.)
  for (int32_t v : m.inputs)
    if (int32_t t = m.HasValue(v) ? tensor_of_value[static_cast<size_t>(v)] : -1; t >= 0) {
      out.tensors[static_cast<size_t>(t)].input = true;
      out.tensors[static_cast<size_t>(t)].first = 0;
    }
  for (int32_t v : m.outputs)
    if (int32_t t = m.HasValue(v) ? tensor_of_value[static_cast<size_t>(v)] : -1; t >= 0) {
      out.tensors[static_cast<size_t>(t)].output = true;
      out.tensors[static_cast<size_t>(t)].last = end;
    }
  GroupAliases(m, tensor_of_value, out.tensors);
  StretchOverLoops(FindLoops(m), out.tensors);
  return out;
}

std::vector<Storage> Storages(const Lifetimes& l) {
  std::vector<Storage> out;
  std::vector<int32_t> storage_of_root(l.tensors.size(), -1);
  out.reserve(l.tensors.size());
  for (size_t i = 0; i < l.tensors.size(); ++i) {
    const PlannedTensor& t = l.tensors[i];
    int32_t& s = storage_of_root[static_cast<size_t>(t.group)];
    if (s < 0) {
      s = static_cast<int32_t>(out.size());
      out.push_back({t.memory_id, t.offset, t.bytes, t.used, t.first, t.last, {}});
    }
    Storage& st = out[static_cast<size_t>(s)];
    const uint64_t end = std::max(st.offset + st.bytes, t.offset + t.bytes);
    st.offset = std::min(st.offset, t.offset);
    st.bytes = end - st.offset;
    st.members.push_back(i);
  }
  return out;
}

}  // namespace etmem::plan
