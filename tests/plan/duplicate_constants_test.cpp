// The duplicate-constants advisory on builder programs whose constant bytes are chosen here:
// identical copies (constant segment, inline buffers, across methods, through a tensor list) are
// found with their readers and the flash the other copies take; equal-sized constants with other
// contents or another dtype are not findings.
#include <algorithm>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "etmem_cli.h"

#include "etmem/plan/duplicate_constants.h"
#include "etmem/pte/read_program.h"
#include "etmem/testing/program_builder.h"
#include "etmem/testing/scenario_helpers.h"
#include "etmem/testing/scenarios.h"

namespace etmem::plan {
namespace plan_duplicates_test {

using testing::ConstantData;
using testing::MethodBuilder;
using testing::Placement;
using testing::ProgramBuilder;

std::vector<uint8_t> Pattern(size_t n, uint8_t seed) {
  std::vector<uint8_t> out(n);
  for (size_t i = 0; i < n; ++i) out[i] = static_cast<uint8_t>(seed + i * 7);
  return out;
}

int Constant(MethodBuilder& m, std::vector<uint8_t> bytes, int8_t dtype = testing::kFloat32) {
  const auto elements = static_cast<int32_t>(bytes.size() / testing::ElementSize(dtype));
  return m.Tensor({.dtype = dtype, .sizes = {elements}, .constant = ConstantData{std::move(bytes)}});
}

// The method's input x and output y: `elements` floats each, side by side in planned buffer 1.
struct InOut {
  int x, y;
};
InOut PlannedInOut(MethodBuilder& m, int32_t elements) {
  const auto bytes = static_cast<uint64_t>(elements) * 4;
  const int x = m.Tensor({.sizes = {elements}, .placement = Placement{1, 0}});
  const int y = m.Tensor({.sizes = {elements}, .placement = Placement{1, bytes}});
  m.Inputs({x});
  m.Outputs({y});
  m.PlannedBufferSizes({static_cast<int64_t>(2 * bytes)});
  return {x, y};
}

// x -> add(x, w) -> y. Returns the call's instruction index.
int AddCall(MethodBuilder& m, int x, int w, int y) {
  return m.KernelCall(m.Operator("aten::add", "out"), {x, w, y, y});
}

pte::ProgramView Read(const ProgramBuilder& b) {
  auto p = pte::ReadProgramBytes(b.Build(), "built.pte");
  EXPECT_TRUE(p) << p.error().message;
  return std::move(p).value();
}

// w0 and w1 hold the same 64 bytes (16 floats); w2 is as large with other contents.
ProgramBuilder TwoIdenticalWeights(bool in_segment, int* w0, int* w1, int* w2) {
  ProgramBuilder b;
  b.ConstantsInSegment(in_segment);
  MethodBuilder& m = b.Method("forward");
  const auto [x, y] = PlannedInOut(m, 16);
  *w0 = Constant(m, Pattern(64, 1));
  *w1 = Constant(m, Pattern(64, 1));
  *w2 = Constant(m, Pattern(64, 2));
  AddCall(m, x, *w0, y);
  AddCall(m, y, *w2, y);
  AddCall(m, y, *w1, y);
  return b;
}

void ExpectOneGroupOfW0AndW1(bool in_segment) {
  int w0 = 0, w1 = 0, w2 = 0;
  pte::ProgramView p = Read(TwoIdenticalWeights(in_segment, &w0, &w1, &w2));
  std::vector<DuplicateConstants> found = FindDuplicateConstants(p);
  ASSERT_EQ(found.size(), 1u);
  const DuplicateConstants& g = found[0];
  EXPECT_EQ(g.dtype, testing::kFloat32);
  EXPECT_EQ(g.bytes, 64u);
  EXPECT_EQ(g.data_indices.size(), 2u);
  EXPECT_EQ(g.flash_saving(), 64u);
  ASSERT_EQ(g.uses.size(), 2u);
  EXPECT_EQ(g.uses[0].value, w0);
  EXPECT_EQ(g.uses[0].instructions, std::vector<int64_t>{0});
  EXPECT_EQ(g.uses[1].value, w1);
  EXPECT_EQ(g.uses[1].instructions, std::vector<int64_t>{2});
  EXPECT_NE(g.uses[0].data_index, g.uses[1].data_index);
}

TEST(DuplicateConstants, IdenticalWeightsInTheConstantSegmentAreOneGroup) {
  ExpectOneGroupOfW0AndW1(true);
}

TEST(DuplicateConstants, IdenticalWeightsInInlineBuffersAreOneGroup) {
  ExpectOneGroupOfW0AndW1(false);
}

// The saving is the data of every copy but one: three copies of 256 bytes save 512.
TEST(DuplicateConstants, ThreeCopiesSaveTwoCopiesOfFlash) {
  ProgramBuilder b;
  MethodBuilder& m = b.Method("forward");
  const auto [x, y] = PlannedInOut(m, 64);
  for (int i = 0; i < 3; ++i) AddCall(m, x, Constant(m, Pattern(256, 9)), y);
  std::vector<DuplicateConstants> found = FindDuplicateConstants(Read(b));
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].data_indices.size(), 3u);
  EXPECT_EQ(found[0].flash_saving(), 2u * 256u);
}

TEST(DuplicateConstants, EqualSizeOtherContentsIsNoFinding) {
  ProgramBuilder b;
  MethodBuilder& m = b.Method("forward");
  const auto [x, y] = PlannedInOut(m, 16);
  std::vector<uint8_t> other = Pattern(64, 1);
  other.back() ^= 1;  // one bit differs
  AddCall(m, x, Constant(m, Pattern(64, 1)), y);
  AddCall(m, y, Constant(m, other), y);
  EXPECT_TRUE(FindDuplicateConstants(Read(b)).empty());
}

TEST(DuplicateConstants, SameBytesAnotherDtypeIsNoFinding) {
  ProgramBuilder b;
  MethodBuilder& m = b.Method("forward");
  const auto [x, y] = PlannedInOut(m, 16);
  AddCall(m, x, Constant(m, Pattern(64, 1), testing::kFloat32), y);
  AddCall(m, y, Constant(m, Pattern(64, 1), testing::kInt32), y);
  EXPECT_TRUE(FindDuplicateConstants(Read(b)).empty());
}

// The builder gives each method's constants their own data indices, so equal weights in two
// methods are two stored copies.
// Methods "forward" and "encode", each with its own copy of the same 64-byte weight.
ProgramBuilder SameWeightInTwoMethods() {
  ProgramBuilder b;
  for (const char* name : {"forward", "encode"}) {
    MethodBuilder& m = b.Method(name);
    const auto [x, y] = PlannedInOut(m, 16);
    AddCall(m, x, Constant(m, Pattern(64, 5)), y);
  }
  return b;
}

TEST(DuplicateConstants, CopiesInTwoMethodsAreFound) {
  std::vector<DuplicateConstants> found = FindDuplicateConstants(Read(SameWeightInTwoMethods()));
  ASSERT_EQ(found.size(), 1u);
  ASSERT_EQ(found[0].uses.size(), 2u);
  EXPECT_EQ(found[0].uses[0].method, 0u);
  EXPECT_EQ(found[0].uses[1].method, 1u);
}

// A tensor list naming a copy counts as a use by the instruction that takes the list.
TEST(DuplicateConstants, UseThroughATensorListIsListed) {
  ProgramBuilder b;
  MethodBuilder& m = b.Method("forward");
  int x = m.Tensor({.sizes = {16}, .placement = Placement{1, 0}});
  int y = m.Tensor({.sizes = {32}, .placement = Placement{1, 64}});
  int w0 = Constant(m, Pattern(64, 3));
  int w1 = Constant(m, Pattern(64, 3));
  int list = m.TensorList({w0, w1});
  m.Inputs({x});
  m.Outputs({y});
  m.KernelCall(m.Operator("aten::cat", "out"), {list, m.Int(0), y, y});
  m.PlannedBufferSizes({192});
  std::vector<DuplicateConstants> found = FindDuplicateConstants(Read(b));
  ASSERT_EQ(found.size(), 1u);
  ASSERT_EQ(found[0].uses.size(), 2u);
  EXPECT_EQ(found[0].uses[0].instructions, std::vector<int64_t>{0});
  EXPECT_EQ(found[0].uses[1].instructions, std::vector<int64_t>{0});
}

// The finding in `etmem plan` text and JSON and in `etmem summary`, with the computed saving.
TEST(DuplicateConstants, PlanAndSummaryShowTheFinding) {
  int w0 = 0, w1 = 0, w2 = 0;
  const auto path = test::WriteScenario(TwoIdenticalWeights(true, &w0, &w1, &w2), "duplicates");
  test::CliRun json = test::Etmem("plan " + path.string() + " --format json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto d = nlohmann::json::parse(json.out)["duplicate_constants"];
  ASSERT_EQ(d.size(), 1u);
  EXPECT_EQ(d[0]["flash_saving"], 64);
  EXPECT_EQ(d[0]["uses"][0]["value"], w0);
  EXPECT_EQ(d[0]["uses"][1]["value"], w1);
  EXPECT_EQ(d[0]["uses"][1]["instructions"], nlohmann::json::array({2}));
  test::CliRun text = test::Etmem("plan " + path.string());
  EXPECT_NE(text.out.find("duplicate-constants: 2 identical copies of a 64 B float32 constant"),
            std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find("saves 64 B of flash"), std::string::npos);
  test::CliRun summary = test::Etmem("summary " + path.string());
  EXPECT_NE(summary.out.find("duplicate-constants: 64 B in 1 group(s)"), std::string::npos)
      << summary.out;
}

// A finding about the program is shown once in the HTML page, not under every method.
TEST(DuplicateConstants, HtmlShowsAProgramFindingOnce) {
  const auto path = test::WriteScenario(SameWeightInTwoMethods(), "duplicates_two_methods");
  test::CliRun html = test::Etmem("plan --format html " + path.string());
  ASSERT_EQ(html.exit_code, 0) << html.err;
  const std::string finding = "duplicate-constants: 2 identical copies";
  const size_t first = html.out.find(finding);
  ASSERT_NE(first, std::string::npos);
  EXPECT_EQ(html.out.find(finding, first + 1), std::string::npos);
  EXPECT_LT(html.out.find("Method 'encode'"), first);  // after every method
}

TEST(DuplicateConstants, SummarySaysWhenThereAreNone) {
  const auto path = test::WriteScenario(testing::ProgramWithControlFlow(), "no_duplicates");
  test::CliRun summary = test::Etmem("summary " + path.string());
  EXPECT_NE(summary.out.find("no duplicate constants"), std::string::npos) << summary.out;
}

}  // namespace plan_duplicates_test
}  // namespace etmem::plan
