// Owns: the tests of what a user may type wrong or ahead of etmem (issue 24 items 4-5), on the
// command line and through the public API: a release newer than the newest modelled one, sizes
// that are negative, not numbers, followed by junk or too large, and a .ptd given as the
// program; and the report's JSON as a value (api::JsonValue, what the Python module builds its
// dicts from) against the JSON text. Not: the Python side (python/tests).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "etmem/api/internal.h"
#include "etmem/etmem.h"
#include "etmem/report/json_report.h"
#include "etmem/runtime/release.h"
#include "etmem/testing/ptd_scenarios.h"
#include "etmem_cli.h"

namespace etmem::test {
namespace cli_input_test {

std::string NewestRelease() { return runtime::ReleaseVersions().back(); }

const runtime::RuntimeTraits& NewestSnapshot() { return *runtime::AllSnapshots().back(); }

// What the message for a release newer than the newest modelled one must say.
void ExpectNewerThanModelled(const std::string& message, const std::string& version) {
  SCOPED_TRACE(message);
  EXPECT_EQ(message.find('\n'), std::string::npos);
  EXPECT_NE(message.find("ExecuTorch " + version + " is newer than the newest modelled release, " +
                         NewestRelease()),
            std::string::npos);
  const runtime::RuntimeTraits& main = NewestSnapshot();
  EXPECT_NE(message.find(main.version + " (--runtime main)"), std::string::npos);
  EXPECT_NE(message.find("version.txt already says 1.5.0"), std::string::npos);
  EXPECT_NE(message.find(main.summary), std::string::npos);  // what the snapshot holds
  EXPECT_NE(message.find("etmem measure PROGRAM --executorch"), std::string::npos);
  EXPECT_EQ(message.find("unknown ExecuTorch release"), std::string::npos);
}

TEST(NewerRelease, TheModelledSnapshotOfMainSaysItsVersionTxt) {
  // version.txt at commit cff6f4dd (git show cff6f4dd:version.txt in ExecuTorch's repository)
  // reads 1.5.0; `etmem list runtimes` says so.
  EXPECT_EQ(NewestSnapshot().version, "main-20260822-cff6f4dd");
  EXPECT_NE(NewestSnapshot().summary.find("its version.txt already says 1.5.0"), std::string::npos);
  const CliRun list = Etmem("list runtimes");
  EXPECT_NE(list.out.find("main-20260822-cff6f4dd main, not a release (its version.txt already "
                          "says 1.5.0): as 1.4.1;"),
            std::string::npos)
      << list.out;
}

TEST(NewerRelease, FindReleaseNamesWhatIsModelledInstead) {
  for (const std::string v : {"1.5", "1.5.0", "1.5.1", "1.6", "2.0", "v1.5.0", "1.4.2", "10.0", "12345.0", "2"}) {
    auto r = runtime::FindRelease(v);
    ASSERT_FALSE(r) << v;
    EXPECT_EQ(r.error().code, ErrorCode::kInvalidArgument);
    ExpectNewerThanModelled(r.error().message, v);
  }
  // Malformed or older-but-unknown versions keep the one-line list of names.
  for (const std::string v : {"1.x", "1.5-rc1", "1.5.0.0", "1..5", "1.", ".5", "0.0", "1",
                              "1.3.2", "abc", "1.5\x01"}) {
    auto r = runtime::FindRelease(v);
    ASSERT_FALSE(r) << v;
    EXPECT_NE(r.error().message.find("unknown ExecuTorch release '"), std::string::npos) << v;
    EXPECT_NE(r.error().message.find("(modelled: 0.1.0,"), std::string::npos) << v;
    EXPECT_EQ(r.error().message.find('\n'), std::string::npos) << v;
    EXPECT_EQ(r.error().message.find('\x01'), std::string::npos) << v;  // escaped
  }
}

TEST(NewerRelease, TheApiThrowsTheSameLineAndNeverStandsIn) {
  const api::Program program = api::Program::Open(MotivatingCnnFile().string());
  api::Options o;
  o.runtime = "1.5";
  for (auto call : {+[](const api::Program& p, const api::Options& o) { (void)api::Analyze(p, o); },
                    +[](const api::Program& p, const api::Options& o) { (void)api::AnalyzeAll(p, o); },
                    +[](const api::Program& p, const api::Options& o) { (void)api::Header(p, o); }}) {
    try {
      call(program, o);
      ADD_FAILURE() << "no error for --runtime 1.5";
    } catch (const api::Error& e) {
      EXPECT_EQ(e.kind(), api::ErrorKind::kInvalidArgument);
      ExpectNewerThanModelled(e.what(), "1.5");
    }
  }
}

TEST(NewerRelease, EveryVerbExitsTwoWithTheLine) {
  const std::string cnn = MotivatingCnnFile().string();
  const fs::path log = WriteTemp(
      "newer.log", "Memory allocation failed: 48B requested (adjusted for alignment), 44B available\n");
  for (const std::string& command :
       {"analyze " + cnn + " --runtime 1.5", "analyze " + cnn + " --runtime 1.5.1 --format json",
        "analyze " + cnn + " --runtime 2.0 --target all", "header " + cnn + " --runtime 1.6",
        "plan " + cnn + " --format html --runtime 1.5.0", "fit " + cnn + " --board stm32h743 --runtime 1.5",
        "check " + cnn + " " + log.string() + " --runtime 1.5"}) {
    const CliRun r = Etmem(command);
    SCOPED_TRACE(command);
    EXPECT_EQ(r.exit_code, 2);
    // check prints what it read of the log before the model it compares with (its own order).
    if (!command.starts_with("check ")) EXPECT_EQ(r.out, "");
    ASSERT_TRUE(r.err.starts_with("etmem: ")) << r.err;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_NE(r.err.find("is newer than the newest modelled release, " + NewestRelease()),
              std::string::npos)
        << r.err;
  }
  // Malformed: the list, in one line.
  const CliRun bad = Etmem("analyze " + cnn + " --runtime 1.5-rc1");
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_TRUE(bad.err.starts_with("etmem: unknown ExecuTorch release '1.5-rc1' (modelled: "))
      << bad.err;
  EXPECT_EQ(std::count(bad.err.begin(), bad.err.end(), '\n'), 1) << bad.err;
}

// `args` must fail as a usage error in one line naming `option` and `shown` (the value as the
// message quotes it), with no wrapped number.
void ExpectOneLineRefusal(const std::string& args, const std::string& option,
                          const std::string& shown) {
  const CliRun r = Etmem(args);
  SCOPED_TRACE(args);
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  ASSERT_TRUE(r.err.starts_with("etmem: ")) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_NE(r.err.find(option), std::string::npos) << r.err;
  EXPECT_NE(r.err.find(shown), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find("18446744073709551"), std::string::npos) << r.err;
  EXPECT_EQ(r.err.find('\x01'), std::string::npos) << r.err;
}

TEST(Sizes, BadSizesAreOneLineNamingTheOptionAndTheValue) {
  const std::string cnn = MotivatingCnnFile().string();
  const fs::path log = WriteTemp("sizes.log", "Memory allocation failed: 48B requested\n");
  const std::string a = "analyze " + cnn;
  struct Case {
    std::string args, option, shown;
  };
  const std::vector<Case> cases = {
      {a + " --pool -5", "--pool", "'-5': not a size in bytes"},
      {a + " --pool=-5", "--pool", "'-5'"},
      {a + " --pool abc", "--pool", "'abc': not a size in bytes"},
      {a + " --pool 12x", "--pool", "'12x'"},
      {a + " --pool ' 12'", "--pool", "' 12'"},
      {a + " --pool +12", "--pool", "'+12'"},
      {a + " --pool 4096.5", "--pool", "'4096.5'"},
      {a + " --pool 99999999999999999999999", "--pool", "'99999999999999999999999'"},
      {a + " --pool 17179869184G", "--pool", "'17179869184G'"},
      {a + " --pool \"$(printf '4\\001')\"", "--pool", "'4\\x01'"},
      {a + " --temp-pool -1", "--temp-pool", "'-1'"},
      {a + " --runtime main --temp-pool 1Q", "--temp-pool", "'1Q'"},
      {a + " --pool-align -8", "--pool-align", "'-8'"},
      {a + " --pool-align 4294967296", "--pool-align", "'4294967296': too large"},
      {a + " --pool-align 8a", "--pool-align", "'8a'"},
      {"check " + cnn + " " + log.string() + " --pool -5", "--pool", "'-5'"},
      {"measure " + cnn + " --executorch /nonexistent --pool -5", "--pool", "'-5'"},
      {"measure " + cnn + " --executorch /nonexistent --jobs -2", "--jobs", "'-2': not a whole number"},
      {"header " + cnn + " --pool-align 0x", "--pool-align", "'0x'"},
      {"plan " + cnn + " --alignment -16", "--alignment", "'-16'"},
      {"plan " + cnn + " --columns -3", "--columns", "'-3': not a whole number"},
      {"plan " + cnn + " --columns 64K", "--columns", "'64K'"},
      {"replan " + cnn + " -o /dev/null --alignment 16x", "--alignment", "'16x'"},
      {a + " --backend Npu=-5", "--backend Npu=-5", "'-5' is not a byte size"},
      {a + " --backend Npu=5x", "--backend Npu=5x", "'5x'"},
      {a + " --backend Npu=16:8x", "--backend Npu=16:8x", "ALIGN '8x'"},
      {a + " --backend Npu=16:-8", "--backend Npu=16:-8", "ALIGN '-8'"},
      {a + " --budget ram=-5", "--budget 'ram=-5'", "'-5' is not a byte size"},
      {a + " --budget ram=17179869184G", "--budget", "too large"},
      {"fit " + cnn + " --board stm32wb55 --reserve SRAM1=-5", "--reserve SRAM1=-5", "'-5' is not a size"},
      {"header " + cnn + " --margin -5", "--margin '-5'", "neither a percentage"},
  };
  for (const Case& c : cases) ExpectOneLineRefusal(c.args, c.option, c.shown);
}

TEST(Sizes, GoodSizesReadAsBeforeAndWithUnits) {
  const std::string a = "analyze " + MotivatingCnnFile().string() + " --runtime 0.3 --format json";
  const CliRun plain = Etmem(a + " --pool 4096");
  EXPECT_EQ(plain.exit_code, 1);  // the motivating CNN needs 4266 B
  EXPECT_NE(plain.out.find("\"pool_bytes\":4096"), std::string::npos);
  for (const std::string same : {"4K", "0x1000", "4k", "4KiB", "04096"}) {
    const CliRun r = Etmem(a + " --pool " + same);
    EXPECT_EQ(r.exit_code, 1) << same << r.err;
    EXPECT_EQ(r.out, plain.out) << same;
  }
  const CliRun aligned = Etmem(a + " --pool 8K --pool-align 0x10 --temp-pool 1K");
  EXPECT_EQ(aligned.exit_code, 0) << aligned.err;
  EXPECT_EQ(aligned.out, Etmem(a + " --pool 8192 --pool-align 16 --temp-pool 1024").out);
  // A unit on a backend's bytes, as --budget reads sizes.
  const std::string b = "analyze " + MotivatingCnnFile().string() + " --format json --backend ";
  EXPECT_EQ(Etmem(b + "Npu=1K:16").out, Etmem(b + "Npu=1024:16").out);
}

TEST(Sizes, ThePublicApiRefusesBadSizeTextNamingIt) {
  const api::Program program = api::Program::Open(MotivatingCnnFile().string());
  for (const std::string backend : {"Npu=-5", "Npu=5x", "Npu=16:8x", "Npu=99999999999999999999999"}) {
    api::Options o;
    o.backends = {backend};
    try {
      (void)api::Analyze(program, o);
      ADD_FAILURE() << backend;
    } catch (const api::Error& e) {
      EXPECT_EQ(e.kind(), api::ErrorKind::kInvalidArgument);
      EXPECT_TRUE(std::string(e.what()).starts_with("--backend " + backend + ": ")) << e.what();
    }
  }
  EXPECT_THROW((void)api::ParseBudget("ram=-5"), api::Error);
  EXPECT_THROW((void)api::Board::Open("stm32wb55").Reserve("SRAM1=-5"), api::Error);
}

TEST(PtdAsProgram, IsNamedAsExternalDataWithItsFlag) {
  const std::vector<uint8_t> ptd = testing::PtdScenarios().front().make();
  const fs::path path = WriteTemp("weights.ptd", std::string(ptd.begin(), ptd.end()));
  for (const std::string verb : {"analyze", "header", "plan", "summary"}) {
    const CliRun r = Etmem(verb + " " + path.string());
    SCOPED_TRACE(verb);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_EQ(r.err, "etmem: " + path.string() +
                         ": external data (a .ptd file), not an ExecuTorch program: give the "
                         "program (.pte) and this file with --external-data " +
                         path.string() + "\n");
  }
  // From memory, and under a name that is no .ptd's: the flag with a placeholder.
  try {
    (void)api::Program::FromBytes(ptd.data(), ptd.size(), "blob");
    ADD_FAILURE() << "a .ptd read as a program";
  } catch (const api::Error& e) {
    EXPECT_EQ(e.kind(), api::ErrorKind::kInvalidProgram);
    EXPECT_EQ(std::string(e.what()),
              "blob: external data (a .ptd file), not an ExecuTorch program: give the program "
              "(.pte) and this file with --external-data FILE.ptd");
  }
  // Every .ptd scenario, damaged ones included (their identifier or header still says FlatTensor).
  for (const testing::NamedPtd& p : testing::PtdScenarios()) {
    const std::vector<uint8_t> bytes = p.make();
    if (bytes.size() < 12) continue;  // a truncated head: not recognisable
    try {
      (void)api::Program::FromBytes(bytes.data(), bytes.size(), std::string(p.name) + ".ptd");
      ADD_FAILURE() << p.name;
    } catch (const api::Error& e) {
      EXPECT_NE(std::string(e.what()).find("external data (a .ptd file)"), std::string::npos)
          << p.name << ": " << e.what();
    }
  }
}

// The JSON as events, written back as a value: what a caller of JsonValue::Visit builds.
class Rebuild final : public api::JsonVisitor {
 public:
  nlohmann::ordered_json result;
  void Null() override { Add(nullptr); }
  void Bool(bool v) override { Add(v); }
  void Int(int64_t v) override { Add(v); }
  void Uint(uint64_t v) override { Add(v); }
  void Double(double v) override { Add(v); }
  void String(std::string_view v) override { Add(std::string(v)); }
  void BeginArray(size_t size) override {
    open_.push_back({nlohmann::ordered_json::array(), {}, size});
  }
  void BeginObject(size_t size) override {
    open_.push_back({nlohmann::ordered_json::object(), {}, size});
  }
  void Key(std::string_view k) override { open_.back().key = std::string(k); }
  void EndArray() override { Close(); }
  void EndObject() override { Close(); }

 private:
  struct Open {
    nlohmann::ordered_json value;
    std::string key;
    size_t size;
  };
  void Close() {
    Open done = std::move(open_.back());
    open_.pop_back();
    EXPECT_EQ(done.value.size(), done.size);  // BeginArray/BeginObject said how many
    Add(std::move(done.value));
  }
  void Add(nlohmann::ordered_json v) {
    if (open_.empty()) {
      result = std::move(v);
    } else if (open_.back().value.is_array()) {
      open_.back().value.push_back(std::move(v));
    } else {
      open_.back().value[open_.back().key] = std::move(v);
    }
  }
  std::vector<Open> open_;
};

std::string Dumped(const nlohmann::ordered_json& j) {
  return j.dump(-1, ' ', false, nlohmann::ordered_json::error_handler_t::replace);
}

// As Render(kJson) writes a value: one object (one report's, or several's with their
// "results"), on one line.
std::string AsRendered(const nlohmann::ordered_json& j) { return Dumped(j) + "\n"; }

// Every named scenario, and the CNN under a name that is not UTF-8 (the text replaces the byte,
// and so must the value), last.
std::vector<api::Program> JsonPrograms() {
  std::vector<api::Program> programs;
  for (const testing::NamedScenario& s : testing::NamedScenarios()) {
    const std::vector<uint8_t> bytes = s.make().Build();
    programs.push_back(api::Program::FromBytes(bytes.data(), bytes.size(), s.name));
  }
  const std::vector<uint8_t> cnn = testing::MotivatingCnn().Build();
  programs.push_back(api::Program::FromBytes(cnn.data(), cnn.size(), "caf\xe9 \xff.pte"));
  return programs;
}

TEST(JsonValue, IsTheJsonTextMemberForMember) {
  const std::vector<api::Program> programs = JsonPrograms();
  for (const api::Program& program : programs) {
    for (const api::Options& o :
         {api::Options{}, api::Options{.runtime = "0.3", .pool = 4096},
          api::Options{.runtime = "main", .temp_pool = 64, .runner = "arm-baremetal"},
          api::Options{.runtime = "1.4", .external_data = true}}) {
      SCOPED_TRACE(program.name() + " " + o.runtime);
      std::vector<api::Report> reports;
      try {
        reports = api::AnalyzeAll(program, o);
      } catch (const api::Error&) {
        continue;  // a runner profile that does not cover the scenario, say
      }
      const std::string text = api::Render(reports, api::Format::kJson);
      Rebuild rebuilt;
      api::ToJsonValue(reports).Visit(rebuilt);
      EXPECT_EQ(AsRendered(rebuilt.result), text);
    }
  }
  // Several reports: one object, their objects its "results", as the text.
  api::Options all;
  all.runtime = "all";
  all.target = "all";
  const std::vector<api::Report> every = api::AnalyzeAll(programs.back(), all);
  Rebuild rebuilt;
  api::ToJsonValue(every).Visit(rebuilt);
  ASSERT_TRUE(rebuilt.result.is_object());
  EXPECT_EQ(rebuilt.result["schema"], 1);
  EXPECT_EQ(rebuilt.result["verdict"], api::Judge(every).name());
  EXPECT_EQ(rebuilt.result["results"].size(), every.size());
  EXPECT_EQ(AsRendered(rebuilt.result), api::Render(every, api::Format::kJson));
  // Without every allocation there is no JSON, value or text.
  api::Options totals;
  totals.keep_allocations = false;
  const api::Report bare = api::Analyze(programs.back(), totals);
  EXPECT_THROW((void)api::ToJsonValue(std::span<const api::Report>(&bare, 1)), api::Error);
}

// Every other verb whose JSON Python returns gives it as a value too (summary, plan, the
// per-op table; the firmware report's is tested with its image in firmware_test.cpp): the value
// is the text member for member, in the text's layout.
TEST(JsonValue, SummaryPlanAndPerOpAreTheirJsonTexts) {
  const std::vector<api::Program> programs = JsonPrograms();
  size_t compared = 0;
  for (const api::Program& program : programs) {
    SCOPED_TRACE(program.name());
    api::PlanOptions plan;
    plan.format = api::PlanFormat::kJson;
    try {
      const std::string text = api::Plan(program, plan).output;
      Rebuild rebuilt;
      api::PlanJson(program, plan).Visit(rebuilt);
      EXPECT_EQ(rebuilt.result.dump(1, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n",
                text);
      ++compared;
    } catch (const api::Error&) {
      EXPECT_THROW((void)api::PlanJson(program, plan), api::Error);  // the same refusal
    }
    std::optional<api::Report> report;
    try {
      report = api::Analyze(program, api::Options{.runtime = "1.4.1"});
    } catch (const api::Error&) {
      continue;
    }
    for (const char* sort : {"index", "temp"}) {
      Rebuild rebuilt;
      api::PerOpJson(*report, sort).Visit(rebuilt);
      EXPECT_EQ(AsRendered(rebuilt.result), api::RenderPerOp(*report, api::Format::kJson, sort));
      ++compared;
    }
    try {
      const std::string text = api::Summary(*report, api::Format::kJson);
      Rebuild rebuilt;
      api::SummaryJson(*report).Visit(rebuilt);
      EXPECT_EQ(rebuilt.result.dump(2, ' ', false, nlohmann::ordered_json::error_handler_t::replace) + "\n",
                text);
      ++compared;
    } catch (const api::Error&) {
      EXPECT_THROW((void)api::SummaryJson(*report), api::Error);  // a refused method
    }
  }
  EXPECT_GT(compared, programs.size() * 2);
  // A board goes with the text or HTML plan only, value or text.
  api::PlanOptions on_board;
  on_board.board = api::Boards().front();
  EXPECT_THROW((void)api::PlanJson(programs.back(), on_board), api::Error);
}

}  // namespace cli_input_test
}  // namespace etmem::test
