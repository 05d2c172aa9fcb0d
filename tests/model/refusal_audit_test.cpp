// Owns: holding docs/refusal-audit.md (issue 26) to the code: every path of the table has a
// status and a reason, every builder program and test a row names exists, and every refusal
// program is named by a row; and the order in which the runtime meets several faults (the first
// one in each method is the one etmem names).
// Not: the measurements of those programs (refusals_match_measured_test.cpp).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "etmem/abi/abi.h"
#include "etmem/pte/read_program.h"
#include "etmem/analysis/report.h"
#include "etmem/runtime/release.h"
#include "etmem/testing/scenarios.h"

namespace etmem {
namespace refusal_audit_test {

namespace fs = std::filesystem;

std::string ReadText(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// The table's rows, split into cells (a "\|" inside a cell is not a separator).
std::vector<std::vector<std::string>> AuditRows() {
  std::vector<std::vector<std::string>> rows;
  std::istringstream in(ReadText(fs::path(ETMEM_SOURCE_DIR) / "docs/refusal-audit.md"));
  for (std::string line; std::getline(in, line);) {
    if (!line.starts_with("| P")) continue;
    std::vector<std::string> cells;
    std::string cell;
    for (size_t i = 1; i < line.size(); ++i) {
      if (line[i] == '\\' && i + 1 < line.size() && line[i + 1] == '|') {
        cell += '|';
        ++i;
      } else if (line[i] == '|') {
        cells.push_back(cell);
        cell.clear();
      } else {
        cell += line[i];
      }
    }
    for (std::string& c : cells) {
      while (!c.empty() && c.front() == ' ') c.erase(c.begin());
      while (!c.empty() && c.back() == ' ') c.pop_back();
    }
    rows.push_back(std::move(cells));
  }
  return rows;
}

// "Suite.Name" of every TEST, TEST_F and TEST_P in tests/ and src/.
std::set<std::string> TestNames() {
  std::set<std::string> names;
  const std::regex test(R"(TEST(?:_F|_P)?\((\w+),\s*(\w+)\))");
  for (const char* dir : {"tests", "src"})
    for (const auto& e : fs::recursive_directory_iterator(fs::path(ETMEM_SOURCE_DIR) / dir)) {
      if (!e.is_regular_file() || e.path().extension() != ".cpp") continue;
      const std::string text = ReadText(e.path());
      for (std::sregex_iterator m(text.begin(), text.end(), test), end; m != end; ++m)
        names.insert((*m)[1].str() + "." + (*m)[2].str());
    }
  return names;
}

TEST(RefusalAudit, EveryPathHasAStatusAndEveryNamedProgramAndTestExists) {
  const auto rows = AuditRows();
  ASSERT_GT(rows.size(), 100u) << "docs/refusal-audit.md has no table";
  std::set<std::string> scenarios;
  for (const testing::NamedScenario& s : testing::RefusalScenarios()) scenarios.insert(s.name);
  std::set<std::string> method_scenarios;  // issue 39's programs may be named too
  for (const testing::NamedScenario& s : testing::MethodScenarios()) method_scenarios.insert(s.name);
  const std::set<std::string> tests = TestNames();
  std::set<std::string> ids, named_scenarios;
  size_t modelled = 0;
  const std::regex ref(R"((scenario|test):([\w.]+))");
  for (const auto& row : rows) {
    ASSERT_EQ(row.size(), 8u) << row[0];
    EXPECT_TRUE(ids.insert(row[0]).second) << row[0] << " twice";
    const std::string& status = row[6];
    const std::string& why = row[7];
    EXPECT_TRUE(status == "modelled" || status == "not reachable" || status == "not modelled")
        << row[0] << ": status '" << status << "'";
    EXPECT_GT(why.size(), 20u) << row[0] << ": no reason or place";
    EXPECT_EQ(why.find("not classified"), std::string::npos) << row[0];
    EXPECT_FALSE(row[5].empty()) << row[0] << ": no release";
    size_t refs = 0;
    for (std::sregex_iterator m(why.begin(), why.end(), ref), end; m != end; ++m, ++refs) {
      const std::string kind = (*m)[1], name = (*m)[2];
      if (kind == "scenario") {
        EXPECT_TRUE(scenarios.count(name) || method_scenarios.count(name))
            << row[0] << ": no refusal scenario " << name;
        named_scenarios.insert(name);
      } else {
        EXPECT_TRUE(tests.count(name)) << row[0] << ": no test " << name;
      }
    }
    if (status == "modelled") {
      ++modelled;
      EXPECT_GT(refs, 0u) << row[0] << ": a modelled path names no program or test holding it";
    }
  }
  EXPECT_GT(modelled, 50u);
  for (const std::string& s : scenarios)
    EXPECT_TRUE(named_scenarios.count(s)) << "refusal scenario " << s << " is in no audit row";
}

report::Report Analyze(const std::string& name, const std::string& release, pte::ProgramView& keep) {
  for (const testing::NamedScenario& s : testing::RefusalScenarios())
    if (s.name == name) {
      auto program = pte::ReadProgramBytes(s.make().Build(), name + ".pte");
      EXPECT_TRUE(program) << name;
      keep = std::move(*program);
      static std::vector<std::unique_ptr<runtime::RuntimeModel>> models;
      models.push_back(std::make_unique<runtime::RuntimeModel>(
          **runtime::FindRelease(release), *abi::FindBuiltinTarget("x86_64")));
      report::ReportOptions o;
      o.temp_is_runner_default = false;
      return *report::BuildReport(keep, *models.back(), o);
    }
  ADD_FAILURE() << "no scenario " << name;
  return {};
}

// Method::init's order: values in order (each tensor: storage offset, ..., planned memory),
// then the delegates vector; each method on its own.
TEST(RefusalAudit, TheFirstFaultTheRuntimeMeetsIsTheOneNamedPerMethod) {
  for (const auto& t : runtime::AllReleases()) {
    pte::ProgramView program;
    const report::Report r = Analyze("several_faults", t.version, program);
    ASSERT_EQ(r.methods.size(), 2u);
    ASSERT_EQ(r.methods[0].method->name, "first");
    ASSERT_TRUE(r.methods[0].plan.refusal) << t.version;
    EXPECT_EQ(r.methods[0].plan.refusal->error, "MemoryAllocationFailed") << t.version;
    EXPECT_EQ(r.methods[0].plan.refusal->reason.rfind("value 1:", 0), 0u)
        << r.methods[0].plan.refusal->reason;
    ASSERT_TRUE(r.methods[1].plan.refusal) << t.version;
    EXPECT_EQ(r.methods[1].plan.refusal->error, "NotSupported") << t.version;
    EXPECT_EQ(r.methods[1].plan.refusal->log, "Non-zero storage offset 1 not supported");

    pte::ProgramView two;
    const report::Report r2 = Analyze("two_methods_one_refused", t.version, two);
    ASSERT_EQ(r2.methods.size(), 2u);
    EXPECT_FALSE(r2.methods[0].plan.refusal) << t.version;
    ASSERT_TRUE(r2.methods[1].plan.refusal) << t.version;
    EXPECT_EQ(r2.methods[1].method->name, "broken");
  }
}

TEST(Refusals, CMakeBuildsRefuseInlineConstantsInANote) {
  for (const char* release : {"1.2", "1.3"}) {
    pte::ProgramView program;
    const report::Report r = Analyze("inline_constant_larger_than_tensor", release, program);
    bool noted = false;
    for (const std::string& n : r.notes)
      noted |= n.find("ET_ENABLE_DEPRECATED_CONSTANT_BUFFER=0") != std::string::npos;
    EXPECT_EQ(noted, std::string(release) == "1.3") << release;
  }
}

}  // namespace refusal_audit_test
}  // namespace etmem
