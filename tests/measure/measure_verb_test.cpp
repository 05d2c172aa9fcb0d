// `etmem measure` on the stand-in ExecuTorch tree (tests/data/measure/standin-executorch): its
// load_method makes exactly the calls a script lists, so a script written from etmem's own
// prediction must match call for call, and a script changed at one call must diverge there.
// Also the tree and build errors, and that nothing is written into the tree. The real trees
// are measured outside the repo (tests/measured/x86_64_etmem_measure.json).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>

#include "etmem/api/internal.h"
#include "etmem/check/runner_prediction.h"
#include "etmem/check/search.h"
#include "etmem/etmem.h"
#include "etmem/measure/build.h"
#include "etmem/measure/harness_output.h"
#include "etmem/runtime/release.h"
#include "etmem/testing/ptd_scenarios.h"
#include "etmem_cli.h"

namespace etmem {
namespace measure_test {

namespace fs = std::filesystem;
using test::Etmem;
using test::Shell;
using test::TempPath;

const fs::path kStandIn = fs::path(ETMEM_SOURCE_DIR) / "tests/data/measure/standin-executorch";

bool ToolsPresent() {
  return Shell("command -v c++ >/dev/null || command -v g++ >/dev/null").exit_code == 0 &&
         Shell("command -v flatc >/dev/null").exit_code == 0;
}

// The stand-in's script for a program: its planned buffers, then the calls etmem predicts for
// load_method of its first method (x86_64, pool base 16 mod 32, the release's runner temp
// allocator), one "alloc SIZE ALIGN" line each.
struct Script {
  std::vector<std::string> planned;
  std::vector<std::string> allocs;
};

Script Predicted(const fs::path& program, const std::string& runtime) {
  api::Options o;
  o.runtime = runtime;
  o.target = "x86_64";
  o.pool_align = 16;
  const api::Report r = api::Analyze(program.string(), o);
  const report::MethodReport& m = api::Internal(r).methods.front();
  const auto p = check::PredictMethodPool(m.plan.requests, 16, std::nullopt);
  Script s;
  const auto& sizes = m.method->planned_buffer_sizes;  // index 0 is the placeholder
  for (size_t i = 1; i < sizes.size(); ++i) s.planned.push_back("planned " + std::to_string(sizes[i]));
  for (const device::PredictedCall& c : p.prediction.calls)
    s.allocs.push_back("alloc " + std::to_string(c.size) + " " + std::to_string(c.align));
  return s;
}

fs::path WriteScript(const std::string& name, const Script& script) {
  std::string text;
  for (const std::string& l : script.planned) text += l + "\n";
  for (const std::string& l : script.allocs) text += l + "\n";
  return test::WriteTemp(name, text);
}

// One work directory for the whole binary: the stand-in is compiled once.
const fs::path& Work() {
  static const fs::path work = TempPath("measure-work");
  return work;
}

test::CliRun Measure(const fs::path& script, const std::string& args,
                     const fs::path& tree = kStandIn) {
  return Shell("ETMEM_STANDIN_SCRIPT=" + script.string() + " " + ETMEM_BINARY + " measure " +
               args + " --executorch " + tree.string() + " --work " + Work().string());
}

fs::path Cnn() { return test::WriteScenario(testing::NamedScenarioProgram("cnn"), "measure_cnn"); }

class MeasureTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!ToolsPresent()) GTEST_SKIP() << "no C++ compiler or flatc in PATH";
  }
};

TEST_F(MeasureTest, AStandInThatDoesWhatEtmemPredictsMatchesCallForCall) {
  const fs::path cnn = Cnn();
  const Script script = Predicted(cnn, "1.4.1");
  const auto& allocs = script.allocs;
  ASSERT_GT(allocs.size(), 100u);
  const auto r = Measure(WriteScript("match", script), cnn.string());
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("(version.txt says 1.4.1)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("compared with etmem's model of ExecuTorch 1.4.1 (the tree's release)"),
            std::string::npos) << r.out;
  EXPECT_NE(r.out.find("matches etmem's prediction call for call (" +
                       std::to_string(allocs.size()) + " calls) under ExecuTorch 1.4.1, target "
                       "x86_64, pool base aligned to 16 B, a temp allocator"),
            std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("* "), std::string::npos) << "no row marked as differing\n" << r.out;
  // The measured log is what etmem check reads, and check agrees.
  const fs::path log = Work() / "measured-forward.log";
  ASSERT_TRUE(fs::exists(log));
  const auto c = Etmem("check " + cnn.string() + " " + log.string() +
                       " --runtime 1.4.1 --target x86_64 --pool-align 16");
  EXPECT_EQ(c.exit_code, 0) << c.out << c.err;
}

TEST_F(MeasureTest, AStandInThatDiffersAtOneCallIsReportedThere) {
  const fs::path cnn = Cnn();
  Script script = Predicted(cnn, "1.4.1");
  ASSERT_GT(script.allocs.size(), 10u);
  script.allocs[7] = "alloc 1000 8";  // what etmem does not predict
  const auto r = Measure(WriteScript("differ", script), cnn.string() + " --brief");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("first divergence at call #7: real runtime 1000 B align 8"),
            std::string::npos) << r.out;
  EXPECT_NE(r.out.find("etmem says call #7 is: "), std::string::npos) << r.out;
  EXPECT_EQ(r.out.find("call  measured"), std::string::npos) << "--brief: no table\n" << r.out;
}

TEST_F(MeasureTest, TheSameCallsWithAnotherVerdictAreADivergence) {
  const fs::path cnn = Cnn();
  Script script = Predicted(cnn, "1.4.1");
  script.allocs.push_back("error 18");  // InvalidArgument after every call etmem predicts
  const auto r = Measure(WriteScript("verdict", script), cnn.string() + " --brief");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("the calls agree but the verdicts differ: real runtime InvalidArgument, "
                       "etmem Ok"),
            std::string::npos) << r.out;
}

TEST_F(MeasureTest, ACrashOfTheRuntimeKeepsTheCallsBeforeItAndIsADivergence) {
  const fs::path cnn = Cnn();
  Script script = Predicted(cnn, "1.4.1");
  script.allocs.resize(5);
  script.allocs.push_back("crash");
  const auto r = Measure(WriteScript("crash", script), cnn.string() + " --brief");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("real runtime: crashed (signal 6), 5 calls"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("first divergence at call #5: real runtime the log ends after 5 calls"),
            std::string::npos) << r.out;
}

TEST_F(MeasureTest, APoolTooSmallFailsAtThePredictedCallWithThePredictedLine) {
  const fs::path cnn = Cnn();
  const Script script = Predicted(cnn, "1.4.1");
  const auto whole = Measure(WriteScript("whole", script), cnn.string() + " --brief");
  ASSERT_EQ(whole.exit_code, 0) << whole.out;
  const size_t at = whole.out.find("etmem:        Ok, ");
  ASSERT_NE(at, std::string::npos) << whole.out;
  const uint64_t used = std::stoull(whole.out.substr(whole.out.find("calls, ", at) + 7));
  const auto r = Measure(WriteScript("small", script),
                         cnn.string() + " --brief --pool " + std::to_string(used - 1));
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("real runtime: MemoryAllocationFailed"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("matches etmem's prediction"), std::string::npos) << r.out;
}

TEST_F(MeasureTest, ARunnerProfileReplaysTheRunnersOwnAllocationsAroundLoadMethod) {
  const fs::path cnn = Cnn();
  // The stand-in makes load_method's calls; the harness adds the runner's before and after.
  const Script script = Predicted(cnn, "1.4.1");
  ASSERT_EQ(script.planned.size(), 1u);
  const auto r = Measure(WriteScript("runner", script), cnn.string() + " --runner arm-baremetal");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("method 'forward': runner arm-baremetal"), std::string::npos) << r.out;
  // The planned buffer first, from the method pool and aligned 16 as the profile says, then
  // load_method's calls, then the runner's input EValue list.
  EXPECT_NE(r.out.find("  0     " + script.planned[0].substr(8) + " 16 @0 "), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("matches etmem's prediction call for call (" +
                       std::to_string(script.allocs.size() + 2) + " calls)"),
            std::string::npos) << r.out;
}

TEST_F(MeasureTest, AnUnmodelledVersionIsComparedWithTheClosestModelledRelease) {
  const fs::path tree = TempPath("standin-future");
  fs::copy(kStandIn, tree, fs::copy_options::recursive);
  std::ofstream(tree / "version.txt") << "99.1.0\n";
  const fs::path cnn = Cnn();
  const std::string newest = runtime::ReleaseVersions().back();
  const auto r = Measure(WriteScript("future", Predicted(cnn, newest)),
                         cnn.string() + " --brief", tree);
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("compared with etmem's model of ExecuTorch " + newest +
                       " (99.1.0 is not a modelled release: the closest modelled one)"),
            std::string::npos) << r.out;
}

// Every file's path, size and modification time under `root`.
std::map<std::string, std::pair<uintmax_t, fs::file_time_type>> Snapshot(const fs::path& root) {
  std::map<std::string, std::pair<uintmax_t, fs::file_time_type>> files;
  for (const auto& e : fs::recursive_directory_iterator(root))
    files[e.path().string()] = {e.is_regular_file() ? e.file_size() : 0, e.last_write_time()};
  return files;
}

TEST_F(MeasureTest, NothingIsWrittenIntoTheTree) {
  const fs::path tree = TempPath("standin-untouched");
  fs::copy(kStandIn, tree, fs::copy_options::recursive);
  const auto before = Snapshot(tree);
  const fs::path cnn = Cnn();
  // A temporary work directory this time (no --work), removed afterwards.
  const auto r = Shell("ETMEM_STANDIN_SCRIPT=" +
                       WriteScript("untouched", Predicted(cnn, "1.4.1")).string() + " " +
                       ETMEM_BINARY + " measure " + cnn.string() + " --brief --executorch " +
                       tree.string());
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(Snapshot(tree), before);
  const auto inside = Shell(std::string(ETMEM_BINARY) + " measure " + cnn.string() +
                            " --executorch " + tree.string() + " --work " +
                            (tree / "build").string());
  EXPECT_EQ(inside.exit_code, 2);
  EXPECT_NE(inside.err.find("inside the ExecuTorch tree"), std::string::npos) << inside.err;
  EXPECT_FALSE(fs::exists(tree / "build"));
}

TEST_F(MeasureTest, ADirectoryThatIsNotExecuTorchIsRefusedInOneLine) {
  const fs::path cnn = Cnn();
  const auto r = Etmem("measure " + cnn.string() + " --executorch " +
                       (fs::path(ETMEM_SOURCE_DIR) / "tests/data").string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "etmem: --executorch " + (fs::path(ETMEM_SOURCE_DIR) / "tests/data").string() +
                       ": not an ExecuTorch source tree (no runtime/executor/program.h)\n");
  const auto missing = Etmem("measure " + cnn.string() + " --executorch /nonexistent/et");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_EQ(missing.err, "etmem: --executorch /nonexistent/et: not a directory\n");
}

TEST_F(MeasureTest, ATreeThatDoesNotBuildShowsTheCompilersFirstError) {
  const fs::path tree = TempPath("standin-broken");
  fs::copy(kStandIn, tree, fs::copy_options::recursive);
  std::ofstream(tree / "runtime/executor/method.cpp", std::ios::app) << "\nint broken = ;\n";
  const fs::path cnn = Cnn();
  const auto r = Etmem("measure " + cnn.string() + " --executorch " + tree.string() +
                       " --work " + TempPath("broken-work").string());
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_TRUE(r.err.starts_with("etmem: --executorch " + fs::canonical(tree).string() +
                                ": does not build with c++: runtime/executor/method.cpp: "))
      << r.err;
  EXPECT_NE(r.err.find("error: expected primary-expression"), std::string::npos) << r.err;
  const auto no_compiler = Etmem("measure " + cnn.string() + " --executorch " + tree.string() +
                                 " --cxx no-such-compiler++ --work " +
                                 TempPath("broken-work2").string());
  EXPECT_EQ(no_compiler.exit_code, 2);
  EXPECT_EQ(no_compiler.err, "etmem: --cxx no-such-compiler++: no such compiler in PATH\n");
  // --cxx is a command: the compiler and words of its own ("g++ -m32" for a 32-bit harness),
  // each passed to every compile.
  const auto with_words = Etmem("measure " + cnn.string() + " --executorch " + tree.string() +
                                " --cxx 'c++ -DETMEM_WORD=1' --work " +
                                TempPath("broken-work3").string());
  EXPECT_EQ(with_words.exit_code, 2) << with_words.out;
  EXPECT_TRUE(with_words.err.starts_with("etmem: --executorch " + fs::canonical(tree).string() +
                                         ": does not build with c++ -DETMEM_WORD=1: "
                                         "runtime/executor/method.cpp: "))
      << with_words.err;
  const auto no_words = Etmem("measure " + cnn.string() + " --executorch " + tree.string() +
                              " --cxx 'no-such-compiler++ -m32' --work " +
                              TempPath("broken-work4").string());
  EXPECT_EQ(no_words.err, "etmem: --cxx no-such-compiler++ -m32: no such compiler in PATH\n");
}

// --external-data FILE.ptd builds the tree's own data map (extension/flat_tensor): a tree without
// one (the stand-in, ExecuTorch before 0.6) is refused in one line, before anything is built;
// a bare --external-data names no file for the harness to pass.
TEST_F(MeasureTest, ExternalDataNeedsTheFileAndTheTreesDataMap) {
  const fs::path program = test::WriteScenario(
      testing::NamedScenarioProgram("external_constant_without_key"), "measure_keyless");
  const std::vector<uint8_t> bytes = testing::RefusalPtds().front().make();
  const fs::path ptd = test::WriteTemp("measure_keyless.ptd", std::string(bytes.begin(), bytes.end()));
  const auto r = Etmem("measure " + program.string() + " --executorch " + kStandIn.string() +
                       " --external-data " + ptd.string() + " --work " +
                       TempPath("ptd-work").string());
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_EQ(r.err, "etmem: --external-data: --executorch " + fs::canonical(kStandIn).string() +
                       " has no extension/flat_tensor/flat_tensor_data_map.cpp (the data map "
                       "that loads a .ptd; ExecuTorch 0.6 and later)\n");
  const auto bare = Etmem("measure " + program.string() + " --executorch " + kStandIn.string() +
                          " --external-data --work " + TempPath("ptd-work2").string());
  EXPECT_EQ(bare.exit_code, 2) << bare.out;
  EXPECT_EQ(bare.err, "etmem: --external-data: etmem measure needs the .ptd file "
                      "(--external-data FILE.ptd), which the harness passes to load_method\n");
}

TEST(MeasureTree, TheReleaseIsReadFromVersionTxtOrATag) {
  EXPECT_EQ(measure::ReleaseInVersionText("0.3.0a0\n"), "0.3.0");
  EXPECT_EQ(measure::ReleaseInVersionText("v1.4.1"), "1.4.1");
  EXPECT_EQ(measure::ReleaseInVersionText("1.5\n"), "1.5.0");
  EXPECT_EQ(measure::ReleaseInVersionText("1.2.3.4"), "1.2.3");
  EXPECT_EQ(measure::ReleaseInVersionText("99999999999999999999.1.0"), std::nullopt);
  EXPECT_EQ(measure::ReleaseInVersionText("release 1.0"), std::nullopt);
  EXPECT_EQ(measure::ReleaseInVersionText("1."), std::nullopt);
  EXPECT_EQ(measure::VersionNumber("1.4.1"), 10401);
  EXPECT_EQ(measure::VersionNumber("0.3.0a0"), 300);
}

// The real runtime's verdict against etmem's: the same words, a Program::load refusal on both
// sides (issue 25: no_constants at 0.2-0.3), a crash for any signal, an ET_CHECK abort for
// SIGABRT or SIGILL (v0.1.0's abort traps: operator_name_too_long measured there) only.
TEST(MeasureVerdicts, AbortsCrashesAndProgramLoadRefusalsAgreeAsTheRuntimeShowsThem) {
  EXPECT_TRUE(measure::VerdictsAgree("Ok", "Ok", 0));
  EXPECT_TRUE(measure::VerdictsAgree("Program::load InvalidProgram", "Program::load InvalidProgram", 0));
  EXPECT_FALSE(measure::VerdictsAgree("Program::load InvalidProgram", "InvalidProgram", 0));
  EXPECT_TRUE(measure::VerdictsAgree("crashed (signal 11)", "crash (null dereference)", 128 + 11));
  EXPECT_TRUE(measure::VerdictsAgree("crashed (signal 6)", "abort (ET_CHECK)", 128 + 6));
  EXPECT_TRUE(measure::VerdictsAgree("crashed (signal 4)", "abort (ET_CHECK)", 128 + 4));
  EXPECT_FALSE(measure::VerdictsAgree("crashed (signal 11)", "abort (ET_CHECK)", 128 + 11));
  EXPECT_FALSE(measure::VerdictsAgree("crashed (signal 6)", "Ok", 128 + 6));
  EXPECT_FALSE(measure::VerdictsAgree("Internal", "abort (ET_CHECK)", 0));
  // --external-data: the data map refused the .ptd before load_method, which etmem names as the
  // method's refusal.
  const measure::HarnessFacts f =
      measure::ReadFacts("measure: program_load 0\nmeasure: data_map_load 36\n");
  EXPECT_EQ(f.data_map_load, 36);
  EXPECT_EQ(measure::Verdict(f, 0), "InvalidExternalData");
}

}  // namespace measure_test
}  // namespace etmem
