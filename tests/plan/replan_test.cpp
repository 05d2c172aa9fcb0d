// Re-planning: the planners never produce an overlap (random inputs from a fixed seed), reach
// the lower bound where it is reachable, never lose to the stored plan, and the rewritten
// program changes nothing but planned offsets and planned_buffer_sizes.
#include <cstring>
#include <filesystem>
#include <random>

#include <gtest/gtest.h>

#include "etmem/base/checked_math.h"
#include "etmem/etmem.h"
#include "etmem/plan/check.h"
#include "etmem/plan/replan.h"
#include "etmem/plan/rewrite.h"
#include "etmem/pte/mapped_file.h"
#include "etmem/pte/read_program.h"
#include "etmem/testing/program_builder.h"
#include "etmem/testing/scenarios.h"
#include "etmem/testing/view_contents.h"

namespace etmem::plan {
namespace plan_replan_test {

namespace fs = std::filesystem;
using testing::MethodBuilder;
using testing::Placement;
using testing::ProgramBuilder;

uint64_t PeakLive(const std::vector<Buffer>& b, uint64_t align) {
  int64_t end = 0;
  for (const Buffer& x : b) end = std::max(end, x.last);
  uint64_t peak = 0;
  for (int64_t i = 0; i <= end; ++i) {
    uint64_t live = 0;
    for (const Buffer& x : b)
      if (x.first <= i && i <= x.last) live += AlignUp(x.size, align);
    peak = std::max(peak, live);
  }
  return peak;
}

std::vector<Buffer> RandomBuffers(std::mt19937_64& rng, size_t n) {
  std::uniform_int_distribution<int64_t> at(0, 40), len(0, 8);
  std::uniform_int_distribution<uint64_t> size(0, 5000);
  std::vector<Buffer> b;
  for (size_t i = 0; i < n; ++i) {
    int64_t first = at(rng);
    b.push_back({size(rng), first, first + len(rng)});
  }
  return b;
}

TEST(PlanReplan, CheckPlanRejectsSharedBytesWhenLifetimesTouch) {
  std::vector<Buffer> b = {{64, 0, 1}, {64, 1, 2}, {64, 2, 3}};
  EXPECT_FALSE(CheckPlan(b, std::vector<uint64_t>{0, 0, 64}, 16));   // 0 and 1 touch at 1
  EXPECT_TRUE(CheckPlan(b, std::vector<uint64_t>{0, 64, 0}, 16));    // 0 and 2 never meet
  EXPECT_FALSE(CheckPlan(b, std::vector<uint64_t>{0, 72, 0}, 16));   // misaligned
  EXPECT_FALSE(CheckPlan(b, std::vector<uint64_t>{0, 63, 128}, 1));  // one byte shared
}

TEST(PlanReplan, EveryPlannerIsOverlapFreeOnRandomInputs) {
  std::mt19937_64 rng(20250404);
  std::unique_ptr<MemoryPlanner> planners[] = {GreedyBySize(), GreedyByConflicts(), HillClimb(50)};
  for (int round = 0; round < 200; ++round) {
    std::vector<Buffer> b = RandomBuffers(rng, 1 + round % 60);
    for (uint64_t align : {1u, 16u, 64u})
      for (const auto& p : planners) {
        std::vector<uint64_t> offsets = p->Place(b, align);
        ASSERT_TRUE(CheckPlan(b, offsets, align)) << p->name() << " round " << round;
        EXPECT_GE(PlanSize(b, offsets) + align, PeakLive(b, align)) << p->name();
      }
  }
}

TEST(PlanReplan, BestPlanIsNoWorseThanAnySinglePlanner) {
  std::mt19937_64 rng(7);
  for (int round = 0; round < 50; ++round) {
    std::vector<Buffer> b = RandomBuffers(rng, 30);
    PlanChoice best = BestPlan(b, 16);
    ASSERT_TRUE(CheckPlan(b, best.offsets, 16));
    EXPECT_LE(best.size, PlanSize(b, GreedyBySize()->Place(b, 16)));
    EXPECT_LE(best.size, PlanSize(b, GreedyByConflicts()->Place(b, 16)));
  }
}

TEST(PlanReplan, ChainReachesTheLowerBound) {
  // Ping-pong: each buffer meets only its neighbours, so two slots suffice.
  std::vector<Buffer> b;
  for (int64_t i = 0; i < 10; ++i) b.push_back({256, i, i + 1});
  PlanChoice best = BestPlan(b, 16);
  EXPECT_EQ(best.size, 512u);
}

// A wasteful stored plan: four 64-byte tensors in a chain, each at its own offset.
ProgramBuilder Wasteful(bool with_constant_segment) {
  ProgramBuilder program;
  MethodBuilder& m = program.Method("forward");
  int prev = m.Tensor({.sizes = {16}, .placement = Placement{1, 0}});
  m.Inputs({prev});
  int relu = m.Operator("aten::relu", "out");
  int w = with_constant_segment
              ? m.Tensor({.sizes = {16}, .constant = testing::ConstantData{{}, 64}})
              : -1;
  for (int i = 1; i < 4; ++i) {
    int next = m.Tensor({.sizes = {16}, .placement = Placement{1, 64u * i}});
    if (w >= 0 && i == 1) m.KernelCall(m.Operator("aten::add", "out"), {prev, w, next, next});
    else m.KernelCall(relu, {prev, next, next});
    prev = next;
  }
  m.Outputs({prev});
  m.PlannedBufferSizes({256});
  return program;
}

TEST(PlanReplan, ReplanMethodShrinksAWastefulPlanAndKeepsAGoodOne) {
  auto p = pte::ReadProgramBytes(Wasteful(false).Build(), "wasteful.pte");
  ASSERT_TRUE(p) << p.error().message;
  auto l = ComputeLifetimes(p->methods[0]);
  ASSERT_TRUE(l);
  MethodReplan r = ReplanMethod(*l);
  ASSERT_EQ(r.buffers.size(), 1u);
  EXPECT_EQ(r.buffers[0].before, 256);
  EXPECT_EQ(r.buffers[0].after, 128);
  EXPECT_EQ(r.saved(), 128);
  // Re-planning the result again keeps it: nothing beats 128.
  Lifetimes again = *l;
  for (size_t i = 0; i < again.tensors.size(); ++i) again.tensors[i].offset = r.offsets[i];
  again.planned_buffer_sizes = r.planned_buffer_sizes;
  ASSERT_TRUE(Validate(again).sound());
  MethodReplan kept = ReplanMethod(again);
  EXPECT_EQ(kept.buffers[0].planner, "original");
  EXPECT_EQ(kept.saved(), 0);
}

// A 32-bit target refuses an offset with a high word (NotSupported from 0.2): re-planning a
// buffer of more than 4 GiB prefers a plan whose offsets all fit in 32 bits, here small tensors
// first and the 4 GiB one after them, over greedy-by-size's (the huge one at 0, the others
// above 4 GiB); pte_fuzzer finding, fuzz/regressions/pte/replan_offset_above_4_gib.pte.
TEST(PlanReplan, AHugeBufferIsReplannedWithOffsetsBelow4GiB) {
  ProgramBuilder program;
  MethodBuilder& m = program.Method("forward");
  // 2^30 floats: 4 GiB, live together with two small tensors that the stored plan puts first.
  int small = m.Tensor({.sizes = {4}, .placement = Placement{1, 0}});
  int big = m.Tensor({.sizes = {1 << 30}, .placement = Placement{1, 1024}});
  int out = m.Tensor({.sizes = {4}, .placement = Placement{1, 64}});
  m.Inputs({small, big});
  m.Outputs({out});
  m.KernelCall(m.Operator("aten::add", "out"), {small, big, out, out});
  m.PlannedBufferSizes({1024 + (int64_t{4} << 30)});
  auto p = pte::ReadProgramBytes(program.Build(), "huge.pte");
  ASSERT_TRUE(p) << p.error().message;
  auto l = ComputeLifetimes(p->methods[0]);
  ASSERT_TRUE(l) << l.error().message;
  ASSERT_TRUE(Validate(*l).sound());
  const MethodReplan r = ReplanMethod(*l);
  ASSERT_EQ(r.buffers.size(), 1u);
  EXPECT_EQ(r.buffers[0].planner, "smallest-first");
  EXPECT_FALSE(r.buffers[0].offsets_need_64_bits);
  EXPECT_EQ(r.saved(), 1024 - 32);
  for (uint64_t offset : r.offsets) EXPECT_EQ(offset >> 32, 0u) << offset;
  Lifetimes replanned = *l;
  for (size_t i = 0; i < replanned.tensors.size(); ++i) replanned.tensors[i].offset = r.offsets[i];
  replanned.planned_buffer_sizes = r.planned_buffer_sizes;
  EXPECT_TRUE(Validate(replanned).sound());
  // The same shape below 4 GiB: greedy-by-size's plan fits, smallest-first is not tried.
  ProgramBuilder smaller;
  MethodBuilder& s = smaller.Method("forward");
  int a = s.Tensor({.sizes = {4}, .placement = Placement{1, 0}});
  int b = s.Tensor({.sizes = {1024}, .placement = Placement{1, 1024}});
  int c = s.Tensor({.sizes = {4}, .placement = Placement{1, 64}});
  s.Inputs({a, b});
  s.Outputs({c});
  s.KernelCall(s.Operator("aten::add", "out"), {a, b, c, c});
  s.PlannedBufferSizes({1024 + 4096});
  auto q = pte::ReadProgramBytes(smaller.Build(), "small.pte");
  ASSERT_TRUE(q);
  auto lq = ComputeLifetimes(q->methods[0]);
  ASSERT_TRUE(lq);
  const std::string planner = ReplanMethod(*lq).buffers[0].planner;
  EXPECT_NE(planner, "original");
  EXPECT_NE(planner, "smallest-first");
}

// The open pte_fuzzer finding of 2026-12-02 (kept as fuzz/regressions/pte/
// replan_no_sound_32bit_plan.pte): two tensors of more than 4 GiB, live together, that the stored
// plan overlaps below 4 GiB. A 32-bit target's release may load that plan (the runtime checks no
// overlap), but every sound plan puts one of them at 4 GiB or more: replan writes the sound plan
// and says a 32-bit target cannot use it.
TEST(PlanReplan, AnUnsoundPlanThatNoSound32BitPlanReplacesIsNoted) {
  ProgramBuilder program;
  MethodBuilder& m = program.Method("forward");
  const int64_t floats = (int64_t{1} << 30) + 16;  // 4 GiB + 64 B each
  int a = m.Tensor({.sizes = {floats}, .placement = Placement{1, 0}});
  int b = m.Tensor({.sizes = {floats}, .placement = Placement{1, 128}});  // on a while both live
  m.Inputs({a});
  m.Outputs({b});
  m.KernelCall(m.Operator("aten::relu", "out"), {a, b, b});
  m.PlannedBufferSizes({128 + floats * 4});
  const std::vector<uint8_t> bytes = program.Build();
  auto p = pte::ReadProgramBytes(bytes, "two_huge.pte");
  ASSERT_TRUE(p) << p.error().message;
  auto l = ComputeLifetimes(p->methods[0]);
  ASSERT_TRUE(l) << l.error().message;
  ASSERT_FALSE(Validate(*l).sound());
  const MethodReplan r = ReplanMethod(*l);
  ASSERT_EQ(r.buffers.size(), 1u);
  EXPECT_NE(r.buffers[0].planner, "original");
  EXPECT_TRUE(r.buffers[0].offsets_need_64_bits);
  Lifetimes fixed = *l;
  for (size_t i = 0; i < fixed.tensors.size(); ++i) fixed.tensors[i].offset = r.offsets[i];
  fixed.planned_buffer_sizes = r.planned_buffer_sizes;
  EXPECT_TRUE(Validate(fixed).sound());
  // The note reaches `etmem replan`'s text and JSON.
  const api::Program program_api =
      api::Program::FromBytes(bytes.data(), bytes.size(), "two_huge.pte");
  const api::Replanned replanned = api::Replan(program_api);
  ASSERT_EQ(replanned.buffers.size(), 1u);
  EXPECT_TRUE(replanned.buffers[0].offsets_need_64_bits);
  const fs::path out = fs::temp_directory_path() / "etmem_two_huge_replanned.pte";
  const api::ReplannedFile written = api::WriteReplanned(replanned, out.string());
  fs::remove(out);
  EXPECT_NE(api::Render(written, api::Format::kText)
                .find("\n  note: a tensor sits at 4 GiB or more, and no sound plan found keeps"),
            std::string::npos);
  EXPECT_NE(api::Render(written, api::Format::kJson).find("\"offsets_need_64_bits\": true"),
            std::string::npos);
}

// Issue 39: a plan without non_const_buffer_sizes (no release loads it) is copied as it is, and
// the good method beside it is re-planned; before, the whole file was refused.
TEST(PlanReplan, APlanWithoutItsBufferSizesIsCopiedAndTheOtherMethodsReplanned) {
  std::vector<uint8_t> bytes;
  for (const testing::NamedScenario& s : testing::MethodScenarios())
    if (std::string(s.name) == "method_meta_without_planned_sizes") bytes = s.make().Build();
  ASSERT_FALSE(bytes.empty());
  const api::Program program_api = api::Program::FromBytes(bytes.data(), bytes.size(), "m.pte");
  const api::Replanned replanned = api::Replan(program_api);
  ASSERT_FALSE(replanned.buffers.empty());
  for (const auto& b : replanned.buffers) EXPECT_EQ(b.method, "forward");
  std::vector<uint8_t> raw(replanned.program.size());
  std::memcpy(raw.data(), replanned.program.data(), raw.size());
  auto back = pte::ReadProgramBytes(raw, "back.pte");
  ASSERT_TRUE(back) << back.error().message;
  ASSERT_EQ(back->methods.size(), 2u);
  EXPECT_FALSE(back->methods[1].has_planned_buffer_sizes_vector);
}

TEST(PlanReplan, ReplanRepairsAnOverlappingPlan) {
  ProgramBuilder program;
  MethodBuilder& m = program.Method("forward");
  int x = m.Tensor({.sizes = {16}, .placement = Placement{1, 0}});
  int y = m.Tensor({.sizes = {16}, .placement = Placement{1, 0}});  // on x while both live
  m.Inputs({x});
  m.Outputs({y});
  m.KernelCall(m.Operator("aten::relu", "out"), {x, y, y});
  m.PlannedBufferSizes({64});
  auto p = pte::ReadProgramBytes(program.Build(), "overlap.pte");
  ASSERT_TRUE(p);
  auto l = ComputeLifetimes(p->methods[0]);
  ASSERT_TRUE(l);
  ASSERT_FALSE(Validate(*l).sound());
  MethodReplan r = ReplanMethod(*l);
  EXPECT_EQ(r.planned_buffer_sizes[1], 128);  // larger, but sound
  Lifetimes fixed = *l;
  for (size_t i = 0; i < fixed.tensors.size(); ++i) fixed.tensors[i].offset = r.offsets[i];
  fixed.planned_buffer_sizes = r.planned_buffer_sizes;
  EXPECT_TRUE(Validate(fixed).sound());
}

// Rewrites with the re-plan and reads the result back.
pte::ProgramView RewriteAndRead(const pte::ProgramView& in, std::vector<uint8_t>& bytes) {
  std::vector<PlanEdit> edits;
  for (size_t i = 0; i < in.methods.size(); ++i) {
    auto l = ComputeLifetimes(in.methods[i]);
    EXPECT_TRUE(l);
    MethodReplan r = ReplanMethod(*l);
    PlanEdit e{i, {}, r.offsets, r.planned_buffer_sizes};
    for (const PlannedTensor& t : l->tensors) e.values.push_back(t.value);
    edits.push_back(std::move(e));
  }
  auto out = RewritePlan(in, edits);
  EXPECT_TRUE(out) << out.error().message;
  bytes = std::move(out).value();
  auto back = pte::ReadProgramBytes(bytes, "rewritten.pte");
  EXPECT_TRUE(back) << back.error().message;
  return std::move(back).value();
}

// Everything but planned offsets and planned_buffer_sizes is equal; segments are byte-equal.
void ExpectOnlyThePlanChanged(const pte::ProgramView& a, std::span<const uint8_t> a_bytes,
                              const pte::ProgramView& b, std::span<const uint8_t> b_bytes) {
  ASSERT_EQ(a.methods.size(), b.methods.size());
  ASSERT_EQ(a.header.has_value(), b.header.has_value());
  if (a.header) {
    EXPECT_EQ(a.header->length, b.header->length);
    EXPECT_EQ(a.header->segment_data_size, b.header->segment_data_size);
  }
  ASSERT_EQ(a.segments.size(), b.segments.size());
  for (size_t s = 0; s < a.segments.size(); ++s) {
    EXPECT_EQ(a.segments[s].offset, b.segments[s].offset);
    ASSERT_EQ(a.segments[s].size, b.segments[s].size);
    const uint64_t ao = a.header->segment_base_offset + a.segments[s].offset;
    const uint64_t bo = b.header->segment_base_offset + b.segments[s].offset;
    EXPECT_TRUE(std::equal(a_bytes.begin() + ao, a_bytes.begin() + ao + a.segments[s].size,
                           b_bytes.begin() + bo));
  }
  for (size_t i = 0; i < a.methods.size(); ++i) {
    const pte::MethodView& x = a.methods[i];
    const pte::MethodView& y = b.methods[i];
    EXPECT_EQ(testing::AllSizes(x), testing::AllSizes(y));
    EXPECT_EQ(testing::AllArgs(x), testing::AllArgs(y));
    EXPECT_EQ(x.inputs, y.inputs);
    EXPECT_EQ(x.outputs, y.outputs);
    EXPECT_EQ(testing::AllListItems(x), testing::AllListItems(y));
    EXPECT_EQ(x.instructions.size(), y.instructions.size());
    EXPECT_EQ(x.planned_buffer_sizes.size(), y.planned_buffer_sizes.size());
    ASSERT_EQ(x.tensors.size(), y.tensors.size());
    for (size_t t = 0; t < x.tensors.size(); ++t) {
      EXPECT_EQ(x.tensors[t].dtype, y.tensors[t].dtype);
      EXPECT_EQ(x.tensors[t].planned, y.tensors[t].planned);
      EXPECT_EQ(x.tensors[t].memory_id, y.tensors[t].memory_id);
      EXPECT_EQ(x.tensors[t].data_index, y.tensors[t].data_index);
      if (!x.tensors[t].planned) {
        EXPECT_EQ(x.tensors[t].offset, y.tensors[t].offset);
      }
    }
  }
}

TEST(PlanRewrite, BuiltProgramWithSegmentsKeepsEverythingButThePlan) {
  for (uint32_t header : {24u, 32u}) {
    ProgramBuilder b = Wasteful(true);
    b.HeaderLength(header);
    std::vector<uint8_t> in_bytes = b.Build();
    auto in = pte::ReadProgramBytes(in_bytes, "wasteful.pte");
    ASSERT_TRUE(in) << in.error().message;
    ASSERT_TRUE(in->header);
    std::vector<uint8_t> out_bytes;
    pte::ProgramView out = RewriteAndRead(*in, out_bytes);
    ExpectOnlyThePlanChanged(*in, in_bytes, out, out_bytes);
    EXPECT_EQ(out.methods[0].planned_buffer_sizes[1], 128);
    auto l = ComputeLifetimes(out.methods[0]);
    ASSERT_TRUE(l);
    EXPECT_TRUE(Validate(*l).sound());
  }
}

TEST(PlanRewrite, MotivatingProgramShrinksFrom33168To24576) {
  const fs::path path =
      fs::path(ETMEM_SHARED_DIR) / "models/real/cnn_trained_2025-04-04_34b7e8d.pte";
  if (!fs::exists(path)) GTEST_SKIP() << "../shared/models/real is absent";
  auto in = pte::ReadProgram(path.string());
  ASSERT_TRUE(in) << in.error().message;
  std::vector<uint8_t> out_bytes;
  pte::ProgramView out = RewriteAndRead(*in, out_bytes);
  ExpectOnlyThePlanChanged(*in, in->file->bytes(), out, out_bytes);
  EXPECT_EQ(in->methods[0].planned_buffer_sizes[1], 33168);
  EXPECT_EQ(out.methods[0].planned_buffer_sizes[1], 24576);
  auto l = ComputeLifetimes(out.methods[0]);
  ASSERT_TRUE(l);
  EXPECT_TRUE(Validate(*l).sound());
}

}  // namespace plan_replan_test
}  // namespace etmem::plan
