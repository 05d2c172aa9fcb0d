// Holds etmem to what `etmem measure` printed on real ExecuTorch source trees
// (tests/measured/x86_64_etmem_measure.json; how: its "how_measured"). For every recorded run
// of a builder program, the real runtime's verdict, call count and bytes (the "real runtime:"
// line) must be what etmem predicts today under the same assumptions: the release the run
// compared with, x86_64, pool base 16 mod 32, delegates' init allocating nothing, the
// portable executor_runner's layout or the Arm runner profile. The real programs of the file
// are checked the same way when ../shared is present.
#include <gtest/gtest.h>

#include <filesystem>
#include <iostream>
#include <regex>
#include <string>

#include "etmem/api/internal.h"
#include "etmem/base/sha256.h"
#include "etmem/check/runner_prediction.h"
#include "etmem/check/search.h"
#include "etmem/etmem.h"
#include "etmem/testing/scenarios.h"
#include "measured.h"

namespace etmem {
namespace measured_etmem_measure_test {

namespace fs = std::filesystem;

struct Printed {
  std::string verdict;
  uint64_t calls = 0;
  uint64_t bytes = 0;
};

// "real runtime: Ok, 105 calls, 4336 B"
std::optional<Printed> ReadLine(const nlohmann::json& printed, const std::string& who) {
  static const std::regex line("^(real runtime|etmem): +([A-Za-z]+), ([0-9]+) calls, ([0-9]+) B$");
  for (const auto& l : printed) {
    std::smatch m;
    const std::string s = l.get<std::string>();
    if (std::regex_match(s, m, line) && m[1] == who)
      return Printed{m[2], std::stoull(m[3]), std::stoull(m[4])};
  }
  return std::nullopt;
}

// The program's bytes: the builder's scenario, or the real file in ../shared.
std::optional<std::vector<uint8_t>> ProgramBytes(const std::string& path) {
  const std::string builder = "build/examples/";
  if (path.starts_with(builder)) {
    const std::string name = path.substr(builder.size(), path.size() - builder.size() - 4);
    const auto bytes = testing::NamedScenarioProgram(name).Build();
    return std::vector<uint8_t>(bytes.begin(), bytes.end());
  }
  const fs::path real = fs::path(ETMEM_SHARED_DIR) / path.substr(std::string("../shared/").size());
  std::ifstream in(real, std::ios::binary);
  if (!in) return std::nullopt;
  return std::vector<uint8_t>(std::istreambuf_iterator<char>(in), {});
}

// Every run recorded in `file` (etmem measure's printed lines): the real runtime's verdict, calls
// and bytes are what etmem predicts today. `checked` counts the methods checked.
void CheckRecordedRuns(const std::string& file, size_t& checked) {
  const nlohmann::json doc = test::ReadMeasured(file);
  size_t matching = 0, absent = 0;
  for (const auto& run : doc.at("results")) {
    if (run.at("exit_code") == 2) continue;  // refused before measuring: nothing to hold
    const std::string path = run.at("program_path");
    const auto bytes = ProgramBytes(path);
    if (!bytes) {
      ++absent;
      continue;
    }
    ASSERT_EQ(Sha256Hex(*bytes), run.at("sha256").get<std::string>())
        << path << ": the program is not the one measured";
    const std::string compared = run.at("compared_with");  // "compared with etmem's model of ExecuTorch X (...)"
    const std::string release = compared.substr(compared.find("ExecuTorch ") + 11,
                                                compared.find(" (") - compared.find("ExecuTorch ") - 11);
    const api::Program program = api::Program::FromBytes(bytes->data(), bytes->size(), path);
    for (const auto& method : run.at("methods")) {
      const auto measured = ReadLine(method.at("printed"), "real runtime");
      const auto printed_etmem = ReadLine(method.at("printed"), "etmem");
      if (!measured || !printed_etmem) continue;  // no allocator record (Program::load refused)
      api::Options o;
      o.runtime = release;
      o.target = "x86_64";
      o.pool_align = 16;
      o.method = method.at("method");
      for (const pte::MethodView& m : api::Internal(program).methods)
        for (const pte::DelegateView& d : m.delegates)
          o.backends.push_back(std::string(d.backend) + "=0");
      // At main the temp pool's size decides where operator metadata goes: as measured.
      const std::string invocation = run.at("invocation");
      if (const size_t at = invocation.find("--temp-pool "); at != std::string::npos)
        o.temp_pool = std::stoull(invocation.substr(at + 12));
      if (const size_t at = invocation.find("--temp "); at != std::string::npos)
        o.temp = invocation.substr(at + 7, invocation.find(' ', at + 7) - at - 7);
      // "portable executor_runner (default)", or the runner profile's name.
      const std::string runner = run.at("runner");
      const bool with_runner = !runner.starts_with("portable");
      if (with_runner) o.runner = runner;
      const api::Report report = api::Analyze(program, o);
      const report::MethodReport& m = api::Internal(report).methods.front();
      const std::string verdict = m.plan.refusal ? m.plan.refusal->error : "Ok";
      const std::string what = path + " " + o.method + " on ExecuTorch " + release +
                               (with_runner ? " (" + runner + ")" : "");
      EXPECT_EQ(verdict, measured->verdict) << what;
      if (!with_runner) {
        const auto p = check::PredictMethodPool(m.plan.requests, 16, std::nullopt);
        EXPECT_EQ(p.prediction.calls.size(), measured->calls) << what;
        EXPECT_EQ(p.prediction.used_bytes, measured->bytes) << what;
      } else if (!m.plan.refusal) {
        ASSERT_TRUE(m.runner.has_value()) << what;
        EXPECT_EQ(m.runner->result.method().high_water, measured->bytes) << what;
      }
      const bool recorded_match = method.at("matches").get<bool>();
      matching += recorded_match;
      ++checked;
    }
  }
  ::testing::Test::RecordProperty("methods_checked", static_cast<int>(checked));
  ::testing::Test::RecordProperty("recorded_matching", static_cast<int>(matching));
  if (absent) std::cout << absent << " runs of programs in ../shared not checked (absent)\n";
}

TEST(MeasuredWithEtmemMeasure, EveryRecordedRunIsWhatEtmemPredictsToday) {
  size_t checked = 0;
  CheckRecordedRuns("x86_64_etmem_measure.json", checked);
  EXPECT_GT(checked, 100u);
}

// A temp pool of 0 B and at the load peak +-1 (issue 37 item 3): from 1.0.0 on an empty temp
// allocator is passed over and the operator metadata goes to the method allocator; one byte
// below the load peak the temp allocation fails. Every run recorded matched call for call.
TEST(MeasuredWithEtmemMeasure, EmptyTempPoolAndTheLoadPeakAsMeasured) {
  const nlohmann::json doc = test::ReadMeasured("x86_64_empty_temp_pool.json");
  for (const auto& run : doc.at("results")) {
    EXPECT_EQ(run.at("exit_code"), 0) << run.at("invocation");
    for (const auto& m : run.at("methods")) EXPECT_TRUE(m.at("matches").get<bool>());
  }
  size_t checked = 0;
  CheckRecordedRuns("x86_64_empty_temp_pool.json", checked);
  EXPECT_GE(checked, 8u);
  // One byte below the load peak the real runtime's temp allocation fails during load_method
  // (etmem measure predicted it, call for call): etmem's load peak for that release is exactly
  // one byte more than the pool measured.
  size_t below = 0;
  const auto cnn = testing::NamedScenarioProgram("cnn").Build();
  const api::Program program = api::Program::FromBytes(cnn.data(), cnn.size());
  for (const auto& run : doc.at("load_peak_minus_one")) {
    ASSERT_EQ(Sha256Hex(std::vector<uint8_t>(cnn.begin(), cnn.end())), run.at("sha256"));
    const std::string invocation = run.at("invocation");
    const uint64_t temp = std::stoull(invocation.substr(invocation.find("--temp-pool ") + 12));
    const std::string compared = run.at("compared_with");
    const size_t at = compared.find("ExecuTorch ") + 11;
    api::Options o;
    o.runtime = compared.substr(at, compared.find(" (") - at);
    o.target = "x86_64";
    o.pool_align = 16;
    o.temp_pool = temp;
    const auto measured = ReadLine(run.at("methods").at(0).at("printed"), "real runtime");
    ASSERT_TRUE(measured) << invocation;
    EXPECT_EQ(measured->verdict, "MemoryAllocationFailed") << invocation;
    EXPECT_TRUE(run.at("methods").at(0).at("matches").get<bool>()) << invocation;
    EXPECT_EQ(api::Analyze(program, o).methods()[0].temp_load_peak_bytes, temp + 1) << invocation;
    ++below;
  }
  EXPECT_GE(below, 2u);
}

}  // namespace measured_etmem_measure_test
}  // namespace etmem
