// Owns: the proof that the O(n log n) planning (issue 38) plans exactly what the all-pairs code
// it replaced planned. The all-pairs planners, CheckPlan, Validate's overlaps and the advisory
// savings are kept here as they were, and compared with the library's on every program in
// ../shared/models/real, on every builder scenario, on scaled builder programs and on random
// inputs: the same offsets from every planner, the same overlaps and messages, the same lower-
// bound savings, and re-planned sizes without an advised tensor never above the old ones.
#include <algorithm>
#include <filesystem>
#include <numeric>
#include <random>
#include <tuple>

#include <gtest/gtest.h>

#include "etmem/base/checked_math.h"
#include "etmem/plan/advise.h"
#include "etmem/plan/check.h"
#include "etmem/plan/lifetimes.h"
#include "etmem/plan/replan.h"
#include "etmem/pte/read_program.h"
#include "etmem/testing/scenarios.h"

namespace etmem::plan {
namespace plan_scaling_test {

namespace fs = std::filesystem;
using Order = std::vector<size_t>;

// ---- The all-pairs code as it was before issue 38 (commit cf0b42b) ----

bool OldMeet(const Buffer& a, const Buffer& b) {
  return RangesMeet(a.first, a.last, b.first, b.last);
}

std::vector<uint64_t> OldFirstFit(std::span<const Buffer> b, const Order& order, uint64_t align) {
  std::vector<uint64_t> offsets(b.size(), 0);
  std::vector<size_t> placed;
  std::vector<std::pair<uint64_t, uint64_t>> busy;
  for (size_t i : order) {
    if (b[i].size == 0) continue;
    busy.clear();
    for (size_t j : placed)
      if (OldMeet(b[i], b[j])) busy.emplace_back(offsets[j], offsets[j] + b[j].size);
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

Order OldIdentity(size_t n) {
  Order o(n);
  std::iota(o.begin(), o.end(), size_t{0});
  return o;
}

Order OldBySize(std::span<const Buffer> b) {
  Order o = OldIdentity(b.size());
  std::stable_sort(o.begin(), o.end(), [&](size_t x, size_t y) { return b[x].size > b[y].size; });
  return o;
}

Order OldByConflicts(std::span<const Buffer> b) {
  std::vector<uint64_t> weight(b.size(), 0);
  for (size_t i = 0; i < b.size(); ++i)
    for (size_t j = i + 1; j < b.size(); ++j)
      if (OldMeet(b[i], b[j])) {
        weight[i] += b[j].size;
        weight[j] += b[i].size;
      }
  Order o = OldIdentity(b.size());
  std::stable_sort(o.begin(), o.end(), [&](size_t x, size_t y) {
    return std::pair(weight[x] + b[x].size, b[x].size) > std::pair(weight[y] + b[y].size, b[y].size);
  });
  return o;
}

std::vector<uint64_t> OldHillClimb(std::span<const Buffer> b, uint64_t align) {
  Order best = OldBySize(b);
  std::vector<uint64_t> best_offsets = OldFirstFit(b, best, align);
  uint64_t best_size = PlanSize(b, best_offsets);
  Order conflicts = OldByConflicts(b);
  std::vector<uint64_t> c = OldFirstFit(b, conflicts, align);
  if (PlanSize(b, c) < best_size) {
    best = std::move(conflicts);
    best_offsets = std::move(c);
    best_size = PlanSize(b, best_offsets);
  }
  if (b.size() < 2) return best_offsets;
  std::mt19937_64 rng(1);
  std::uniform_int_distribution<size_t> pick(0, b.size() - 1);
  const double per_trial = static_cast<double>(b.size()) * static_cast<double>(b.size()) + 1;
  const auto budget = static_cast<uint32_t>(std::min<double>(400, 2e8 / per_trial));
  for (uint32_t k = 0; k < budget; ++k) {
    Order trial = best;
    size_t from = pick(rng), to = pick(rng);
    if (from == to) continue;
    if (from < to)
      std::rotate(trial.begin() + from, trial.begin() + from + 1, trial.begin() + to + 1);
    else
      std::rotate(trial.begin() + to, trial.begin() + from, trial.begin() + from + 1);
    std::vector<uint64_t> offsets = OldFirstFit(b, trial, align);
    uint64_t size = PlanSize(b, offsets);
    if (size <= best_size) {
      best = std::move(trial);
      best_offsets = std::move(offsets);
      best_size = size;
    }
  }
  return best_offsets;
}

Status OldCheckPlan(std::span<const Buffer> buffers, std::span<const uint64_t> offsets,
                    uint64_t alignment) {
  Order o = OldIdentity(buffers.size());
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
      if (buffers[j].size > 0 && OldMeet(buffers[i], buffers[j]))
        return MakeError(ErrorCode::kInvalidArgument,
                         "buffers " + std::to_string(i) + " and " + std::to_string(j) +
                             " share bytes while both are live");
    }
  }
  return Ok{};
}

// Validate's overlaps as the all-pairs scan in offset order found them, sorted as Validate sorts.
std::vector<Overlap> OldOverlaps(const Lifetimes& l) {
  std::vector<std::vector<const PlannedTensor*>> by_buffer(l.planned_buffer_sizes.size());
  for (const PlannedTensor& t : l.tensors) {
    if (t.memory_id == 0 || t.memory_id >= l.planned_buffer_sizes.size()) continue;
    std::optional<uint64_t> end = CheckedAdd(t.offset, t.bytes);
    if (!end || *end > static_cast<uint64_t>(l.planned_buffer_sizes[t.memory_id])) continue;
    if (t.used && t.bytes > 0) by_buffer[t.memory_id].push_back(&t);
  }
  std::vector<Overlap> out;
  for (auto& in_buffer : by_buffer) {
    std::sort(in_buffer.begin(), in_buffer.end(),
              [](const PlannedTensor* a, const PlannedTensor* b) { return a->offset < b->offset; });
    for (size_t i = 0; i < in_buffer.size(); ++i) {
      const PlannedTensor& a = *in_buffer[i];
      const uint64_t a_end = a.offset + a.bytes;
      for (size_t j = i + 1; j < in_buffer.size() && in_buffer[j]->offset < a_end; ++j) {
        const PlannedTensor& b = *in_buffer[j];
        if (b.bytes == 0 || a.group == b.group || !RangesMeet(a.first, a.last, b.first, b.last))
          continue;
        out.push_back({std::min(a.value, b.value), std::max(a.value, b.value), a.memory_id,
                       std::max(a.first, b.first), std::min(a_end, b.offset + b.bytes) - b.offset});
      }
    }
  }
  std::sort(out.begin(), out.end(), [](const Overlap& x, const Overlap& y) {
    return std::tie(x.instruction, x.a, x.b) < std::tie(y.instruction, y.a, y.b);
  });
  return out;
}

std::vector<uint64_t> OldLiveBytes(const Lifetimes& l, uint32_t memory_id, uint64_t alignment) {
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

uint64_t OldPeak(const Lifetimes& l, uint32_t id) {
  std::vector<uint64_t> live = OldLiveBytes(l, id, 16);
  return live.empty() ? 0 : *std::max_element(live.begin(), live.end());
}

uint64_t OldBoundSaving(const Lifetimes& l, int32_t value) {
  for (size_t t = 0; t < l.tensors.size(); ++t) {
    if (l.tensors[t].value != value) continue;
    Lifetimes without = l;
    without.tensors[t].used = false;
    return OldPeak(l, l.tensors[t].memory_id) - OldPeak(without, l.tensors[t].memory_id);
  }
  return 0;
}

// The re-planned size of `id` without the value's alias group as the old code computed it:
// the plan `now` with the group's tensors taking no bytes, buffer sizes as `now` has them.
int64_t OldReplannedWithout(const Lifetimes& l, const MethodReplan& now, int32_t value,
                            uint32_t id) {
  int32_t group = -1;
  for (const PlannedTensor& t : l.tensors)
    if (t.value == value) group = t.group;
  Lifetimes without = l;
  without.planned_buffer_sizes = now.planned_buffer_sizes;
  for (size_t i = 0; i < without.tensors.size(); ++i) {
    PlannedTensor& t = without.tensors[i];
    t.offset = now.offsets[i];
    if (t.group != group) continue;
    t.bytes = 0;
    t.used = false;
  }
  return ReplanMethod(without).planned_buffer_sizes[id];
}

// ---- The programs ----

struct Program {
  std::string name;
  pte::ProgramView view;
  bool scaled = false;  // a scaled builder program: its advisories may be cut short
};

std::vector<Program> Programs() {
  std::vector<Program> out;
  auto add = [&](std::string name, Result<pte::ProgramView> p, bool scaled = false) {
    ASSERT_TRUE(p) << name << ": " << p.error().message;
    out.push_back({std::move(name), std::move(p).value(), scaled});
  };
  const fs::path real = fs::path(ETMEM_SHARED_DIR) / "models/real";
  if (fs::exists(real)) {
    std::vector<fs::path> paths;
    for (const auto& e : fs::directory_iterator(real))
      if (e.path().extension() == ".pte") paths.push_back(e.path());
    std::sort(paths.begin(), paths.end());
    size_t read = 0;
    for (const fs::path& p : paths) {
      // Two of them have an extended header ExecuTorch refuses (etmem says so): nothing to plan.
      Result<pte::ProgramView> view = pte::ReadProgram(p.string());
      if (!view) continue;
      ++read;
      add(p.filename().string(), std::move(view));
    }
    EXPECT_GE(read, paths.size() - 2);
  }
  for (auto table : {testing::NamedScenarios(), testing::ExecutableScenarios(),
                     testing::AcceptanceScenarios(), testing::TempScenarios()})
    for (const testing::NamedScenario& s : table)
      add(s.name, pte::ReadProgramBytes(s.make().Build(), s.name));
  add("lstm_like_1", pte::ReadProgramBytes(testing::LstmLike(1).Build(), "lstm_like_1"));
  add("lstm_like_3", pte::ReadProgramBytes(testing::LstmLike(3).Build(), "lstm_like_3"), true);
  add("scaled_cnn_2", pte::ReadProgramBytes(testing::ScaledCnn(2).Build(), "scaled_cnn_2"), true);
  return out;
}

std::vector<Buffer> BuffersOf(const Lifetimes& l, uint32_t id) {
  std::vector<Buffer> b;
  for (const Storage& st : Storages(l))
    if (st.memory_id == id && st.used) b.push_back({st.bytes, st.first, st.last});
  return b;
}

void ExpectSamePlans(std::span<const Buffer> b, const std::string& where) {
  for (uint64_t align : {uint64_t{1}, uint64_t{16}}) {
    const std::vector<uint64_t> by_size = OldFirstFit(b, OldBySize(b), align);
    const std::vector<uint64_t> by_conflicts = OldFirstFit(b, OldByConflicts(b), align);
    EXPECT_EQ(GreedyBySize()->Place(b, align), by_size) << where << " align " << align;
    EXPECT_EQ(GreedyByConflicts()->Place(b, align), by_conflicts) << where << " align " << align;
    const std::vector<uint64_t> climbed = OldHillClimb(b, align);
    EXPECT_EQ(HillClimb()->Place(b, align), climbed) << where << " align " << align;
    const PlanChoice best = BestPlan(b, align);
    EXPECT_LE(best.size, std::min({PlanSize(b, by_size), PlanSize(b, by_conflicts),
                                   PlanSize(b, climbed)}))
        << where;
  }
}

TEST(PlanScaling, EveryPlannerPlacesEveryProgramAsTheAllPairsCodeDid) {
  size_t buffers = 0;
  for (const Program& p : Programs())
    for (const pte::MethodView& m : p.view.methods) {
      auto l = ComputeLifetimes(m);
      ASSERT_TRUE(l) << p.name;
      EXPECT_EQ(Validate(*l).overlaps.size(), OldOverlaps(*l).size()) << p.name;
      for (size_t id = 1; id < l->planned_buffer_sizes.size(); ++id) {
        EXPECT_EQ(LiveBytes(*l, static_cast<uint32_t>(id)),
                  OldLiveBytes(*l, static_cast<uint32_t>(id), 16))
            << p.name;
        const std::vector<Buffer> b = BuffersOf(*l, static_cast<uint32_t>(id));
        ExpectSamePlans(b, p.name + " buffer " + std::to_string(id));
        buffers += b.size();
      }
    }
  EXPECT_GT(buffers, 1000u);  // the builder's programs alone have more
}

TEST(PlanScaling, AdvisoriesAreExactAndNoLargerThanTheAllPairsCodeOnEveryProgram) {
  size_t advisories = 0, smaller = 0;
  for (const Program& p : Programs())
    for (const pte::MethodView& m : p.view.methods) {
      auto l = ComputeLifetimes(m);
      ASSERT_TRUE(l) << p.name;
      const MethodReplan now = ReplanMethod(*l);
      for (const Advice& a : Advise(m, *l)) {
        ++advisories;
        if (!p.scaled) EXPECT_FALSE(a.cut_short) << p.name << " value " << a.value;
        EXPECT_EQ(a.bound_saving, OldBoundSaving(*l, a.value)) << p.name << " value " << a.value;
        EXPECT_EQ(a.replanned, now.planned_buffer_sizes[a.memory_id]) << p.name;
        const int64_t old = OldReplannedWithout(*l, now, a.value, a.memory_id);
        EXPECT_LE(a.replanned_without, old) << p.name << " value " << a.value;
        if (a.replanned_without < old) ++smaller;
      }
    }
  EXPECT_GT(advisories, 10u);
  std::cout << advisories << " advisories, " << smaller
            << " with a smaller re-planned size without the tensor than before\n";
}

// The real programs and the builder's scenarios stay within the advisories' work limit; the
// scaled builder programs (LstmLike(3): 18 advisories over about 570 pieces) need not.

// Random buffers, from a fixed seed: plans, CheckPlan's verdicts and messages, and Validate's
// overlaps (of random, mostly unsound plans) as the all-pairs code gave them.
TEST(PlanScaling, RandomInputsGiveTheAllPairsResults) {
  std::mt19937_64 rng(38);
  for (int round = 0; round < 60; ++round) {
    const size_t n = 1 + rng() % (round < 50 ? 40 : 300);
    std::uniform_int_distribution<int64_t> at(0, 60), len(0, round % 3 == 0 ? 40 : 6);
    std::uniform_int_distribution<uint64_t> size(0, round % 4 == 0 ? 64 : 5000);
    std::vector<Buffer> b;
    for (size_t i = 0; i < n; ++i) {
      const int64_t first = at(rng);
      b.push_back({size(rng), first, first + len(rng)});
    }
    ExpectSamePlans(b, "round " + std::to_string(round));
    // CheckPlan on planned, perturbed and random offsets.
    std::vector<uint64_t> offsets = GreedyBySize()->Place(b, 16);
    for (int k = 0; k < 3; ++k) {
      std::vector<uint64_t> o = offsets;
      if (k == 1 && !o.empty()) o[rng() % o.size()] += 16 * (rng() % 4);
      if (k == 2)
        for (uint64_t& x : o) x = (rng() % 64) * (rng() % 8 == 0 ? 8 : 16);
      const Status now = CheckPlan(b, o, 16), old = OldCheckPlan(b, o, 16);
      ASSERT_EQ(static_cast<bool>(now), static_cast<bool>(old)) << "round " << round;
      if (!old) {
        EXPECT_EQ(now.error().message, old.error().message) << "round " << round;
      }
    }
    // Validate on random tensors in two buffers, some in one alias group.
    Lifetimes l;
    l.planned_buffer_sizes = {0, 4096, 4096};
    for (size_t i = 0; i < n; ++i) {
      PlannedTensor t;
      t.value = static_cast<int32_t>(i);
      t.memory_id = 1 + static_cast<uint32_t>(rng() % 2);
      t.offset = rng() % 4000;
      t.bytes = rng() % 200;
      t.used = rng() % 8 != 0;
      t.first = at(rng);
      t.last = t.first + len(rng);
      t.group = (i > 0 && rng() % 6 == 0) ? static_cast<int32_t>(rng() % i) : static_cast<int32_t>(i);
      l.tensors.push_back(t);
    }
    const Validation v = Validate(l);
    const std::vector<Overlap> old = OldOverlaps(l);
    ASSERT_EQ(v.overlaps.size(), old.size()) << "round " << round;
    for (size_t k = 0; k < old.size(); ++k) {
      EXPECT_EQ(std::tie(v.overlaps[k].a, v.overlaps[k].b, v.overlaps[k].memory_id,
                         v.overlaps[k].instruction, v.overlaps[k].overlap_bytes),
                std::tie(old[k].a, old[k].b, old[k].memory_id, old[k].instruction,
                         old[k].overlap_bytes))
          << "round " << round << " overlap " << k;
    }
  }
}

// A method too large to re-plan once per advisory says so, and still finishes: LstmLike(40)
// has 240 constant-op-at-runtime advisories over a buffer of about 6000 pieces of storage.
TEST(PlanScaling, AdvisoriesOnAHugeMethodAreCutShortWithABound) {
  auto p = pte::ReadProgramBytes(testing::LstmLike(40).Build(), "lstm_like_40");
  ASSERT_TRUE(p) << p.error().message;
  auto l = ComputeLifetimes(p->methods[0]);
  ASSERT_TRUE(l);
  const MethodReplan now = ReplanMethod(*l);
  const std::vector<Advice> advice = Advise(p->methods[0], *l, &now);
  ASSERT_GT(advice.size(), 100u);
  size_t cut = 0;
  for (const Advice& a : advice) {
    if (!a.cut_short) continue;
    ++cut;
    EXPECT_LE(a.replanned_without, a.replanned);
    // The bound holds: the exact re-plan without the tensor is no larger (checked on a few).
    if (cut <= 2) {
      const int32_t values[] = {a.value};
      EXPECT_LE(ReplannedSizesWithout(*l, now, values)[a.memory_id], a.replanned_without);
    }
  }
  EXPECT_GT(cut, 0u);
}

}  // namespace plan_scaling_test
}  // namespace etmem::plan
