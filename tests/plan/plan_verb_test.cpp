// `etmem plan` and `etmem replan` from the command line: exit codes, the JSON numbers, and a
// re-planned motivating program that reads back sound and smaller (replan's text and JSON).
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>

#include "etmem_cli.h"
#include <nlohmann/json.hpp>

#include "etmem/testing/program_builder.h"

namespace plan_cli_test {

namespace fs = std::filesystem;
using etmem::testing::MethodBuilder;
using etmem::testing::Placement;
using etmem::testing::ProgramBuilder;

// stdout and stderr together: the checks below look for text in either.
struct CliRun {
  int exit_code = -1;
  std::string out;
};

CliRun Etmem(const std::string& args) {
  etmem::test::CliRun r = etmem::test::Etmem(args);
  return {r.exit_code, r.out + r.err};
}

fs::path Motivating() {
  return fs::path(ETMEM_SHARED_DIR) / "models/real/cnn_trained_2025-04-04_34b7e8d.pte";
}

fs::path Temp(const std::string& name) {
  return fs::temp_directory_path() / (name + "_" + std::to_string(::getpid()) + ".pte");
}

TEST(PlanCli, MotivatingProgramJson) {
  if (!fs::exists(Motivating())) GTEST_SKIP() << "../shared/models/real is absent";
  CliRun r = Etmem("plan " + Motivating().string() + " --format json");
  ASSERT_EQ(r.exit_code, 0) << r.out;
  auto j = nlohmann::json::parse(r.out);
  const auto& m = j["methods"][0];
  EXPECT_EQ(m["name"], "forward");
  EXPECT_TRUE(m["validation"]["sound"]);
  EXPECT_EQ(m["buffers"][0]["planned"], 33168);
  EXPECT_EQ(m["buffers"][0]["lower_bound"], 24576);
  EXPECT_EQ(m["buffers"][0]["excess"], 33168 - 24576);
  EXPECT_EQ(m["buffers"][0]["live_bytes"].size(), m["instructions"].template get<size_t>());
  bool indices = false;
  for (const auto& a : m["advisories"]) {
    if (a["kind"] == "unread-output" && a["bytes"] == 8192) indices = true;
    EXPECT_EQ(a["replanned"], 24576);  // the peak (instruction 1) holds no flagged tensor
    EXPECT_EQ(a["replanned_without"], 24576);
    EXPECT_EQ(a["planned_saving"], 0);
  }
  EXPECT_TRUE(indices) << m["advisories"].dump();
}

TEST(PlanCli, TextHasTableVerdictBoundsAndMap) {
  if (!fs::exists(Motivating())) GTEST_SKIP() << "../shared/models/real is absent";
  CliRun r = Etmem("plan " + Motivating().string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  for (const char* s : {"validation: sound", "lower bound 24576 B", "excess 8592 B",
                        "map of buffer 1", "<- peak", "max_pool2d_with_indices"})
    EXPECT_NE(r.out.find(s), std::string::npos) << s;
}

TEST(PlanCli, OverlappingPlanExitsOneAndNamesTheValues) {
  ProgramBuilder b;
  MethodBuilder& m = b.Method("forward");
  int x = m.Tensor({.sizes = {16}, .placement = Placement{1, 0}});
  int y = m.Tensor({.sizes = {16}, .placement = Placement{1, 32}});
  m.Inputs({x});
  m.Outputs({y});
  m.KernelCall(m.Operator("aten::relu", "out"), {x, y, y});
  m.PlannedBufferSizes({96});
  const fs::path p = Temp("etmem_plan_overlap");
  ASSERT_TRUE(b.WriteFile(p.string()));
  CliRun r = Etmem("plan " + p.string());
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_NE(r.out.find("overlap: values 0 and 1 share 32 bytes of buffer 1"), std::string::npos)
      << r.out;
  const fs::path out = Temp("etmem_plan_overlap_fixed");
  CliRun fixed = Etmem("replan " + p.string() + " -o " + out.string());
  EXPECT_EQ(fixed.exit_code, 0) << fixed.out;
  EXPECT_EQ(Etmem("plan " + out.string()).exit_code, 0);
  fs::remove(p);
  fs::remove(out);
}

TEST(PlanCli, ReplanWritesASmallerSoundProgram) {
  if (!fs::exists(Motivating())) GTEST_SKIP() << "../shared/models/real is absent";
  const fs::path out = Temp("etmem_replanned");
  CliRun r = Etmem("replan " + Motivating().string() + " -o " + out.string());
  ASSERT_EQ(r.exit_code, 0) << r.out;
  EXPECT_NE(r.out.find("33168 -> 24576"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("8592 bytes of planned memory saved"), std::string::npos) << r.out;
  CliRun back = Etmem("plan " + out.string() + " --format json");
  ASSERT_EQ(back.exit_code, 0) << back.out;
  auto j = nlohmann::json::parse(back.out);
  EXPECT_TRUE(j["methods"][0]["validation"]["sound"]);
  EXPECT_EQ(j["methods"][0]["buffers"][0]["planned"], 24576);
  EXPECT_EQ(Etmem("analyze " + out.string()).exit_code, 0);
  fs::remove(out);
}

// Plans replan leaves as stored (pte_fuzzer findings, kept in fuzz/regressions/pte/): a tensor in
// a buffer the method does not declare, and a plan that needs a buffer past 2^63 - 1 bytes. No
// file is written; one line names the program, the method and why, not "a bug in etmem".
TEST(PlanCli, ReplanSaysWhyAPlanCannotBeRewritten) {
  const fs::path dir = fs::path(ETMEM_SOURCE_DIR) / "fuzz/regressions/pte";
  const struct {
    const char* file;
    const char* why;
  } cases[] = {
      {"replan_segments_under_a_zero_base.pte", "is planned in buffer 50, which the method does "
                                                "not declare"},
      {"replan_buffer_past_int64.pte", "needs a buffer larger than a planned buffer size can say"},
  };
  for (const auto& c : cases) {
    const fs::path out = Temp("etmem_unreplannable");
    const etmem::test::CliRun r =
        etmem::test::Etmem("replan " + (dir / c.file).string() + " -o " + out.string());
    EXPECT_EQ(r.exit_code, 2) << c.file;
    EXPECT_EQ(r.out, "") << c.file;
    EXPECT_NE(r.err.find("method 'forward' cannot be re-planned: "), std::string::npos) << r.err;
    EXPECT_NE(r.err.find(c.why), std::string::npos) << r.err;
    EXPECT_EQ(r.err.find("bug"), std::string::npos) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_FALSE(fs::exists(out)) << c.file;
  }
}

// `etmem replan --format json`: the buffers, the file written, its size and the saving, as the
// text says them.
TEST(PlanCli, ReplanJsonGivesTheBuffersTheFileAndTheSaving) {
  if (!fs::exists(Motivating())) GTEST_SKIP() << "../shared/models/real is absent";
  const fs::path out = Temp("etmem_replanned_json");
  const etmem::test::CliRun r =
      etmem::test::Etmem("replan " + Motivating().string() + " -o " + out.string() + " --format json");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j["output"], out.string());
  EXPECT_EQ(j["bytes"], fs::file_size(out));
  EXPECT_EQ(j["saved"], 8592);
  ASSERT_EQ(j["buffers"].size(), 1u) << r.out;
  const auto& b = j["buffers"][0];
  EXPECT_EQ(b["method"], "forward");
  EXPECT_EQ(b["memory_id"], 1);
  EXPECT_EQ(b["before"], 33168);
  EXPECT_EQ(b["after"], 24576);
  EXPECT_NE(b["planner"], "original");
  // The same figures in the text, line for line.
  CliRun text = Etmem("replan " + Motivating().string() + " -o " + out.string());
  ASSERT_EQ(text.exit_code, 0) << text.out;
  EXPECT_EQ(text.out, "method 'forward', buffer 1: 33168 -> 24576 bytes (" +
                          b["planner"].get<std::string>() + ")\nwrote " + out.string() + " (" +
                          std::to_string(fs::file_size(out)) +
                          " bytes): plan sound, 8592 bytes of planned memory saved\n");
  EXPECT_EQ(Etmem("replan " + Motivating().string() + " -o " + out.string() + " --format md")
                .exit_code,
            2);
  fs::remove(out);
}

TEST(PlanCli, UsageErrors) {
  EXPECT_EQ(Etmem("plan").exit_code, 2);
  EXPECT_EQ(Etmem("plan /nonexistent.pte").exit_code, 2);
  EXPECT_EQ(Etmem("plan x.pte --alignment 3").exit_code, 2);
  EXPECT_EQ(Etmem("replan x.pte").exit_code, 2);  // -o is required
}

}  // namespace plan_cli_test
