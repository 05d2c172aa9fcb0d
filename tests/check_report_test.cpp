// `etmem check`'s result as a structured value (report/check_report.h): the text is rendered
// from it, and --format json gives the same facts as numbers and names.
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "etmem/etmem.h"
#include "etmem/report/check_report.h"
#include "etmem/report/search_text.h"
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
