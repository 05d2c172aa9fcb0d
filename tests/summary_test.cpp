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
