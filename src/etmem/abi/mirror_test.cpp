// Owns: unit tests of the mirror header's text (names, members, asserts, real-type checks).
// Compiling it with real compilers is tests/model/abi_layouts_compile_test.cpp.
#include "etmem/abi/mirror.h"

#include <gtest/gtest.h>

#include <string>

namespace etmem::abi {
namespace mirror_test {

Abi CortexM() { return FindBuiltinTarget("cortex-m").value(); }

bool Contains(const std::string& text, const std::string& piece) {
  return text.find(piece) != std::string::npos;
}

TEST(MirrorTest, HandleBecomesAStructWithItsComputedLayout) {
  TypeTable t;
  t.Add(Struct("Handle", {{"count", Prim::kI32}, {"data", Prim::kPtr}, {"stamp", Prim::kI64}}));
  std::string src = EmitMirrorHeader(t, CortexM(), "M_");
  EXPECT_TRUE(Contains(src, "struct M_Handle {\n  int count_;\n  void* data_;\n  long long stamp_;\n};"))
      << src;
  EXPECT_TRUE(Contains(src, "static_assert(sizeof(M_Handle) == 16 && alignof(M_Handle) == 8, "))
      << src;
  EXPECT_TRUE(Contains(src, "static_assert(__builtin_offsetof(M_Handle, stamp_) == 8, ")) << src;
}

TEST(MirrorTest, PrimitivesUseBuiltinSpellingsOnly) {
  TypeTable t;
  t.Add(Struct("P", {{"fn", Prim::kFnPtr},
                     {"n", Prim::kSize},
                     {"tag", Prim::kEmpty},
                     {"bytes", Prim::kU8, 3},
                     {"d", Prim::kF64}}));
  std::string src = EmitMirrorHeader(t, CortexM(), "M_");
  EXPECT_TRUE(Contains(src, "typedef void (*M_etmem_fn_ptr)();")) << src;
  EXPECT_TRUE(Contains(src, "struct M_etmem_empty {};")) << src;
  EXPECT_TRUE(Contains(src, "  M_etmem_fn_ptr fn_;\n  __SIZE_TYPE__ n_;\n  M_etmem_empty tag_;\n"
                            "  unsigned char bytes_[3];\n  double d_;\n"))
      << src;
  // Nothing is included before the real-type section.
  EXPECT_LT(src.find("#ifndef ETMEM_MIRROR_NO_STD"), src.find("#include"));
}

TEST(MirrorTest, UnionsAndNestedTypesComeAfterWhatTheyUse) {
  TypeTable t;
  t.Add(Struct("Outer", {{"u", "Zed::U"}}));
  t.Add(Union("Zed::U", {{"i", Prim::kI64}, {"inner", "Alpha"}}));
  t.Add(Struct("Alpha", {{"p", Prim::kPtr}}));
  std::string src = EmitMirrorHeader(t, CortexM(), "M_");
  size_t alpha = src.find("struct M_Alpha {"), u = src.find("union M_Zed_U {");
  size_t outer = src.find("struct M_Outer {");
  ASSERT_NE(outer, std::string::npos) << src;
  EXPECT_LT(alpha, u);
  EXPECT_LT(u, outer);
  EXPECT_TRUE(Contains(src, "  M_Alpha inner_;")) << src;
}

TEST(MirrorTest, NamesAreIdentifiersAndUnique) {
  TypeTable t;
  t.Add(Struct("EValue*", {{"v", Prim::kPtr}}));
  t.Add(Struct("EValue_ptr", {{"v", Prim::kPtr}}));
  t.Add(Struct("bool", {{"v", Prim::kBool}}));
  t.Add(Struct("optional<Tensor>", {{"v", Prim::kPtr}}));
  std::string src = EmitMirrorHeader(t, CortexM(), "v1.4.1/");
  EXPECT_TRUE(Contains(src, "struct v1_4_1_EValue_ptr {")) << src;
  EXPECT_TRUE(Contains(src, "struct v1_4_1_EValue_ptr_2 {")) << src;
  EXPECT_TRUE(Contains(src, "struct v1_4_1_bool {")) << src;
  EXPECT_TRUE(Contains(src, "struct v1_4_1_optional_Tensor {")) << src;
  // No name of ours has a double underscore (reserved to the implementation).
  for (size_t at = src.find("v1_4_1"); at != std::string::npos; at = src.find("v1_4_1", at + 1)) {
    size_t end = src.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_", at);
    EXPECT_EQ(src.substr(at, end - at).find("__"), std::string::npos) << src.substr(at, end - at);
  }
}

TEST(MirrorTest, EmptyPrefixStillPrefixesEverything) {
  TypeTable t;
  t.Add(Struct("bool", {{"v", Prim::kBool}}));
  std::string src = EmitMirrorHeader(t, CortexM(), "");
  EXPECT_TRUE(Contains(src, "struct etmem_mirror_bool {")) << src;
}

TEST(MirrorTest, StdSpellingIsCheckedOnMirrorElementTypes) {
  TypeTable t;
  t.Add(Struct("Tensor", {{"impl", Prim::kPtr}}));
  t.Add(Struct("Wide", {{"v", Prim::kI64}}));
  AddStdOptional(t, "Tensor");
  AddStdVariant(t, {"Tensor", "Wide"});
  AddStdString(t);
  std::string src = EmitMirrorHeader(t, CortexM(), "M_");
  EXPECT_TRUE(Contains(src, "#include <optional>\n")) << src;
  EXPECT_TRUE(Contains(src, "#include <variant>\n")) << src;
  EXPECT_TRUE(Contains(src, "#include <string>\n")) << src;
  EXPECT_FALSE(Contains(src, "#include <vector>")) << src;
  EXPECT_TRUE(Contains(src, "static_assert(sizeof(std::optional<M_Tensor>) == 8 && "
                            "alignof(std::optional<M_Tensor>) == 4, "))
      << src;
  EXPECT_TRUE(Contains(src, "sizeof(std::variant<M_Tensor, M_Wide>) == 16")) << src;
  EXPECT_TRUE(Contains(src, "sizeof(std::string) == 24")) << src;
  EXPECT_TRUE(Contains(src, "static_assert(alignof(std::max_align_t) == 8, ")) << src;
}

TEST(MirrorTest, NestedTemplateArgumentsAreRewritten) {
  TypeTable t;
  t.Add(Struct("Tensor", {{"impl", Prim::kPtr}}));
  t.Add(Struct("optional<Tensor>", {{"payload", "Tensor"}, {"engaged", Prim::kBool}}));
  t.Add(Struct("Pair", {{"a", "optional<Tensor>"}, {"b", "optional<Tensor>"}},
               "std::variant<std::optional<Tensor>, optional<Tensor>, int>"));
  std::string src = EmitMirrorHeader(t, CortexM(), "M_");
  EXPECT_TRUE(Contains(src, "sizeof(std::variant<std::optional<M_Tensor>, M_optional_Tensor, int>)"))
      << src;
}

TEST(MirrorTest, ScalarSpellingsAreCheckedAndForeignOnesAreNot) {
  TypeTable t;
  t.Add(Struct("SizesType", {{"v", Prim::kI32}}, "int32_t"));
  t.Add(Struct("OpFunction", {{"fn", Prim::kFnPtr}}, "void (*)(void*, void**)"));
  t.Add(Struct("Tensor", {{"impl", Prim::kPtr}}, "executorch::aten::Tensor"));
  std::string src = EmitMirrorHeader(t, CortexM(), "M_");
  EXPECT_TRUE(Contains(src, "static_assert(sizeof(int32_t) == 4 && alignof(int32_t) == 4, ")) << src;
  EXPECT_TRUE(Contains(src, "sizeof(void (*)(void*, void**)) == 4")) << src;
  EXPECT_FALSE(Contains(src, "sizeof(executorch::aten::Tensor)")) << src;
  EXPECT_TRUE(Contains(src, "// Tensor: 'executorch::aten::Tensor' is not checked")) << src;
}

TEST(MirrorTest, MessagesNameTypeTargetAndComputedLayout) {
  TypeTable t;
  t.Add(Struct("Weird \"name\"", {{"v", Prim::kI8}}));
  std::string src = EmitMirrorHeader(t, CortexM(), "M_");
  EXPECT_TRUE(Contains(src, "\"Weird \\\"name\\\" on cortex-m: etmem computes 1/1\"")) << src;
}

}  // namespace mirror_test
}  // namespace etmem::abi
