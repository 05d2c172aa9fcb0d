// Owns: Validate, ComputeBounds and LiveBytes. Overlaps are found per buffer by sorting on
// offset and comparing each tensor only with those starting before it ends.
#include "etmem/plan/check.h"

#include <algorithm>
#include <tuple>

#include "etmem/base/checked_math.h"

namespace etmem::plan {
namespace {

bool Placed(const PlannedTensor& t, const Lifetimes& l, int64_t& buffer_size) {
  buffer_size = -1;
  if (t.memory_id == 0 || t.memory_id >= l.planned_buffer_sizes.size()) return false;
  buffer_size = l.planned_buffer_sizes[t.memory_id];
  std::optional<uint64_t> end = CheckedAdd(t.offset, t.bytes);
  return end && *end <= static_cast<uint64_t>(buffer_size);
}

void FindOverlaps(std::vector<const PlannedTensor*> in_buffer, std::vector<Overlap>& out) {
  std::sort(in_buffer.begin(), in_buffer.end(),
            [](const PlannedTensor* a, const PlannedTensor* b) { return a->offset < b->offset; });
  for (size_t i = 0; i < in_buffer.size(); ++i) {
    const PlannedTensor& a = *in_buffer[i];
    const uint64_t a_end = a.offset + a.bytes;  // Placed() checked it does not overflow
    for (size_t j = i + 1; j < in_buffer.size() && in_buffer[j]->offset < a_end; ++j) {
      const PlannedTensor& b = *in_buffer[j];
      if (b.bytes == 0 || a.group == b.group || !RangesMeet(a.first, a.last, b.first, b.last)) continue;
      Overlap o;
      o.a = std::min(a.value, b.value);
      o.b = std::max(a.value, b.value);
      o.memory_id = a.memory_id;
      o.instruction = std::max(a.first, b.first);
      o.overlap_bytes = std::min(a_end, b.offset + b.bytes) - b.offset;
      out.push_back(o);
    }
  }
}

}  // namespace

Validation Validate(const Lifetimes& l) {
  Validation v;
  std::vector<std::vector<const PlannedTensor*>> by_buffer(l.planned_buffer_sizes.size());
  for (const PlannedTensor& t : l.tensors) {
    int64_t buffer_size = -1;
    if (!Placed(t, l, buffer_size)) {
      v.misplaced.push_back({t.value, t.memory_id, t.offset, t.bytes, buffer_size});
      continue;
    }
    if (t.used && t.bytes > 0) by_buffer[t.memory_id].push_back(&t);
  }
  for (auto& tensors : by_buffer) FindOverlaps(std::move(tensors), v.overlaps);
  std::sort(v.overlaps.begin(), v.overlaps.end(), [](const Overlap& x, const Overlap& y) {
    return std::tie(x.instruction, x.a, x.b) < std::tie(y.instruction, y.a, y.b);
  });
  return v;
}

std::vector<uint64_t> LiveBytes(const Lifetimes& l, uint32_t memory_id, uint64_t alignment) {
  const size_t n = static_cast<size_t>(std::max<int64_t>(l.instructions, 1));
  std::vector<int64_t> delta(n + 1, 0);
  for (const Storage& s : Storages(l)) {
    if (s.memory_id != memory_id || !s.used) continue;
    const auto aligned = static_cast<int64_t>(AlignUp(s.bytes, alignment));
    delta[static_cast<size_t>(s.first)] += aligned;
    delta[static_cast<size_t>(s.last) + 1] -= aligned;
  }
  std::vector<uint64_t> live(n, 0);
  int64_t running = 0;
  for (size_t i = 0; i < n; ++i) {
    running += delta[i];
    live[i] = static_cast<uint64_t>(running);
  }
  return live;
}

std::vector<BufferBounds> ComputeBounds(const Lifetimes& l, uint64_t alignment) {
  std::vector<BufferBounds> out;
  for (size_t id = 1; id < l.planned_buffer_sizes.size(); ++id) {
    BufferBounds b;
    b.memory_id = static_cast<uint32_t>(id);
    b.planned = l.planned_buffer_sizes[id];
    std::vector<uint64_t> live = LiveBytes(l, b.memory_id, alignment);
    for (size_t i = 0; i < live.size(); ++i)
      if (live[i] > b.lower_bound) {
        b.lower_bound = live[i];
        b.peak_instruction = static_cast<int64_t>(i);
      }
    out.push_back(b);
  }
  return out;
}

}  // namespace etmem::plan
