// Owns: the planners, CheckPlan, BestPlan and ReplanMethod. Every planner is first-fit over an
// order of the buffers; they differ only in the order. First-fit places a buffer at the lowest
// aligned offset that no already placed, live-overlapping buffer occupies.
#include "etmem/plan/replan.h"

#include <algorithm>
#include <numeric>
#include <map>
#include <queue>
#include <random>
#include <utility>

#include "etmem/base/checked_math.h"
#include "etmem/plan/meeting_buffers.h"

namespace etmem::plan {
namespace {

using Order = std::vector<size_t>;

bool Meet(const Buffer& a, const Buffer& b) { return RangesMeet(a.first, a.last, b.first, b.last); }

// First-fit over an order: each buffer at the lowest aligned offset that no placed buffer whose
// range meets its own occupies. Only the meeting buffers are looked at (MeetingBuffers).
class FirstFitter {
 public:
  explicit FirstFitter(std::span<const Buffer> b) : b_(b), meeting_(b) {}

  std::vector<uint64_t> Place(const Order& order, uint64_t align) {
    std::vector<uint64_t> offsets(b_.size(), 0);
    placed_.assign(b_.size(), 0);
    for (size_t i : order) {
      if (b_[i].size == 0) continue;
      busy_.clear();
      meeting_.ForEachMeeting(i, [&](size_t j) { return placed_[j] != 0; }, [&](size_t j) {
        busy_.emplace_back(offsets[j], offsets[j] + b_[j].size);
      });
      std::sort(busy_.begin(), busy_.end());
      uint64_t candidate = 0;
      for (const auto& [start, end] : busy_) {
        if (candidate + b_[i].size <= start) break;
        candidate = std::max(candidate, AlignUp(end, align));
      }
      offsets[i] = candidate;
      placed_[i] = 1;
    }
    return offsets;
  }

 private:
  std::span<const Buffer> b_;
  MeetingBuffers meeting_;
  std::vector<char> placed_;
  std::vector<std::pair<uint64_t, uint64_t>> busy_;
};

std::vector<uint64_t> FirstFit(std::span<const Buffer> b, const Order& order, uint64_t align) {
  return FirstFitter(b).Place(order, align);
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

// Heaviest conflicts first: the bytes of all buffers live at the same time as this one. A
// buffer meets every other except those that end before it starts or start after it ends (two
// disjoint sets), so its weight is the total less those two sums and its own size, each sum a
// binary search into buffers sorted by end or by start: O(n log n), and the same weight, modulo
// 2^64 as the sums of pairs were, as comparing every pair.
Order ByConflicts(std::span<const Buffer> b) {
  const size_t n = b.size();
  std::vector<std::pair<int64_t, uint64_t>> by_last, by_first;  // (instruction, size)
  uint64_t total = 0;
  for (const Buffer& x : b) {
    by_last.emplace_back(x.last, x.size);
    by_first.emplace_back(x.first, x.size);
    total += x.size;
  }
  std::sort(by_last.begin(), by_last.end());
  std::sort(by_first.begin(), by_first.end());
  // ended[k]: the sizes of the first k by end; started_after[k]: the sizes from k on by start.
  std::vector<uint64_t> ended(n + 1, 0), started_after(n + 1, 0);
  for (size_t k = 0; k < n; ++k) ended[k + 1] = ended[k] + by_last[k].second;
  for (size_t k = n; k-- > 0;) started_after[k] = started_after[k + 1] + by_first[k].second;
  std::vector<uint64_t> weight(n, 0);
  for (size_t i = 0; i < n; ++i) {
    const auto before = static_cast<size_t>(
        std::lower_bound(by_last.begin(), by_last.end(), std::pair(b[i].first, uint64_t{0})) -
        by_last.begin());
    const auto after = static_cast<size_t>(
        std::upper_bound(by_first.begin(), by_first.end(), std::pair(b[i].last, UINT64_MAX)) -
        by_first.begin());
    weight[i] = total - ended[before] - started_after[after] - b[i].size;
  }
  Order o = Identity(n);
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

// The number of trials is what it was when a trial compared all pairs (about n^2 steps, the
// climb kept near 2e8): the same trials, so the same plans. A trial now costs O(n log n) plus
// the meeting pairs, and from about 14,000 buffers on there is none, so the climb's work is
// bounded by 2e8 / n^2 trials of O(n log n) each.
uint32_t ClimbTrials(size_t n, uint32_t iterations) {
  const double per_trial = static_cast<double>(n) * static_cast<double>(n) + 1;
  return static_cast<uint32_t>(std::min<double>(iterations, 2e8 / per_trial));
}

struct PlacedOrder {
  Order order;
  std::vector<uint64_t> offsets;
};

// The hill-climb from the two greedy plans (already placed by `fit`): the better one (by size
// on a tie), then `ClimbTrials` random moves of one buffer, each kept when it does not grow.
std::vector<uint64_t> Climb(std::span<const Buffer> b, FirstFitter& fit, uint64_t align,
                            uint32_t iterations, uint64_t seed, PlacedOrder by_size,
                            PlacedOrder by_conflicts) {
  Order best = std::move(by_size.order);
  std::vector<uint64_t> best_offsets = std::move(by_size.offsets);
  uint64_t best_size = PlanSize(b, best_offsets);
  if (PlanSize(b, by_conflicts.offsets) < best_size) {
    best = std::move(by_conflicts.order);
    best_offsets = std::move(by_conflicts.offsets);
    best_size = PlanSize(b, best_offsets);
  }
  if (b.size() < 2) return best_offsets;
  std::mt19937_64 rng(seed);
  std::uniform_int_distribution<size_t> pick(0, b.size() - 1);
  for (uint32_t k = 0; k < ClimbTrials(b.size(), iterations); ++k) {
    Order trial = best;
    size_t from = pick(rng), to = pick(rng);
    if (from == to) continue;
    if (from < to)
      std::rotate(trial.begin() + from, trial.begin() + from + 1, trial.begin() + to + 1);
    else
      std::rotate(trial.begin() + to, trial.begin() + from, trial.begin() + from + 1);
    std::vector<uint64_t> offsets = fit.Place(trial, align);
    uint64_t size = PlanSize(b, offsets);
    if (size <= best_size) {
      best = std::move(trial);
      best_offsets = std::move(offsets);
      best_size = size;
    }
  }
  return best_offsets;
}

PlacedOrder PlaceInOrder(FirstFitter& fit, Order order, uint64_t align) {
  std::vector<uint64_t> offsets = fit.Place(order, align);
  return {std::move(order), std::move(offsets)};
}

class HillClimbPlanner : public MemoryPlanner {
 public:
  HillClimbPlanner(uint32_t iterations, uint64_t seed) : iterations_(iterations), seed_(seed) {}
  std::string name() const override { return "hill-climb"; }
  std::vector<uint64_t> Place(std::span<const Buffer> b, uint64_t align) const override {
    FirstFitter fit(b);
    PlacedOrder by_size = PlaceInOrder(fit, BySize(b), align);
    PlacedOrder by_conflicts = PlaceInOrder(fit, ByConflicts(b), align);
    return Climb(b, fit, align, iterations_, seed_, std::move(by_size), std::move(by_conflicts));
  }

 private:
  uint32_t iterations_;
  uint64_t seed_;
};

// True when every offset is aligned and no two buffers share a byte while both are live: a
// sweep over the instructions keeps the live buffers' byte ranges in an ordered map, disjoint
// while the plan is sound, so each new buffer is compared with its two neighbours only.
bool PlanIsSound(std::span<const Buffer> b, std::span<const uint64_t> offsets, uint64_t align) {
  Order by_first;
  for (size_t i = 0; i < b.size(); ++i) {
    if (offsets[i] % align != 0) return false;
    if (b[i].size > 0) by_first.push_back(i);
  }
  std::sort(by_first.begin(), by_first.end(),
            [&](size_t x, size_t y) { return b[x].first < b[y].first; });
  std::map<uint64_t, uint64_t> live;  // start -> end, of the live buffers
  using Ending = std::pair<int64_t, uint64_t>;  // (last instruction, start)
  std::priority_queue<Ending, std::vector<Ending>, std::greater<>> ending;
  for (size_t i : by_first) {
    while (!ending.empty() && ending.top().first < b[i].first) {
      live.erase(ending.top().second);
      ending.pop();
    }
    const uint64_t start = offsets[i], end = offsets[i] + b[i].size;
    auto next = live.lower_bound(start);
    if (next != live.end() && next->first < end) return false;
    if (next != live.begin() && std::prev(next)->second > start) return false;
    live.emplace_hint(next, start, end);
    ending.emplace(b[i].last, start);
  }
  return true;
}

// The first problem in offset order, as CheckPlan reports it (only reached for a plan that is
// not sound, which no planner makes).
Status FirstProblem(std::span<const Buffer> buffers, std::span<const uint64_t> offsets,
                    uint64_t alignment) {
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
  if (PlanIsSound(buffers, offsets, alignment)) return Ok{};
  return FirstProblem(buffers, offsets, alignment);
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
  // What GreedyBySize, GreedyByConflicts and HillClimb() place, in that order, with the two
  // greedy plans made once (the climb starts from them).
  FirstFitter fit(buffers);
  PlacedOrder by_size = PlaceInOrder(fit, BySize(buffers), alignment);
  PlacedOrder by_conflicts = PlaceInOrder(fit, ByConflicts(buffers), alignment);
  consider(by_size.offsets, GreedyBySize()->name());
  consider(by_conflicts.offsets, GreedyByConflicts()->name());
  const std::unique_ptr<MemoryPlanner> climb = HillClimb();
  consider(Climb(buffers, fit, alignment, kClimbIterations, kClimbSeed, std::move(by_size),
                 std::move(by_conflicts)),
           climb->name());
  if (!best_fits) {
    Order smallest_first = BySize(buffers);
    std::reverse(smallest_first.begin(), smallest_first.end());
    consider(fit.Place(smallest_first, alignment), "smallest-first");
  }
  ETMEM_CHECK(have);  // first-fit never overlaps; a failure here is a bug
  return best;
}

int64_t MethodReplan::saved() const {
  int64_t s = 0;
  for (const BufferReplan& b : buffers) s += b.before - b.after;
  return s;
}

uint64_t BestPlanWork(size_t buffers) {
  return static_cast<uint64_t>(buffers) * (3 + ClimbTrials(buffers, kClimbIterations));
}

namespace {

// Re-plans buffer `only`, or every buffer when it is 0.
MethodReplan Replan(const Lifetimes& l, uint64_t alignment, uint32_t only) {
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
    if (only != 0 && id != only) continue;
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

}  // namespace

MethodReplan ReplanMethod(const Lifetimes& l, uint64_t alignment) { return Replan(l, alignment, 0); }

MethodReplan ReplanBuffer(const Lifetimes& l, uint32_t memory_id, uint64_t alignment) {
  ETMEM_CHECK(memory_id != 0);
  return Replan(l, alignment, memory_id);
}

}  // namespace etmem::plan
