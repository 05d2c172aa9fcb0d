// House rules that keep the model honest, checked on every run: release numbers live only in
// runtime/releases/, and no stage uses host sizes (sizeof of a pointer) where a target's belong.
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>

#include <gtest/gtest.h>

namespace {

namespace fs = std::filesystem;

std::vector<fs::path> Sources(const fs::path& root) {
  std::vector<fs::path> out;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    const auto ext = e.path().extension();
    if (e.is_regular_file() && (ext == ".cpp" || ext == ".h") &&
        e.path().filename().string().find("_test") == std::string::npos)
      out.push_back(e.path());
  }
  return out;
}

// The file's code with // comments removed (comments may cite releases freely).
std::string Read(const fs::path& p) {
  std::ifstream in(p);
  std::string code, line;
  while (std::getline(in, line)) code += line.substr(0, line.find("//")) + "\n";
  return code;
}

TEST(Architecture, ReleaseNumbersAppearOnlyInTheReleaseFiles) {
  const std::regex version(R"("v?[01]\.[0-9](\.[0-9])?")");
  for (const char* dir : {"src/etmem", "tools"})
    for (const fs::path& p : Sources(fs::path(ETMEM_SOURCE_DIR) / dir)) {
      if (p.parent_path().filename() == "releases") continue;
      // Kernel libraries are release data too: one file per library, deltas per release.
      if (p.parent_path().filename() == "libraries" &&
          p.parent_path().parent_path().filename() == "kernels")
        continue;
      EXPECT_FALSE(std::regex_search(Read(p), version)) << p << " names a release number";
    }
}

TEST(Architecture, ModelStagesNeverUseHostSizes) {
  const std::regex host_size(R"(sizeof\s*\(\s*(void\s*\*|size_t|std::max_align_t|long)\s*\))");
  for (const char* dir : {"src/etmem/abi", "src/etmem/runtime", "src/etmem/runner", "src/etmem/sim",
                          "src/etmem/report"})
    for (const fs::path& p : Sources(fs::path(ETMEM_SOURCE_DIR) / dir))
      EXPECT_FALSE(std::regex_search(Read(p), host_size)) << p << " uses a host size";
}

// Runners are data (src/etmem/runner/profiles/*.json): no code names one, so no code can
// special-case one (`if (runner == "arm-baremetal")`).
TEST(Architecture, NoCodeNamesARunner) {
  std::vector<std::string> names;
  const fs::path profiles = fs::path(ETMEM_SOURCE_DIR) / "src/etmem/runner/profiles";
  for (const auto& e : fs::directory_iterator(profiles)) {
    std::ifstream in(e.path());
    const std::string text{std::istreambuf_iterator<char>(in), {}};
    std::smatch m;
    if (std::regex_search(text, m, std::regex(R"re("name"\s*:\s*"([^"]+)")re")))
      names.push_back(m[1]);
  }
  ASSERT_FALSE(names.empty());
  for (const char* dir : {"src/etmem", "tools"})
    for (const fs::path& p : Sources(fs::path(ETMEM_SOURCE_DIR) / dir)) {
      const std::string code = Read(p);
      for (const std::string& name : names)
        EXPECT_EQ(code.find("\"" + name), std::string::npos) << p << " names the runner " << name;
    }
}

// The pipeline's order: the runner stage sits between runtime and sim, so it includes neither
// the simulation nor the report.
TEST(Architecture, TheRunnerStageIncludesNoLaterStage) {
  for (const fs::path& p : Sources(fs::path(ETMEM_SOURCE_DIR) / "src/etmem/runner")) {
    const std::string code = Read(p);
    for (const char* later : {"etmem/sim/", "etmem/report/", "etmem/plan/"})
      EXPECT_EQ(code.find(later), std::string::npos) << p << " includes " << later;
  }
}

}  // namespace

namespace {

// The command line is a client of the public API (include/etmem/etmem.h) for boards, fit and
// check: no verb reaches into the board stage, and `etmem check` not into the search or the log.
TEST(Architecture, TheCommandLineReachesBoardsAndCheckOnlyThroughTheApi) {
  for (const fs::path& p : Sources(fs::path(ETMEM_SOURCE_DIR) / "tools/etmem")) {
    const std::string code = Read(p);
    EXPECT_EQ(code.find("etmem/board/"), std::string::npos) << p << " includes the board stage";
    EXPECT_EQ(code.find("board::"), std::string::npos) << p << " uses the board stage";
  }
  const std::string check = Read(fs::path(ETMEM_SOURCE_DIR) / "tools/etmem/check_command.cpp");
  for (const char* stage : {"etmem/check/", "etmem/device/", "etmem/sim/", "etmem/report/"})
    EXPECT_EQ(check.find(stage), std::string::npos) << "check_command.cpp includes " << stage;
}

}  // namespace
