// Owns: the table of output formats (report/formats.h, api::OutputFormats) held to what the verbs
// take and print: every verb's --format takes exactly its formats in the table, `etmem list
// formats` prints the table, every renderer the table names exists, and every (result, format)
// renders on a builder program (firmware, measure and probe need a linked image, an ExecuTorch
// tree or a compiler: their formats are rendered in firmware_test, measure_test and probe_test).
#include <algorithm>
#include <map>
#include <regex>
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "etmem/etmem.h"
#include "etmem/testing/scenarios.h"
#include "etmem_cli.h"

namespace etmem::test {
namespace formats_test {

// The formats a verb's --format option takes, read from its --help ("--format TEXT:{a,b}").
std::vector<std::string> HelpFormats(const std::string& verb) {
  const CliRun help = Etmem(verb + " --help");
  EXPECT_EQ(help.exit_code, 0) << help.err;
  std::smatch m;
  const std::regex format(R"(--format TEXT:\{([a-z,]+)\})");
  if (!std::regex_search(help.out, m, format)) return {};
  std::vector<std::string> out;
  const std::string list = m[1];
  for (size_t at = 0; at <= list.size();) {
    const size_t comma = std::min(list.find(',', at), list.size());
    out.push_back(list.substr(at, comma - at));
    at = comma + 1;
  }
  return out;
}

TEST(OutputFormats, EveryVerbTakesExactlyItsFormatsInTheTable) {
  std::set<std::string> verbs;
  for (const api::OutputFormat& f : api::OutputFormats()) verbs.insert(f.verb);
  EXPECT_GE(verbs.size(), 12u);
  for (const std::string& verb : verbs) {
    const std::vector<std::string> help = HelpFormats(verb);
    if (verb == "header") {  // the C header, and the ld fragment with --linker-script
      EXPECT_TRUE(help.empty()) << "etmem header takes a --format";
      continue;
    }
    std::vector<std::string> sorted_help = help, table = api::FormatNames(verb);
    std::sort(sorted_help.begin(), sorted_help.end());
    std::sort(table.begin(), table.end());
    EXPECT_EQ(sorted_help, table) << "etmem " << verb << " --format";
  }
  EXPECT_THROW(api::FormatNames("frobnicate"), api::Error);
}

TEST(OutputFormats, ListFormatsPrintsTheTable) {
  const std::vector<api::OutputFormat> table = api::OutputFormats();
  const CliRun text = Etmem("list formats");
  ASSERT_EQ(text.exit_code, 0) << text.err;
  size_t lines = std::count(text.out.begin(), text.out.end(), '\n');
  EXPECT_EQ(lines, table.size());
  const CliRun json = Etmem("list formats --format json");
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const nlohmann::json j = nlohmann::json::parse(json.out);
  ASSERT_EQ(j["formats"].size(), table.size());
  for (size_t i = 0; i < table.size(); ++i) {
    EXPECT_EQ(j["formats"][i]["result"], table[i].result);
    EXPECT_EQ(j["formats"][i]["format"], table[i].format);
    EXPECT_EQ(j["formats"][i]["renderer"], table[i].renderer);
    EXPECT_NE(text.out.find(table[i].renderer), std::string::npos) << table[i].renderer;
  }
}

TEST(OutputFormats, EveryRendererInTheTableExists) {
  for (const api::OutputFormat& f : api::OutputFormats()) {
    EXPECT_TRUE(fs::exists(fs::path(ETMEM_SOURCE_DIR) / "src/etmem" / f.renderer))
        << f.result << " " << f.format << ": " << f.renderer;
    EXPECT_TRUE(f.renderer.starts_with("report/")) << f.renderer << " renders outside report/";
  }
}

// Every (result, format) the table lists, run through its verb on builder programs: exit 0 or 1
// (judged), never 2, and something printed. The results that need more than a program are left
// to their own tests (see the top).
TEST(OutputFormats, EveryResultRendersInEveryFormat) {
  const std::string cnn = MotivatingCnnFile().string();
  const std::string log =
      WriteTemp("formats_device.log",
                "E 00:00:00.000 executorch:memory_allocator.h:88] Memory allocation failed: "
                "48B requested (adjusted for alignment), 44B available\n")
          .string();
  const std::string replanned = TempPath("formats_replanned.pte").string();
  const std::string ld = TempPath("formats.ld").string();
  const std::map<std::string, std::string> runs = {
      {"analyze", "analyze " + cnn},
      {"analyze --per-op", "analyze " + cnn + " --per-op"},
      {"summary", "summary " + cnn},
      {"plan", "plan " + cnn},
      {"replan", "replan " + cnn + " -o " + replanned},
      {"diff", "diff " + cnn + " " + cnn},
      {"fit", "fit " + cnn + " --board corstone-300"},
      {"check", "check " + cnn + " " + log + " --runtime 0.3"},
      {"list", "list boards"},
  };
  size_t rendered = 0;
  for (const api::OutputFormat& f : api::OutputFormats()) {
    if (f.result == "firmware" || f.result == "measure" || f.result == "probe") continue;
    std::string command;
    if (f.result == "header") {
      command = "header " + cnn;
    } else if (f.result == "header --linker-script") {
      command = "header " + cnn + " --board corstone-300 --linker-script " + ld;
    } else {
      const auto run = runs.find(f.result);
      ASSERT_NE(run, runs.end()) << "no run for the result '" << f.result << "'";
      command = run->second + " --format " + f.format;
    }
    const CliRun r = Etmem(command);
    EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << command << ": " << r.err;
    EXPECT_FALSE(r.out.empty()) << command;
    if (f.result == "header --linker-script") {
      EXPECT_NE(ReadFile(ld).find("SECTIONS"), std::string::npos) << command;
    }
    if (f.format == "json" && r.exit_code != 2)
      EXPECT_TRUE(nlohmann::json::accept(r.out)) << command;
    ++rendered;
  }
  EXPECT_GE(rendered, 25u);
}

}  // namespace formats_test
}  // namespace etmem::test
