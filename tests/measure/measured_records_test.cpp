// Owns: the rules every record of tests/measured/ keeps (docs/measure.md, "Measured on real
// trees"): it names no folder of the machine it was made on, and it says how to re-measure it
// from a fresh clone ("recipe": commands whose verbs, scripts and flags exist in this repo) or,
// in "recipe_note", that its measuring code was never committed ("recipe": null).
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <regex>
#include <sstream>

#include "etmem_cli.h"

namespace etmem::test {
namespace measured_records_test {

using nlohmann::json;
const fs::path kMeasured = fs::path(ETMEM_SOURCE_DIR) / "tests/measured";

std::vector<fs::path> Records() {
  std::vector<fs::path> out;
  for (const auto& e : fs::directory_iterator(kMeasured))
    if (e.path().extension() == ".json") out.push_back(e.path());
  std::sort(out.begin(), out.end());
  return out;
}

// Every string in `j`, with where it is.
void Strings(const json& j, const std::string& where,
             std::vector<std::pair<std::string, std::string>>& out) {
  if (j.is_string()) out.emplace_back(where, j.get<std::string>());
  if (j.is_object())
    for (const auto& [k, v] : j.items()) Strings(v, where + "/" + k, out);
  if (j.is_array())
    for (size_t i = 0; i < j.size(); ++i) Strings(j[i], where + "/" + std::to_string(i), out);
}

// An absolute path into a machine's own folders (a scratch tree, a home, a temp directory).
const std::regex kMachineFolder(R"((^|[^A-Za-z0-9_.<>/-])/(work|tmp|home|root|mnt|Users|var|opt|srv)/)");

TEST(MeasuredRecords, NoRecordNamesAFolderOfTheMachineItWasMadeOn) {
  ASSERT_FALSE(Records().empty());
  EXPECT_TRUE(std::regex_search(" in /work/measure/x", kMachineFolder));  // the rule bites
  EXPECT_FALSE(std::regex_search("<EXECUTORCH v1.4.1>/runtime", kMachineFolder));
  for (const fs::path& p : Records()) {
    const json record = json::parse(ReadFile(p));
    std::vector<std::pair<std::string, std::string>> strings;
    Strings(record, p.filename().string(), strings);
    for (const auto& [where, text] : strings) {
      std::smatch m;
      EXPECT_FALSE(std::regex_search(text, m, kMachineFolder))
          << where << ": " << text.substr(m.position(0) > 40 ? m.position(0) - 40 : 0, 120);
    }
  }
}

std::vector<std::string> Words(const std::string& command) {
  std::istringstream in(command);
  std::vector<std::string> out;
  for (std::string w; in >> w;) out.push_back(w);
  return out;
}

// `--flag` as a whole option in `text` (not the start of a longer one).
bool HasFlag(const std::string& text, const std::string& flag) {
  for (size_t at = text.find(flag); at != std::string::npos; at = text.find(flag, at + 1)) {
    const char next = at + flag.size() < text.size() ? text[at + flag.size()] : ' ';
    if (!std::isalnum(static_cast<unsigned char>(next)) && next != '-' && next != '_') return true;
  }
  return false;
}

// Where a recipe's command finds its flags: `etmem VERB --help`, the examples tool's source or
// the script itself; empty with the reason in `why` when the command names nothing in the repo.
std::string FlagsOf(const std::vector<std::string>& words, std::string& why) {
  const std::string& tool = words.at(0);
  if (tool == "etmem") {
    if (words.size() < 2) return why = "etmem without a verb", "";
    // `etmem NOVERB --help` prints the top-level help: a verb's own starts with its usage.
    const CliRun help = Etmem(words[1] + " --help");
    if (help.exit_code != 0 || help.out.find("Usage: etmem " + words[1] + " ") == std::string::npos)
      return why = "etmem has no verb \"" + words[1] + "\"", "";
    return help.out;
  }
  if (tool == "etmem-examples")
    return ReadFile(fs::path(ETMEM_SOURCE_DIR) / "tools/etmem-examples/main.cpp");
  if (tool.starts_with("scripts/") && fs::is_regular_file(fs::path(ETMEM_SOURCE_DIR) / tool))
    return ReadFile(fs::path(ETMEM_SOURCE_DIR) / tool);
  why = "\"" + tool + "\" is neither etmem, etmem-examples nor a script of scripts/";
  return "";
}

TEST(MeasuredRecords, EveryRecipeNamesAVerbOrScriptOfTheRepoWithFlagsItHas) {
  size_t recipes = 0, notes_only = 0;
  for (const fs::path& p : Records()) {
    SCOPED_TRACE(p.filename().string());
    const json record = json::parse(ReadFile(p));
    ASSERT_TRUE(record.contains("recipe")) << "every record says how to re-measure it";
    ASSERT_TRUE(record.contains("recipe_note"));
    const json& recipe = record.at("recipe");
    if (recipe.is_null()) {
      ++notes_only;
      const std::string note = record.at("recipe_note");
      EXPECT_NE(note.find("never committed"), std::string::npos) << note;
      continue;
    }
    ASSERT_TRUE(recipe.is_array() && !recipe.empty()) << recipe.dump();
    ++recipes;
    for (const json& c : recipe) {
      const std::string command = c.get<std::string>();
      const std::vector<std::string> words = Words(command);
      ASSERT_FALSE(words.empty());
      std::string why;
      const std::string flags = FlagsOf(words, why);
      EXPECT_TRUE(why.empty()) << command << ": " << why;
      if (!why.empty()) continue;
      for (const std::string& w : words)
        if (w.starts_with("--"))
          EXPECT_TRUE(HasFlag(flags, w)) << command << ": " << words[0] << " has no " << w;
    }
  }
  EXPECT_GT(recipes, 0u);
  EXPECT_GT(notes_only, 0u);
  // The check itself: a verb etmem lacks, a flag a verb lacks and a missing script are caught.
  std::string why;
  FlagsOf({"etmem", "remeasure"}, why);
  EXPECT_NE(why.find("no verb"), std::string::npos);
  why.clear();
  EXPECT_FALSE(HasFlag(FlagsOf({"etmem", "measure"}, why), "--no-such-flag"));
  EXPECT_TRUE(HasFlag(FlagsOf({"etmem", "measure"}, why), "--executorch"));
  FlagsOf({"scripts/no_such_script.py"}, why);
  EXPECT_NE(why.find("neither"), std::string::npos);
}

}  // namespace measured_records_test
}  // namespace etmem::test
