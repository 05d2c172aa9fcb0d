// The argument parser's own errors, in etmem's one-line form: "etmem: ...", exit 2, with the
// nearest verb or option when one is near ("did you mean"); help and usage lines name the
// command as it is typed ("etmem analyze"), not as CLI11 calls the subcommand.
#include <algorithm>
#include <string>

#include <gtest/gtest.h>

#include "etmem_cli.h"

namespace cli_usage_test {

using etmem::test::CliRun;
using etmem::test::Etmem;

// Exit 2, nothing on stdout, one line on stderr that starts "etmem: " and holds each of `has`.
void ExpectOneLine(const std::string& args, const std::vector<std::string>& has) {
  const CliRun r = Etmem(args);
  EXPECT_EQ(r.exit_code, 2) << args;
  EXPECT_TRUE(r.out.empty()) << args << ": " << r.out;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << args << ": " << r.err;
  EXPECT_TRUE(r.err.starts_with("etmem: ")) << args << ": " << r.err;
  for (const std::string& s : has) EXPECT_NE(r.err.find(s), std::string::npos) << args << ": " << r.err;
}

TEST(CliUsage, AMistypedVerbSuggestsTheNearestOne) {
  const std::string cnn = etmem::test::MotivatingCnnFile().string();
  ExpectOneLine("analyse " + cnn, {"unknown verb 'analyse'", "did you mean analyze?"});
  ExpectOneLine("sumary " + cnn, {"did you mean summary?"});
  ExpectOneLine("firmwear x.elf", {"did you mean firmware?"});
  ExpectOneLine("hedaer " + cnn, {"did you mean header?"});  // two letters swapped
  // Nothing near: the verbs are listed instead of a guess.
  const CliRun far = Etmem("frobnicate " + cnn);
  EXPECT_EQ(far.exit_code, 2);
  EXPECT_EQ(far.err.find("did you mean"), std::string::npos) << far.err;
  EXPECT_NE(far.err.find("analyze, "), std::string::npos) << far.err;
  ExpectOneLine("", {"no verb given", "analyze"});
}

TEST(CliUsage, AnUnknownOptionSuggestsTheNearestOptionOfThatVerb) {
  const std::string cnn = etmem::test::MotivatingCnnFile().string();
  ExpectOneLine("analyze " + cnn + " --pol 4096",
                {"unknown option '--pol' for etmem analyze", "did you mean --pool?"});
  ExpectOneLine("analyze " + cnn + " --runtme=0.3", {"'--runtme'", "did you mean --runtime?"});
  ExpectOneLine("header " + cnn + " --define-pool", {"did you mean --define-pools?"});
  ExpectOneLine("header " + cnn + " --marginn 10%", {"did you mean --margin?"});
  ExpectOneLine("analyze " + cnn + " --temp-pol 64", {"did you mean --temp-pool?"});
  // The nearest option of that verb: header has no --pool, so no guess of analyze's.
  const CliRun r = Etmem("header " + cnn + " --pool 4096");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err.find("did you mean --pool"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("etmem header --help"), std::string::npos) << r.err;
  ExpectOneLine("analyze " + cnn + " --zzzzzzzz", {"unknown option '--zzzzzzzz'", "--help"});
}

TEST(CliUsage, OtherParseErrorsAreOneLineNamingTheVerb) {
  const std::string cnn = etmem::test::MotivatingCnnFile().string();
  ExpectOneLine("analyze", {"analyze", "program"});
  ExpectOneLine("analyze " + cnn + " --temp maybe", {"--temp", "maybe"});
  ExpectOneLine("analyze " + cnn + " extra.pte", {"unexpected argument 'extra.pte'", "etmem analyze"});
  ExpectOneLine("analyze " + cnn + " --pool -5", {"--pool '-5'"});  // the strict size reader
  ExpectOneLine("replan " + cnn, {"replan"});
}

TEST(CliUsage, HelpNamesTheCommandAsTyped) {
  const CliRun verb = Etmem("analyze --help");
  EXPECT_EQ(verb.exit_code, 0);
  EXPECT_NE(verb.out.find("Usage: etmem analyze [OPTIONS] program"), std::string::npos) << verb.out;
  const CliRun root = Etmem("--help");
  EXPECT_EQ(root.exit_code, 0);
  EXPECT_NE(root.out.find("Usage: etmem "), std::string::npos) << root.out;
  EXPECT_NE(root.out.find("analyze"), std::string::npos) << root.out;
}

}  // namespace cli_usage_test
