// Owns: the two runners in ExecuTorch's tree at the modelled main snapshot (cff6f4dd) that got a
// profile for issue 23 item 6: the Arduino library's examples/arduino/ETModel.h (`--runner
// arduino` at main) and the Zephyr sample zephyr/samples/mv2-ethosu (`--runner
// zephyr-mv2-ethosu`), and the refusals these runners make themselves.
//
// SOURCE OF THE NUMBERS: issue 23 ("Check the firmware itself", item 6), measured on the real
// runtime at main with each runner's allocation sequence replayed, on Cortex-M4: the motivating
// CNN (cnn_trained_2025-04-04_34b7e8d) needs 37122 B of ETModel's pool, KeywordSpotting (the
// sketch's own model, examples/arduino/examples/KeywordSpotting/model.pte in the main tree) 30150
// B and the LSTM (lstm_2025-04-04_96a6b1e) 21781 B; mv2-ethosu's method_allocation_pool 36464 B,
// 29456 B and 15912 B. Reproduce with etmem:
//   etmem analyze PROGRAM --runtime main --target cortex-m --runner arduino
//   etmem analyze PROGRAM --runtime main --target cortex-m --runner zephyr-mv2-ethosu
// Skips (saying so) without ../shared or without the main tree at /work/et/main.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <filesystem>
#include <string>

#include "etmem/abi/abi.h"
#include "etmem/pte/read_program.h"
#include "etmem/analysis/report.h"
#include "etmem/runtime/release.h"
#include "etmem_cli.h"

namespace etmem::test {
namespace measured_main_runners_test {

const fs::path kKeywordSpotting =
    "/work/et/main/examples/arduino/examples/KeywordSpotting/model.pte";

fs::path Program(const std::string& name) {
  return name == "KeywordSpotting" ? kKeywordSpotting : RealModel(name);
}

nlohmann::json Analyze(const std::string& program, const std::string& runner,
                       const std::string& more = "", int exit_code = 0) {
  CliRun r = Etmem("analyze " + Program(program).string() +
                   " --runtime main --target cortex-m --runner " + runner + " --format json" +
                   more);
  EXPECT_EQ(r.exit_code, exit_code) << r.err;
  return nlohmann::json::parse(r.out, nullptr, false);
}

uint64_t MethodPoolMinimum(const nlohmann::json& report) {
  for (const auto& pool : report["methods"][0]["runner"]["pools"])
    if (pool["role"] == "method") return pool["minimum_bytes"].get<uint64_t>();
  ADD_FAILURE() << "no method pool in the report";
  return 0;
}

struct Case {
  const char* program;
  const char* runner;
  uint64_t bytes;  // issue 23 item 6
};
constexpr Case kCases[] = {
    {"cnn_trained_2025-04-04_34b7e8d", "arduino", 37122},
    {"KeywordSpotting", "arduino", 30150},
    {"lstm_2025-04-04_96a6b1e", "arduino", 21781},
    {"cnn_trained_2025-04-04_34b7e8d", "zephyr-mv2-ethosu", 36464},
    {"KeywordSpotting", "zephyr-mv2-ethosu", 29456},
    {"lstm_2025-04-04_96a6b1e", "zephyr-mv2-ethosu", 15912},
};

// The library's report of `program` with `runner` at main on Cortex-M.
report::Report LibraryReport(const std::string& program, const std::string& runner) {
  Result<pte::ProgramView> p = pte::ReadProgram(Program(program).string());
  EXPECT_TRUE(p) << p.error().message;
  runtime::RuntimeModel model(**runtime::FindRelease("main"), *abi::FindBuiltinTarget("cortex-m"));
  report::ReportOptions o;
  o.runner = *runner::SelectRunner(runner);
  Result<report::Report> r = report::BuildReport(*p, model, o);
  EXPECT_TRUE(r) << r.error().message;
  return std::move(r).value();
}

// The library's figure (what `etmem analyze` prints as the runner's method pool minimum).
uint64_t LibraryMinimum(const Case& c) {
  Result<pte::ProgramView> p = pte::ReadProgram(Program(c.program).string());
  EXPECT_TRUE(p) << p.error().message;
  runtime::RuntimeModel model(**runtime::FindRelease("main"), *abi::FindBuiltinTarget("cortex-m"));
  report::ReportOptions o;
  o.runner = *runner::SelectRunner(c.runner);
  Result<report::Report> r = report::BuildReport(*p, model, o);
  EXPECT_TRUE(r) << r.error().message;
  return r->methods.front().runner->result.method().minimum;
}

TEST(MainRunners, TheLibraryGivesTheIssuesMeasuredPools) {
  if (!HaveRealModels()) GTEST_SKIP() << "no ../shared/models/real";
  if (!fs::exists(kKeywordSpotting)) GTEST_SKIP() << "no ExecuTorch main tree at /work/et/main";
  for (const Case& c : kCases)
    EXPECT_EQ(LibraryMinimum(c), c.bytes) << c.program << " --runner " << c.runner;
}

TEST(MainRunners, TheLibraryReportsTheRunnersOwnRefusals) {
  if (!HaveRealModels()) GTEST_SKIP() << "no ../shared/models/real";
  const report::Report mv2 = LibraryReport("cnn_trained_2025-04-04_34b7e8d", "zephyr-mv2-ethosu");
  const std::vector<std::string>& refusals = mv2.methods.front().runner->result.refusals;
  ASSERT_EQ(refusals.size(), 1u);
  EXPECT_NE(refusals[0].find("the runner's built-in input holds 150528"), std::string::npos)
      << refusals[0];
  EXPECT_NE(refusals[0].find("it logs \"Preparing input failed: 0x12\""), std::string::npos)
      << refusals[0];
  const report::Report arduino = LibraryReport("cnn_trained_2025-04-04_34b7e8d", "arduino");
  EXPECT_TRUE(arduino.methods.front().runner->result.refusals.empty());
}

TEST(MainRunners, TheIssuesMeasuredPoolsAtMainOnCortexM) {
  if (!HaveRealModels()) GTEST_SKIP() << "no ../shared/models/real";
  if (!fs::exists(kKeywordSpotting)) GTEST_SKIP() << "no ExecuTorch main tree at /work/et/main";
  for (const Case& c : kCases) {
    const nlohmann::json report = Analyze(c.program, c.runner);
    ASSERT_FALSE(report.is_discarded()) << c.program << " " << c.runner;
    EXPECT_EQ(MethodPoolMinimum(report), c.bytes) << c.program << " --runner " << c.runner;
    // One byte less fails, at the runner's pool.
    CliRun shorter = Etmem("analyze " + Program(c.program).string() +
                           " --runtime main --target cortex-m --runner " + c.runner +
                           " --pool " + std::to_string(c.bytes - 1));
    EXPECT_EQ(shorter.exit_code, 1) << c.program << " " << c.runner << "\n" << shorter.out;
  }
}

// The runners' own refusals: mv2-ethosu fills one tensor input from its built-in 224x224 RGB
// image (150528 B) and refuses any other input size; ETModel reads one output at a time.
TEST(MainRunners, TheRunnersOwnRefusalsAreReported) {
  if (!HaveRealModels()) GTEST_SKIP() << "no ../shared/models/real";
  // The runner refusing the program is the verdict: refused, exit 1.
  const nlohmann::json mv2 =
      Analyze("cnn_trained_2025-04-04_34b7e8d", "zephyr-mv2-ethosu", "", /*exit_code=*/1);
  EXPECT_EQ(mv2["verdict"], "refused");
  ASSERT_TRUE(mv2["methods"][0]["runner"].contains("refusals"));
  const auto& refusals = mv2["methods"][0]["runner"]["refusals"];
  ASSERT_EQ(refusals.size(), 1u) << refusals.dump();
  EXPECT_NE(refusals[0].get<std::string>().find("built-in input holds 150528"), std::string::npos)
      << refusals.dump();
  CliRun text = Etmem("analyze " + Program("cnn_trained_2025-04-04_34b7e8d").string() +
                      " --runtime main --target cortex-m --runner zephyr-mv2-ethosu");
  EXPECT_NE(text.out.find("RUNNER REFUSES: "), std::string::npos) << text.out;
  // The motivating CNN has one input and one output: ETModel takes it.
  const nlohmann::json arduino = Analyze("cnn_trained_2025-04-04_34b7e8d", "arduino");
  EXPECT_EQ(arduino["methods"][0]["runner"]["refusals"], nlohmann::json::array());
  // Runners without declared refusals keep their JSON as it was.
  const nlohmann::json arm = Analyze("cnn_trained_2025-04-04_34b7e8d", "arm-baremetal");
  EXPECT_FALSE(arm["methods"][0]["runner"].contains("refusals"));
}

}  // namespace measured_main_runners_test
}  // namespace etmem::test
