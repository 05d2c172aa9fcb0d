// SimulateRunner: a runner's own allocations and load_method's share one bump allocator per
// pool, in order; the minimum leaves nothing written past the pool's end; a too-small pool
// gives the runtime's line and then the runner's own.
#include "etmem/sim/runner_sim.h"

#include <gtest/gtest.h>

#include <algorithm>

namespace etmem::sim {
namespace runner_sim_test {

runner::PoolSpec kMethodPool{"m", "method_allocation_pool", "POOL_SIZE", 4096, 16, "method", ""};
runner::PoolSpec kTempPool{"t", "temp_allocation_pool", "TEMP_SIZE", 4096, 16, "temp", ""};

runner::RunnerRequest Own(uint64_t size, uint32_t align, uint64_t written, std::string what,
                          std::vector<std::string> logs = {}, bool aborts = true) {
  runner::RunnerRequest r;
  r.size = size;
  r.align = align;
  r.written = written;
  r.what = std::move(what);
  r.failure_logs = std::move(logs);
  r.aborts = aborts;
  r.then = aborts ? "aborts" : "goes on";
  return r;
}

runner::RunnerRequest Load(std::vector<std::string> logs = {}) {
  runner::RunnerRequest r;
  r.load_method = true;
  r.temp_pool = 1;
  r.what = "load_method";
  r.failure_logs = std::move(logs);
  return r;
}

runner::RunnerPlan Plan(std::vector<runner::RunnerRequest> requests) {
  runner::RunnerPlan p;
  p.pools = {{&kMethodPool, 16}, {&kTempPool, 16}};
  p.method_pool = 0;
  p.temp_pool = 1;
  for (size_t i = 0; i < requests.size(); ++i) requests[i].step = i;
  p.requests = std::move(requests);
  return p;
}

runtime::AllocationRequest Req(uint64_t size, uint16_t align,
                               runtime::PoolKind pool = runtime::PoolKind::kMethod) {
  runtime::AllocationRequest r;
  r.size = size;
  r.align = align;
  r.pool = pool;
  return r;
}

TEST(RunnerSim, WhatTheRunnerTakesFirstShiftsLoadMethodsPadding) {
  // Base 16 (not 32): a 100 B buffer ends at address 116; load_method's 8 B at align 8 then
  // pays 4 B of padding (address 120, offset 104), which it would not pay in a pool of its own.
  const std::vector<runtime::AllocationRequest> load = {Req(8, 8), Req(12, 4),
                                                        Req(24, 8, runtime::PoolKind::kTemp)};
  RunnerResult r = SimulateRunner(Plan({Own(100, 16, 100, "planned"), Load()}), load, std::nullopt);
  ASSERT_EQ(r.pools[0].entries.size(), 2u);
  const RunnerEntry& l = r.pools[0].entries[1];
  EXPECT_TRUE(l.load_method);
  EXPECT_EQ(l.offset, 100u);  // the cursor before load_method
  EXPECT_EQ(l.first, 104u);   // its first request, after 4 B of padding
  EXPECT_EQ(l.padding, 4u);
  EXPECT_EQ(l.end, 124u);
  EXPECT_EQ(l.allocations, 2u);
  EXPECT_EQ(r.pools[0].minimum, 124u);  // 100 + 4 + 8 + 12
  EXPECT_EQ(r.pools[1].minimum, 24u);   // the temp pool's peak
  EXPECT_TRUE(r.pools[1].temp_role);
}

TEST(RunnerSim, AListWrittenPastItsEndRaisesTheMinimumAndTheCheckSaysByHowMuch) {
  // 2 inputs: 2 x 4 B allocated, 2 x 16 B written (the Arm runner at 1.0).
  const std::vector<runtime::AllocationRequest> load = {Req(20, 4)};
  runner::RunnerPlan plan = Plan({Load(), Own(8, 4, 32, "input list")});
  RunnerResult r = SimulateRunner(plan, load, std::nullopt);
  EXPECT_EQ(r.pools[0].high_water, 28u);
  EXPECT_EQ(r.pools[0].minimum, 52u);
  RunnerResult through = SimulateRunner(plan, load, 28);
  ASSERT_TRUE(through.check);
  EXPECT_TRUE(through.check->gets_through);
  EXPECT_EQ(through.check->overwritten_bytes, 24u);
  EXPECT_FALSE(through.check->fits());
  EXPECT_TRUE(SimulateRunner(plan, load, 52).check->fits());
  EXPECT_EQ(SimulateRunner(plan, load, 51).check->overwritten_bytes, 1u);
  EXPECT_FALSE(SimulateRunner(plan, load, 27).check->gets_through);
}

TEST(RunnerSim, ARunnerAllocationThatFailsLogsTheRuntimesLineThenTheRunners) {
  runner::RunnerPlan plan =
      Plan({Own(100, 16, 100, "planned", {"Could not allocate 100"}), Load()});
  RunnerResult r = SimulateRunner(plan, {}, 50);
  ASSERT_TRUE(r.check && r.check->failure);
  const RunnerFailure& f = *r.check->failure;
  EXPECT_FALSE(f.load_request.has_value());
  ASSERT_EQ(f.log.size(), 2u);
  EXPECT_EQ(f.log[0],
            "Memory allocation failed: 100B requested (adjusted for alignment), 50B available");
  EXPECT_EQ(f.log[1], "Could not allocate 100");
  EXPECT_EQ(f.consequence, "the runner aborts");
}

TEST(RunnerSim, ALoadFailureLogsTheRuntimesLineThenTheRunners) {
  runner::RunnerPlan plan = Plan({Own(16, 16, 16, "planned"), Load({"Loading failed"})});
  const std::vector<runtime::AllocationRequest> load = {Req(8, 8), Req(8, 8)};
  RunnerResult r = SimulateRunner(plan, load, 30);
  ASSERT_TRUE(r.check && r.check->failure);
  const RunnerFailure& f = *r.check->failure;
  ASSERT_TRUE(f.load_request.has_value());
  EXPECT_EQ(*f.load_request, 1u);
  ASSERT_EQ(f.log.size(), 2u);
  EXPECT_EQ(f.log[0],
            "Memory allocation failed: 8B requested (adjusted for alignment), 6B available");
  EXPECT_EQ(f.log[1], "Loading failed");
  EXPECT_EQ(SimulateRunner(plan, load, 32).check->fits(), true);
}

TEST(RunnerSim, OnlyTheMethodPoolIsBounded) {
  runner::RunnerPlan plan = Plan({Load()});
  const std::vector<runtime::AllocationRequest> load = {Req(8, 8),
                                                        Req(4000, 8, runtime::PoolKind::kTemp)};
  RunnerResult r = SimulateRunner(plan, load, 8);
  EXPECT_TRUE(r.check->fits());
  EXPECT_EQ(r.pools[1].minimum, 4000u);
}

// The call-by-call trace (what `etmem check` compares) places what SimulateRunner places: each
// method-pool call in the runner's order, and the same failures and log lines.
TEST(RunnerSim, TheTraceIsTheSimulationCallByCall) {
  const std::vector<runtime::AllocationRequest> load = {Req(8, 8), Req(12, 4),
                                                        Req(24, 8, runtime::PoolKind::kTemp)};
  const runner::RunnerPlan plan =
      Plan({Own(100, 16, 100, "planned", {"no planned"}), Load({"load failed"}),
            Own(3, 1, 3, "probe", {}, false)});
  const RunnerTrace t = TraceMethodPool(plan, load, std::nullopt);
  ASSERT_EQ(t.calls.size(), 4u);  // the temp request is not in the method pool
  EXPECT_EQ(t.calls[0].offset, 0u);
  EXPECT_FALSE(t.calls[0].load_request);
  EXPECT_EQ(t.calls[1].offset, 104u);
  EXPECT_EQ(t.calls[1].padding, 4u);
  EXPECT_EQ(t.calls[1].load_request, 0u);
  EXPECT_EQ(t.calls[2].offset, 112u);
  EXPECT_EQ(t.calls[3].request, 2u);
  EXPECT_EQ(t.calls[3].offset, 124u);
  const RunnerResult whole = SimulateRunner(plan, load, std::nullopt);
  EXPECT_EQ(t.method_bytes, whole.method().high_water);
  EXPECT_TRUE(t.gets_through);
  // Every pool size from 0 to past the high-water mark: the same failure, the same lines.
  for (uint64_t pool = 0; pool <= 130; ++pool) {
    const RunnerTrace bounded = TraceMethodPool(plan, load, pool);
    const RunnerResult r = SimulateRunner(plan, load, pool);
    EXPECT_EQ(bounded.gets_through, r.check->gets_through) << pool;
    std::vector<RunnerFailure> want = r.check->tolerated;
    if (r.check->failure) want.push_back(*r.check->failure);
    ASSERT_EQ(bounded.failures.size(), want.size()) << pool;
    for (size_t i = 0; i < want.size(); ++i) {
      EXPECT_EQ(bounded.failures[i].log, want[i].log) << pool;
      EXPECT_EQ(bounded.failures[i].requested, want[i].requested) << pool;
      EXPECT_EQ(bounded.failures[i].available, want[i].available) << pool;
    }
    const size_t failed = static_cast<size_t>(std::count_if(
        bounded.calls.begin(), bounded.calls.end(), [](const MethodPoolCall& c) { return c.failed; }));
    EXPECT_EQ(failed, want.size()) << pool;
  }
}

}  // namespace runner_sim_test
}  // namespace etmem::sim
