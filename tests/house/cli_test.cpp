// The command-line contract: exit codes (0 ok, 1 pool does not fit, 2 invalid input or usage),
// the JSON shape shared/tools/check-goldens relies on, and one-line errors naming the file.
#include <algorithm>
#include <map>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "etmem_cli.h"

namespace cli_test {

using etmem::test::CliRun;
using etmem::test::Etmem;
using etmem::test::RealModel;
using etmem::test::WriteTemp;
namespace fs = std::filesystem;

#define SKIP_WITHOUT_SHARED()                \
  if (!etmem::test::HaveRealModels())        \
  GTEST_SKIP() << "../shared/models/real is absent: real-program checks skipped"

constexpr const char* kMotivating = "cnn_trained_2025-04-04_34b7e8d";

TEST(Cli, UsageErrorsExitTwo) {
  EXPECT_EQ(Etmem("").exit_code, 2);
  EXPECT_EQ(Etmem("analyze").exit_code, 2);
  EXPECT_EQ(Etmem("frobnicate x.pte").exit_code, 2);
  EXPECT_EQ(Etmem("analyze x.pte --pool-align 3").exit_code, 2);
  EXPECT_EQ(Etmem("analyze x.pte --temp maybe").exit_code, 2);
  EXPECT_EQ(Etmem("--help").exit_code, 0);
}

TEST(Cli, MissingFileIsOneLineNamingIt) {
  CliRun r = Etmem("analyze /nonexistent/model.pte");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("/nonexistent/model.pte"), std::string::npos);
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST(Cli, GarbageAndEmptyFilesAreRejectedWithTheirNames) {
  for (const std::string& bytes : {std::string(), std::string("hello"), std::string(64, '\xff'),
                                  std::string("\x10\0\0\0ET12", 8) + std::string(8, '\0')}) {
    fs::path p = WriteTemp("etmem_cli_garbage.pte", bytes);
    CliRun r = Etmem("analyze " + p.string());
    EXPECT_EQ(r.exit_code, 2) << bytes.size();
    EXPECT_NE(r.err.find(p.string()), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

TEST(Cli, UnknownRuntimeListsTheModelledOnes) {
  SKIP_WITHOUT_SHARED();
  CliRun r = Etmem("analyze " + RealModel(kMotivating).string() + " --runtime 0.0");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("0.3.0"), std::string::npos);
}

// shared/README.md: these two files carry "eh00" with no valid header; every release refuses them.
TEST(Cli, TheTwoMalformedRealProgramsExitTwoWithAMessage) {
  SKIP_WITHOUT_SHARED();
  for (const char* stem : {"add3_2024-12-10_82cac10", "softmax_2024-12-09_ea4b144"}) {
    CliRun r = Etmem("analyze " + RealModel(stem).string());
    EXPECT_EQ(r.exit_code, 2) << stem;
    EXPECT_NE(r.err.find(stem), std::string::npos) << r.err;
    EXPECT_NE(r.err.find("extended header"), std::string::npos) << r.err;
  }
}

// The motivating report (shared/README.md, measured on the real 0.3 runtime on Cortex-M4):
// 4266 B minimum; a 4096 B pool fails with the quoted line.
TEST(Cli, MotivatingProgramNeeds4266BytesOnCortexMWithZeroThree) {
  SKIP_WITHOUT_SHARED();
  CliRun r = Etmem("analyze " + RealModel(kMotivating).string() + " --runtime 0.3 --target cortex-m --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["runtime"], "0.3.0");
  EXPECT_EQ(j["target"], "cortex-m");
  EXPECT_EQ(j["pool_align"], 8);
  EXPECT_EQ(j["temp_allocator"], "null");
  EXPECT_EQ(j["methods"][0]["method_allocator"]["bytes"], 4266);
}

TEST(Cli, TooSmallPoolExitsOneAndPrintsTheRuntimesLine) {
  SKIP_WITHOUT_SHARED();
  const std::string prog = RealModel(kMotivating).string();
  CliRun r = Etmem("analyze " + prog + " --runtime 0.3 --pool 4096");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("Memory allocation failed: 48B requested (adjusted for alignment), 44B available"),
            std::string::npos) << r.out;
  EXPECT_NE(r.out.find("TensorMeta"), std::string::npos) << r.out;  // names the allocation
  EXPECT_EQ(Etmem("analyze " + prog + " --runtime 0.3 --pool 8192").exit_code, 0);
  EXPECT_EQ(Etmem("analyze " + prog + " --runtime 0.3 --pool 4266").exit_code, 0);
  EXPECT_EQ(Etmem("analyze " + prog + " --runtime 0.3 --pool 4265").exit_code, 1);
}

TEST(Cli, JsonContractFieldsArePresentAndConsistent) {
  SKIP_WITHOUT_SHARED();
  CliRun r = Etmem("analyze " + RealModel(kMotivating).string() + " --format json --pool 100000");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["runtime"], "1.4.1");  // defaults: --runtime 1.4, --target cortex-m
  EXPECT_EQ(j["target"], "cortex-m");
  EXPECT_EQ(j["temp_allocator"], "nonnull");  // the 1.4 runner passes one
  const auto& m = j["methods"][0];
  uint64_t consumed = 0, last_end = 0;
  for (const auto& a : m["method_allocator"]["allocations"]) {
    consumed += a["consumed"].get<uint64_t>();
    EXPECT_GE(a["offset"].get<uint64_t>(), last_end);
    last_end = a["offset"].get<uint64_t>() + a["size"].get<uint64_t>();
    EXPECT_FALSE(a["what"].get<std::string>().empty());
  }
  EXPECT_EQ(consumed, m["method_allocator"]["bytes"].get<uint64_t>());
  uint64_t by_category = 0;
  for (const auto& [name, c] : m["method_allocator"]["by_category"].items()) by_category += c["bytes"].get<uint64_t>();
  EXPECT_EQ(by_category, consumed);
  EXPECT_GT(m["temp_allocator"]["load_peak_bytes"].get<uint64_t>(), 0u);
  EXPECT_EQ(m["planned_buffers"], nlohmann::json::array({33168}));
  EXPECT_EQ(m["pool_check"]["fits"], true);
}

// 16 releases (0.1.0 ... 1.4.1, the patch releases included) x 5 built-in targets.
TEST(Cli, AllRuntimesTimesAllTargetsIsOneObjectOfEighty) {
  SKIP_WITHOUT_SHARED();
  CliRun r = Etmem("analyze " + RealModel(kMotivating).string() + " --runtime all --target all --format json");
  // ExecuTorch 0.1.0 has no constant segment: it refuses this program on every target (exit 1,
  // one line on stderr for them all); every pair is still printed, in one object.
  ASSERT_EQ(r.exit_code, 1) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find("ExecuTorch 0.1.0 refuses method 'forward' (InvalidArgument)"),
            std::string::npos) << r.err;
  const auto all = nlohmann::json::parse(r.out);
  EXPECT_EQ(all["schema"], 1);
  EXPECT_EQ(all["verdict"], "refused");
  const auto& j = all["results"];
  ASSERT_TRUE(j.is_array());
  EXPECT_EQ(j.size(), 80u);
  std::map<std::string, int> per_release;
  for (const auto& pair : j) ++per_release[pair["runtime"].get<std::string>()];
  for (const char* v : {"0.1.0", "0.2.0", "0.2.1", "1.0.1", "1.3.1", "1.4.0"}) EXPECT_EQ(per_release[v], 5) << v;
}

// A patch release is listed under its own name, saying which release it equals.
TEST(Cli, ListRuntimesNamesEveryPatchRelease) {
  CliRun r = Etmem("list runtimes");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::map<std::string, std::string> summary;
  std::istringstream lines(r.out);
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string version;
    words >> version;
    std::getline(words >> std::ws, summary[version]);
  }
  EXPECT_EQ(summary.size(), 17u) << r.out;  // 16 releases and the snapshot of main
  EXPECT_NE(summary["main-20260822-cff6f4dd"].find("cff6f4dd32e630945b7188512c1f2b4f102b05ad"),
            std::string::npos)
      << r.out;
  EXPECT_EQ(summary["0.2.1"].rfind("as 0.2.0", 0), 0u) << r.out;
  EXPECT_EQ(summary["1.0.1"].rfind("as 1.0.0", 0), 0u) << r.out;
  EXPECT_EQ(summary["1.3.1"].rfind("as 1.3.0", 0), 0u) << r.out;
  EXPECT_NE(summary["1.4.0"].find("XNNExecutor"), std::string::npos) << r.out;
  EXPECT_NE(summary["1.4.1"].find("as 1.4.0"), std::string::npos) << r.out;
}

// --runtime MAJOR.MINOR is the newest patch release of that minor.
TEST(Cli, ShortRuntimeNamesMeanTheNewestPatchRelease) {
  // Constants inline: 0.1.0 has no constant segment and refuses the others.
  const std::string cnn =
      etmem::test::WriteScenario(etmem::testing::NamedScenarioProgram("cnn_inline_constants"),
                                 "cnn_inline")
          .string();
  for (auto [short_name, full] : std::map<std::string, std::string>{
           {"0.1", "0.1.0"}, {"0.2", "0.2.1"}, {"1.0", "1.0.1"}, {"1.3", "1.3.1"}, {"1.4", "1.4.1"}, {"1.4.0", "1.4.0"}}) {
    CliRun r = Etmem("analyze " + cnn + " --runtime " + short_name + " --format json");
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_EQ(nlohmann::json::parse(r.out)["runtime"], full) << short_name;
  }
}

// The table of pairs says, per pair, whether a --pool loads; the exit code is 1 if any fails.
TEST(Cli, AllTargetsTableSaysWhichPairsAPoolFits) {
  const std::string cnn = etmem::test::MotivatingCnnFile().string();
  CliRun one = Etmem("analyze " + cnn + " --runtime 1.4 --target cortex-m --format json");
  ASSERT_EQ(one.exit_code, 0) << one.err;
  const auto need = nlohmann::json::parse(one.out)["methods"][0]["method_allocator"]["bytes"];
  CliRun r = Etmem("analyze " + cnn + " --runtime 1.4 --target all --pool " + need.dump());
  EXPECT_EQ(r.exit_code, 1) << r.out;  // the 64-bit targets need more than cortex-m
  std::istringstream lines(r.out);
  std::map<std::string, std::string> verdict;  // target -> its line
  for (std::string line; std::getline(lines, line);) {
    std::istringstream words(line);
    std::string release, target;
    words >> release >> target;
    verdict[target] = line;
  }
  const std::string loads = "pool " + need.dump() + " B: loads";
  EXPECT_NE(verdict["cortex-m"].find(loads), std::string::npos) << r.out;
  EXPECT_NE(verdict["x86_64"].find("DOES NOT LOAD"), std::string::npos) << r.out;
}

TEST(Cli, TargetFilesWork) {
  SKIP_WITHOUT_SHARED();
  fs::path t = WriteTemp("etmem_i386.json",
                         R"({"name": "i386", "pointer": [4, 4], "size_t": [4, 4], "int64": [8, 4],
                             "double": [8, 4], "max_align": 16, "malloc_align": 16})");
  CliRun r = Etmem("analyze " + RealModel(kMotivating).string() + " --target " + t.string() + " --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(r.out)["target"], "i386");
  fs::path bad = WriteTemp("etmem_bad_target.json", R"({"name": "x", "pointer": [4, 3]})");
  CliRun b = Etmem("analyze " + RealModel(kMotivating).string() + " --target " + bad.string());
  EXPECT_EQ(b.exit_code, 2);
  EXPECT_NE(b.err.find(bad.string()), std::string::npos);
}

}  // namespace cli_test
