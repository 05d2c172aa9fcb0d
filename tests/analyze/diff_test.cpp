// `etmem diff`: a program against itself changes nothing; against another program, each side
// is what `etmem analyze` says of that program; methods only on one side are added or removed.
#include <algorithm>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "etmem_cli.h"

namespace etmem::test {
namespace diff_test {

using nlohmann::json;

json DiffJson(const fs::path& a, const fs::path& b, const std::string& options = "") {
  CliRun r = Etmem("diff " + a.string() + " " + b.string() + " --format json " + options);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return json::parse(r.out);
}

json Analyze(const fs::path& program, const std::string& options = "") {
  CliRun r = Etmem("analyze " + program.string() + " --format json " + options);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return json::parse(r.out);
}

const json* MethodNamed(const json& methods, const std::string& name) {
  for (const json& m : methods)
    if (m["name"] == name) return &m;
  return nullptr;
}

void ExpectZero(const json& delta, const std::string& what) {
  EXPECT_EQ(delta["delta"], 0) << what;
  EXPECT_EQ(delta["old"], delta["new"]) << what;
}

void ExpectAllZero(const json& d) {
  for (const auto& [name, delta] : d["flash"].items()) ExpectZero(delta, name);
  for (const json& m : d["methods"]) {
    EXPECT_EQ(m["change"], "unchanged");
    ExpectZero(m["method_allocator"]["bytes"], "method pool");
    for (const auto& [name, delta] : m["method_allocator"]["by_category"].items())
      ExpectZero(delta, name);
    ExpectZero(m["planned_bytes"], "planned");
    ExpectZero(m["temp_load_peak_bytes"], "temp");
    ExpectZero(m["ram_bytes"], "ram");
    EXPECT_EQ(m["planned_buffers"]["old"], m["planned_buffers"]["new"]);
  }
}

// Each side of every delta is what analyze reports for that side's program.
void ExpectSideMatches(const json& d, const json& analyzed, const char* side) {
  EXPECT_EQ(d["flash"]["file_bytes"][side], analyzed["flash"]["file_bytes"]);
  // The byte counts; "buffer_data_loader" (the split by what the runtime does) is not diffed.
  for (const auto& [name, bytes] : analyzed["flash"].items()) {
    if (bytes.is_number()) {
      EXPECT_EQ(d["flash"][name][side], bytes) << name;
    }
  }
  for (const json& a : analyzed["methods"]) {
    const json* m = MethodNamed(d["methods"], a["name"]);
    ASSERT_NE(m, nullptr) << a["name"];
    EXPECT_EQ((*m)["method_allocator"]["bytes"][side], a["method_allocator"]["bytes"]);
    for (const auto& [name, c] : a["method_allocator"]["by_category"].items())
      EXPECT_EQ((*m)["method_allocator"]["by_category"][name][side], c["bytes"]) << name;
    EXPECT_EQ((*m)["temp_load_peak_bytes"][side], a["temp_allocator"]["load_peak_bytes"]);
    EXPECT_EQ((*m)["planned_buffers"][side], a["planned_buffers"]);
    uint64_t planned = 0;
    for (const json& b : a["planned_buffers"]) planned += b.get<uint64_t>();
    EXPECT_EQ((*m)["planned_bytes"][side], planned);
    EXPECT_EQ((*m)["ram_bytes"][side], a["method_allocator"]["bytes"].get<uint64_t>() + planned +
                                           a["temp_allocator"]["load_peak_bytes"].get<uint64_t>());
  }
}

void ExpectDeltasAreDifferences(const json& d) {
  auto check = [](const json& x) {
    EXPECT_EQ(x["delta"].get<int64_t>(), x["new"].get<int64_t>() - x["old"].get<int64_t>());
  };
  for (const auto& [name, x] : d["flash"].items()) check(x);
  for (const json& m : d["methods"]) {
    check(m["method_allocator"]["bytes"]);
    check(m["ram_bytes"]);
    for (const auto& [name, x] : m["method_allocator"]["by_category"].items()) check(x);
  }
}

TEST(Diff, IdenticalProgramsGiveAllZeroDeltas) {
  const fs::path a = MotivatingCnnFile();
  const fs::path copy = TempPath("motivating_copy.pte");
  fs::copy_file(a, copy, fs::copy_options::overwrite_existing);
  for (const std::string options : {"", "--runtime 0.3", "--target aarch64 --temp nonnull"}) {
    const json d = DiffJson(a, copy, options);
    ASSERT_EQ(d["methods"].size(), 1u);
    ExpectAllZero(d);
  }
  ExpectAllZero(DiffJson(TwoMethodsFile(), TwoMethodsFile()));
  if (HaveRealModels()) {
    const fs::path real = RealModel("cnn_trained_2025-04-04_34b7e8d");
    ExpectAllZero(DiffJson(real, real));
  }
}

TEST(Diff, EachSideIsWhatAnalyzeSays) {
  const fs::path a = MotivatingCnnFile(), b = TwoMethodsFile();
  for (const std::string options : {"", "--runtime 0.5 --target riscv32"}) {
    const json d = DiffJson(a, b, options);
    ExpectSideMatches(d, Analyze(a, options), "old");
    ExpectSideMatches(d, Analyze(b, options), "new");
    ExpectDeltasAreDifferences(d);
  }
}

TEST(Diff, TwoRealProgramsDifferAsAnalyzeSays) {
  if (!HaveRealModels()) GTEST_SKIP() << "../shared/models/real is absent";
  const fs::path a = RealModel("cnn_trained_2025-04-04_34b7e8d"),
                 b = RealModel("fcn_2025-04-04_3e6a79b");
  const json d = DiffJson(a, b, "--runtime 0.3");
  EXPECT_EQ(d["runtime"], "0.3.0");
  EXPECT_EQ(d["target"], "cortex-m");
  ExpectSideMatches(d, Analyze(a, "--runtime 0.3"), "old");
  ExpectSideMatches(d, Analyze(b, "--runtime 0.3"), "new");
  ExpectDeltasAreDifferences(d);
  EXPECT_EQ(d["methods"][0]["method_allocator"]["bytes"]["old"], 4266);  // the motivating figure
  EXPECT_EQ(d["methods"][0]["change"], "changed");
}

TEST(Diff, MethodsOnOneSideAreAddedOrRemoved) {
  const json d = DiffJson(MotivatingCnnFile(), TwoMethodsFile());
  const json* encode = MethodNamed(d["methods"], "encode");
  ASSERT_NE(encode, nullptr);
  EXPECT_EQ((*encode)["change"], "added");
  EXPECT_EQ((*encode)["method_allocator"]["bytes"]["old"], 0);
  const json back = DiffJson(TwoMethodsFile(), MotivatingCnnFile());
  EXPECT_EQ((*MethodNamed(back["methods"], "encode"))["change"], "removed");
}

TEST(Diff, TextAndMarkdownShowTheSameFigures) {
  const fs::path a = MotivatingCnnFile(), b = TwoMethodsFile();
  const json d = DiffJson(a, b);
  const std::string pool_old =
      std::to_string(d["methods"][0]["method_allocator"]["bytes"]["old"].get<uint64_t>());
  CliRun text = Etmem("diff " + a.string() + " " + b.string());
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("method 'forward'"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find(pool_old), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("assuming ExecuTorch 1.4.1, target cortex-m"), std::string::npos)
      << text.out;
  CliRun md = Etmem("diff " + a.string() + " " + b.string() + " --format md");
  ASSERT_EQ(md.exit_code, 0) << md.err;
  EXPECT_NE(md.out.find("| --- | ---: | ---: | ---: |"), std::string::npos) << md.out;
  EXPECT_NE(md.out.find("| method allocator pool | " + pool_old + " |"), std::string::npos)
      << md.out;
}

TEST(Diff, InvalidUsesExitTwo) {
  const std::string a = MotivatingCnnFile().string();
  EXPECT_EQ(Etmem("diff " + a).exit_code, 2);
  EXPECT_EQ(Etmem("diff " + a + " " + a + " --format xml").exit_code, 2);
  EXPECT_EQ(Etmem("diff " + a + " " + a + " --target all").exit_code, 2);
  EXPECT_EQ(Etmem("diff " + a + " " + a + " --runtime all").exit_code, 2);
  CliRun missing = Etmem("diff " + a + " /nonexistent/new.pte");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("/nonexistent/new.pte"), std::string::npos);
  EXPECT_EQ(std::count(missing.err.begin(), missing.err.end(), '\n'), 1) << missing.err;
}

}  // namespace diff_test
}  // namespace etmem::test
