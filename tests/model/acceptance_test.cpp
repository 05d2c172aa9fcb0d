// Owns: holding etmem's program reader to what the releases accept (issue 25 item 3;
// docs/acceptance.md): every message the reader can give is listed in docs/acceptance.md with
// the release code that makes the same decision, and the exporter's layouts that a strict
// reader could call invalid (no constants, no segments; with a delegate segment; constants only
// inline) read, and load or are refused at each release as the release code says
// (docs/acceptance.md; not yet measured on the real runtime).
// Not: the runtime's refusals of programs the reader accepts (refusals_match_measured_test.cpp).
#include <gtest/gtest.h>

#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>

#include "etmem/abi/abi.h"
#include "etmem/pte/read_program.h"
#include "etmem/analysis/report.h"
#include "etmem/runtime/release.h"
#include "etmem/testing/scenarios.h"

namespace etmem {
namespace acceptance_test {

std::string ReadText(const std::string& relative) {
  std::ifstream in(std::string(ETMEM_SOURCE_DIR) + "/" + relative);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The first literal of every message read_program.cpp makes: Fail(where, "..."),
// name/file + ": ...", fail("...").
std::set<std::string> ReaderMessages() {
  const std::string src = ReadText("src/etmem/pte/read_program.cpp");
  static const std::regex kMessage(
      R"re((?:Fail\([^,()]+(?:\([^()]*\))?,\s*(?:std::string\()?|(?:name|file) \+\s*|fail\()\s*"((?:[^"\\]|\\.)+)")re");
  std::set<std::string> out;
  for (auto it = std::sregex_iterator(src.begin(), src.end(), kMessage);
       it != std::sregex_iterator(); ++it) {
    std::string m = (*it)[1];
    m = std::regex_replace(m, std::regex(R"(\\")"), "\"");
    while (!m.empty() && m.back() == ' ') m.pop_back();  // the number follows
    if (m.starts_with(": ")) m = m.substr(2);
    out.insert(m);
  }
  return out;
}

TEST(Acceptance, EveryReaderMessageIsInTheAcceptanceTable) {
  const std::set<std::string> messages = ReaderMessages();
  EXPECT_GE(messages.size(), 35u) << "the message pattern no longer matches read_program.cpp";
  const std::string doc = ReadText("docs/acceptance.md");
  for (const std::string& m : messages)
    EXPECT_NE(doc.find(m), std::string::npos)
        << "read_program.cpp refuses with \"" << m << "\", which docs/acceptance.md does not list";
}

TEST(Acceptance, TheReaderNoLongerRefusesAConstantSegmentIndexWithoutSegments) {
  const std::string src = ReadText("src/etmem/pte/read_program.cpp");
  EXPECT_EQ(src.find("\"constant segment index "), std::string::npos);
}

report::Report ReportAt(const pte::ProgramView& p, const runtime::RuntimeTraits& t) {
  const runtime::RuntimeModel model(t, *abi::FindBuiltinTarget("x86_64"));
  report::ReportOptions o;
  o.load.temp_allocator = true;
  auto r = report::BuildReport(p, model, o);
  EXPECT_TRUE(r.has_value()) << t.version;
  return r ? *r : report::Report{};
}

bool RefusesConstantSegment(const std::string& version) {
  return version == "0.2.0" || version == "0.2.1" || version == "0.3.0";
}

// The exporter's layout for a program without constants: constant_segment {0, [0]}, no
// segments. 0.2.0-0.3.0 load the constant segment whenever offsets has an entry and refuse it
// (program.cpp Program::load); 0.1.0 does not read constant_segment; 0.4.0+ skip it.
TEST(Acceptance, NoConstantsLayoutReadsAndLoadsFrom04) {
  const std::vector<uint8_t> bytes = testing::NamedScenarioProgram("no_constants").Build();
  auto p = pte::ReadProgramBytes(bytes, "no_constants.pte");
  ASSERT_TRUE(p.has_value()) << p.error().message;
  EXPECT_EQ(p->constant_offsets, 1u);
  EXPECT_TRUE(p->segments.empty());
  EXPECT_FALSE(p->constant_segment.has_value());
  for (const runtime::RuntimeTraits& t : runtime::AllReleases()) {
    const report::Report r = ReportAt(*p, t);
    ASSERT_EQ(r.methods.size(), 1u);
    const auto& refusal = r.methods[0].plan.refusal;
    if (RefusesConstantSegment(t.version)) {
      ASSERT_TRUE(refusal.has_value()) << t.version;
      EXPECT_EQ(refusal->error, "InvalidProgram") << t.version;
      EXPECT_EQ(refusal->log, "Constant segment index 0 invalid for program segments range 0");
    } else {
      EXPECT_FALSE(refusal.has_value()) << t.version << ": " << refusal->reason;
      EXPECT_GT(r.methods[0].method_bytes, 0u) << t.version;
    }
  }
}

// The same with a delegate blob in segment 0: the constant segment entry names the delegate's
// segment, which 0.2-0.3 load as constants (it exists), so no release refuses the layout.
TEST(Acceptance, NoConstantsWithADelegateSegmentIsNotRefusedForItsConstantSegment) {
  const std::vector<uint8_t> bytes =
      testing::NamedScenarioProgram("no_constants_delegate_segment").Build();
  auto p = pte::ReadProgramBytes(bytes, "no_constants_delegate_segment.pte");
  ASSERT_TRUE(p.has_value()) << p.error().message;
  EXPECT_EQ(p->segments.size(), 1u);
  for (const runtime::RuntimeTraits& t : runtime::AllReleases()) {
    const report::Report r = ReportAt(*p, t);
    ASSERT_EQ(r.methods.size(), 1u);
    const auto& refusal = r.methods[0].plan.refusal;
    EXPECT_TRUE(!refusal || refusal->error != "InvalidProgram")
        << t.version << ": " << refusal->reason;
  }
}

TEST(Acceptance, InlineConstantsOnlyLoadsAtEveryRelease) {
  const std::vector<uint8_t> bytes = testing::NamedScenarioProgram("inline_constants_only").Build();
  auto p = pte::ReadProgramBytes(bytes, "inline_constants_only.pte");
  ASSERT_TRUE(p.has_value()) << p.error().message;
  EXPECT_EQ(p->constant_offsets, 0u);
  EXPECT_EQ(p->inline_constant_buffers, 3u);  // the reserved entry and two weights
  for (const runtime::RuntimeTraits& t : runtime::AllReleases()) {
    const report::Report r = ReportAt(*p, t);
    ASSERT_EQ(r.methods.size(), 1u);
    EXPECT_FALSE(r.methods[0].plan.refusal.has_value())
        << t.version << ": " << r.methods[0].plan.refusal->reason;
  }
}

// A jump-if-false whose destination is the chain's length ends the chain (Method::step); no
// release checks the destination at load.
TEST(Acceptance, AJumpToTheEndOfItsChainReads) {
  testing::ProgramBuilder program;
  testing::MethodBuilder& m = program.Method("forward");
  int flag = m.Bool(false);
  int x = m.Tensor({.sizes = {1, 4}, .placement = testing::Placement{.offset = 0}});
  int y = m.Tensor({.sizes = {1, 4}, .placement = testing::Placement{.offset = 16}});
  m.Inputs({x});
  m.Outputs({y});
  m.PlannedBufferSizes({32});
  int relu = m.Operator("aten::relu", "out");
  m.JumpFalse(flag, 2);  // past the last instruction of this two-instruction chain
  m.KernelCall(relu, {x, y, y});
  const std::vector<uint8_t> bytes = program.Build();
  auto p = pte::ReadProgramBytes(bytes, "jump_to_end.pte");
  ASSERT_TRUE(p.has_value()) << p.error().message;
  EXPECT_EQ(p->methods[0].instructions[0].second, 2);
}

}  // namespace acceptance_test
}  // namespace etmem
