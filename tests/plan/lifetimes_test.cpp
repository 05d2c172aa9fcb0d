// Live ranges, validation, bounds and advisories of hand-built programs with known lifetimes
// (etmem/testing), and of the motivating real program when ../shared is present.
#include <filesystem>

#include <gtest/gtest.h>

#include "etmem/plan/advise.h"
#include "etmem/plan/check.h"
#include "etmem/plan/lifetimes.h"
#include "etmem/pte/read_program.h"
#include "etmem/testing/program_builder.h"
#include "etmem/testing/scenarios.h"

namespace etmem::plan {
namespace plan_lifetimes_test {

namespace fs = std::filesystem;
using testing::MethodBuilder;
using testing::Placement;
using testing::ProgramBuilder;

pte::ProgramView Read(const ProgramBuilder& b) {
  auto p = pte::ReadProgramBytes(b.Build(), "built.pte");
  EXPECT_TRUE(p) << p.error().message;
  return std::move(p).value();
}

Lifetimes LifetimesOf(const pte::ProgramView& p, size_t method = 0) {
  auto l = ComputeLifetimes(p.methods[method]);
  EXPECT_TRUE(l) << l.error().message;
  return std::move(l).value();
}

const PlannedTensor& TensorOf(const Lifetimes& l, int value) {
  for (const PlannedTensor& t : l.tensors)
    if (t.value == value) return t;
  ADD_FAILURE() << "value " << value << " is not planned";
  return l.tensors.front();
}

int F32(MethodBuilder& m, std::vector<int32_t> sizes, uint64_t offset, uint32_t memory_id = 1) {
  return m.Tensor({.sizes = std::move(sizes), .placement = Placement{memory_id, offset}});
}

// x -> a -> b -> y, each 64 bytes: x [0,0], a [0,1], b [1,2], y [2,2] (an output, live to the end).
struct Chain3 {
  ProgramBuilder program;
  int x, a, b, y;
};
Chain3 MakeChain3(uint64_t b_offset = 64) {
  Chain3 c;
  MethodBuilder& m = c.program.Method("forward");
  c.x = F32(m, {16}, 0);
  c.a = F32(m, {16}, 64);
  c.b = F32(m, {16}, b_offset);
  c.y = F32(m, {16}, b_offset == 0 ? 64 : 0);  // never on b's bytes
  m.Inputs({c.x});
  m.Outputs({c.y});
  int relu = m.Operator("aten::relu", "out");
  m.KernelCall(relu, {c.x, c.a, c.a});
  m.KernelCall(relu, {c.a, c.b, c.b});
  m.KernelCall(relu, {c.b, c.y, c.y});
  m.PlannedBufferSizes({128});
  return c;
}

TEST(PlanLifetimes, ElementSizesFollowScalarTypeCodes) {
  EXPECT_EQ(ElementSize(0), 1u);
  EXPECT_EQ(ElementSize(4), 8u);
  EXPECT_EQ(ElementSize(8), 4u);
  EXPECT_EQ(ElementSize(10), 16u);
  EXPECT_EQ(ElementSize(15), 2u);
  EXPECT_EQ(ElementSize(22), 2u);
  EXPECT_EQ(ElementSize(24), 1u);
  EXPECT_EQ(ElementSize(29), 8u);
  EXPECT_FALSE(ElementSize(30));
  EXPECT_FALSE(ElementSize(-1));
}

TEST(PlanLifetimes, ChainOfCallsHasKnownRanges) {
  Chain3 c = MakeChain3();
  pte::ProgramView p = Read(c.program);
  Lifetimes l = LifetimesOf(p);
  ASSERT_EQ(l.tensors.size(), 4u);
  EXPECT_EQ(l.instructions, 3);
  using Range = std::pair<int64_t, int64_t>;
  auto range = [&](int v) { return Range(TensorOf(l, v).first, TensorOf(l, v).last); };
  EXPECT_EQ(range(c.x), Range(0, 0));
  EXPECT_EQ(range(c.a), Range(0, 1));
  EXPECT_EQ(range(c.b), Range(1, 2));
  EXPECT_EQ(range(c.y), Range(2, 2));
  EXPECT_EQ(TensorOf(l, c.a).bytes, 64u);
  EXPECT_TRUE(TensorOf(l, c.x).input);
  EXPECT_TRUE(TensorOf(l, c.y).output);
}

TEST(PlanCheck, SoundPlanIsSoundAndBoundsAreExact) {
  Chain3 c = MakeChain3(/*b_offset=*/0);
  pte::ProgramView p = Read(c.program);
  Lifetimes l = LifetimesOf(p);
  Validation v = Validate(l);
  EXPECT_TRUE(v.sound()) << v.overlaps.size() << " " << v.misplaced.size();
  std::vector<BufferBounds> b = ComputeBounds(l);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].planned, 128);
  EXPECT_EQ(b[0].lower_bound, 128u);  // two 64-byte tensors live at every instruction
  EXPECT_EQ(b[0].excess(), 0);
}

TEST(PlanCheck, OverlappingPlanNamesTheValuesAndTheInstruction) {
  Chain3 c = MakeChain3(/*b_offset=*/64);  // b on a's bytes while a is read by instruction 1
  pte::ProgramView p = Read(c.program);
  Validation v = Validate(LifetimesOf(p));
  EXPECT_FALSE(v.sound());
  ASSERT_EQ(v.overlaps.size(), 1u);
  EXPECT_EQ(v.overlaps[0].a, c.a);
  EXPECT_EQ(v.overlaps[0].b, c.b);
  EXPECT_EQ(v.overlaps[0].instruction, 1);
  EXPECT_EQ(v.overlaps[0].overlap_bytes, 64u);
}

TEST(PlanCheck, TensorsOutsideTheirBufferAreReported) {
  ProgramBuilder b;
  MethodBuilder& m = b.Method("forward");
  int x = F32(m, {16}, 96);         // 64 bytes at 96 in a 128-byte buffer
  int y = F32(m, {4}, 0, /*memory_id=*/2);  // buffer 2 does not exist
  int z = F32(m, {4}, 0, /*memory_id=*/0);  // memory id 0 is reserved
  m.Inputs({x});
  m.Outputs({y});
  m.KernelCall(m.Operator("aten::relu", "out"), {x, z, y});
  m.PlannedBufferSizes({128});
  Validation v = Validate(LifetimesOf(Read(b)));
  ASSERT_EQ(v.misplaced.size(), 3u);
  EXPECT_EQ(v.misplaced[0].value, x);
  EXPECT_EQ(v.misplaced[0].buffer_size, 128);
  EXPECT_EQ(v.misplaced[1].value, y);
  EXPECT_EQ(v.misplaced[1].buffer_size, -1);
  EXPECT_EQ(v.misplaced[2].value, z);
  EXPECT_EQ(v.misplaced[2].buffer_size, -1);
}

TEST(PlanLifetimes, BackwardJumpStretchesRangesOverTheLoop) {
  pte::ProgramView p = Read(testing::ProgramWithControlFlow());
  Lifetimes l = LifetimesOf(p);
  // Chain 0 is a loop over instructions 0..2; the tmp tensor (value 2) is used at 0, 1 and 3
  // (free) in chain 0 and later chains.
  const PlannedTensor& tmp = TensorOf(l, 2);
  EXPECT_EQ(tmp.first, 0);
  EXPECT_GE(tmp.last, 2);
  for (const PlannedTensor& t : l.tensors)
    if (t.used && t.first <= 2 && t.last >= 0) {
      EXPECT_EQ(t.first, 0) << t.value;
      EXPECT_GE(t.last, 2) << t.value;
    }
}

TEST(PlanLifetimes, LoopBodyTemporaryLivesAcrossTheWholeLoop) {
  ProgramBuilder b;
  MethodBuilder& m = b.Method("forward");
  int x = F32(m, {4}, 0);
  int t = F32(m, {4}, 16);
  int y = F32(m, {4}, 32);
  int cond = m.Bool(false);
  m.Inputs({x});
  m.Outputs({y});
  int relu = m.Operator("aten::relu", "out");
  m.KernelCall(relu, {x, y, y});     // 0
  m.KernelCall(relu, {y, t, t});     // 1: loop body starts
  m.KernelCall(relu, {t, y, y});     // 2
  m.JumpFalse(cond, 1);              // 3: back to 1
  m.KernelCall(relu, {y, y, y});     // 4
  m.PlannedBufferSizes({48});
  Lifetimes l = LifetimesOf(Read(b));
  EXPECT_EQ(TensorOf(l, t).first, 1);
  EXPECT_EQ(TensorOf(l, t).last, 3);  // used at 1 and 2 only, but the loop runs to 3
}

TEST(PlanLifetimes, TensorListItemsAreUsedByTheCallThatNamesTheList) {
  ProgramBuilder b;
  MethodBuilder& m = b.Method("forward");
  int x = F32(m, {4}, 0);
  int p0 = F32(m, {4}, 16);
  int p1 = F32(m, {4}, 32);
  int y = F32(m, {8}, 48);
  int list = m.TensorList({p0, p1});
  int dim = m.Int(0);
  m.Inputs({x});
  m.Outputs({y});
  int relu = m.Operator("aten::relu", "out");
  m.KernelCall(relu, {x, p0, p0});                           // 0
  m.KernelCall(relu, {x, p1, p1});                           // 1
  m.KernelCall(m.Operator("aten::cat", "out"), {list, dim, y, y});  // 2
  m.PlannedBufferSizes({80});
  Lifetimes l = LifetimesOf(Read(b));
  EXPECT_EQ(TensorOf(l, p0).first, 0);
  EXPECT_EQ(TensorOf(l, p0).last, 2);
  EXPECT_EQ(TensorOf(l, p1).first, 1);
  EXPECT_EQ(TensorOf(l, p1).last, 2);
}

TEST(PlanCheck, TwoMemoryIdsAreCheckedAndBoundedSeparately) {
  ProgramBuilder b;
  MethodBuilder& m = b.Method("forward");
  int x = F32(m, {16}, 0, 1);
  int y = F32(m, {16}, 0, 2);  // same offset, other buffer: no overlap
  int z = F32(m, {4}, 0, 2);   // other buffer, same bytes as y, live together: overlap
  m.Inputs({x});
  m.Outputs({y, z});
  m.KernelCall(m.Operator("aten::relu", "out"), {x, y, y});
  m.PlannedBufferSizes({64, 64});
  Lifetimes l = LifetimesOf(Read(b));
  Validation v = Validate(l);
  ASSERT_EQ(v.overlaps.size(), 1u);
  EXPECT_EQ(v.overlaps[0].memory_id, 2u);
  std::vector<BufferBounds> bounds = ComputeBounds(l);
  ASSERT_EQ(bounds.size(), 2u);
  EXPECT_EQ(bounds[0].lower_bound, 64u);
  EXPECT_EQ(bounds[1].lower_bound, 80u);  // 64 + 16 (16 rounded up to 16)
}

TEST(PlanCheck, EtViewOutputSharesItsInputsStorage) {
  ProgramBuilder b;
  MethodBuilder& m = b.Method("forward");
  int x = F32(m, {2, 8}, 0);
  int v = F32(m, {16}, 0);  // the view: same bytes as x
  int y = F32(m, {16}, 64);
  int sizes = m.IntListOf({16});
  m.Inputs({x});
  m.Outputs({y});
  m.KernelCall(m.Operator("executorch_prim::et_view", "default"), {x, sizes, v});
  m.KernelCall(m.Operator("aten::relu", "out"), {v, y, y});
  m.PlannedBufferSizes({128});
  Lifetimes l = LifetimesOf(Read(b));
  EXPECT_TRUE(Validate(l).sound());
  EXPECT_EQ(TensorOf(l, x).last, 1);  // the storage lives as long as its view
  EXPECT_EQ(ComputeBounds(l)[0].lower_bound, 128u);  // counted once, not twice
}

fs::path Motivating() {
  return fs::path(ETMEM_SHARED_DIR) / "models/real/cnn_trained_2025-04-04_34b7e8d.pte";
}

TEST(PlanReal, MotivatingProgramIsSoundWithKnownBoundsAndAdvisories) {
  if (!fs::exists(Motivating())) GTEST_SKIP() << "../shared/models/real is absent";
  auto p = pte::ReadProgram(Motivating().string());
  ASSERT_TRUE(p) << p.error().message;
  Lifetimes l = LifetimesOf(*p);
  EXPECT_TRUE(Validate(l).sound());
  std::vector<BufferBounds> b = ComputeBounds(l);
  ASSERT_EQ(b.size(), 1u);
  EXPECT_EQ(b[0].planned, 33168);
  EXPECT_EQ(b[0].lower_bound, 24576u);
  std::vector<Advice> advice = Advise(p->methods[0], l);
  bool indices = false, permute = false;
  for (const Advice& a : advice) {
    if (a.kind == AdviceKind::kUnreadOutput && a.op.find("max_pool2d_with_indices") != std::string::npos) {
      indices = true;
      EXPECT_EQ(a.bytes, 8192u);
      EXPECT_EQ(TensorOf(l, a.value).dtype, 4);  // int64 indices
    }
    if (a.kind == AdviceKind::kConstantOpAtRuntime && a.op.find("permute_copy") != std::string::npos)
      permute = true;
  }
  EXPECT_TRUE(indices);
  EXPECT_TRUE(permute);
}

}  // namespace plan_lifetimes_test
}  // namespace etmem::plan
