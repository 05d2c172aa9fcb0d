// Owns: holding every reader's messages, and the text readers keep for reports, to one printable
// line when the input carries control bytes, backslashes or non-ASCII (issue 25 item 1): the two
// fuzz findings (a .ptd whose header magic holds a newline at 0.6.0, a board key with a newline)
// and the same kind of input to the runner-profile, target-file, program and budget readers.
// Not: etmem::Printable itself (printable.h), the fuzz targets (fuzz/).
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "etmem/abi/abi.h"
#include "etmem/base/printable.h"
#include "etmem/board/board.h"
#include "etmem/pte/ptd_file.h"
#include "etmem/pte/read_program.h"
#include "etmem/analysis/budget.h"
#include "etmem/runner/profile.h"
#include "etmem/runtime/ptd_check.h"
#include "etmem/runtime/release.h"
#include "etmem/testing/scenarios.h"

namespace etmem {
namespace printable_input_test {

bool OnePrintableLine(const std::string& s) {
  for (const char c : s)
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7e) return false;
  return true;
}

std::vector<uint8_t> Base64(const std::string& text) {
  static const std::string kAlphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::vector<uint8_t> out;
  uint32_t bits = 0;
  int n = 0;
  for (const char c : text) {
    const size_t v = kAlphabet.find(c);
    if (v == std::string::npos) continue;  // padding
    bits = bits << 6 | static_cast<uint32_t>(v);
    n += 6;
    if (n >= 8) {
      n -= 8;
      out.push_back(static_cast<uint8_t>(bits >> n));
    }
  }
  return out;
}

TEST(PrintableInput, PrintableEscapesControlBytesBackslashAndNonAscii) {
  EXPECT_EQ(Printable("a\nb\\c\xff"), "a\\x0ab\\x5cc\\xff");
  EXPECT_EQ(Printable(std::string(100, 'x'), 4), "xxxx...");
}

// Fuzz finding (issue 25): ptd_fuzzer, "refusal text spans lines at 0.6.0".
TEST(PrintableInput, PtdWhoseMagicHoldsANewlineGivesOneLineAtEveryRelease) {
  const std::vector<uint8_t> bytes = Base64(
      "RAAAAEZUMDEKAMbHyAAAAPrNzs/QQdEAAAAAAAAAAAAGAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"
      "AAAAPdPU1dbX2CwtLi8wMTIzNDV6Nzg5Ojs8PT4/");
  auto ptd = pte::ReadPtdBytes(bytes, "finding\n.ptd");
  const std::vector<uint8_t> program_bytes =
      testing::NamedScenarioProgram("external_data").Build();
  auto program = pte::ReadProgramBytes(program_bytes, "external_data.pte");
  ASSERT_TRUE(program.has_value());
  if (!ptd) {
    EXPECT_TRUE(OnePrintableLine(ptd.error().message)) << ptd.error().message;
    return;
  }
  int refused = 0;
  for (const runtime::RuntimeTraits& t : runtime::AllReleases()) {
    const auto outcome = runtime::CheckExternalData(*program, program->methods[0], **ptd, t);
    if (!outcome) continue;
    ++refused;
    EXPECT_TRUE(OnePrintableLine(outcome->refusal.reason)) << t.version << ": " << outcome->refusal.reason;
    EXPECT_TRUE(OnePrintableLine(outcome->refusal.log)) << t.version << ": " << outcome->refusal.log;
    if (t.version == "0.6.0") {
      EXPECT_NE(outcome->refusal.reason.find("magic '\\x0a'"), std::string::npos)
          << outcome->refusal.reason;
    }
  }
  EXPECT_GT(refused, 0);
}

// Fuzz finding (issue 25): board_fuzzer, an unknown key echoed raw with its newline.
TEST(PrintableInput, BoardUnknownKeyWithANewlineIsEscaped) {
  const std::vector<uint8_t> bytes = Base64(
      "eyJuYW1lIjogIngiLCAicmVnaW9ubm1cIjpAIG1cbnMiOiBbeyJuYW1lIjoiMHp4c291cnRfZmYifV19");
  auto b = board::ParseBoard(std::string(bytes.begin(), bytes.end()), "fuzz-board.json");
  ASSERT_FALSE(b.has_value());
  EXPECT_TRUE(OnePrintableLine(b.error().message)) << b.error().message;
  EXPECT_NE(b.error().message.find("unknown key \"regionnm\":@ m\\x0as\""), std::string::npos)
      << b.error().message;
}

TEST(PrintableInput, BoardTextKeptForReportsIsPrintable) {
  auto b = board::ParseBoard(
      R"({"name": "b", "description": "two\nlines", "comment": ["\u001b[31mred"],
          "regions": [{"name": "SRAM", "size": 1024,
                       "reserved": [{"name": "stack\r", "bytes": 16}]}]})",
      "b.json");
  ASSERT_TRUE(b.has_value()) << b.error().message;
  EXPECT_EQ(b->description, "two\\x0alines");
  EXPECT_EQ(b->comment, "\\x1b[31mred");
  EXPECT_EQ(b->regions[0].reserved[0].name, "stack\\x0d");
  auto bad = board::ParseBoard("{}", "dir/\x1b[2Jboard.json");
  ASSERT_FALSE(bad.has_value());
  EXPECT_TRUE(OnePrintableLine(bad.error().message)) << bad.error().message;
  auto reserve = board::AddReservation(*b, "SRAM\n=1K");
  ASSERT_FALSE(reserve.has_value());
  EXPECT_TRUE(OnePrintableLine(reserve.error().message)) << reserve.error().message;
}

TEST(PrintableInput, RunnerProfileFieldsAndErrorsArePrintable) {
  auto p = runner::ParseProfile(R"({"etmem_runner_profile": 1, "bad\nkey": 1})", "r.json");
  ASSERT_FALSE(p.has_value());
  EXPECT_TRUE(OnePrintableLine(p.error().message)) << p.error().message;
  EXPECT_NE(p.error().message.find("bad\\x0akey"), std::string::npos) << p.error().message;
  auto q = runner::ParseProfile("not json", "line\nbreak.json");
  ASSERT_FALSE(q.has_value());
  EXPECT_TRUE(OnePrintableLine(q.error().message)) << q.error().message;
  auto s = runner::SelectRunner("no\x07such");
  ASSERT_FALSE(s.has_value());
  EXPECT_TRUE(OnePrintableLine(s.error().message)) << s.error().message;
}

TEST(PrintableInput, TargetFileNameAndErrorsArePrintable) {
  auto t = abi::ReadTargetText(
      R"({"name": "t\n1", "description": "\u00e9", "pointer": [4, 4], "size_t": [4, 4],
          "int64": [8, 8], "double": [8, 8]})",
      "t.json");
  ASSERT_TRUE(t.has_value()) << t.error().message;
  EXPECT_TRUE(OnePrintableLine(t->name)) << t->name;
  EXPECT_TRUE(OnePrintableLine(t->description)) << t->description;
  auto bad = abi::ReadTargetText("[]", "tar\nget.json");
  ASSERT_FALSE(bad.has_value());
  EXPECT_TRUE(OnePrintableLine(bad.error().message)) << bad.error().message;
  auto unknown = abi::FindBuiltinTarget("x\n");
  ASSERT_FALSE(unknown.has_value());
  EXPECT_TRUE(OnePrintableLine(unknown.error().message)) << unknown.error().message;
}

TEST(PrintableInput, ProgramPathIsPrintableInErrorsAndTheView) {
  const std::vector<uint8_t> junk(16, 0);
  auto bad = pte::ReadProgramBytes(junk, "evil\n\x1b[2J.pte");
  ASSERT_FALSE(bad.has_value());
  EXPECT_TRUE(OnePrintableLine(bad.error().message)) << bad.error().message;
  const std::vector<uint8_t> bytes = testing::MotivatingCnn().Build();
  auto good = pte::ReadProgramBytes(bytes, "cnn\n.pte");
  ASSERT_TRUE(good.has_value());
  EXPECT_EQ(good->path, "cnn\\x0a.pte");
  auto missing = pte::ReadProgram("/nonexistent/\x1b.pte");
  ASSERT_FALSE(missing.has_value());
  EXPECT_TRUE(OnePrintableLine(missing.error().message)) << missing.error().message;
}

TEST(PrintableInput, BudgetFileNameIsPrintable) {
  auto b = report::ParseBudgetText("ram = lots\n", "bud\nget.txt");
  ASSERT_FALSE(b.has_value());
  EXPECT_TRUE(OnePrintableLine(b.error().message)) << b.error().message;
  auto none = report::ReadBudgetFile("/nonexistent/\x07");
  ASSERT_FALSE(none.has_value());
  EXPECT_TRUE(OnePrintableLine(none.error().message)) << none.error().message;
}

}  // namespace printable_input_test
}  // namespace etmem
