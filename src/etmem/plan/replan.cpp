// Owns: the planners, CheckPlan, BestPlan and ReplanMethod. Every planner is first-fit over an
// order of the buffers; they differ only in the order. First-fit places a buffer at the lowest
// aligned offset that no already placed, live-overlapping buffer occupies.
#include "etmem/plan/replan.h"

#include <algorithm>
#include <numeric>
#include <random>
#include <utility>

#include "etmem/base/checked_math.h"

namespace etmem::plan {
namespace {

using Order = std::vector<size_t>;

bool Meet(const Buffer& a, const Buffer& b) { return RangesMeet(a.first, a.last, b.first, b.last); }

std::vector<uint64_t> FirstFit(std::span<const Buffer> b, const Order& order, uint64_t align) {
  std::vector<uint64_t> offsets(b.size(), 0);
  std::vector<size_t> placed;
  std::vector<std::pair<uint64_t, uint64_t>> busy;
  for (size_t i : order) {
    if (b[i].size == 0) continue;
    busy.clear();
    for (size_t j : placed)
      if (Meet(b[i], b[j])) busy.emplace_back(offsets[j], offsets[j] + b[j].size);
    std::sort(busy.begin(), busy.end());
    uint64_t candidate = 0;
    for (const auto& [start, end] : busy) {
      if (candidate + b[i].size <= start) break;
      candidate = std::max(candidate, AlignUp(end, align));
    }
    offsets[i] = candidate;
    placed.push_back(i);
  }
  return offsets;
}

Order Identity(size_t n) {
  Order o(n);
  std::iota(o.begin(), o.end(), size_t{0});
  return o;
}

Order BySize(std::span<const Buffer> b) {
  Order o = Identity(b.size());
  std::stable_sort(o.begin(), o.end(), [&](size_t x, size_t y) { return b[x].size > b[y].size; });
  return o;
}

// Heaviest conflicts first: the bytes of all buffers live at the same time as this one.
Order ByConflicts(std::span<const Buffer> b) {
  std::vector<uint64_t> weight(b.size(), 0);
  for (size_t i = 0; i < b.size(); ++i)
    for (size_t j = i + 1; j < b.size(); ++j)
      if (Meet(b[i], b[j])) {
        weight[i] += b[j].size;
        weight[j] += b[i].size;
      }
  Order o = Identity(b.size());
  std::stable_sort(o.begin(), o.end(), [&](size_t x, size_t y) {
    return std::pair(weight[x] + b[x].size, b[x].size) > std::pair(weight[y] + b[y].size, b[y].size);
  });
  return o;
}

class OrderPlanner : public MemoryPlanner {
 public:
  OrderPlanner(std::string name, Order (*order)(std::span<const Buffer>))
      : name_(std::move(name)), order_(order) {}
  std::string name() const override { return name_; }
  std::vector<uint64_t> Place(std::span<const Buffer> b, uint64_t align) const override {
    return FirstFit(b, order_(b), align);
  }

 private:
  std::string name_;
  Order (*order_)(std::span<const Buffer>);
};

class HillClimbPlanner : public MemoryPlanner {
 public:
  HillClimbPlanner(uint32_t iterations, uint64_t seed) : iterations_(iterations), seed_(seed) {}
  std::string name() const override { return "hill-climb"; }
  std::vector<uint64_t> Place(std::span<const Buffer> b, uint64_t align) const override {
    Order best = BySize(b);
    std::vector<uint64_t> best_offsets = FirstFit(b, best, align);
    uint64_t best_size = PlanSize(b, best_offsets);
    Order conflicts = ByConflicts(b);
    std::vector<uint64_t> c = FirstFit(b, conflicts, align);
    if (PlanSize(b, c) < best_size) {
      best = std::move(conflicts);
      best_offsets = std::move(c);
      best_size = PlanSize(b, best_offsets);
    }
    if (b.size() < 2) return best_offsets;
    std::mt19937_64 rng(seed_);
    std::uniform_int_distribution<size_t> pick(0, b.size() - 1);
    for (uint32_t k = 0; k < Budget(b.size()); ++k) {
      Order trial = best;
      size_t from = pick(rng), to = pick(rng);
      if (from == to) continue;
      if (from < to)
        std::rotate(trial.begin() + from, trial.begin() + from + 1, trial.begin() + to + 1);
      else
        std::rotate(trial.begin() + to, trial.begin() + from, trial.begin() + from + 1);
      std::vector<uint64_t> offsets = FirstFit(b, trial, align);
      uint64_t size = PlanSize(b, offsets);
      if (size <= best_size) {
        best = std::move(trial);
        best_offsets = std::move(offsets);
        best_size = size;
      }
    }
    return best_offsets;
  }

 private:
  // Each trial costs about n^2 steps; keep the whole climb near 2e8.
  uint32_t Budget(size_t n) const {
    const double per_trial = static_cast<double>(n) * static_cast<double>(n) + 1;
    return static_cast<uint32_t>(std::min<double>(iterations_, 2e8 / per_trial));
  }
  uint32_t iterations_;
  uint64_t seed_;
};

}  // namespace

std::unique_ptr<MemoryPlanner> GreedyBySize() {
  return std::make_unique<OrderPlanner>("greedy-by-size", &BySize);
}
std::unique_ptr<MemoryPlanner> GreedyByConflicts() {
  return std::make_unique<OrderPlanner>("greedy-by-conflicts", &ByConflicts);
}
std::unique_ptr<MemoryPlanner> HillClimb(uint32_t iterations, uint64_t seed) {
  return std::make_unique<HillClimbPlanner>(iterations, seed);
}

uint64_t PlanSize(std::span<const Buffer> buffers, std::span<const uint64_t> offsets) {
  uint64_t size = 0;
  for (size_t i = 0; i < buffers.size(); ++i)
    if (buffers[i].size > 0) size = std::max(size, offsets[i] + buffers[i].size);
  return size;
}

Status CheckPlan(std::span<const Buffer> buffers, std::span<const uint64_t> offsets,
                 uint64_t alignment) {
  if (offsets.size() != buffers.size())
    return MakeError(ErrorCode::kInvalidArgument, "the plan has " + std::to_string(offsets.size()) +
                                                      " offsets for " +
                                                      std::to_string(buffers.size()) + " buffers");
  Order o = Identity(buffers.size());
  std::sort(o.begin(), o.end(), [&](size_t x, size_t y) { return offsets[x] < offsets[y]; });
  for (size_t k = 0; k < o.size(); ++k) {
    const size_t i = o[k];
    if (offsets[i] % alignment != 0)
      return MakeError(ErrorCode::kInvalidArgument,
                       "buffer " + std::to_string(i) + " at offset " + std::to_string(offsets[i]) +
                           " is not aligned to " + std::to_string(alignment));
    if (buffers[i].size == 0) continue;
    const uint64_t end = offsets[i] + buffers[i].size;
    for (size_t q = k + 1; q < o.size() && offsets[o[q]] < end; ++q) {
      const size_t j = o[q];
      if (buffers[j].size > 0 && Meet(buffers[i], buffers[j]))
        return MakeError(ErrorCode::kInvalidArgument,
                         "buffers " + std::to_string(i) + " and " + std::to_string(j) +
                             " share bytes while both are live");
    }
  }
  return Ok{};
}

PlanChoice BestPlan(std::span<const Buffer> buffers, uint64_t alignment) {
  // A plan with an offset of 4 GiB or more needs a high word, which every release from 0.2
  // refuses on a target whose size_t has 32 bits: the smallest plan whose offsets all fit is
  // preferred, and smallest-first placement (small tensors low, a huge one after them) is
  // tried as well for that.
  auto fits_32_bits = [&](const std::vector<uint64_t>& offsets) {
    return std::all_of(offsets.begin(), offsets.end(), [](uint64_t o) { return (o >> 32) == 0; });
  };
  PlanChoice best;
  bool have = false, best_fits = false;
  auto consider = [&](std::vector<uint64_t> offsets, const std::string& name) {
    if (!CheckPlan(buffers, offsets, alignment)) return;
    const uint64_t size = PlanSize(buffers, offsets);
    const bool fits = fits_32_bits(offsets);
    if (!have || (fits && !best_fits) || (fits == best_fits && size < best.size)) {
      best = {std::move(offsets), size, name};
      have = true;
      best_fits = fits;
    }
  };
  std::unique_ptr<MemoryPlanner> planners[] = {GreedyBySize(), GreedyByConflicts(), HillClimb()};
  for (const auto& p : planners) consider(p->Place(buffers, alignment), p->name());
  if (!best_fits) {
    Order smallest_first = BySize(buffers);
    std::reverse(smallest_first.begin(), smallest_first.end());
    consider(FirstFit(buffers, smallest_first, alignment), "smallest-first");
  }
  ETMEM_CHECK(have);  // first-fit never overlaps; a failure here is a bug
  return best;
}

int64_t MethodReplan::saved() const {
  int64_t s = 0;
  for (const BufferReplan& b : buffers) s += b.before - b.after;
  return s;
}

MethodReplan ReplanMethod(const Lifetimes& l, uint64_t alignment) {
  MethodReplan out;
  out.planned_buffer_sizes = l.planned_buffer_sizes;
  for (const PlannedTensor& t : l.tensors) out.offsets.push_back(t.offset);
  const Validation v = Validate(l);
  std::vector<bool> unsound(l.planned_buffer_sizes.size(), false);
  for (const Overlap& o : v.overlaps) unsound[o.memory_id] = true;
  for (const Misplaced& m : v.misplaced)
    if (m.buffer_size >= 0) unsound[m.memory_id] = true;
  const std::vector<Storage> storages = Storages(l);
  for (size_t id = 1; id < l.planned_buffer_sizes.size(); ++id) {
    std::vector<const Storage*> members;
    std::vector<Buffer> buffers;
    uint64_t idle_size = 0;  // storage never live still needs to fit at offset 0
    for (const Storage& st : storages) {
      if (st.memory_id != id) continue;
      if (!st.used) {
        idle_size = std::max(idle_size, st.bytes);
        continue;
      }
      members.push_back(&st);
      buffers.push_back({st.bytes, st.first, st.last});
    }
    PlanChoice choice = BestPlan(buffers, alignment);
    // A plan larger than a planned buffer size can say (int64_t in the schema) cannot be written:
    // the stored one stays (such tensors load nowhere).
    const uint64_t need = std::max(choice.size, idle_size);
    const bool writable = need <= static_cast<uint64_t>(INT64_MAX);
    const int64_t after = writable ? static_cast<int64_t>(need) : l.planned_buffer_sizes[id];
    BufferReplan r{static_cast<uint32_t>(id), l.planned_buffer_sizes[id], after, choice.planner};
    // The new offsets: members of an alias group keep their distance from the group's lowest
    // offset; storage never live goes to offset 0.
    std::vector<uint64_t> offsets = out.offsets;
    for (size_t k = 0; k < members.size(); ++k)
      for (size_t t : members[k]->members)
        offsets[t] = choice.offsets[k] + (l.tensors[t].offset - members[k]->offset);
    for (const Storage& st : storages)
      if (st.memory_id == id && !st.used)
        for (size_t t : st.members) offsets[t] = l.tensors[t].offset - st.offset;
    // Every release from 0.2 refuses, on a target whose size_t has 32 bits, an offset with a
    // high word: a sound plan whose offsets all fit in 32 bits is kept when the new one's do
    // not (a smaller buffer that no 32-bit target can load is no saving).
    auto needs_high_word = [&](const std::vector<uint64_t>& o) {
      for (size_t t = 0; t < l.tensors.size(); ++t)
        if (l.tensors[t].memory_id == id && (o[t] >> 32) != 0) return true;
      return false;
    };
    if (!writable || (!unsound[id] && (after >= r.before || (needs_high_word(offsets) &&
                                                               !needs_high_word(out.offsets))))) {
      r.after = r.before;
      r.planner = "original";
    } else {
      out.offsets = std::move(offsets);
      out.planned_buffer_sizes[id] = after;
    }
    r.offsets_need_64_bits = needs_high_word(out.offsets);
    out.buffers.push_back(r);
  }
  return out;
}

}  // namespace etmem::plan
