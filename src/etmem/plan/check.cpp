// Owns: Validate, ComputeBounds and LiveBytes. Overlaps are found per buffer by a sweep over
// the instructions that asks the tensors still live for those sharing bytes with the next.
#include "etmem/plan/check.h"

#include <algorithm>
#include <queue>
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

// Live tensors by offset: a max segment tree over the buffer's tensors sorted by offset, each
// leaf the tensor's end while it is live (0 when not), so the live tensors that overlap a byte
// range are found in O(log n) each, without looking at the others.
class LiveByOffset {
 public:
  explicit LiveByOffset(size_t n) {
    while (leaves_ < n) leaves_ *= 2;
    end_.assign(2 * leaves_, 0);
  }
  void Set(size_t leaf, uint64_t end) {
    size_t n = leaf + leaves_;
    end_[n] = end;
    for (n /= 2; n >= 1; n /= 2) end_[n] = std::max(end_[2 * n], end_[2 * n + 1]);
  }
  // Calls f(leaf) for every leaf below `limit` whose end is above `start`.
  template <typename F>
  void ForEachEndingAfter(size_t limit, uint64_t start, F&& f) const {
    Visit(1, 0, leaves_, limit, start, f);
  }

 private:
  template <typename F>
  void Visit(size_t node, size_t lo, size_t hi, size_t limit, uint64_t start, F& f) const {
    if (lo >= limit || end_[node] <= start) return;
    if (hi - lo == 1) {
      f(lo);
      return;
    }
    const size_t mid = (lo + hi) / 2;
    Visit(2 * node, lo, mid, limit, start, f);
    Visit(2 * node + 1, mid, hi, limit, start, f);
  }
  size_t leaves_ = 1;
  std::vector<uint64_t> end_;
};

// Every pair that shares bytes while both are live, once each: a sweep in order of first use
// keeps the tensors still live in LiveByOffset and asks it, for each new tensor, for the live
// tensors that start before its end and end after its start. O(n log n) plus the pairs found.
void FindOverlaps(std::vector<const PlannedTensor*> in_buffer, std::vector<Overlap>& out) {
  std::sort(in_buffer.begin(), in_buffer.end(),
            [](const PlannedTensor* a, const PlannedTensor* b) { return a->offset < b->offset; });
  const size_t n = in_buffer.size();
  std::vector<size_t> by_first(n);
  for (size_t i = 0; i < n; ++i) by_first[i] = i;
  std::stable_sort(by_first.begin(), by_first.end(),
                   [&](size_t x, size_t y) { return in_buffer[x]->first < in_buffer[y]->first; });
  LiveByOffset live(n);
  using Ending = std::pair<int64_t, size_t>;  // (last instruction, leaf)
  std::priority_queue<Ending, std::vector<Ending>, std::greater<>> ending;
  for (size_t i : by_first) {
    const PlannedTensor& b = *in_buffer[i];
    while (!ending.empty() && ending.top().first < b.first) {
      live.Set(ending.top().second, 0);
      ending.pop();
    }
    const uint64_t b_end = b.offset + b.bytes;  // Placed() checked it does not overflow
    const auto limit = static_cast<size_t>(
        std::lower_bound(in_buffer.begin(), in_buffer.end(), b_end,
                         [](const PlannedTensor* t, uint64_t end) { return t->offset < end; }) -
        in_buffer.begin());
    live.ForEachEndingAfter(limit, b.offset, [&](size_t j) {
      const PlannedTensor& a = *in_buffer[j];
      if (a.group == b.group) return;
      Overlap o;
      o.a = std::min(a.value, b.value);
      o.b = std::max(a.value, b.value);
      o.memory_id = a.memory_id;
      o.instruction = std::max(a.first, b.first);
      o.overlap_bytes = std::min(a.offset + a.bytes, b_end) - std::max(a.offset, b.offset);
      out.push_back(o);
    });
    live.Set(i, b_end);
    ending.emplace(b.last, i);
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
  // Each alias group as Storages() sees it (the bytes from its lowest member offset to its
  // highest member end; used and range from its first member, the group's index), without
  // building the member lists.
  std::vector<uint64_t> low(l.tensors.size(), UINT64_MAX), high(l.tensors.size(), 0);
  for (const PlannedTensor& t : l.tensors) {
    if (t.memory_id != memory_id) continue;
    const auto g = static_cast<size_t>(t.group);
    low[g] = std::min(low[g], t.offset);
    high[g] = std::max(high[g], t.offset + t.bytes);
  }
  for (size_t g = 0; g < l.tensors.size(); ++g) {
    const PlannedTensor& s = l.tensors[g];
    if (static_cast<size_t>(s.group) != g || s.memory_id != memory_id || !s.used) continue;
    const auto aligned = static_cast<int64_t>(AlignUp(high[g] - low[g], alignment));
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
