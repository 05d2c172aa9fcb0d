// What `etmem measure` predicts for the harness run (measure/measure.h, Expect): with a runner
// profile, the runner's own requests are placed around load_method's by the simulator
// (sim::TraceMethodPool), the one placement check and the report use, so the prediction the
// harness is compared with is the report's.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "etmem/api/internal.h"
#include "etmem/etmem.h"
#include "etmem/measure/measure.h"
#include "etmem/report/measure_json.h"
#include "etmem/report/measure_text.h"
#include "etmem/testing/scenarios.h"
#include "etmem_cli.h"

namespace etmem::test {
namespace measure_expect_test {

api::Report CnnReport(const std::string& runner) {
  const fs::path cnn = WriteScenario(testing::NamedScenarioProgram("cnn"), "measure_expect_cnn");
  api::Options o;
  o.runtime = "1.4.1";
  o.target = "x86_64";
  o.pool_align = 16;
  o.runner = runner;
  return api::Analyze(api::Program::Open(cnn.string()), o);
}

TEST(MeasureExpect, ARunnersStepsArePlacedAsTheReportPlacesThem) {
  const api::Report analysed = CnnReport("arm-baremetal");
  const report::Report& r = api::Internal(analysed);
  const report::MethodReport& m = r.methods.front();
  ASSERT_TRUE(m.runner.has_value());
  const measure::Expected e = measure::Expect(r, m, std::nullopt);
  // The report's method pool high-water mark (sim::SimulateRunner) is the harness's.
  EXPECT_EQ(e.prediction.used_bytes, m.runner->result.method().high_water);
  // Every call: load_method's on the method pool and the runner's own there, in order.
  const runner::RunnerPlan& plan = m.runner->plan;
  size_t runner_calls = 0, load_calls = 0;
  for (const runner::RunnerRequest& q : plan.requests)
    runner_calls += !q.load_method && q.pool == plan.method_pool;
  for (const runtime::AllocationRequest& q : m.plan.requests)
    load_calls += q.pool == runtime::PoolKind::kMethod;
  ASSERT_EQ(e.prediction.calls.size(), runner_calls + load_calls);
  ASSERT_EQ(e.what.size(), e.prediction.calls.size());
  EXPECT_TRUE(e.what.front().starts_with("the runner's ")) << e.what.front();
  EXPECT_TRUE(e.what.back().starts_with("the runner's ")) << e.what.back();
  uint64_t end = 0;
  for (const device::PredictedCall& c : e.prediction.calls) {
    EXPECT_FALSE(c.failed);
    EXPECT_GE(c.offset, end);  // a bump allocator: each call after the one before
    EXPECT_EQ(c.offset % c.align, 0u);
    end = c.offset + c.size;
  }
  EXPECT_EQ(e.pool_align, 16u);
  EXPECT_TRUE(e.steps.starts_with("planned pool 16\nload\n")) << e.steps;
  // A pool one byte short of the minimum fails at a call etmem names.
  const measure::Expected short_pool =
      measure::Expect(r, m, m.runner->result.method().minimum - 1);
  ASSERT_FALSE(short_pool.prediction.failures.empty());
  EXPECT_TRUE(short_pool.prediction.calls[short_pool.prediction.failures.front().call].failed);
}

// Measured on the real runtime (2026-12-02, x86_64, g++ 12.2):
//   etmem measure build/examples/cnn.pte --executorch /work/et/v1.4.1 --runner arm-baremetal
//     [--pool 36000 | --pool 20000] --brief
// printed "real runtime: Ok, 107 calls, 37520 B" (unbounded), "MemoryAllocationFailed, 71 calls,
// 35992 B" with "64B requested (adjusted for alignment), 8B available" at 36000 B, and
// "MemoryAllocationFailed, 1 calls, 0 B" with "33168B requested ..., 20000B available" at 20000 B:
// the run stops at the failure, as sim::TraceMethodPool places it.
TEST(MeasureExpect, ARunnerRunMeasuredOnTheRealRuntime) {
  const api::Report analysed = CnnReport("arm-baremetal");
  const report::Report& r = api::Internal(analysed);
  const report::MethodReport& m = r.methods.front();
  const measure::Expected unbounded = measure::Expect(r, m, std::nullopt);
  EXPECT_EQ(unbounded.prediction.calls.size(), 107u);
  EXPECT_EQ(unbounded.prediction.used_bytes, 37520u);
  const measure::Expected at36000 = measure::Expect(r, m, 36000);
  EXPECT_EQ(at36000.prediction.calls.size(), 71u);
  EXPECT_EQ(at36000.prediction.used_bytes, 35992u);
  ASSERT_EQ(at36000.prediction.failures.size(), 1u);
  EXPECT_EQ(at36000.prediction.failures[0].requested, 64u);
  EXPECT_EQ(at36000.prediction.failures[0].available, 8u);
  const measure::Expected at20000 = measure::Expect(r, m, 20000);
  EXPECT_EQ(at20000.prediction.calls.size(), 1u);
  EXPECT_EQ(at20000.prediction.used_bytes, 0u);
  ASSERT_EQ(at20000.prediction.failures.size(), 1u);
  EXPECT_EQ(at20000.prediction.failures[0].requested, 33168u);
  EXPECT_EQ(at20000.prediction.failures[0].available, 20000u);
}

TEST(MeasureExpect, WithoutARunnerTheLoadAloneAsAnalyzeSimulatesIt) {
  const api::Report analysed = CnnReport("");
  const report::Report& r = api::Internal(analysed);
  const report::MethodReport& m = r.methods.front();
  const measure::Expected e = measure::Expect(r, m, std::nullopt);
  EXPECT_EQ(e.prediction.used_bytes, m.sim.method_bytes);
  EXPECT_EQ(e.steps, "planned heap\nload\n");
  EXPECT_EQ(e.what.size(), e.prediction.calls.size());
}

TEST(MeasureExpect, TheClosestModelledReleaseIsSaidWithWhy) {
  const measure::ReleaseChoice same = measure::ClosestRelease("1.4.1");
  EXPECT_EQ(same.release, "1.4.1");
  EXPECT_EQ(same.why, "the tree's release");
  const measure::ReleaseChoice later = measure::ClosestRelease("1.4.7");
  EXPECT_EQ(later.release, "1.4.1");
  EXPECT_EQ(later.why, "1.4.7 is not a modelled release: the closest modelled one");
}

TEST(MeasureExpect, TheTextOfAMethodThatNeverReachedTheAllocator) {
  measure::MethodMeasurement mm;
  mm.name = "forward";
  mm.layout = "the portable executor_runner's layout";
  mm.measured_verdict = "InvalidProgram";
  mm.etmem_verdict = "InvalidProgram";
  mm.refusal_reason = "why";
  mm.verdicts_agree = true;
  EXPECT_EQ(report::MeasureMethodText(mm, false),
            "method 'forward': the portable executor_runner's layout\n"
            "  real runtime: InvalidProgram\n  etmem:        InvalidProgram (why)\n"
            "  verdicts agree\n");
  EXPECT_TRUE(mm.matches());
}

// --execute's text around each method's comparison (report/measure_text.h, from
// measure::ExecutionRun): the kernels found, the heap without a temp allocator, a method whose
// harness crashed before it executed; it counts in the verb's exit code.
TEST(MeasureExpect, TheTextOfAnExecutionThatCrashed) {
  measure::ExecutionRun run;
  run.kernels = {{"aten::topk.values", "::torch::executor::native::topk_values",
                  "kernels/portable/cpu/op_topk.cpp", "", false},
                 {"executorch_prim::et_view.default", "", "kernels/prim_ops/register_prim_ops.cpp",
                  "", true}};
  run.sources = 5;
  run.registration = "/w/etmem_real_kernels.cpp";
  run.temp_allocator = false;
  run.no_heap = true;
  measure::MethodExecution& m = run.methods.emplace_back();
  m.name = "forward";
  m.predicted = "0 B";
  m.notes = {"input 0 filled 60 0"};
  m.crash_signal = 11;
  EXPECT_EQ(report::MeasureExecutionText(run),
            "execution with the tree's real kernels (5 kernel sources compiled, registration "
            "generated in /w/etmem_real_kernels.cpp):\n"
            "    aten::topk.values -> ::torch::executor::native::topk_values "
            "(kernels/portable/cpu/op_topk.cpp)\n"
            "    executorch_prim::et_view.default -> the prim ops "
            "(kernels/prim_ops/register_prim_ops.cpp)\n"
            "  no temp allocator passed to load_method; et_pal_allocate recorded and returning "
            "NULL while the method executes (a firmware without a heap)\n"
            "  inputs: every tensor input set (set_input) to a copy filled with a fixed pattern; "
            "outputs without memory given a heap buffer; delegates are stubs that compute "
            "nothing\n"
            "method 'forward' executed: 0 B (etmem)\n"
            "  input 0 filled 60 0\n"
            "  the harness crashed (signal 11)\n"
            "  the method did not execute (the load above failed): nothing to compare\n"
            "  run-time temp differs from etmem's prediction\n");
  EXPECT_EQ(run.exit_code(), 1);
  measure::MeasureRun measured;
  EXPECT_EQ(measured.exit_code(), 0);
  measured.execution = run;
  EXPECT_EQ(measured.exit_code(), 1);
  EXPECT_NE(report::MeasureText(measured, true).find("the harness crashed (signal 11)"),
            std::string::npos);
  run.temp_allocator = true;
  run.temp_pool_bytes = 1 << 20;
  run.methods.clear();
  EXPECT_NE(report::MeasureExecutionText(run).find(
                "\n  a recording temp allocator of 1048576 B whose base is aligned to 16 B and "
                "not to 32 B, passed to load_method\n"),
            std::string::npos);
  EXPECT_EQ(run.exit_code(), 0);
}

// `etmem measure --format json` (report/measure_json.h): the same structured run as the text,
// one object; a method measured as predicted, one that diverges, and an execution that crashed.
TEST(MeasureExpect, TheJsonOfARun) {
  const api::Report analysed = CnnReport("");
  const report::Report& r = api::Internal(analysed);
  measure::MeasureRun run;
  run.setup = {"/src/et", "version.txt says 1.4.1", "abc", "1.4.1", "the tree's release"};
  run.build.emplace();
  run.build->compiler = "c++";
  measure::MethodMeasurement& m = run.methods.emplace_back();
  m.name = "forward";
  m.measured_verdict = m.etmem_verdict = "Ok";
  m.verdicts_agree = true;
  m.logged = true;
  m.expected = measure::Expect(r, r.methods.front(), std::nullopt);
  m.assumptions = r.assumptions;
  for (const device::PredictedCall& c : m.expected.prediction.calls)
    m.measured.push_back({c.size, c.align, c.offset, 0});
  m.measured_bytes = m.expected.prediction.used_bytes;
  nlohmann::json j = nlohmann::json::parse(report::MeasureJson(run));
  EXPECT_EQ(j["release"]["compared_with"], "1.4.1");
  EXPECT_EQ(j["build"]["compiler"], "c++");
  ASSERT_EQ(j["methods"].size(), 1u);
  EXPECT_EQ(j["methods"][0]["calls"].size(), m.measured.size());
  EXPECT_EQ(j["methods"][0]["calls"][3]["measured"], j["methods"][0]["calls"][3]["etmem"]);
  EXPECT_EQ(j["methods"][0]["etmem_bytes"], m.expected.prediction.used_bytes);
  EXPECT_NE(j["methods"][0]["assumptions"].get<std::string>().find("ExecuTorch 1.4.1"),
            std::string::npos);
  EXPECT_TRUE(j["methods"][0]["first_divergence"].is_null());
  EXPECT_EQ(j["methods"][0]["matches"], true);
  EXPECT_TRUE(j["execution"].is_null());
  EXPECT_EQ(j["matches"], true);
  // One call more on the device than etmem predicts: the divergence, and the run's verdict.
  m.measured.push_back({8, 8, std::nullopt, 0});
  m.difference = device::Difference{12, m.measured.size() - 1, "a null return", "no call"};
  j = nlohmann::json::parse(report::MeasureJson(run));
  EXPECT_TRUE(j["methods"][0]["calls"].back()["etmem"].is_null());
  EXPECT_TRUE(j["methods"][0]["calls"].back()["measured"]["offset"].is_null());
  EXPECT_EQ(j["methods"][0]["first_divergence"]["call"], m.measured.size() - 1);
  EXPECT_EQ(j["methods"][0]["matches"], false);
  EXPECT_EQ(j["matches"], false);
  // --execute: a harness that crashed.
  m.measured.pop_back();
  m.difference.reset();
  measure::ExecutionRun& e = run.execution.emplace();
  e.temp_allocator = false;
  measure::MethodExecution& x = e.methods.emplace_back();
  x.name = "forward";
  x.crash_signal = 11;
  j = nlohmann::json::parse(report::MeasureJson(run));
  EXPECT_EQ(j["methods"][0]["matches"], true);
  EXPECT_EQ(j["execution"]["methods"][0]["crash_signal"], 11);
  EXPECT_TRUE(j["execution"]["temp_pool_bytes"].is_null());
  EXPECT_EQ(j["execution"]["matches"], false);
  EXPECT_EQ(j["matches"], run.exit_code() == 0);
}

}  // namespace measure_expect_test
}  // namespace etmem::test
