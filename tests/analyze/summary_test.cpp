// `etmem summary`: its RAM line adds up to what `etmem analyze --format json` reports, its
// savings are the re-planned ones (a built program whose numbers are worked out by hand below),
// and on the motivating program it names the planned buffer as the biggest cost.
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "etmem_cli.h"
#include "etmem/testing/program_builder.h"

namespace etmem::test {
namespace summary_test {

using testing::MethodBuilder;
using testing::Placement;
using testing::ProgramBuilder;

void ExpectHas(const std::string& out, const std::string& text) {
  EXPECT_NE(out.find(text), std::string::npos) << "missing: " << text << "\nin:\n" << out;
}

std::string RamLine(uint64_t pool, uint64_t planned, uint64_t temp) {
  return "RAM " + std::to_string(pool + planned + temp) + " B = method pool " +
         std::to_string(pool) + " B + planned buffers " + std::to_string(planned) +
         " B + temp load peak " + std::to_string(temp) + " B";
}

// x (1024 B) -> max_pool2d_with_indices -> a (1024 B) and indices (4096 B, never read);
// relu(a) -> y (1024 B). Stored side by side: 7168 B. Live: instruction 0: x + a + indices =
// 6144 B; instruction 1: a + y = 2048 B. Re-planned: 6144 B (y reuses x's bytes), saving 1024 B.
// Without the indices: 2048 B, 4096 B more.
ProgramBuilder UnreadIndices() {
  ProgramBuilder b;
  MethodBuilder& m = b.Method("forward");
  auto f32 = [&](int32_t n, uint64_t offset) {
    return m.Tensor({.sizes = {n}, .placement = Placement{1, offset}});
  };
  int x = f32(256, 0), a = f32(256, 1024), indices = f32(1024, 2048), y = f32(256, 6144);
  m.Inputs({x});
  m.Outputs({y});
  m.KernelCall(m.Operator("aten::max_pool2d_with_indices", "out"), {x, a, indices});
  m.KernelCall(m.Operator("aten::relu", "out"), {a, y, y});
  m.PlannedBufferSizes({7168});
  return b;
}

// `etmem summary --format json`: the values the text is written from (the worked-out numbers of
// UnreadIndices above), one object, and analyze's own members where they are the same thing.
TEST(Summary, JsonHoldsTheValuesTheTextSays) {
  const fs::path p = WriteScenario(UnreadIndices(), "unread_indices_json");
  CliRun text = Etmem("summary " + p.string());
  CliRun r = Etmem("summary " + p.string() + " --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  ASSERT_EQ(j["methods"].size(), 1u);
  const nlohmann::json& m = j["methods"][0];
  EXPECT_EQ(m["name"], "forward");
  EXPECT_EQ(m["planned_bytes"], 7168);
  EXPECT_EQ(m["ram_bytes"].get<uint64_t>(), m["method_pool_bytes"].get<uint64_t>() + 7168 +
                                                m["temp_pool_bytes"].get<uint64_t>());
  ExpectHas(text.out, "RAM " + std::to_string(m["ram_bytes"].get<uint64_t>()) + " B");
  EXPECT_EQ(m["replan"]["replanned_bytes"], 6144);
  EXPECT_EQ(m["replan"]["saving_bytes"], 1024);
  ASSERT_EQ(m["advisories"].size(), 1u);
  EXPECT_EQ(m["advisories"][0]["kind"], "unread-output");
  EXPECT_EQ(m["advisories"][0]["saving_bytes"], 4096);
  EXPECT_EQ(m["advised_bytes"], 2048);
  EXPECT_EQ(m["biggest_cost"]["item"], "planned buffer 1");
  EXPECT_EQ(m["biggest_cost"]["bytes"], 7168);
  ExpectHas(text.out, "biggest single cost: " + m["biggest_cost"]["text"].get<std::string>());
  EXPECT_EQ(m["temp_allocator"]["run"]["peak_bytes"], 0);
  EXPECT_TRUE(m["temp_allocator"]["run"]["exact"]);
  EXPECT_TRUE(m["runner"].is_null());
  // The analysis it rests on, as analyze --format json gives it at top level.
  CliRun analyzed = Etmem("analyze " + p.string() + " --format json");
  const nlohmann::json a = nlohmann::json::parse(analyzed.out);
  for (const char* member : {"runtime", "target", "pool_align", "temp_allocator", "kernels",
                             "program", "flash", "notes"})
    EXPECT_EQ(j["analysis"][member], a[member]) << member;
  for (const char* member : {"load_peak_bytes", "pool_bytes", "run"})
    EXPECT_EQ(m["temp_allocator"][member], a["methods"][0]["temp_allocator"][member]) << member;
  EXPECT_EQ(j["flash_savings"]["duplicate_groups"], 0);
  EXPECT_NE(Etmem("summary " + p.string() + " --format csv").exit_code, 0);
}

// `etmem list ... --format json`: every table as {"schema", WHAT: an array of objects}, the targets with the
// fields the Cortex-M backend's scratch depends on.
TEST(Summary, ListGivesEveryTableAsJson) {
  for (const char* what : {"runtimes", "targets", "runners", "boards"}) {
    CliRun r = Etmem(std::string("list ") + what + " --format json");
    ASSERT_EQ(r.exit_code, 0) << what << r.err;
    const nlohmann::json top = nlohmann::json::parse(r.out);
    EXPECT_EQ(top["schema"], 1) << what;
    const nlohmann::json& j = top[what];
    ASSERT_TRUE(j.is_array()) << what;
    EXPECT_GT(j.size(), 4u) << what;
    CliRun text = Etmem(std::string("list ") + what);
    for (const nlohmann::json& e : j) {
      const std::string name = e.contains("name") ? e["name"] : e["version"];
      ExpectHas(text.out, name);
    }
  }
  const nlohmann::json targets =
      nlohmann::json::parse(Etmem("list targets --format json").out)["targets"];
  for (const nlohmann::json& t : targets)
    if (t["name"] == "cortex-m") {
      EXPECT_EQ(t["m_extension"], "mve");
      EXPECT_FALSE(t["m_extension_assumed"].get<std::string>().empty());
    }
  ExpectHas(Etmem("list targets").out, "M-profile extension mve (assumed:");
}

TEST(Summary, SavingsAreTheReplannedOnes) {
  const fs::path p = WriteScenario(UnreadIndices(), "unread_indices");
  CliRun r = Etmem("summary " + p.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ExpectHas(r.out, "-o SMALLER.pte: 1024 B (planned 7168 B -> 6144 B;");
  ExpectHas(r.out, "unread-output (value 2, 4096 B, aten::max_pool2d_with_indices.out at "
                   "instruction 0): saves 4096 B more (re-planned buffer 1: 6144 B -> 2048 B "
                   "without it)");
  ExpectHas(r.out, "biggest single cost: the planned buffer: 7168 B, 6144 B after etmem replan");
  ExpectHas(r.out, "temp allocator at run time: 0 B: none of these kernels allocates temp memory "
                   "while running [kernels: portable]");
}

TEST(Summary, RamAndFlashAddUpToAnalyze) {
  const fs::path p = MotivatingCnnFile();
  CliRun s = Etmem("summary " + p.string() + " --runtime 0.3");
  ASSERT_EQ(s.exit_code, 0) << s.err;
  CliRun a = Etmem("analyze " + p.string() + " --runtime 0.3 --format json");
  ASSERT_EQ(a.exit_code, 0) << a.err;
  const auto j = nlohmann::json::parse(a.out);
  const auto& m = j["methods"][0];
  const uint64_t pool = m["method_allocator"]["bytes"];
  const uint64_t temp = m["temp_allocator"]["load_peak_bytes"];
  const uint64_t planned = m["planned_buffers"][0];
  ExpectHas(s.out, RamLine(pool, planned, temp));
  ExpectHas(s.out, "flash " + std::to_string(j["flash"]["file_bytes"].get<uint64_t>()) + " B");
  ExpectHas(s.out, "biggest single cost: the planned buffer: 33168 B, 24576 B after etmem replan");
  ExpectHas(s.out, "all 3 advisories together: save 0 B more (planned 24576 B -> 24576 B)");
}

TEST(Summary, MotivatingProgram) {
  if (!HaveRealModels()) GTEST_SKIP() << "../shared/models/real is absent";
  CliRun r = Etmem("summary " + RealModel("cnn_trained_2025-04-04_34b7e8d").string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  ExpectHas(r.out, "RAM 36209 B = method pool 2896 B + planned buffers 33168 B + temp load peak "
                   "145 B");
  ExpectHas(r.out, "flash 18304 B");
  ExpectHas(r.out, "biggest single cost: the planned buffer: 33168 B, 24576 B after etmem replan");
  ExpectHas(r.out, "8592 B (planned 33168 B -> 24576 B; RAM 27617 B)");
}

TEST(Summary, UsageErrors) {
  EXPECT_EQ(Etmem("summary").exit_code, 2);
  EXPECT_EQ(Etmem("summary /nonexistent.pte").exit_code, 2);
  EXPECT_EQ(Etmem("summary " + MotivatingCnnFile().string() + " --runtime all").exit_code, 2);
  EXPECT_EQ(Etmem("summary " + MotivatingCnnFile().string() + " --method nope").exit_code, 2);
}

}  // namespace summary_test
}  // namespace etmem::test
