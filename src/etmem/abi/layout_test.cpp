// Owns: unit tests of the layout engine (padding, unions, arrays, empty members, nesting, the
// libstdc++ shapes) and of the target rows and target-description files it runs on.
#include "etmem/abi/layout.h"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

#include "etmem/abi/abi.h"

namespace etmem::abi {
namespace layout_test {

Abi Target(const std::string& name) {
  Result<Abi> abi = FindBuiltinTarget(name);
  EXPECT_TRUE(abi.has_value()) << name;
  return abi.value();
}

// Writes `text` to a fresh file under the test temp dir and returns its path.
std::string WriteTemp(const std::string& stem, const std::string& text) {
  std::string path = ::testing::TempDir() + "etmem_layout_test_" + stem + ".json";
  std::ofstream(path) << text;
  return path;
}

constexpr const char* kI386 =
    R"({"name": "i386", "pointer": [4, 4], "size_t": [4, 4], "int64": [8, 4],
        "double": [8, 4], "max_align": 16, "malloc_align": 16})";

TypeTable HandleTable() {
  TypeTable t;
  t.Add(Struct("Handle", {{"count", Prim::kI32}, {"data", Prim::kPtr}, {"stamp", Prim::kI64}}));
  return t;
}

std::vector<uint32_t> Offsets(const Layout& layout) {
  std::vector<uint32_t> out;
  for (const FieldLayout& f : layout.fields) out.push_back(f.offset);
  return out;
}

TEST(LayoutTest, HandleOnCortexMIs16By8) {
  Layout l = HandleTable().Compute("Handle", Target("cortex-m"));
  EXPECT_EQ(l.size_align, (SizeAlign{16, 8}));
  EXPECT_EQ(Offsets(l), (std::vector<uint32_t>{0, 4, 8}));
}

TEST(LayoutTest, HandleOnX8664Is24By8) {
  Layout l = HandleTable().Compute("Handle", Target("x86_64"));
  EXPECT_EQ(l.size_align, (SizeAlign{24, 8}));
  EXPECT_EQ(Offsets(l), (std::vector<uint32_t>{0, 8, 16}));
}

TEST(LayoutTest, HandleOnI386TargetFileIs16By4) {
  Result<Abi> i386 = ReadTargetFile(WriteTemp("i386", kI386));
  ASSERT_TRUE(i386.has_value()) << i386.error().message;
  EXPECT_EQ(i386->name, "i386");
  EXPECT_EQ(i386->int64, (SizeAlign{8, 4}));
  EXPECT_EQ(i386->max_align, 16u);
  Layout l = HandleTable().Compute("Handle", *i386);
  EXPECT_EQ(l.size_align, (SizeAlign{16, 4}));
  EXPECT_EQ(Offsets(l), (std::vector<uint32_t>{0, 4, 8}));
}

TEST(LayoutTest, PadsEachFieldToItsAlignment) {
  TypeTable t;
  t.Add(Struct("S", {{"a", Prim::kI8}, {"b", Prim::kI32}, {"c", Prim::kI16}, {"d", Prim::kI64}}));
  Layout l = t.Compute("S", Target("cortex-m"));
  EXPECT_EQ(Offsets(l), (std::vector<uint32_t>{0, 4, 8, 16}));
  EXPECT_EQ(l.size_align, (SizeAlign{24, 8}));
}

TEST(LayoutTest, PadsTheTailToTheStructAlignment) {
  TypeTable t;
  t.Add(Struct("S", {{"p", Prim::kPtr}, {"tag", Prim::kU8}}));
  EXPECT_EQ(t.Compute("S", Target("cortex-m")).size_align, (SizeAlign{8, 4}));
  EXPECT_EQ(t.Compute("S", Target("x86_64")).size_align, (SizeAlign{16, 8}));
}

TEST(LayoutTest, UnionOverlaysMembersAndTakesTheLargest) {
  TypeTable t;
  t.Add(Union("U", {{"b", Prim::kBool}, {"i", Prim::kI64}, {"bytes", Prim::kU8, 12}}));
  Layout l = t.Compute("U", Target("cortex-m"));
  EXPECT_EQ(Offsets(l), (std::vector<uint32_t>{0, 0, 0}));
  EXPECT_EQ(l.size_align, (SizeAlign{16, 8}));  // 12 bytes, rounded up to the int64 alignment
}

TEST(LayoutTest, ArrayHasElementAlignmentAndCountTimesSize) {
  TypeTable t;
  t.Add(Struct("S", {{"a", Prim::kI16, 3}, {"b", Prim::kI8}}));
  Layout l = t.Compute("S", Target("x86_64"));
  EXPECT_EQ(l.fields[0].layout, (SizeAlign{6, 2}));
  EXPECT_EQ(Offsets(l), (std::vector<uint32_t>{0, 6}));
  EXPECT_EQ(l.size_align, (SizeAlign{8, 2}));
}

TEST(LayoutTest, EmptyMemberTakesOneByte) {
  TypeTable t;
  t.Add(Struct("S", {{"tag", Prim::kEmpty}, {"v", Prim::kI32}, {"flag", Prim::kBool}}));
  Layout l = t.Compute("S", Target("cortex-m"));
  EXPECT_EQ(Offsets(l), (std::vector<uint32_t>{0, 4, 8}));
  EXPECT_EQ(l.size_align, (SizeAlign{12, 4}));
}

TEST(LayoutTest, StructWithoutFieldsHasSizeOne) {
  TypeTable t;
  t.Add(Struct("Nothing", {}));
  t.Add(Struct("OnlyEmpty", {{"e", Prim::kEmpty}}));
  EXPECT_EQ(t.Compute("Nothing", Target("x86_64")).size_align, (SizeAlign{1, 1}));
  EXPECT_EQ(t.Compute("OnlyEmpty", Target("x86_64")).size_align, (SizeAlign{1, 1}));
}

TEST(LayoutTest, NestedStructKeepsItsOwnTailPadding) {
  TypeTable t;
  t.Add(Struct("Inner", {{"wide", Prim::kI64}, {"narrow", Prim::kI8}}));
  t.Add(Struct("Outer", {{"a", Prim::kI8}, {"in", "Inner"}, {"b", Prim::kI8}}));
  Layout l = t.Compute("Outer", Target("x86_64"));
  EXPECT_EQ(l.fields[1].layout, (SizeAlign{16, 8}));
  EXPECT_EQ(Offsets(l), (std::vector<uint32_t>{0, 8, 24}));  // b does not reuse Inner's padding
  EXPECT_EQ(l.size_align, (SizeAlign{32, 8}));
}

TEST(LayoutTest, LaterAddReplacesTheDefinition) {
  TypeTable t;
  t.Add(Struct("S", {{"a", Prim::kI8}}));
  t.Add(Struct("S", {{"a", Prim::kI8}, {"b", Prim::kPtr}}));
  EXPECT_EQ(t.Compute("S", Target("x86_64")).size_align, (SizeAlign{16, 8}));
}

TEST(LayoutTest, PrimitivesFollowTheTargetRow) {
  Abi i386 = ReadTargetFile(WriteTemp("i386_prims", kI386)).value();
  EXPECT_EQ(PrimLayout(Prim::kI64, i386), (SizeAlign{8, 4}));
  EXPECT_EQ(PrimLayout(Prim::kF64, i386), (SizeAlign{8, 4}));
  EXPECT_EQ(PrimLayout(Prim::kSize, Target("x86_64")), (SizeAlign{8, 8}));
  EXPECT_EQ(PrimLayout(Prim::kFnPtr, Target("riscv32")), (SizeAlign{4, 4}));
  EXPECT_EQ(PrimLayout(Prim::kU16, Target("xtensa")), (SizeAlign{2, 2}));
  EXPECT_EQ(PrimLayout(Prim::kEmpty, Target("aarch64")), (SizeAlign{1, 1}));
}

TEST(LayoutTest, LibstdcxxShapes) {
  TypeTable t;
  t.Add(Struct("Tensor", {{"impl", Prim::kPtr}}));
  t.Add(Struct("Wide", {{"v", Prim::kI64}}));
  std::string opt = AddStdOptional(t, "Tensor");
  std::string var = AddStdVariant(t, {"Tensor", "Wide"});
  std::string str = AddStdString(t), vec = AddStdVector(t), shared = AddStdSharedPtr(t);
  Abi m = Target("cortex-m"), x = Target("x86_64");
  EXPECT_EQ(t.Compute(opt, m).size_align, (SizeAlign{8, 4}));
  EXPECT_EQ(t.Compute(opt, x).size_align, (SizeAlign{16, 8}));
  EXPECT_EQ(t.Compute(var, m).size_align, (SizeAlign{16, 8}));
  EXPECT_EQ(t.Compute(str, m).size_align, (SizeAlign{24, 4}));
  EXPECT_EQ(t.Compute(str, x).size_align, (SizeAlign{32, 8}));
  EXPECT_EQ(t.Compute(vec, m).size_align, (SizeAlign{12, 4}));
  EXPECT_EQ(t.Compute(shared, x).size_align, (SizeAlign{16, 8}));
  EXPECT_EQ(t.Get(opt).cxx_spelling, "std::optional<Tensor>");
}

TEST(LayoutTest, BuiltinTargetsAreFoundByName) {
  for (const Abi& a : BuiltinTargets()) EXPECT_EQ(ResolveTarget(a.name)->name, a.name);
  Result<Abi> unknown = FindBuiltinTarget("pdp11");
  ASSERT_FALSE(unknown.has_value());
  EXPECT_NE(unknown.error().message.find("cortex-m"), std::string::npos);
}

TEST(LayoutTest, ResolveTargetReadsAFilePath) {
  Result<Abi> abi = ResolveTarget(WriteTemp("resolve", kI386));
  ASSERT_TRUE(abi.has_value()) << abi.error().message;
  EXPECT_EQ(abi->int64, (SizeAlign{8, 4}));
}

// A bad target file gives one line that names the file and the problem.
void ExpectTargetFileError(const std::string& stem, const std::string& text,
                           const std::string& mentions) {
  std::string path = WriteTemp(stem, text);
  Result<Abi> abi = ReadTargetFile(path);
  ASSERT_FALSE(abi.has_value()) << stem;
  const std::string& msg = abi.error().message;
  EXPECT_EQ(abi.error().code, ErrorCode::kInvalidArgument) << msg;
  EXPECT_EQ(msg.find('\n'), std::string::npos) << msg;
  EXPECT_NE(msg.find(path), std::string::npos) << msg;
  EXPECT_NE(msg.find(mentions), std::string::npos) << msg;
}

TEST(LayoutTest, TargetFileWithBadJsonIsOneLineNamingTheFile) {
  ExpectTargetFileError("bad_json", R"({"name": "x", "pointer": [4, 4],)", "JSON");
  ExpectTargetFileError("not_object", "[4, 4]", "not an object");
}

TEST(LayoutTest, TargetFileWithMissingFieldsIsOneLineNamingTheFile) {
  ExpectTargetFileError("no_int64", R"({"pointer": [4, 4], "size_t": [4, 4], "double": [8, 8]})",
                        "missing key \"int64\"");
  ExpectTargetFileError("no_pointer", R"({"size_t": [4, 4], "int64": [8, 8], "double": [8, 8]})",
                        "missing key \"pointer\"");
}

TEST(LayoutTest, TargetFileWithNonPowerOfTwoAlignmentIsOneLineNamingTheFile) {
  ExpectTargetFileError(
      "align3", R"({"pointer": [4, 3], "size_t": [4, 4], "int64": [8, 8], "double": [8, 8]})",
      "\"pointer\"");
  ExpectTargetFileError("max_align12", R"({"pointer": [4, 4], "size_t": [4, 4], "int64": [8, 8],
                                           "double": [8, 8], "max_align": 12})",
                        "\"max_align\"");
  ExpectTargetFileError("malloc_align0", R"({"pointer": [4, 4], "size_t": [4, 4], "int64": [8, 8],
                                             "double": [8, 8], "malloc_align": 0})",
                        "\"malloc_align\"");
}

TEST(LayoutTest, TargetFileWithMalformedValuesIsOneLineNamingTheFile) {
  ExpectTargetFileError(
      "string_size", R"({"pointer": [4, 4], "size_t": "4", "int64": [8, 8], "double": [8, 8]})",
      "\"size_t\"");
  ExpectTargetFileError(
      "align_gt_size", R"({"pointer": [4, 8], "size_t": [4, 4], "int64": [8, 8], "double": [8, 8]})",
      "\"pointer\"");
  ExpectTargetFileError("name_number", R"({"name": 7, "pointer": [4, 4], "size_t": [4, 4],
                                           "int64": [8, 8], "double": [8, 8]})",
                        "\"name\"");
}

// The core's extensions and CMSIS-NN's compiler (the Cortex-M backend's scratch): said, or
// assumed and the assumption kept for reports.
TEST(LayoutTest, TargetFileSaysTheMProfileExtensionOrItIsAssumed) {
  const std::string base = R"("pointer": [4, 4], "size_t": [4, 4], "int64": [8, 8], "double": [8, 8])";
  auto said = ReadTargetText("{" + base + R"(, "m_extension": "dsp", "armclang": true})", "m4.json");
  ASSERT_TRUE(said.has_value());
  EXPECT_EQ(said->m_extension, MExtension::kDsp);
  EXPECT_TRUE(said->armclang);
  EXPECT_TRUE(said->m_extension_assumed.empty() && said->armclang_assumed.empty());
  auto unsaid = ReadTargetText("{" + base + "}", "plain.json");
  ASSERT_TRUE(unsaid.has_value());
  EXPECT_EQ(unsaid->m_extension, MExtension::kNone);
  EXPECT_FALSE(unsaid->armclang);
  EXPECT_NE(unsaid->m_extension_assumed.find("assumed none"), std::string::npos);
  EXPECT_FALSE(unsaid->armclang_assumed.empty());
  ExpectTargetFileError("bad_ext", "{" + base + R"(, "m_extension": "neon"})", "\"m_extension\"");
  // The built-in cortex-m assumes MVE and says why; the others are not M-profile cores.
  EXPECT_EQ(FindBuiltinTarget("cortex-m")->m_extension, MExtension::kMve);
  EXPECT_FALSE(FindBuiltinTarget("cortex-m")->m_extension_assumed.empty());
  EXPECT_EQ(FindBuiltinTarget("x86_64")->m_extension, MExtension::kNone);
  EXPECT_TRUE(FindBuiltinTarget("x86_64")->m_extension_assumed.empty());
}

TEST(LayoutTest, MissingTargetFileIsOneLineNamingTheFile) {
  std::string path = ::testing::TempDir() + "etmem_layout_test_no_such_target.json";
  Result<Abi> abi = ReadTargetFile(path);
  ASSERT_FALSE(abi.has_value());
  EXPECT_EQ(abi.error().message.find('\n'), std::string::npos);
  EXPECT_NE(abi.error().message.find(path), std::string::npos);
}

}  // namespace layout_test
}  // namespace etmem::abi

namespace etmem::abi {
namespace layout_test {

TEST(LayoutEdits, AppendAndPrependEditAnEarlierDefinition) {
  TypeTable t;
  t.Add(Struct("S", {{"a", Prim::kI32}}));
  t.AppendField("S", {"b", Prim::kI64});
  t.PrependField("S", {"c", Prim::kI8});
  const Abi x86 = *FindBuiltinTarget("x86_64");
  Layout l = t.Compute("S", x86);
  ASSERT_EQ(l.fields.size(), 3u);
  EXPECT_EQ(l.fields[0].name, "c");
  EXPECT_EQ(l.fields[1].offset, 4u);
  EXPECT_EQ(l.fields[2].offset, 8u);
  EXPECT_EQ(l.size(), 16u);
}

}  // namespace layout_test
}  // namespace etmem::abi
