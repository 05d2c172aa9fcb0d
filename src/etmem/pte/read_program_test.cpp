// The reader's rejection paths: each malformed program gives one error naming the file and what
// is wrong and where; valid programs read back as built.
#include "etmem/pte/read_program.h"

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>

#include <gtest/gtest.h>

#include "etmem/testing/program_builder.h"
#include "etmem/testing/scenarios.h"
#include "etmem/testing/view_contents.h"

namespace etmem::pte {
namespace read_program_test {

using testing::ProgramBuilder;

std::string ErrorOf(const std::vector<uint8_t>& bytes) {
  auto r = ReadProgramBytes(bytes, "m.pte");
  if (r) return "";
  EXPECT_EQ(r.error().message.find('\n'), std::string::npos);
  EXPECT_EQ(r.error().message.rfind("m.pte: ", 0), 0u) << r.error().message;
  return r.error().message;
}

ProgramBuilder OneKernel(std::function<void(testing::MethodBuilder&)> edit) {
  ProgramBuilder b;
  auto& m = b.Method("forward");
  int x = m.Tensor({.sizes = {2, 3}, .placement = testing::Placement{.offset = 0}});
  int y = m.Tensor({.sizes = {2, 3}, .placement = testing::Placement{.offset = 32}});
  m.Inputs({x});
  m.Outputs({y});
  m.PlannedBufferSizes({64});
  m.KernelCall(m.Operator("aten::relu", "out"), {x, y});
  edit(m);
  return b;
}

TEST(ReadProgram, AValidProgramReadsBack) {
  auto r = ReadProgramBytes(OneKernel([](auto&) {}).Build(), "m.pte");
  ASSERT_TRUE(r) << r.error().message;
  ASSERT_EQ(r->methods.size(), 1u);
  EXPECT_EQ(r->methods[0].values.size(), 2u);
  EXPECT_EQ(r->methods[0].tensors[1].offset, 32u);
  EXPECT_EQ(r->methods[0].planned_buffer_sizes, (std::vector<int64_t>{0, 64}));
}

// Call arguments, inputs and outputs past the values read (issue 39): what each release does
// with them is the release model's (runtime/load_plan.cpp); the view says they are there.
TEST(ReadProgram, ValueReferencesPastTheValuesAreLeftToTheReleaseModel) {
  auto in_range = ReadProgramBytes(OneKernel([](auto&) {}).Build(), "ok.pte");
  ASSERT_TRUE(in_range) << in_range.error().message;
  EXPECT_TRUE(in_range->methods[0].value_references_in_range);
  for (int edit = 0; edit < 4; ++edit) {
    auto p = ReadProgramBytes(OneKernel([edit](auto& m) {
                                if (edit == 0) m.KernelCall(0, {0, 7});
                                if (edit == 1) m.DelegateCall(0, {-1});
                                if (edit == 2) m.Inputs({7});
                                if (edit == 3) m.Outputs({0, -3});
                              }).Build(),
                              "past.pte");
    ASSERT_TRUE(p) << edit << ": " << p.error().message;
    const MethodView& m = p->methods[0];
    EXPECT_TRUE(m.fault.empty()) << edit << ": " << m.fault;
    EXPECT_FALSE(m.value_references_in_range) << edit;
    EXPECT_FALSE(m.HasValue(7));
    EXPECT_FALSE(m.HasValue(-1));
    EXPECT_EQ(m.TensorAt(7), nullptr);
    EXPECT_EQ(m.TensorAt(-3), nullptr);
  }
}

TEST(ReadProgram, DimOrderLengthMustMatchTheRank) {
  std::string e = ErrorOf(OneKernel([](auto& m) {
                            m.Tensor({.sizes = {1, 2, 3, 4}, .dim_order = std::vector<uint8_t>{0, 1, 2}});
                          }).Build());
  EXPECT_NE(e.find("value 2: tensor dim_order has 3 entries but sizes has 4"), std::string::npos) << e;
}

TEST(ReadProgram, NegativeSizesAreRejectedAndOperatorIndexesLeftToTheReleaseModel) {
  EXPECT_NE(ErrorOf(OneKernel([](auto& m) { m.Tensor({.sizes = {-1}}); }).Build()).find("negative"),
            std::string::npos);
  // An op index past the operators reads: some releases load such a method (issue 39;
  // runtime/load_plan.cpp ResolveOperator), so the reader keeps it as written.
  auto p = ReadProgramBytes(OneKernel([](auto& m) { m.KernelCall(5, {0}); }).Build(), "op.pte");
  ASSERT_TRUE(p.has_value()) << p.error().message;
  const MethodView& m = p->methods[0];
  EXPECT_EQ(m.instructions.back().target, 5);
  EXPECT_EQ(m.OperatorOf(m.instructions.back()), nullptr);
}

TEST(ReadProgram, ListItemsAndDimOrdersAreLeftToTheReleaseModel) {
  // Items past the values, negative, or of the wrong kind, and a dim order entry past the rank:
  // each release judges them where it parses them (issue 39; runtime/load_plan.cpp), so the
  // reader keeps them as written.
  auto p = ReadProgramBytes(OneKernel([](auto& m) {
                              int i = m.Int(3);
                              m.TensorList({0, 9});
                              m.TensorList({0, i});
                              m.OptionalTensorList({-1, -7});
                              m.IntList({99, -2});
                              m.Tensor({.sizes = {1, 2}, .dim_order = std::vector<uint8_t>{0, 5}});
                            }).Build(),
                            "items.pte");
  ASSERT_TRUE(p.has_value()) << p.error().message;
  const MethodView& m = p->methods[0];
  EXPECT_TRUE(m.fault.empty()) << m.fault;
  std::vector<int64_t> items;
  for (const ValueView& v : m.values)
    if (v.kind == ValueKind::kIntList)
      for (int64_t item : m.ItemsOf(v)) items.push_back(item);
  EXPECT_EQ(items, (std::vector<int64_t>{99, -2}));
  ASSERT_EQ(m.dim_orders_past_rank.size(), 1u);
  EXPECT_EQ(m.tensors[m.dim_orders_past_rank[0]].rank, 2u);
}

TEST(ReadProgram, JumpsMustStayInTheirChain) {
  std::string e = ErrorOf(OneKernel([](auto& m) {
                            int c = m.Bool(true);
                            m.JumpFalse(c, 40);
                          }).Build());
  EXPECT_NE(e.find("jump to instruction 40"), std::string::npos) << e;
}

TEST(ReadProgram, WrongIdentifierAndTruncationAreRejected) {
  std::vector<uint8_t> bytes = OneKernel([](auto&) {}).Build();
  std::vector<uint8_t> wrong = bytes;
  std::memcpy(wrong.data() + 4, "ET11", 4);
  EXPECT_NE(ErrorOf(wrong).find("ET11"), std::string::npos);
  for (size_t n : {size_t{0}, size_t{7}, bytes.size() / 2, bytes.size() - 1})
    EXPECT_FALSE(ErrorOf(std::vector<uint8_t>(bytes.begin(), bytes.begin() + n)).empty()) << n;
}

TEST(ReadProgram, ExtendedHeaderMustFitTheFile) {
  std::vector<uint8_t> bytes = testing::MotivatingCnn().Build();
  ASSERT_EQ(std::memcmp(bytes.data() + 8, "eh00", 4), 0);
  std::vector<uint8_t> big = bytes;
  const uint64_t huge = uint64_t{1} << 40;
  std::memcpy(big.data() + 16, &huge, 8);  // program_size
  EXPECT_NE(ErrorOf(big).find("extended header"), std::string::npos);
  std::vector<uint8_t> short_header = bytes;
  const uint32_t len = 16;
  std::memcpy(short_header.data() + 12, &len, 4);
  EXPECT_NE(ErrorOf(short_header).find("length 16 < 24"), std::string::npos);
  // A segment cut off by truncating the file.
  EXPECT_NE(ErrorOf(std::vector<uint8_t>(bytes.begin(), bytes.end() - 100)).find("segment"),
            std::string::npos);
}

}  // namespace read_program_test
}  // namespace etmem::pte
