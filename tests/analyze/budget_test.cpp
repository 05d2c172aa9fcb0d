// Budgets (`etmem analyze --budget`, `--budget-file`): the size grammar, the spec and file
// parsers with their one-line errors, what each item limits, and the exit codes; plus the CSV
// and Markdown summaries of analyze, whose rows are the JSON report's figures.
#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "etmem/abi/abi.h"
#include "etmem/base/byte_size.h"
#include "etmem/pte/read_program.h"
#include "etmem/analysis/budget.h"
#include "etmem/analysis/figures.h"
#include "etmem/runtime/release.h"
#include "etmem/testing/scenarios.h"
#include "etmem_cli.h"

namespace etmem::test {
namespace budget_test {

using report::Budget;
using report::ParseBudget;
using report::ParseBudgetText;
using etmem::ParseByteSize;  // the one byte-size grammar (base/byte_size.h)

TEST(Budget, ByteSizesAre1024Based) {
  EXPECT_EQ(*ParseByteSize("4096"), 4096u);
  EXPECT_EQ(*ParseByteSize("64K"), 65536u);
  EXPECT_EQ(*ParseByteSize("64k"), 65536u);
  EXPECT_EQ(*ParseBudget("ram= 64KiB ")->ram, 65536u);  // a budget item's value is trimmed
  EXPECT_EQ(*ParseByteSize("64KB"), 65536u);
  EXPECT_EQ(*ParseByteSize("256K"), 262144u);
  EXPECT_EQ(*ParseByteSize("1M"), 1048576u);
  EXPECT_EQ(*ParseByteSize("2G"), 2147483648u);
  EXPECT_EQ(*ParseByteSize("0"), 0u);
  for (const char* bad :
       {"", "K", "-1", "1.5K", "64Q", "64 K B", "0x", "99999999999999999999", "17179869184G"})
    EXPECT_FALSE(ParseByteSize(bad).has_value()) << bad;
  EXPECT_NE(ParseByteSize("64Q").error().message.find("'64Q'"), std::string::npos);
  EXPECT_EQ(*ParseByteSize("0x100"), 256u);  // one grammar: the boards' 0x hex too
}

TEST(Budget, SpecSetsRamAndFlash) {
  auto b = ParseBudget("ram=64K,flash=256K");
  ASSERT_TRUE(b.has_value()) << b.error().message;
  EXPECT_EQ(b->ram, 65536u);
  EXPECT_EQ(b->flash, 262144u);
  auto ram_only = ParseBudget("ram = 1M");
  ASSERT_TRUE(ram_only.has_value());
  EXPECT_EQ(ram_only->ram, 1048576u);
  EXPECT_FALSE(ram_only->flash.has_value());
  for (const char* bad : {"", "ram", "rom=1K", "ram=1,ram=2", "ram=lots", "ram=1;flash=2",
                          "ra\nm=1", "ram=1\x1b[2J"}) {
    auto r = ParseBudget(bad);
    ASSERT_FALSE(r.has_value()) << bad;
    EXPECT_NE(r.error().message.find("--budget"), std::string::npos) << r.error().message;
    for (const char c : r.error().message) EXPECT_TRUE(c >= 0x20 && c < 0x7f) << r.error().message;
  }
  EXPECT_NE(ParseBudget("rom=1K").error().message.find("known: ram, flash"), std::string::npos);
}

TEST(Budget, FileTextAllowsCommentsAndBlankLines) {
  auto b =
      ParseBudgetText("# the board\n\nram = 64K   # SRAM1 only\n  flash=256K\n", "board.budget");
  ASSERT_TRUE(b.has_value()) << b.error().message;
  EXPECT_EQ(b->ram, 65536u);
  EXPECT_EQ(b->flash, 262144u);
}

TEST(Budget, FileErrorsNameTheFileAndLine) {
  const std::pair<const char*, const char*> cases[] = {
      {"ram = 64K\nrom = 1K\n", "board.budget:2: unknown budget item 'rom'"},
      {"ram 64K\n", "board.budget:1: expected 'item = size', got 'ram 64K'"},
      {"# c\nram = 64K\nram = 32K\n", "board.budget:3: 'ram' is given twice"},
      {"\nflash = 12X\n", "board.budget:2: flash: '12X' is not a byte size"},
      {"# nothing\n", "board.budget: sets no budget item"},
      // Bytes from the file are shown escaped: a message stays one printable line.
      {"ram = 1\r2\n", "board.budget:1: ram: '1\\x0d2' is not a byte size"},
      {"\x1b[2Jram = 1\n", "board.budget:1: unknown budget item '\\x1b[2Jram'"},
      {"ram: \xff\n", "board.budget:1: expected 'item = size', got 'ram: \\xff'"},
  };
  for (const auto& [text, message] : cases) {
    auto r = ParseBudgetText(text, "board.budget");
    ASSERT_FALSE(r.has_value()) << text;
    EXPECT_EQ(r.error().message.rfind(message, 0), 0u) << r.error().message;
    EXPECT_EQ(r.error().message.find('\n'), std::string::npos) << r.error().message;
  }
  auto missing = report::ReadBudgetFile("/nonexistent/board.budget");
  ASSERT_FALSE(missing.has_value());
  EXPECT_NE(missing.error().message.find("/nonexistent/board.budget"), std::string::npos);
}

TEST(Budget, MarginGrammar) {
  auto pct = report::ParseMargin("10%");
  ASSERT_TRUE(pct.has_value());
  EXPECT_EQ(pct->For(4266), 427u);  // 426.6, rounded up
  EXPECT_EQ(pct->For(0), 0u);
  EXPECT_EQ(pct->Describe(), "10%");
  auto bytes = report::ParseMargin("4K");
  ASSERT_TRUE(bytes.has_value());
  EXPECT_EQ(bytes->For(4266), 4096u);
  EXPECT_EQ(bytes->Describe(), "4096 B");
  // The budget fuzzer's finding: a byte margin as large as the grammar allows wrapped
  // minimum + margin around to a pool smaller than the minimum. It saturates, like a percentage.
  auto huge = report::ParseMargin("18446744073709551615");
  ASSERT_TRUE(huge.has_value());
  EXPECT_EQ(huge->For(4266), UINT64_MAX - 4266);
  EXPECT_EQ(huge->For(0), UINT64_MAX);
  auto huge_pct = report::ParseMargin("1000%");
  ASSERT_TRUE(huge_pct.has_value());
  EXPECT_EQ(huge_pct->For(UINT64_MAX / 2), UINT64_MAX - UINT64_MAX / 2);
  for (const char* bad : {"", "%", "ten", "1.5%", "-1%", "1001%", "10%%"})
    EXPECT_FALSE(report::ParseMargin(bad).has_value()) << bad;
}

// The report of the motivating CNN scenario, built in-process.
struct Built {
  pte::ProgramView program;
  report::Report report;
};

std::unique_ptr<Built> BuildMotivating() {
  static const std::vector<uint8_t> bytes = testing::MotivatingCnn().Build();
  auto built = std::make_unique<Built>();
  built->program = std::move(pte::ReadProgramBytes(bytes, "motivating.pte")).value();
  const runtime::RuntimeTraits* release = *runtime::FindRelease("1.4");
  runtime::RuntimeModel model(*release, *abi::ResolveTarget("cortex-m"));
  report::ReportOptions o;
  o.load.temp_allocator = true;
  built->report = std::move(report::BuildReport(built->program, model, o)).value();
  return built;
}

TEST(Budget, RamIsPoolPlusPlannedPlusTempAndFlashIsTheFile) {
  auto built = BuildMotivating();
  const report::MethodReport& m = built->report.methods.at(0);
  const uint64_t ram = m.method_bytes + report::PlannedBytes(m) + m.temp_load_peak_bytes;
  ASSERT_GT(m.temp_load_peak_bytes, 0u);
  const std::vector<report::Report> reports = {built->report};

  auto exact = report::CheckBudget(reports, Budget{ram, built->report.flash.file_bytes});
  ASSERT_EQ(exact.size(), 2u);
  EXPECT_EQ(exact[0].item, "ram");
  EXPECT_EQ(exact[0].used, ram);
  EXPECT_FALSE(exact[0].over());
  EXPECT_EQ(exact[1].item, "flash");
  EXPECT_FALSE(exact[1].over());

  auto tight = report::CheckBudget(reports, Budget{ram - 1, built->report.flash.file_bytes - 1});
  ASSERT_EQ(tight.size(), 2u);
  EXPECT_TRUE(tight[0].over());
  EXPECT_TRUE(tight[1].over());
  const std::string message = report::OverBudgetMessage(tight[0]);
  EXPECT_NE(message.find("ram of method 'forward' (ExecuTorch 1.4.1, cortex-m)"), std::string::npos)
      << message;
  EXPECT_NE(message.find("1 B more than ram="), std::string::npos) << message;
  EXPECT_NE(message.find("method pool " + std::to_string(m.method_bytes) + " B"),
            std::string::npos);

  EXPECT_EQ(report::CheckBudget(reports, Budget{std::nullopt, 1}).size(), 1u);  // flash only
  EXPECT_EQ(report::CheckBudget(reports, Budget{1, std::nullopt}).size(), 1u);  // ram only
}

uint64_t RamOf(const nlohmann::json& m) {
  uint64_t planned = 0;
  for (const auto& b : m["planned_buffers"]) planned += b.get<uint64_t>();
  return m["method_allocator"]["bytes"].get<uint64_t>() + planned +
         m["temp_allocator"]["load_peak_bytes"].get<uint64_t>();
}

TEST(Budget, AnalyzeExitsOneWithALinePerExceededItem) {
  const std::string program = MotivatingCnnFile().string();
  CliRun json = Etmem("analyze " + program + " --format json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto j = nlohmann::json::parse(json.out);
  const uint64_t ram = RamOf(j["methods"][0]);
  const uint64_t flash = j["flash"]["file_bytes"];

  const std::string fits = fmt::format("--budget ram={},flash={}", ram, flash);
  CliRun ok = Etmem("analyze " + program + " " + fits);
  EXPECT_EQ(ok.exit_code, 0) << ok.err;
  EXPECT_TRUE(ok.err.empty()) << ok.err;

  CliRun over =
      Etmem("analyze " + program + fmt::format(" --budget ram={},flash={}", ram - 1, flash - 1));
  EXPECT_EQ(over.exit_code, 1);
  EXPECT_EQ(std::count(over.err.begin(), over.err.end(), '\n'), 2) << over.err;
  EXPECT_NE(over.err.find("over budget: ram of method 'forward'"), std::string::npos) << over.err;
  EXPECT_NE(over.err.find("over budget: flash of program"), std::string::npos) << over.err;

  CliRun ram_only = Etmem("analyze " + program + fmt::format(" --budget ram=1K,flash={}", flash));
  EXPECT_EQ(ram_only.exit_code, 1);
  EXPECT_EQ(std::count(ram_only.err.begin(), ram_only.err.end(), '\n'), 1) << ram_only.err;
}

// Where the kernels' run-time temp peak exceeds the load peak (the portable topk), the RAM item
// counts the temp pool at that peak, and the line's breakdown adds up to the figure it checks.
TEST(Budget, RamCountsTheTempPoolAtItsRunTimePeakAndTheBreakdownAddsUp) {
  const std::string program =
      WriteScenario(testing::NamedScenarioProgram("topk"), "budget_topk").string();
  CliRun json = Etmem("analyze " + program + " --runtime 1.4.1 --format json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const auto m = nlohmann::json::parse(json.out)["methods"][0];
  const uint64_t load = m["temp_allocator"]["load_peak_bytes"];
  const uint64_t run = m["temp_allocator"]["run"]["peak_bytes"];
  ASSERT_GT(run, load) << "the scenario's topk must set the temp pool while running";
  uint64_t planned = 0;
  for (const auto& b : m["planned_buffers"]) planned += b.get<uint64_t>();
  const uint64_t method = m["method_allocator"]["bytes"];
  const uint64_t ram = method + planned + run;
  EXPECT_EQ(Etmem("analyze " + program + fmt::format(" --runtime 1.4.1 --budget ram={}", ram))
                .exit_code,
            0);
  const CliRun over =
      Etmem("analyze " + program + fmt::format(" --runtime 1.4.1 --budget ram={}", ram - 1));
  EXPECT_EQ(over.exit_code, 1);
  EXPECT_NE(over.err.find(fmt::format("method pool {} B + planned buffers {} B + temp run-time "
                                      "peak {} B",
                                      method, planned, run)),
            std::string::npos)
      << over.err;
}

// How many lines `etmem list what` prints: the modelled releases or the built-in targets.
// Lines of `etmem list WHAT`; for runtimes, the published releases (what --runtime all covers),
// not the snapshots of main.
// The entries `etmem list WHAT` lists, without main's snapshots (a release with a commit).
size_t Listed(const std::string& what) {
  const nlohmann::json j =
      nlohmann::json::parse(Etmem("list " + what + " --format json").out).at(what);
  return static_cast<size_t>(std::count_if(j.begin(), j.end(), [](const nlohmann::json& e) {
    return !e.contains("commit") || e["commit"].is_null();
  }));
}

// Constants inline: a program every release loads (0.1.0 refuses constant segments, exit 1).
std::string InlineConstantsCnnFile() {
  return WriteScenario(testing::NamedScenarioProgram("cnn_inline_constants"), "cnn_inline").string();
}

TEST(Budget, EveryRuntimeAndTargetPairIsChecked) {
  const std::string program = InlineConstantsCnnFile();
  CliRun r =
      Etmem("analyze " + program + " --runtime all --target all --format csv --budget ram=1");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(static_cast<size_t>(std::count(r.err.begin(), r.err.end(), '\n')),
            Listed("runtimes") * Listed("targets"))
      << r.err;
}

TEST(Budget, FileWorksLikeTheOptionAndItsErrorsExitTwo) {
  const std::string program = MotivatingCnnFile().string();
  const fs::path tight = WriteTemp("tight.budget", "# too small\nram = 1K\n");
  CliRun over = Etmem("analyze " + program + " --budget-file " + tight.string());
  EXPECT_EQ(over.exit_code, 1);
  EXPECT_NE(over.err.find("more than ram=1024 B"), std::string::npos) << over.err;

  const fs::path roomy = WriteTemp("roomy.budget", "ram = 1M\nflash = 1M\n");
  EXPECT_EQ(Etmem("analyze " + program + " --budget-file " + roomy.string()).exit_code, 0);

  const fs::path bad = WriteTemp("bad.budget", "ram = 1M\nsram = 2K\n");
  CliRun invalid = Etmem("analyze " + program + " --budget-file " + bad.string());
  EXPECT_EQ(invalid.exit_code, 2);
  EXPECT_NE(invalid.err.find(bad.string() + ":2: unknown budget item 'sram'"), std::string::npos)
      << invalid.err;
  EXPECT_EQ(std::count(invalid.err.begin(), invalid.err.end(), '\n'), 1) << invalid.err;

  EXPECT_EQ(Etmem("analyze " + program + " --budget-file /nonexistent/b.budget").exit_code, 2);
  EXPECT_EQ(
      Etmem("analyze " + program + " --budget ram=1K --budget-file " + roomy.string()).exit_code,
      2);
  EXPECT_EQ(Etmem("analyze " + program + " --budget ram=1KQ").exit_code, 2);
}

std::vector<std::vector<std::string>> CsvRows(const std::string& text) {
  std::vector<std::vector<std::string>> rows;
  size_t start = 0;
  while (start < text.size()) {
    const size_t end = text.find('\n', start);
    const std::string line = text.substr(start, end - start);
    std::vector<std::string> cells;
    size_t from = 0;
    for (size_t comma; (comma = line.find(',', from)) != std::string::npos; from = comma + 1)
      cells.push_back(line.substr(from, comma - from));
    cells.push_back(line.substr(from));
    rows.push_back(cells);
    start = end + 1;
  }
  return rows;
}

TEST(Budget, CsvHasARowPerRuntimeTargetAndMethodWithTheJsonFigures) {
  const std::string program = TwoMethodsFile().string();
  CliRun csv = Etmem("analyze " + program + " --runtime all --target all --format csv");
  // ExecuTorch 0.1.0 has no constant segment and refuses both methods (exit 1: a release
  // refuses; one line on stderr in all); the table is still complete, the refused rows without
  // bytes.
  ASSERT_EQ(csv.exit_code, 1) << csv.err;
  EXPECT_EQ(std::count(csv.err.begin(), csv.err.end(), '\n'), 1) << csv.err;
  EXPECT_NE(csv.err.find("ExecuTorch 0.1.0 refuses method"), std::string::npos) << csv.err;
  CliRun json = Etmem("analyze " + program + " --runtime all --target all --format json");
  const auto all = nlohmann::json::parse(json.out).at("results");
  const auto rows = CsvRows(csv.out);
  ASSERT_EQ(rows.size(), 1 + Listed("runtimes") * Listed("targets") * 2);
  const auto& header = rows[0];
  auto column = [&](const std::string& name) {
    return static_cast<size_t>(std::find(header.begin(), header.end(), name) - header.begin());
  };
  size_t row = 1;
  for (const auto& r : all)
    for (const auto& m : r["methods"]) {
      const auto& cells = rows[row++];
      // (A refused row's reason may hold a comma, quoted: CsvRows splits it; the columns read
      // here come before it.)
      const bool refused = m.contains("load_refused") && !m["load_refused"].is_null();
      if (!refused) ASSERT_EQ(cells.size(), header.size());
      EXPECT_EQ(cells[column("runtime")], r["runtime"]);
      EXPECT_EQ(cells[column("target")], r["target"]);
      EXPECT_EQ(cells[column("method")], m["name"]);
      if (refused) {
        EXPECT_EQ(cells[column("refused")], m["load_refused"]["error"]);
        EXPECT_EQ(cells[column("verdict")], "refused");
        EXPECT_NE(csv.out.find(m["load_refused"]["reason"].get<std::string>()), std::string::npos);
        EXPECT_EQ(cells[column("method_pool_bytes")], "");
        EXPECT_EQ(cells[column("ram_bytes")], "");
        continue;
      }
      EXPECT_EQ(cells[column("verdict")], "fits");
      EXPECT_EQ(cells[column("method_pool_bytes")], m["method_allocator"]["bytes"].dump());
      EXPECT_EQ(cells[column("temp_load_bytes")], m["temp_allocator"]["load_peak_bytes"].dump());
      EXPECT_EQ(cells[column("ram_bytes")], std::to_string(RamOf(m)));
      EXPECT_EQ(cells[column("flash_bytes")], r["flash"]["file_bytes"].dump());
      EXPECT_EQ(cells[column("tensors_bytes")],
                m["method_allocator"]["by_category"]["tensors"]["bytes"].dump());
    }
}

TEST(Budget, MarkdownIsATableWithARowPerPair) {
  CliRun md = Etmem("analyze " + InlineConstantsCnnFile() + " --runtime all --format md");
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_EQ(md.out.rfind("| program | runtime | target | method |", 0), 0u) << md.out;
  EXPECT_NE(md.out.find("| --- | --- |"), std::string::npos);
  EXPECT_EQ(static_cast<size_t>(std::count(md.out.begin(), md.out.end(), '\n')),
            2 + Listed("runtimes"))
      << md.out;  // header, rule, a row per release
}

TEST(Budget, CsvQuotesFieldsWithCommas) {
  const fs::path odd = TempPath("a,b.pte");
  fs::copy_file(MotivatingCnnFile(), odd, fs::copy_options::overwrite_existing);
  CliRun csv = Etmem("analyze '" + odd.string() + "' --format csv");
  ASSERT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_NE(csv.out.find("\"" + odd.string() + "\","), std::string::npos) << csv.out;
  fs::remove(odd);
}

}  // namespace budget_test
}  // namespace etmem::test
