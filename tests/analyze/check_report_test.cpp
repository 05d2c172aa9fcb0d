// `etmem check`'s result as a structured value (analysis/check_report.h): the text is rendered
// from it, and --format json gives the same facts as numbers and names.
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "etmem/etmem.h"
#include "etmem/report/check_render.h"
#include "etmem/report/search_text.h"
#include "etmem/testing/scenarios.h"
#include "etmem_cli.h"

namespace etmem::test {
namespace check_report_test {

fs::path MotivatingFailureLog() {
  return WriteTemp("check_report_device.log",
                   "E 00:00:00.000 executorch:memory_allocator.h:88] Memory allocation failed: "
                   "48B requested (adjusted for alignment), 44B available\n");
}

TEST(CheckReport, TheTextIsRenderedFromTheValue) {
  const api::Program program = api::Program::Open(MotivatingCnnFile().string());
  const fs::path log = MotivatingFailureLog();
  for (const std::optional<uint64_t> pool : {std::optional<uint64_t>(4096), std::optional<uint64_t>()}) {
    api::CheckOptions c;
    c.model.runtime = "0.3";
    c.pool = pool;
    const api::CheckResult r = api::Check(program, log.string(), c);
    ASSERT_NE(r.value, nullptr);
    EXPECT_EQ(report::CheckText(*r.value), r.output);
    EXPECT_EQ(r.value->reproduced, r.reproduced);
    // With the pool: one prediction compared; without it: the failure line searched.
    EXPECT_EQ(r.value->comparison.has_value(), pool.has_value());
    EXPECT_EQ(r.value->search.has_value(), !pool.has_value());
    EXPECT_EQ(r.value->log.failures.size(), 1u);
  }
}

TEST(CheckReport, JsonHoldsTheSearchAndTheVerdict) {
  const fs::path path = MotivatingCnnFile();
  const fs::path log = MotivatingFailureLog();
  const api::Program program = api::Program::Open(path.string());
  api::CheckOptions c;
  c.model.runtime = "0.3";
  c.format = api::Format::kJson;
  const api::CheckResult r = api::Check(program, log.string(), c);
  const nlohmann::json j = nlohmann::json::parse(r.output);
  EXPECT_EQ(j["reproduced"], r.reproduced);
  EXPECT_TRUE(j["comparison"].is_null());  // no pool: nothing to compare with, the search alone
  ASSERT_TRUE(j["search"].is_object());
  EXPECT_TRUE(j["search"]["complete"]);
  ASSERT_FALSE(j["search"]["reproductions"].empty());
  bool yours = false;
  for (const auto& x : j["search"]["reproductions"]) {
    EXPECT_FALSE(x["pools"].empty());
    EXPECT_GT(x["minimum_pool"].get<uint64_t>(), 0u);
    yours = yours || x["yours"].get<bool>();
  }
  EXPECT_EQ(yours, r.reproduced);
  EXPECT_EQ(j["search"]["lines"].size(), report::GroupedLines(r.value->search->attempts.back().found).size());
  // The command line prints the same JSON.
  const CliRun cli =
      Etmem("check " + path.string() + " " + log.string() + " --runtime 0.3 --format json");
  EXPECT_EQ(cli.out, r.output);
  EXPECT_EQ(cli.exit_code, r.reproduced ? 0 : 1) << cli.err;
  // A compared prediction: its assumptions and the failure etmem predicts.
  c.pool = 4096;
  const nlohmann::json at = nlohmann::json::parse(api::Check(program, log.string(), c).output);
  ASSERT_TRUE(at["comparison"].is_object());
  EXPECT_EQ(at["comparison"]["assumptions"]["runtime"], "0.3.0");
  EXPECT_EQ(at["pool"], 4096);
}

// A log whose failure came while the method ran (Method::step's line after ExecuTorch's failure
// line): checked against the run-time temp model. The lines are the real portable topk's at
// 1.4.1 in a 639 B temp pool (tests/measured/x86_64_run_temp.json), then Method::step's.
TEST(CheckReport, AFailureWhileRunningIsTheRunTimeTempModels) {
  const fs::path program = WriteScenario(testing::NamedScenarioProgram("topk"), "check_topk");
  const std::string failure =
      "E 00:00:00.010 executorch:memory_allocator.h:88] Memory allocation failed: 640B requested "
      "(adjusted for alignment), 639B available\n"
      "E 00:00:00.011 executorch:op_topk.cpp:140] Failed to allocate temp memory. Bytes "
      "requested: 640\n"
      "E 00:00:00.011 executorch:op_topk.cpp:140] Check failed (temp_mem_allocated): \n";
  const fs::path log = WriteTemp(
      "check_topk.log", failure + "E 00:00:00.012 executorch:method.cpp:1366] KernelCall failed "
                                  "at instruction 0:1 in operator aten::topk.values: 0x21\n");
  const CliRun text = Etmem("check " + program.string() + " " + log.string() + " --runtime 1.4.1");
  EXPECT_EQ(text.exit_code, 0) << text.out << text.err;
  EXPECT_NE(text.out.find("failed while running: KernelCall failed at instruction 0:1 in operator "
                          "aten::topk.values: 0x21"),
            std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("matches etmem's prediction for a 639 B temp pool: instruction 1 "
                          "(aten::topk.values, portable)"),
            std::string::npos)
      << text.out;
  const CliRun j = Etmem("check " + program.string() + " " + log.string() +
                         " --runtime 1.4.1 --format json");
  const nlohmann::json run = nlohmann::json::parse(j.out)["run_time"];
  EXPECT_EQ(run["temp_pool"], 639);
  EXPECT_EQ(run["run_peak_bytes"], 640);
  EXPECT_EQ(run["predicted"].size(), 4u);
  // Another instruction's line: the failure line's pool is found, the other lines are not.
  const fs::path other = WriteTemp(
      "check_topk_other.log", failure + "E 00:00:00.012 executorch:method.cpp:1366] KernelCall "
                                        "failed at instruction 0:2 in operator aten::topk.values: "
                                        "0x21\n");
  const CliRun miss = Etmem("check " + program.string() + " " + other.string() + " --runtime 1.4.1");
  EXPECT_EQ(miss.exit_code, 1) << miss.out << miss.err;
  EXPECT_NE(miss.out.find("(639 B) do not give the log's other lines"), std::string::npos)
      << miss.out;
}

TEST(CheckReport, FormatsOtherThanTextAndJsonAreRefused) {
  const api::Program program = api::Program::Open(MotivatingCnnFile().string());
  api::CheckOptions c;
  c.format = api::Format::kCsv;
  EXPECT_THROW(api::Check(program, MotivatingFailureLog().string(), c), api::Error);
  const CliRun cli = Etmem("check " + MotivatingCnnFile().string() + " " +
                           MotivatingFailureLog().string() + " --format csv");
  EXPECT_EQ(cli.exit_code, 2);
}

}  // namespace check_report_test
}  // namespace etmem::test
