// BuildReports shares work between (release, target) pairs; every shared report must equal the
// one BuildReport computes for that pair alone, allocation for allocation.
#include "etmem/analysis/report.h"

#include <gtest/gtest.h>

#include <algorithm>

#include "etmem/abi/abi.h"
#include "etmem/pte/read_program.h"
#include "etmem/runtime/release.h"
#include "etmem/testing/program_builder.h"
#include "etmem/testing/scenarios.h"

namespace etmem::report {
namespace build_report_test {

struct Case {
  const char* name;
  testing::ProgramBuilder (*make)();
};

void PrintTo(const Case& c, std::ostream* os) { *os << c.name; }

testing::ProgramBuilder Delegated() { return testing::ProgramWithDelegate("XnnpackBackend"); }
// A larger program (5,801 values), with its many pairs planned one after another.
testing::ProgramBuilder LargeLstm() { return testing::LstmLike(20); }

const Case kCases[] = {{"motivating_cnn", testing::MotivatingCnn},
                       {"every_value_kind", testing::ProgramWithEveryValueKind},
                       {"two_methods", testing::ProgramWithTwoMethods},
                       {"xnnpack_delegate", Delegated},
                       {"large_lstm", LargeLstm}};

// The built-in targets, and two that differ from cortex-m in one primitive each: they must
// not share cortex-m's reports.
std::vector<abi::Abi> Targets() {
  std::vector<abi::Abi> targets = abi::BuiltinTargets();
  abi::Abi int64_align4 = targets.front();
  int64_align4.name = "ilp32-int64-align-4";
  int64_align4.int64.align = 4;
  abi::Abi size_t8 = targets.front();
  size_t8.name = "ilp32-size-t-8";
  size_t8.size_type = {8, 8};
  targets.push_back(int64_align4);
  targets.push_back(size_t8);
  return targets;
}

std::vector<PairRequest> EveryPair(bool keep_allocations, std::optional<uint64_t> pool) {
  std::vector<PairRequest> pairs;
  for (const auto& release : runtime::AllReleases())
    for (const abi::Abi& target : Targets()) {
      ReportOptions o;
      o.pool_align = target.malloc_align;
      o.load.temp_allocator = release.runner_passes_temp;
      o.pool_bytes = pool;
      o.keep_allocations = keep_allocations;
      pairs.push_back({&release, target, o});
    }
  return pairs;
}

void ExpectSameTotals(const MethodReport& a, const MethodReport& b, const std::string& where) {
  EXPECT_EQ(a.method_bytes, b.method_bytes) << where;
  EXPECT_EQ(a.temp_load_peak_bytes, b.temp_load_peak_bytes) << where;
  EXPECT_EQ(a.plan.refusal.has_value(), b.plan.refusal.has_value()) << where;
  EXPECT_EQ(a.plan.unknowns.size(), b.plan.unknowns.size()) << where;
  for (size_t c = 0; c < a.by_category.size(); ++c) {
    EXPECT_EQ(a.by_category[c].bytes, b.by_category[c].bytes) << where << " category " << c;
    EXPECT_EQ(a.by_category[c].padding, b.by_category[c].padding) << where << " category " << c;
  }
  ASSERT_EQ(a.largest.size(), b.largest.size()) << where;
  for (size_t i = 0; i < a.largest.size(); ++i) {
    EXPECT_EQ(a.largest[i].index, b.largest[i].index) << where << " largest " << i;
    EXPECT_EQ(a.largest[i].placement.offset, b.largest[i].placement.offset) << where;
  }
  ASSERT_EQ(a.pool_check.has_value(), b.pool_check.has_value()) << where;
  if (a.pool_check) {
    EXPECT_EQ(a.pool_check->fits, b.pool_check->fits) << where;
    EXPECT_EQ(a.pool_check->log, b.pool_check->log) << where;
    ASSERT_EQ(a.pool_check->failing.has_value(), b.pool_check->failing.has_value()) << where;
    if (a.pool_check->failing) {
      EXPECT_EQ(a.pool_check->failing->index, b.pool_check->failing->index) << where;
      EXPECT_EQ(a.pool_check->failing->placement.offset, b.pool_check->failing->placement.offset)
          << where;
    }
  }
}

// The largest method-pool allocations by sorting every kept one: what MethodReport::largest
// must hold.
std::vector<size_t> LargestBySorting(const MethodReport& m, size_t keep) {
  std::vector<size_t> rows;
  for (size_t i = 0; i < m.plan.requests.size(); ++i)
    if (m.plan.requests[i].pool == runtime::PoolKind::kMethod) rows.push_back(i);
  std::stable_sort(rows.begin(), rows.end(), [&](size_t a, size_t b) {
    return m.plan.requests[a].size > m.plan.requests[b].size;
  });
  rows.resize(std::min(rows.size(), keep));
  return rows;
}

class BuildReportsTest : public ::testing::TestWithParam<Case> {
 protected:
  void SetUp() override {
    bytes_ = GetParam().make().Build();
    program_ = std::move(pte::ReadProgramBytes(bytes_, GetParam().name)).value();
  }
  std::vector<uint8_t> bytes_;
  pte::ProgramView program_;
};

TEST_P(BuildReportsTest, EverySharedReportEqualsItsOwn) {
  const auto pairs = EveryPair(/*keep_allocations=*/true, std::nullopt);
  auto shared = BuildReports(program_, pairs);
  ASSERT_TRUE(shared.has_value());
  ASSERT_EQ(shared->size(), pairs.size());
  for (size_t i = 0; i < pairs.size(); ++i) {
    const std::string where = pairs[i].release->version + " on " + pairs[i].target.name;
    runtime::RuntimeModel model(*pairs[i].release, pairs[i].target);
    Report own = std::move(BuildReport(program_, model, pairs[i].options)).value();
    const Report& got = (*shared)[i];
    EXPECT_EQ(got.assumptions.runtime, pairs[i].release->version);
    EXPECT_EQ(got.assumptions.target, pairs[i].target.name);
    EXPECT_EQ(got.assumptions.target_detail, pairs[i].target.description);
    ASSERT_EQ(got.methods.size(), own.methods.size()) << where;
    for (size_t m = 0; m < own.methods.size(); ++m) {
      ExpectSameTotals(got.methods[m], own.methods[m], where);
      const auto& want = own.methods[m].plan.requests;
      const auto& have = got.methods[m].plan.requests;
      ASSERT_EQ(have.size(), want.size()) << where;
      for (size_t r = 0; r < want.size(); ++r) {
        EXPECT_EQ(have[r].size, want[r].size) << where << " request " << r;
        EXPECT_EQ(have[r].align, want[r].align) << where << " request " << r;
        EXPECT_EQ(got.methods[m].sim.placements[r].offset, own.methods[m].sim.placements[r].offset)
            << where << " request " << r;
      }
    }
  }
}

TEST_P(BuildReportsTest, TotalsOnlyDropsAllocationsAndKeepsEveryTotal) {
  // A pool just below the newest release's need on cortex-m: some pairs fit, some fail.
  runtime::RuntimeModel newest(runtime::AllReleases().back(), abi::BuiltinTargets().front());
  ReportOptions probe;
  const uint64_t pool = BuildReport(program_, newest, probe)->methods.front().method_bytes - 1;
  auto full = BuildReports(program_, EveryPair(true, pool));
  auto totals = BuildReports(program_, EveryPair(false, pool));
  ASSERT_TRUE(full.has_value() && totals.has_value());
  ASSERT_EQ(full->size(), totals->size());
  for (size_t i = 0; i < full->size(); ++i)
    for (size_t m = 0; m < (*full)[i].methods.size(); ++m) {
      const MethodReport& t = (*totals)[i].methods[m];
      EXPECT_TRUE(t.plan.requests.empty());
      EXPECT_TRUE(t.sim.placements.empty());
      ExpectSameTotals(t, (*full)[i].methods[m], (*full)[i].assumptions.runtime + " on " +
                                                      (*full)[i].assumptions.target);
    }
}

TEST_P(BuildReportsTest, LargestAllocationsAreTheLargestOfAllOfThem) {
  for (const PairRequest& pair : EveryPair(true, std::nullopt)) {
    runtime::RuntimeModel model(*pair.release, pair.target);
    for (size_t keep : {size_t{0}, size_t{1}, size_t{3}, size_t{8}, size_t{1000}}) {
      ReportOptions o = pair.options;
      o.largest = keep;
      Report r = std::move(BuildReport(program_, model, o)).value();
      for (const MethodReport& m : r.methods) {
        const std::vector<size_t> want = LargestBySorting(m, keep);
        ASSERT_EQ(m.largest.size(), want.size()) << pair.release->version << " keep " << keep;
        for (size_t i = 0; i < want.size(); ++i) {
          EXPECT_EQ(m.largest[i].index, want[i]) << pair.release->version << " keep " << keep;
          EXPECT_EQ(m.largest[i].placement.offset, m.sim.placements[want[i]].offset);
        }
      }
    }
  }
}

TEST_P(BuildReportsTest, AnUnknownMethodIsAnError) {
  auto pairs = EveryPair(true, std::nullopt);
  pairs.back().options.method = "no_such_method";
  EXPECT_FALSE(BuildReports(program_, pairs).has_value());
}

// Release 0.4 ignores a failed zero-size request, so its minimum pool can be below the
// high-water mark; a streamed report must re-plan to find it, and agree with a kept one.
TEST(BuildReportTest, StreamedReportFindsTheMinimumPoolBelowATolerantHighWaterMark) {
  testing::ProgramBuilder b;
  testing::MethodBuilder& m = b.Method("forward");
  const int t = m.Tensor({.sizes = {3}});
  const int op = m.Operator("aten::add", "out");
  m.Chain();
  m.KernelCall(op, {t});  // its last request: a 1-byte dim order, leaving the cursor unaligned
  // Then two zero-size lists (arguments and their metadata): the first pays padding to align.
  m.KernelCall(op, {});
  auto bytes = b.Build();
  pte::ProgramView program = std::move(pte::ReadProgramBytes(bytes, "scalar")).value();
  runtime::RuntimeModel model(**runtime::FindRelease("0.4"), abi::BuiltinTargets().front());
  bool below_high_water = false;
  for (uint32_t align : {1u, 2u, 4u, 8u, 16u}) {
    ReportOptions kept, streamed;
    kept.pool_align = streamed.pool_align = align;
    streamed.keep_allocations = false;
    const MethodReport k = BuildReport(program, model, kept)->methods.front();
    const MethodReport s = BuildReport(program, model, streamed)->methods.front();
    EXPECT_EQ(s.method_bytes, k.method_bytes) << "pool aligned to " << align;
    EXPECT_EQ(k.method_bytes, sim::MinimumPool(k.plan.requests, align, {align, std::nullopt}, k.sim));
    below_high_water |= k.method_bytes < k.sim.method_bytes;
  }
  EXPECT_TRUE(below_high_water) << "no pool alignment made the tolerated failure matter";
}

INSTANTIATE_TEST_SUITE_P(Scenarios, BuildReportsTest, ::testing::ValuesIn(kCases),
                         [](const auto& info) { return std::string(info.param.name); });

}  // namespace build_report_test
}  // namespace etmem::report
