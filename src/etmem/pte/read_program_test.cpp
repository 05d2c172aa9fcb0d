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
namespace {

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

TEST(ReadProgram, ArgumentOutOfRangeNamesTheInstruction) {
  std::string e = ErrorOf(OneKernel([](auto& m) { m.KernelCall(0, {0, 7}); }).Build());
  EXPECT_NE(e.find("instruction 1"), std::string::npos) << e;
  EXPECT_NE(e.find("value index 7 out of range"), std::string::npos) << e;
}

TEST(ReadProgram, DimOrderLengthMustMatchTheRank) {
  std::string e = ErrorOf(OneKernel([](auto& m) {
                            m.Tensor({.sizes = {1, 2, 3, 4}, .dim_order = std::vector<uint8_t>{0, 1, 2}});
                          }).Build());
  EXPECT_NE(e.find("value 2: tensor dim_order has 3 entries but sizes has 4"), std::string::npos) << e;
}

TEST(ReadProgram, NegativeSizesAndBadOperatorsAreRejected) {
  EXPECT_NE(ErrorOf(OneKernel([](auto& m) { m.Tensor({.sizes = {-1}}); }).Build()).find("negative"),
            std::string::npos);
  EXPECT_NE(ErrorOf(OneKernel([](auto& m) { m.KernelCall(5, {0}); }).Build()).find("operator 5"),
            std::string::npos);
}

TEST(ReadProgram, ListItemsMustBeValuesOfTheRightKind) {
  EXPECT_NE(ErrorOf(OneKernel([](auto& m) { m.TensorList({0, 9}); }).Build()).find("out of range"),
            std::string::npos);
  std::string e = ErrorOf(OneKernel([](auto& m) {
                            int i = m.Int(3);
                            m.TensorList({0, i});
                          }).Build());
  EXPECT_NE(e.find("not a tensor"), std::string::npos) << e;
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

// ---- Values read in two halves on two threads -------------------------------------------

constexpr ReadLimits kInOrder{.parallel_walk_values = UINT32_MAX};
constexpr ReadLimits kOnTwoThreads{.parallel_walk_values = 1};  // every method, however small

void ExpectSameValues(const MethodView& a, const MethodView& b) {
  ASSERT_EQ(a.values.size(), b.values.size());
  for (size_t i = 0; i < a.values.size(); ++i) {
    EXPECT_EQ(a.values[i].kind, b.values[i].kind) << "value " << i;
    EXPECT_EQ(a.values[i].index, b.values[i].index) << "value " << i;
    EXPECT_EQ(a.values[i].count, b.values[i].count) << "value " << i;
  }
  ASSERT_EQ(a.tensors.size(), b.tensors.size());
  for (size_t t = 0; t < a.tensors.size(); ++t) {
    const TensorView &x = a.tensors[t], &y = b.tensors[t];
    EXPECT_TRUE(x.dtype == y.dtype && x.dynamism == y.dynamism && x.planned == y.planned &&
                x.external == y.external && x.rank == y.rank && x.sizes_begin == y.sizes_begin &&
                x.data_index == y.data_index && x.memory_id == y.memory_id &&
                x.fqn_index == y.fqn_index && x.offset == y.offset)
        << "tensor " << t;
    EXPECT_EQ(a.FqnOf(x), b.FqnOf(y)) << "tensor " << t;
  }
  EXPECT_EQ(a.fqns, b.fqns);
  EXPECT_EQ(testing::AllSizes(a), testing::AllSizes(b));
  EXPECT_EQ(testing::AllListItems(a), testing::AllListItems(b));
  // The chains are read beside the values on two threads.
  ASSERT_EQ(a.instructions.size(), b.instructions.size());
  for (size_t i = 0; i < a.instructions.size(); ++i) {
    const InstructionView &x = a.instructions[i], &y = b.instructions[i];
    EXPECT_TRUE(x.kind == y.kind && x.target == y.target && x.second == y.second &&
                x.args_begin == y.args_begin && x.args_count == y.args_count)
        << "instruction " << i;
  }
  ASSERT_EQ(a.chains.size(), b.chains.size());
  for (size_t c = 0; c < a.chains.size(); ++c)
    EXPECT_TRUE(a.chains[c].instructions_begin == b.chains[c].instructions_begin &&
                a.chains[c].instructions_count == b.chains[c].instructions_count)
        << "chain " << c;
  EXPECT_EQ(testing::AllArgs(a), testing::AllArgs(b));
}

// What a read gives, in a form two reads can be compared by: the error, or a summary of the view.
std::string Outcome(const std::vector<uint8_t>& bytes, const ReadLimits& limits) {
  auto r = ReadProgramBytes(bytes, "m.pte", limits);
  if (!r) return r.error().message;
  std::string s = "ok";
  for (const MethodView& m : r->methods)
    s += " " + std::to_string(m.values.size()) + "/" + std::to_string(m.tensors.size()) + "/" +
         std::to_string(m.fqns.size()) + "/" + std::to_string(m.instructions.size()) + "/" +
         std::to_string(m.chains.size());
  return s;
}

TEST(ReadProgramOnTwoThreads, GivesTheViewOfAnOrderedReading) {
  for (auto make : {+[] { return testing::MotivatingCnn(); },
                    +[] { return testing::ProgramWithEveryValueKind(); },
                    +[] { return testing::ProgramWithDynamicShapes(); },
                    +[] { return testing::ProgramWithExternalData(); },
                    +[] { return testing::ProgramWithTwoMethods(); },
                    +[] { return testing::LstmLike(2); }, +[] { return testing::ScaledCnn(1); }}) {
    const std::vector<uint8_t> bytes = make().Build();
    auto in_order = ReadProgramBytes(bytes, "m.pte", kInOrder);
    auto two = ReadProgramBytes(bytes, "m.pte", kOnTwoThreads);
    ASSERT_TRUE(in_order && two);
    ASSERT_EQ(in_order->methods.size(), two->methods.size());
    for (size_t m = 0; m < two->methods.size(); ++m)
      ExpectSameValues(in_order->methods[m], two->methods[m]);
  }
}

TEST(ReadProgramOnTwoThreads, FailsAsAnOrderedReadingDoes) {
  // Problems in either half, or in both: the error is the one met first in order.
  auto bad_tensor = [](testing::MethodBuilder& m) { m.Tensor({.sizes = {-1}}); };
  for (const std::vector<uint8_t>& bytes :
       {OneKernel(bad_tensor).Build(),
        OneKernel([&](auto& m) {
          bad_tensor(m);
          for (int i = 0; i < 5; ++i) m.Int(i);
          m.Tensor({.sizes = {1, 2}, .dim_order = std::vector<uint8_t>{0}});
        }).Build(),
        OneKernel([](auto& m) { m.TensorList({0, 9}); }).Build(),
        // A bad argument with a bad value or list: the chains are read beside the values on
        // two threads, yet the value's or list's error, met first in order, is the one reported.
        OneKernel([&](auto& m) {
          m.KernelCall(0, {0, 99});
          bad_tensor(m);
        }).Build(),
        OneKernel([](auto& m) {
          m.KernelCall(0, {0, 99});
          m.TensorList({0, 9});
        }).Build(),
        OneKernel([](auto& m) { m.KernelCall(0, {0, 99}); }).Build()}) {
    const std::string e = Outcome(bytes, kInOrder);
    EXPECT_NE(e.rfind("ok", 0), 0u);
    EXPECT_EQ(Outcome(bytes, kOnTwoThreads), e);
  }
  for (const auto& entry : std::filesystem::directory_iterator(
           std::filesystem::path(ETMEM_SOURCE_DIR) / "tests/corrupt")) {
    if (entry.path().extension() != ".pte") continue;
    std::ifstream in(entry.path(), std::ios::binary);
    const std::vector<uint8_t> bytes{std::istreambuf_iterator<char>(in), {}};
    EXPECT_EQ(Outcome(bytes, kOnTwoThreads), Outcome(bytes, kInOrder)) << entry.path();
  }
}

TEST(ReadProgramOnTwoThreads, RandomCorruptionsGiveTheSameOutcome) {
  const std::vector<uint8_t> good = testing::LstmLike(1).Build();
  std::mt19937 rng(20261130);
  size_t differing_reads = 0;
  for (int trial = 0; trial < 1500; ++trial) {
    std::vector<uint8_t> bytes = good;
    for (int k = 0; k < 1 + trial % 3; ++k)
      bytes[rng() % bytes.size()] = static_cast<uint8_t>(rng());
    const std::string in_order = Outcome(bytes, kInOrder);
    differing_reads += in_order != Outcome(good, kInOrder);
    ASSERT_EQ(Outcome(bytes, kOnTwoThreads), in_order) << "trial " << trial;
  }
  EXPECT_GT(differing_reads, 100u);  // the corruption did reach the reader
}

}  // namespace
}  // namespace etmem::pte
