// Advisories and their two savings (lower bound, re-planned buffer) on builder programs whose
// savings are computed by hand in the comments, on the builder's rebuild of the motivating CNN,
// and on the real motivating program when ../shared is present.
#include <filesystem>

#include <gtest/gtest.h>

#include "etmem/plan/advise.h"
#include "etmem/plan/lifetimes.h"
#include "etmem/plan/replan.h"
#include "etmem/pte/read_program.h"
#include "etmem/testing/program_builder.h"
#include "etmem/testing/scenarios.h"

namespace etmem::plan {
namespace plan_advise_test {

namespace fs = std::filesystem;
using testing::MethodBuilder;
using testing::Placement;
using testing::ProgramBuilder;

struct Planned {
  pte::ProgramView program;
  Lifetimes lifetimes;
};

Planned Read(std::vector<uint8_t> bytes) {
  auto p = pte::ReadProgramBytes(std::move(bytes), "built.pte");
  EXPECT_TRUE(p) << p.error().message;
  auto l = ComputeLifetimes(p->methods[0]);
  EXPECT_TRUE(l) << l.error().message;
  return {std::move(p).value(), std::move(l).value()};
}

int F32(MethodBuilder& m, int32_t elements, uint64_t offset) {
  return m.Tensor({.sizes = {elements}, .placement = Placement{1, offset}});
}

// x (64 B) -> max_pool2d_with_indices -> a (64 B), indices (256 B, never read); relu(a) -> y.
// Live: instruction 0: x + a + indices = 384 B; instruction 1: a + y = 128 B.
// Stored plan: all four side by side, 448 B. Re-planned: 384 B (y reuses x's bytes).
// Without the indices: 128 B. Saving 256 B, in the lower bound and in the re-planned buffer.
TEST(PlanAdvise, UnreadOutputAtThePeakSavesItsBytesWhenReplanned) {
  ProgramBuilder b;
  MethodBuilder& m = b.Method("forward");
  int x = F32(m, 16, 0);
  int a = F32(m, 16, 64);
  int indices = F32(m, 64, 128);
  int y = F32(m, 16, 384);
  m.Inputs({x});
  m.Outputs({y});
  m.KernelCall(m.Operator("aten::max_pool2d_with_indices", "out"), {x, a, indices});
  m.KernelCall(m.Operator("aten::relu", "out"), {a, y, y});
  m.PlannedBufferSizes({448});
  Planned p = Read(b.Build());
  std::vector<Advice> advice = Advise(p.program.methods[0], p.lifetimes);
  ASSERT_EQ(advice.size(), 1u);
  EXPECT_EQ(advice[0].kind, AdviceKind::kUnreadOutput);
  EXPECT_EQ(advice[0].value, indices);
  EXPECT_EQ(advice[0].memory_id, 1u);
  EXPECT_EQ(advice[0].bound_saving, 256u);
  EXPECT_EQ(advice[0].replanned, 384);
  EXPECT_EQ(advice[0].replanned_without, 128);
  EXPECT_EQ(advice[0].planned_saving(), 256);
}

// permute_copy of a constant weight w -> wt (256 B, planned); mm(x, wt) -> y.
// Live: instruction 0: x (64) + wt (256) = 320 B; instruction 1: x + wt + y (64) = 384 B.
// Re-planned: 384 B. With wt a constant: x + y = 128 B. Saving 256 B.
TEST(PlanAdvise, RuntimeTransposeOfAConstantLeavesThePlannedBuffer) {
  ProgramBuilder b;
  MethodBuilder& m = b.Method("forward");
  int x = F32(m, 16, 0);
  int w = m.Tensor({.sizes = {8, 8}, .constant = testing::ConstantData{{}, 256}});
  int wt = m.Tensor({.sizes = {8, 8}, .placement = Placement{1, 64}});
  int y = F32(m, 16, 320);
  int dims = m.IntListOf({1, 0});
  m.Inputs({x});
  m.Outputs({y});
  m.KernelCall(m.Operator("aten::permute_copy", "out"), {w, dims, wt, wt});
  m.KernelCall(m.Operator("aten::mm", "out"), {x, wt, y, y});
  m.PlannedBufferSizes({384});
  Planned p = Read(b.Build());
  std::vector<Advice> advice = Advise(p.program.methods[0], p.lifetimes);
  ASSERT_EQ(advice.size(), 1u);
  EXPECT_EQ(advice[0].kind, AdviceKind::kConstantOpAtRuntime);
  EXPECT_EQ(advice[0].value, wt);
  EXPECT_EQ(advice[0].replanned, 384);
  EXPECT_EQ(advice[0].replanned_without, 128);
  EXPECT_EQ(advice[0].planned_saving(), 256);
  const int32_t values[] = {wt};
  EXPECT_EQ(ReplannedSizesWithout(p.lifetimes, values)[1], 128);
}

// The motivating CNN's peak (instructions 1-3: two 12288 B conv outputs, or conv + pool +
// indices) does not go away with any one flagged tensor, nor with all of them: instruction 1
// holds B and C, 24576 B, and neither is flagged. So every planned saving is 0 B, and the
// re-planned size with them is ReplanMethod's.
void ExpectMotivatingSavings(const pte::ProgramView& program) {
  auto l = ComputeLifetimes(program.methods[0]);
  ASSERT_TRUE(l) << l.error().message;
  std::vector<Advice> advice = Advise(program.methods[0], *l);
  ASSERT_EQ(advice.size(), 3u);
  EXPECT_EQ(ReplanMethod(*l).planned_buffer_sizes[1], 24576);
  for (const Advice& a : advice) {
    EXPECT_EQ(a.replanned, 24576) << a.value;
    EXPECT_EQ(a.replanned_without, 24576) << a.value;
    EXPECT_EQ(a.planned_saving(), 0) << a.value;
    EXPECT_EQ(a.bound_saving, 0u) << a.value;
  }
  EXPECT_EQ(ReplannedSizesWithout(*l, AdvisedValues(advice))[1], 24576);
}

TEST(PlanAdvise, MotivatingRebuildSavesNothingAfterReplanning) {
  Planned p = Read(testing::MotivatingCnn().Build());
  ExpectMotivatingSavings(p.program);
}

TEST(PlanAdvise, MotivatingProgramSavesNothingAfterReplanning) {
  const fs::path path =
      fs::path(ETMEM_SHARED_DIR) / "models/real/cnn_trained_2025-04-04_34b7e8d.pte";
  if (!fs::exists(path)) GTEST_SKIP() << "../shared/models/real is absent";
  auto p = pte::ReadProgram(path.string());
  ASSERT_TRUE(p) << p.error().message;
  ExpectMotivatingSavings(*p);
}

TEST(PlanAdvise, AdvisedValuesAreListedOnce) {
  std::vector<Advice> advice(3);
  advice[0].value = 7;
  advice[1].value = 3;
  advice[2].value = 7;
  EXPECT_EQ(AdvisedValues(advice), (std::vector<int32_t>{7, 3}));
}

}  // namespace plan_advise_test
}  // namespace etmem::plan
