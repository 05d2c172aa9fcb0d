// Owns: holding etmem's .ptd checks (--external-data FILE.ptd, issue 13 item 4) to the real
// runtime: external_data.pte with each .ptd of testing::PtdScenarios, measured at every release
// with a data map (0.6.0 ... 1.4.1 and main), without and with a temp allocator: the verdict,
// the error code, the log line, and the method allocator's calls up to the refusal or the end of
// the load; and for every .ptd the release loads, the same calls as the bare --external-data.
// Not: the programs without a .ptd (refusals_match_measured_test.cpp and the others).
//
// tests/measured/x86_64_external_data.json says how it was measured (how_measured).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "etmem/abi/abi.h"
#include "etmem/base/sha256.h"
#include "etmem/pte/ptd_file.h"
#include "etmem/pte/read_program.h"
#include "etmem/analysis/report.h"
#include "etmem/testing/ptd_scenarios.h"
#include "etmem/testing/scenarios.h"
#include "measured.h"

namespace etmem {
namespace measured_external_data_test {

using nlohmann::json;

std::string ErrorName(int code) {
  switch (code) {
    case 0x12: return "InvalidArgument";
    case 0x20: return "NotFound";
    case 0x24: return "InvalidExternalData";
    default: return "code " + std::to_string(code);
  }
}

std::string Release(const json& e) {
  const std::string tag = e["tag"];
  return tag == "main" ? "main" : tag.substr(1);
}

report::Report Analyze(const pte::ProgramView& program, const std::string& release,
                       const std::string& temp, std::shared_ptr<const pte::PtdFile> ptd) {
  runtime::RuntimeModel model(**runtime::FindRelease(release), *abi::FindBuiltinTarget("x86_64"));
  report::ReportOptions o;
  o.pool_align = 16;
  o.temp_is_runner_default = false;
  o.load.temp_allocator = temp == "nonnull";
  o.load.temp_pool_bytes = 1u << 20;  // the harness's temp pool
  o.load.external_data_map = true;
  o.load.ptd = std::move(ptd);
  return *report::BuildReport(program, model, o);
}

TEST(MeasuredExternalData, EveryReleaseChecksThePtdAsItsRuntimeDid) {
  const json measured = test::ReadMeasured("x86_64_external_data.json");
  const std::vector<uint8_t> program_bytes = testing::NamedScenarioProgram("external_data").Build();
  auto program = pte::ReadProgramBytes(program_bytes, "external_data.pte");
  ASSERT_TRUE(program) << program.error().message;
  std::map<std::string, std::vector<uint8_t>> ptds;
  for (const testing::NamedPtd& p : testing::PtdScenarios()) ptds[p.name] = p.make();

  size_t loads = 0, refused = 0, at_map_load = 0, crashed = 0;
  std::map<std::string, std::set<std::string>> runs;
  for (const json& e : measured["results"]) {
    const std::string name = e["ptd"];
    const std::string what = e["tag"].get<std::string>() + " " + name + " temp " +
                             e["temp"].get<std::string>();
    ASSERT_EQ(Sha256Hex(program_bytes), e["program_sha256"]) << what;
    ASSERT_TRUE(ptds.count(name)) << what << ": no such .ptd scenario";
    ASSERT_EQ(Sha256Hex(ptds[name]), e["ptd_sha256"]) << what;
    runs[name].insert(e["tag"].get<std::string>() + e["temp"].get<std::string>());
    auto ptd = pte::ReadPtdBytes(ptds[name], name + ".ptd");
    ASSERT_TRUE(ptd) << what << ": " << ptd.error().message;
    const report::Report r = Analyze(*program, Release(e), e["temp"], *ptd);
    ASSERT_EQ(r.methods.size(), 1u) << what;
    const report::MethodReport& m = r.methods[0];
    const std::optional<runtime::Refusal>& refusal = m.plan.refusal;
    if (e["verdict"] == "crash") {
      ASSERT_TRUE(refusal.has_value()) << what << ": the runtime crashed";
      EXPECT_TRUE(refusal->error.starts_with("crash") || refusal->error.starts_with("undefined"))
          << what << ": " << refusal->error;
      ++crashed;
      continue;
    }
    if (e["verdict"] == "loads") {
      EXPECT_FALSE(refusal.has_value()) << what << ": " << refusal->error << ": " << refusal->reason;
      ++loads;
    } else {
      ASSERT_TRUE(refusal.has_value()) << what << ": the runtime refuses with "
                                       << ErrorName(e["error_code"]) << ", " << e["log"];
      EXPECT_EQ(refusal->error, ErrorName(e["error_code"])) << what << ": " << refusal->reason;
      EXPECT_EQ(refusal->log, e["log"].get<std::string>()) << what;
      ++refused;
    }
    const std::vector<std::array<uint64_t, 3>> got = test::PoolCalls(m, runtime::PoolKind::kMethod);
    if (e["where"] == "FlatTensorDataMap::load") {
      // The runner's data map load fails: load_method is never called.
      EXPECT_TRUE(got.empty()) << what;
      ++at_map_load;
      continue;
    }
    const json& mm = e["method"];
    ASSERT_EQ(got.size(), mm["n_calls"].get<size_t>()) << what;
    for (size_t i = 0; i < got.size(); ++i)
      ASSERT_EQ(json(got[i]), mm["trace"][i]) << what << " call " << i;
    if (e["verdict"] == "loads") {
      EXPECT_EQ(m.method_bytes, mm["total_bytes"].get<uint64_t>()) << what;
      EXPECT_EQ(m.temp_load_peak_bytes, mm["temp_peak_bytes"].get<uint64_t>()) << what;
      // A .ptd the release loads costs what the bare --external-data predicts, call for call.
      const report::Report bare = Analyze(*program, Release(e), e["temp"], nullptr);
      EXPECT_EQ(test::PoolCalls(bare.methods[0], runtime::PoolKind::kMethod), got) << what;
    }
  }
  // Every .ptd at the 11 releases with a data map, with and without a temp allocator.
  for (const testing::NamedPtd& p : testing::PtdScenarios())
    EXPECT_EQ(runs[p.name].size(), 22u) << p.name;
  EXPECT_GT(loads, 0u);
  EXPECT_GT(refused, 0u);
  EXPECT_GT(at_map_load, 0u);
  (void)crashed;
}

// From 1.0 a release given a .ptd merges the program's own named data with it (MergedDataMap,
// in Method::init after the values) and hands the merged map to the delegates only: the tensors
// look their keys up in the .ptd alone, the merge's duplicate scan asks the program's map (whose
// get_tensor_layout is NotImplemented for every key) and so refuses nothing, and only a keyless
// .ptd entry, which the scan reads as a key, stops it (a crash). 0.7 refuses the pair
// (NotSupported). Every verdict is exact: no unknown is reported. The real runtime's runs:
// MeasuredRefusals.WithTheProgramsOwnNamedDataEveryReleaseMergesOrRefusesAsItsRuntimeDid.
TEST(ExternalData, APtdWithTheProgramsOwnNamedDataIsMergedForTheDelegatesOnly) {
  std::map<std::string, std::shared_ptr<const pte::PtdFile>> ptds;
  for (const testing::NamedPtd& p : testing::RefusalPtds()) {
    auto read = pte::ReadPtdBytes(p.make(), std::string(p.name) + ".ptd");
    ASSERT_TRUE(read) << read.error().message;
    ptds[p.name] = *read;
  }
  auto verdict = [&](const char* program_name, const char* ptd, const char* release) {
    auto program = pte::ReadProgramBytes(testing::NamedScenarioProgram(program_name).Build(),
                                         program_name);
    EXPECT_TRUE(program) << program.error().message;
    const report::Report r = Analyze(*program, release, "nonnull", ptds.at(ptd));
    const runtime::LoadPlan& plan = r.methods[0].plan;
    EXPECT_TRUE(plan.unknowns.empty()) << program_name << " " << ptd << " " << release;
    return plan.refusal ? plan.refusal->error : std::string("loads");
  };
  for (const char* release : {"1.0.0", "1.3.1", "1.4.1", "main"}) {
    // "c" in both maps: no duplicate is refused.
    EXPECT_EQ(verdict("external_constant_in_named_data", "external_constant_in_named_data",
                      release), "loads") << release;
    // "c" only in the program's named data: the tensor's lookup in the .ptd misses it.
    EXPECT_EQ(verdict("external_constant_in_named_data", "external_constant_in_named_data.n",
                      release), "NotFound") << release;
    EXPECT_EQ(verdict("merged_external_constant", "merged_external_constant", release), "loads")
        << release;
    EXPECT_EQ(verdict("merged_external_planned", "merged_external_planned", release), "loads")
        << release;
    EXPECT_EQ(verdict("merged_empty_named_data", "merged_empty_named_data", release), "loads")
        << release;
    // A keyless second entry: the lookup of "c" stops before it, the merge's scan reads it.
    EXPECT_EQ(verdict("merged_external_constant", "merged_external_constant.keyless", release),
              "crash (null dereference)") << release;
    EXPECT_EQ(verdict("external_constant_without_map", "external_constant_without_map.keyless",
                      release), "loads") << release;
  }
  EXPECT_EQ(verdict("merged_external_constant", "merged_external_constant", "0.7.0"),
            "NotSupported");
  // An empty Program.named_data vector is a program map all the same.
  EXPECT_EQ(verdict("merged_empty_named_data", "merged_empty_named_data", "0.7.0"),
            "NotSupported");
}

// Every release reads a program's key as a C string (fully_qualified_name()->c_str()): a key with
// a NUL inside ends there, in the lookups as in the log lines. external_data.pte with
// "linear.bias" written as "linear.b\0as" finds the .ptd's "linear.b" (external_data.key_prefix)
// at 1.0+, whose lookup compares whole keys (and at 0.7, which compares the file key's length);
// measured with etmem measure --external-data at 0.7.0 ... main (2026-12-03, branch h15-ptd):
// every release loads it, as etmem says.
TEST(ExternalData, AKeyEndsAtItsFirstNulAsTheRuntimeReadsIt) {
  std::vector<uint8_t> bytes = testing::NamedScenarioProgram("external_data").Build();
  const std::string bias = "linear.bias";
  size_t patched = 0;
  for (auto it = std::search(bytes.begin(), bytes.end(), bias.begin(), bias.end());
       it != bytes.end(); it = std::search(it + 1, bytes.end(), bias.begin(), bias.end())) {
    it[8] = 0;  // "linear.b\0as"
    ++patched;
  }
  ASSERT_EQ(patched, 1u);
  auto program = pte::ReadProgramBytes(bytes, "external_data_nul.pte");
  ASSERT_TRUE(program) << program.error().message;
  std::vector<uint8_t> prefix;
  for (const testing::NamedPtd& p : testing::PtdScenarios())
    if (std::string(p.name) == "external_data.key_prefix") prefix = p.make();
  auto ptd = pte::ReadPtdBytes(prefix, "external_data.key_prefix.ptd");
  ASSERT_TRUE(ptd) << ptd.error().message;
  for (const char* release : {"0.7.0", "1.0.0", "1.3.0", "1.4.1", "main"}) {
    const report::Report r = Analyze(*program, release, "null", *ptd);
    EXPECT_FALSE(r.methods[0].plan.refusal.has_value())
        << release << ": " << r.methods[0].plan.refusal->reason;
  }
  // The unpatched program's "linear.bias" is not in that .ptd at 1.0+ (whole keys compared).
  auto original = pte::ReadProgramBytes(testing::NamedScenarioProgram("external_data").Build(),
                                        "external_data.pte");
  ASSERT_TRUE(original);
  const report::Report r = Analyze(*original, "1.4.1", "null", *ptd);
  ASSERT_TRUE(r.methods[0].plan.refusal.has_value());
  EXPECT_EQ(r.methods[0].plan.refusal->error, "NotFound");
}

// Issue 26, P280a92: external_constant_without_key (an EXTERNAL constant without a key at value
// 2) with its .ptd: every release with a data map loads the .ptd and then refuses the constant
// in parse_external_constants (InvalidExternalData), after the values and the external
// constants list; with a data map and no .ptd the same; without a map 0.6 refuses it too, 0.7+
// refuse the missing map (InvalidState). The real runtime's runs: refusals_match_measured_test.cpp.
TEST(ExternalData, AnExternalConstantWithoutAKeyIsRefusedOnceADataMapIsPassed) {
  const std::vector<uint8_t> bytes =
      testing::NamedScenarioProgram("external_constant_without_key").Build();
  auto program = pte::ReadProgramBytes(bytes, "external_constant_without_key.pte");
  ASSERT_TRUE(program) << program.error().message;
  std::map<std::string, std::shared_ptr<const pte::PtdFile>> ptds;
  for (const testing::NamedPtd& p : testing::RefusalPtds()) {
    auto ptd = pte::ReadPtdBytes(p.make(), std::string(p.name) + ".ptd");
    ASSERT_TRUE(ptd) << p.name << ": " << ptd.error().message;
    ptds[p.name] = *ptd;
  }
  ASSERT_TRUE(ptds.count("external_constant_without_key") &&
              ptds.count("external_constant_without_key.06"));
  const std::string log = "Fully qualified name of external tensor is null at index 2";
  for (const char* release : {"0.6.0", "0.7.0", "1.0.0", "1.0.1", "1.1.0", "1.2.0", "1.3.0",
                              "1.3.1", "1.4.0", "1.4.1", "main"}) {
    const bool v06 = std::string(release) == "0.6.0";
    const auto& ptd = ptds[v06 ? "external_constant_without_key.06" : "external_constant_without_key"];
    for (const auto& given : {ptd, std::shared_ptr<const pte::PtdFile>()}) {
      const report::Report r = Analyze(*program, release, "nonnull", given);
      ASSERT_EQ(r.methods.size(), 1u);
      const auto& plan = r.methods[0].plan;
      ASSERT_TRUE(plan.refusal.has_value()) << release;
      EXPECT_EQ(plan.refusal->error, "InvalidExternalData") << release;
      EXPECT_EQ(plan.refusal->log, log) << release;
      EXPECT_EQ(plan.requests.back().site, runtime::Site::kExternalConstants) << release;
    }
    runtime::RuntimeModel model(**runtime::FindRelease(release), *abi::FindBuiltinTarget("x86_64"));
    const report::Report none = *report::BuildReport(*program, model, report::ReportOptions{});
    ASSERT_TRUE(none.methods[0].plan.refusal.has_value()) << release;
    EXPECT_EQ(none.methods[0].plan.refusal->error, v06 ? "InvalidExternalData" : "InvalidState")
        << release;
  }
  // A keyed constant first ("c", in the .ptd): its lookup passes, then the keyless one (value 2)
  // is refused; 0.6 without a map dereferences the null map at "c" first.
  const std::vector<uint8_t> keyed_first =
      testing::NamedScenarioProgram("external_constant_keyed_then_without_key").Build();
  auto second = pte::ReadProgramBytes(keyed_first, "external_constant_keyed_then_without_key.pte");
  ASSERT_TRUE(second) << second.error().message;
  for (const char* release : {"0.6.0", "0.7.0", "1.0.0", "1.3.0", "main"}) {
    const bool v06 = std::string(release) == "0.6.0";
    const report::Report r = Analyze(*second, release, "null",
                                     ptds[v06 ? "external_constant_without_key.06"
                                              : "external_constant_without_key"]);
    ASSERT_TRUE(r.methods[0].plan.refusal.has_value()) << release;
    EXPECT_EQ(r.methods[0].plan.refusal->log, log) << release;
  }
  runtime::RuntimeModel m06(**runtime::FindRelease("0.6.0"), *abi::FindBuiltinTarget("x86_64"));
  const report::Report r06 = *report::BuildReport(*second, m06, report::ReportOptions{});
  ASSERT_TRUE(r06.methods[0].plan.refusal.has_value());
  EXPECT_EQ(r06.methods[0].plan.refusal->error, "crash (null dereference)");
  // Before 0.6 EXTERNAL is not read: the refusal is not this one.
  runtime::RuntimeModel m05(**runtime::FindRelease("0.5.0"), *abi::FindBuiltinTarget("x86_64"));
  const report::Report r05 = *report::BuildReport(*program, m05, report::ReportOptions{});
  EXPECT_TRUE(!r05.methods[0].plan.refusal || r05.methods[0].plan.refusal->log != log);
}

}  // namespace measured_external_data_test
}  // namespace etmem
