// Owns: the unit tests of GCC's .su and .ci readers (gcc_facts.h): lines as GCC 12 writes them
// (C and C++ names, static/dynamic/bounded), and one error line naming the file and line for
// each kind of damage.
#include "etmem/stack/gcc_facts.h"

#include <gtest/gtest.h>

namespace etmem::stack {
namespace gcc_facts_test {

TEST(StackUsageFile, ReadsCAndCppLines) {
  const auto f = ParseStackUsage(
      "t.c:3:5:leaf\t56\tstatic\n"
      "c.cpp:2:5:int ns::f(int)\t24\tstatic\r\n"
      "d:\\src\\x.c:6:5:dyn\t24\tdynamic\n"
      "x.c:7:1:vla\t40\tdynamic,bounded\n",
      "t.su");
  ASSERT_TRUE(f.has_value()) << f.error().message;
  ASSERT_EQ(f->size(), 4u);
  EXPECT_EQ((*f)[0].function, "leaf");
  EXPECT_EQ((*f)[0].bytes, 56u);
  EXPECT_EQ((*f)[1].function, "int ns::f(int)");
  EXPECT_EQ((*f)[2].function, "dyn");
  EXPECT_TRUE((*f)[2].dynamic);
  EXPECT_FALSE((*f)[2].bounded);
  EXPECT_TRUE((*f)[3].bounded);
  EXPECT_EQ((*f)[3].where, "t.su:4");
}

TEST(StackUsageFile, EachDamageIsOneLineNamingFileAndLine) {
  const std::pair<const char*, const char*> cases[] = {
      {"t.c:3:5:leaf 56 static\n", "t.su:1: not a -fstack-usage line"},
      {"ok.c:1:1:a\t1\tstatic\nleaf\t56\tstatic\n", "t.su:2: no file:line:column:function"},
      {"t.c:3:5:leaf\t-5\tstatic\n", "t.su:1: the size '-5' is not a byte count"},
      {"t.c:3:5:leaf\t99999999999999999\tstatic\n", "is not a byte count"},
      {"t.c:3:5:leaf\t5\tstatik\n", "the kind 'statik' is none of"},
      {"t.c:3:5:leaf\t5\tstatic\textra\n", "not a -fstack-usage line"},
  };
  for (const auto& [text, want] : cases) {
    const std::string_view t(text);
    const auto f = ParseStackUsage(t, "t.su");
    ASSERT_FALSE(f.has_value()) << text;
    EXPECT_NE(f.error().message.find(want), std::string::npos) << f.error().message;
    EXPECT_EQ(f.error().message.find('\n'), std::string::npos);
  }
  const auto nul = ParseStackUsage(std::string_view("t.c:3:5:a\0b\t5\tstatic\n", 20), "t.su");
  ASSERT_FALSE(nul.has_value());
  EXPECT_NE(nul.error().message.find("t.su:1: a NUL byte"), std::string::npos);
}

TEST(CallgraphInfoFile, ReadsNodesWithSizes) {
  const auto f = ParseCallgraphInfo(
      "graph: { title: \"c.cpp\"\n"
      "node: { title: \"_ZN2ns1fEi\" label: \"int ns::f(int)\\nc.cpp:2:5\\n24 bytes (static)\" }\n"
      "edge: { sourcename: \"_ZN2ns1fEi\" targetname: \"__aeabi_i2f\" }\n"
      "node: { title: \"__aeabi_i2f\" label: \"__aeabi_i2f\\n<built-in>\" shape : ellipse }\n"
      "node: { title: \"c.cpp:_ZL2sti\" label: \"int st(int)\\nc.cpp:4:12\\n32 bytes (dynamic,bounded)\" }\n"
      "}\n",
      "c.ci");
  ASSERT_TRUE(f.has_value()) << f.error().message;
  ASSERT_EQ(f->size(), 2u);
  EXPECT_EQ((*f)[0].symbol, "_ZN2ns1fEi");
  EXPECT_EQ((*f)[0].function, "int ns::f(int)");
  EXPECT_EQ((*f)[0].bytes, 24u);
  EXPECT_EQ((*f)[1].symbol, "_ZL2sti");
  EXPECT_TRUE((*f)[1].bounded);
}

TEST(CallgraphInfoFile, ReadsEdgesWhenAsked) {
  std::vector<CallFact> calls;
  const auto f = ParseCallgraphInfo(
      "graph: { title: \"c.c\"\n"
      "node: { title: \"c.c:leaf\" label: \"leaf\\nc.c:3:12\\n48 bytes (static)\" }\n"
      "edge: { sourcename: \"mid\" targetname: \"c.c:leaf\" label: \"c.c:4:30\" }\n"
      "edge: { sourcename: \"dv\" targetname: \"__divdi3\" }\n"
      "edge: { sourcename: \"call_ind\" targetname: \"__indirect_call\" label: \"c.c:8:30\" }\n"
      "}\n",
      "c.ci", &calls);
  ASSERT_TRUE(f.has_value()) << f.error().message;
  ASSERT_EQ(calls.size(), 3u);
  EXPECT_EQ(calls[0].caller, "mid");
  EXPECT_EQ(calls[0].callee, "leaf");  // a file-local function: its symbol, without the file
  EXPECT_EQ(calls[0].where, "c.c:4:30");
  EXPECT_EQ(calls[1].callee, "__divdi3");
  EXPECT_EQ(calls[1].where, "c.ci:4");  // no label: the .ci file's line
  EXPECT_TRUE(calls[2].indirect);
  EXPECT_EQ(calls[2].callee, "");
  const auto bad = ParseCallgraphInfo("graph: {\nedge: { sourcename: \"a\" }\n", "c.ci", &calls);
  ASSERT_FALSE(bad.has_value());
  EXPECT_NE(bad.error().message.find("c.ci:2: an edge without a quoted sourcename and targetname"),
            std::string::npos) << bad.error().message;
}

TEST(CallgraphInfoFile, EachDamageIsOneLineNamingFileAndLine) {
  const std::pair<const char*, const char*> cases[] = {
      {"node: { title: \"a\" label: \"a\\n1 bytes (static)\" }\n", "c.ci:1: not a -fcallgraph-info file"},
      {"graph: {\nnode: { title: \"a\" }\n", "c.ci:2: a node without a title and a label"},
      {"graph: {\nnode: { title: a label: \"x\" }\n", "not a quoted string"},
      {"graph: {\nnode: { title: \"a\" label: \"a\\nx bytes (static)\" }\n", "c.ci:2: the size"},
      {"graph: {\nnode: { title: \"a\" label: \"a\\n4 bytes (huge)\" }\n", "the kind 'huge'"},
      {"graph: {\nwhat\n", "c.ci:2: neither a node"},
  };
  for (const auto& [text, want] : cases) {
    const auto f = ParseCallgraphInfo(text, "c.ci");
    ASSERT_FALSE(f.has_value()) << text;
    EXPECT_NE(f.error().message.find(want), std::string::npos) << f.error().message;
    EXPECT_EQ(f.error().message.find('\n'), std::string::npos);
  }
}

TEST(StackFacts, MatchBySymbolByCNameAndByGccsCppSpelling) {
  CallGraph g;
  auto add = [&](const std::string& name, uint64_t address) {
    Function f;
    f.name = name;
    f.demangled = Demangle(name);
    f.address = address;
    f.size = 4;
    f.frame = 1;
    g.by_address[address] = g.functions.size();
    g.functions.push_back(f);
  };
  add("leaf", 0x100);
  add("_ZNK2ns1A1gEPKc", 0x200);  // ns::A::g(char const*) const
  add("_ZL2sti", 0x300);
  const std::vector<FrameFact> facts = {
      {"leaf", "", 56, false, false, "a.su:1"},
      {"int ns::A::g(const char*) const", "", 16, false, false, "a.su:2"},
      {"int st(int)", "_ZL2sti", 32, false, false, "a.ci:3"},
      {"static T ns::K<T>::run(T) [with T = int]", "", 48, false, false, "a.su:4"},
  };
  const Applied a = ApplyFacts(g, facts);
  EXPECT_EQ(a.functions, 3u);
  EXPECT_EQ(a.unmatched, 1u);
  EXPECT_EQ(g.functions[0].frame, 56u);
  EXPECT_EQ(g.functions[1].frame, 16u);
  EXPECT_EQ(g.functions[1].frame_source, ".su");
  EXPECT_EQ(g.functions[2].frame, 32u);
  EXPECT_EQ(g.functions[2].frame_source, ".ci");
}

}  // namespace gcc_facts_test
}  // namespace etmem::stack
