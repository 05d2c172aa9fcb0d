// Owns: holding etmem's model of ExecuTorch main (the snapshot main-20260822-cff6f4dd) to the
// real runtime of that commit, and the snapshot's place among the releases (--runtime main,
// `etmem list runtimes`, not in --runtime all, never the default).
// Not: the releases' measurements (patch_releases_match_measured_test.cpp, load_matches_measured_test.cpp).
//
// tests/measured/x86_64_main.json holds what the real portable runtime of main at cff6f4dd did
// on the builder's programs and the real programs in ../shared, with no temp allocator and with
// temp pools from 0 B to 1 MiB (its how_measured field says how it was built and run, outside
// this repository). With a temp pool below an instruction's worst case the operator metadata
// falls back to the method allocator (PR 20981), so the method pool grows as the temp pool
// shrinks; etmem must give the same allocations, call for call, at every temp pool size.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <array>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "etmem/abi/abi.h"
#include "etmem/base/sha256.h"
#include "etmem/pte/mapped_file.h"
#include "etmem/pte/read_program.h"
#include "etmem/analysis/report.h"
#include "etmem/testing/scenarios.h"
#include "etmem_cli.h"
#include "measured.h"

namespace etmem {
namespace measured_main_test {

using nlohmann::json;

constexpr const char* kMain = "main-20260822-cff6f4dd";

const json& Measured() {
  static const json kMeasured = test::ReadMeasured("x86_64_main.json");
  return kMeasured;
}

report::Report Analyze(const pte::ProgramView& p, const json& e,
                       std::optional<uint64_t> pool = std::nullopt) {
  runtime::RuntimeModel model(**runtime::FindRelease(kMain), *abi::FindBuiltinTarget("x86_64"));
  report::ReportOptions o;
  o.pool_align = 16;
  o.pool_bytes = pool;
  o.temp_is_runner_default = false;
  o.load.temp_allocator = e["temp"] == "nonnull";
  if (!e["temp_pool_bytes"].is_null()) o.load.temp_pool_bytes = e["temp_pool_bytes"].get<uint64_t>();
  o.load.declared_backends["FakeBackend"] = {0, 8};  // the harness's stubs take nothing
  o.load.declared_backends["StubBackend"] = {0, 8};
  if (e["harness_config"] == "xnnpack_stub_noalloc") o.load.declared_backends["XnnpackBackend"] = {0, 8};
  return *report::BuildReport(p, model, o);
}

bool Comparable(const json& e) {
  return e["harness_config"] == "xnnpack_stub_noalloc" ||
         !e["program"].get<std::string>().starts_with("delegate_");
}

std::string LogText(const std::string& line) {
  std::string s = line.substr(line.find("] ") == std::string::npos ? 0 : line.find("] ") + 2);
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  return s;
}

std::string What(const json& e) {
  return e["program"].get<std::string>() + " temp " + e["temp"].get<std::string>() +
         (e["temp_pool_bytes"].is_null() ? "" : " " + e["temp_pool_bytes"].dump() + " B") + " " +
         e["harness_config"].get<std::string>();
}

TEST(MeasuredMain, EveryRunLoadsExactlyAsMainsRuntimeDid) {
  const json& measured = Measured();
  EXPECT_EQ(measured["commit"], "cff6f4dd32e630945b7188512c1f2b4f102b05ad");
  EXPECT_FALSE(measured["how_measured"].get<std::string>().empty());
  const bool have_real = test::HaveRealModels();
  size_t compared = 0, fell_back = 0;
  for (const json& e : measured["results"]) {
    if (!Comparable(e) || (e["program_set"] != "builder" && !have_real)) continue;
    const std::string what = What(e);
    const std::vector<uint8_t>& bytes = test::MeasuredProgramBytes(e);
    ASSERT_EQ(Sha256Hex(bytes), e["sha256"]) << what;
    auto program = pte::ReadProgramBytes(bytes, e["program"].get<std::string>());
    if (!e["program_load_ok"].get<bool>()) {
      EXPECT_FALSE(program) << what << ": the runtime refuses the program in Program::load";
      ++compared;
      continue;
    }
    ASSERT_TRUE(program) << what << ": " << program.error().message;
    const report::Report r = Analyze(*program, e);
    ASSERT_EQ(r.methods.size(), e["methods"].size()) << what;
    for (size_t k = 0; k < r.methods.size(); ++k) {
      const report::MethodReport& m = r.methods[k];
      const json& mm = e["methods"][k];
      const std::string where = what + " method " + mm["method"].get<std::string>();
      ASSERT_EQ(m.method->name, mm["method"].get<std::string>()) << where;
      if (mm["load_error_code"] != 0) {
        // DYNAMIC_UNBOUND tensors (NotSupported), a .ptd not passed (InvalidState): refused
        // after the allocations compared below.
        const int code = mm["load_error_code"].get<int>();
        ASSERT_TRUE(code == 0x10 || code == 0x02) << where << ": code " << code;
        ASSERT_TRUE(m.plan.refusal.has_value()) << where;
        EXPECT_EQ(m.plan.refusal->error, code == 0x10 ? "NotSupported" : "InvalidState") << where;
      } else {
        EXPECT_FALSE(m.plan.refusal.has_value()) << where;
        EXPECT_EQ(m.method_bytes, mm["total_bytes"].get<uint64_t>()) << where;
      }
      EXPECT_EQ(m.temp_load_peak_bytes, mm["temp_peak_bytes"].get<uint64_t>()) << where;
      const auto method_calls = test::PoolCalls(m, runtime::PoolKind::kMethod);
      const auto temp_calls = test::PoolCalls(m, runtime::PoolKind::kTemp);
      ASSERT_EQ(method_calls.size(), mm["n_calls"].get<size_t>()) << where;
      ASSERT_EQ(temp_calls.size(), mm["n_temp_calls"].get<size_t>()) << where;
      if (mm.contains("trace")) {
        for (size_t i = 0; i < method_calls.size(); ++i)
          ASSERT_EQ(json(method_calls[i]), mm["trace"][i]) << where << " call " << i;
        // The temp allocator is reset after each operator: its offsets restart at 0.
        for (size_t i = 0; i < temp_calls.size(); ++i)
          ASSERT_EQ(json(temp_calls[i]), mm["temp_trace"][i]) << where << " temp call " << i;
      }
      fell_back += m.plan.metadata.fell_back;
      const json& check = mm["min_pool_check"];
      if (mm["load_error_code"] == 0 && check.is_object() &&
          check["fails_at_total_minus_1"].get<bool>() &&
          check["fail_line_at_min_minus_1"].is_string()) {
        const report::Report short_pool = Analyze(*program, e, m.method_bytes - 1);
        const auto& pc = short_pool.methods[k].pool_check;
        ASSERT_TRUE(pc.has_value()) << where;
        EXPECT_FALSE(pc->fits) << where;
        EXPECT_EQ(pc->log, LogText(check["fail_line_at_min_minus_1"])) << where;
      }
    }
    ++compared;
  }
  EXPECT_GT(compared, 100u);
  EXPECT_GT(fell_back, 0u) << "no run in which the metadata fell back to the method allocator";
  if (!have_real) GTEST_LOG_(INFO) << "../shared absent: real-program runs skipped";
}

// With a 1 MiB temp pool (the portable executor_runner's) or none, main's runtime did exactly
// what 1.4.1's did; etmem's two models agree there too.
TEST(MeasuredMain, WithTheRunnersTempPoolMainIsAs141) {
  const bool have_real = test::HaveRealModels();
  size_t compared = 0;
  for (const json& e : Measured()["results"]) {
    if (!e.contains("identical_to_v1.4.1") || !Comparable(e) ||
        (e["program_set"] != "builder" && !have_real))
      continue;
    EXPECT_TRUE(e["identical_to_v1.4.1"].get<bool>()) << What(e);
    auto program = pte::ReadProgramBytes(test::MeasuredProgramBytes(e), e["program"].get<std::string>());
    if (!e["program_load_ok"].get<bool>()) continue;
    ASSERT_TRUE(program) << What(e);
    const report::Report main = Analyze(*program, e);
    runtime::RuntimeModel v141(**runtime::FindRelease("1.4.1"), *abi::FindBuiltinTarget("x86_64"));
    report::ReportOptions o;
    o.pool_align = 16;
    o.load.temp_allocator = e["temp"] == "nonnull";
    o.load.declared_backends["FakeBackend"] = {0, 8};
    o.load.declared_backends["StubBackend"] = {0, 8};
    if (e["harness_config"] == "xnnpack_stub_noalloc") o.load.declared_backends["XnnpackBackend"] = {0, 8};
    const report::Report old = *report::BuildReport(*program, v141, o);
    for (size_t k = 0; k < main.methods.size(); ++k) {
      EXPECT_EQ(main.methods[k].method_bytes, old.methods[k].method_bytes) << What(e);
      EXPECT_EQ(main.methods[k].temp_load_peak_bytes, old.methods[k].temp_load_peak_bytes) << What(e);
    }
    ++compared;
  }
  EXPECT_GT(compared, 10u);
}

// The acceptance: the motivating CNN's method pool grows as the temp pool shrinks below
// the operator metadata's need, as measured.
TEST(MeasuredMain, TheCnnsMethodPoolGrowsAsTheTempPoolShrinks) {
  std::map<uint64_t, uint64_t> measured;  // temp pool -> method pool
  for (const json& e : Measured()["results"])
    if (e["program"] == "cnn" && e["temp"] == "nonnull" && e["harness_config"] == "stubs_fake_stub")
      measured[e["temp_pool_bytes"].get<uint64_t>()] = e["methods"][0]["total_bytes"].get<uint64_t>();
  ASSERT_GE(measured.size(), 5u);
  auto program = pte::ReadProgramBytes(testing::MotivatingCnn().Build(), "cnn.pte");
  ASSERT_TRUE(program);
  uint64_t previous = 0;
  std::set<uint64_t> distinct;
  for (auto it = measured.rbegin(); it != measured.rend(); ++it) {  // largest temp pool first
    const json e = {{"temp", "nonnull"}, {"temp_pool_bytes", it->first},
                    {"harness_config", "stubs_fake_stub"}};
    const report::Report r = Analyze(*program, e);
    EXPECT_EQ(r.methods[0].method_bytes, it->second) << "temp pool " << it->first << " B";
    EXPECT_GE(it->second, previous) << "temp pool " << it->first << " B";
    previous = it->second;
    distinct.insert(it->second);
  }
  EXPECT_GE(distinct.size(), 3u) << "the sweep should cross several instructions' worst cases";
}

TEST(MainSnapshot, IsNamedByCommitAndDateAndIsNeverTheDefault) {
  auto by_alias = runtime::FindRelease("main");
  ASSERT_TRUE(by_alias);
  EXPECT_EQ((*by_alias)->version, kMain);
  EXPECT_EQ((*by_alias)->commit, "cff6f4dd32e630945b7188512c1f2b4f102b05ad");
  EXPECT_EQ((*by_alias)->commit_date, "2026-08-22");
  EXPECT_EQ(*runtime::FindRelease(kMain), *by_alias);
  EXPECT_EQ(runtime::ReleaseVersions().back(), "1.4.1");  // the default stays a release
  for (const runtime::RuntimeTraits& r : runtime::AllReleases()) EXPECT_FALSE(r.is_snapshot());
  const auto list = test::Etmem("list runtimes");
  EXPECT_NE(list.out.find(std::string(kMain) + " "), std::string::npos) << list.out;
  EXPECT_NE(list.out.find("cff6f4dd32e630945b7188512c1f2b4f102b05ad, 2026-08-22"),
            std::string::npos);
  // The snapshot's delta is 1.4.1's traits plus the fallback: nothing else differs.
  const runtime::RuntimeTraits& v141 = **runtime::FindRelease("1.4.1");
  EXPECT_EQ((*by_alias)->types.all().size(), v141.types.all().size());
  EXPECT_EQ((*by_alias)->operator_metadata_on_user_temp, v141.operator_metadata_on_user_temp);
  EXPECT_EQ(v141.operator_metadata_temp_fallback_dims, 0u);
  EXPECT_EQ((*by_alias)->operator_metadata_temp_fallback_dims, 16u);
}

// --runtime main needs the temp pool's size: the report says which size it assumed and where
// each kernel call's metadata went; --temp-pool changes it.
TEST(MainSnapshot, TheReportStatesTheTempPoolAndWhereTheMetadataWent) {
  const std::string cnn = test::MotivatingCnnFile().string();
  const auto dflt = test::Etmem("analyze " + cnn + " --runtime main --target x86_64 --pool-align 16");
  ASSERT_EQ(dflt.exit_code, 0) << dflt.err;
  EXPECT_NE(dflt.out.find("temp pool 1048576 B (the portable executor_runner's"), std::string::npos)
      << dflt.out;
  EXPECT_NE(dflt.out.find("on the temp allocator, 0 on the method allocator"), std::string::npos)
      << dflt.out;
  const auto small =
      test::Etmem("analyze " + cnn + " --runtime main --target x86_64 --pool-align 16 --temp-pool 100");
  ASSERT_EQ(small.exit_code, 0) << small.err;
  EXPECT_NE(small.out.find("temp pool 100 B (--temp-pool)"), std::string::npos) << small.out;
  EXPECT_NE(small.out.find("0 on the temp allocator"), std::string::npos) << small.out;
  EXPECT_NE(small.out.find("is below their worst case"), std::string::npos) << small.out;
  // Other releases: --temp-pool moves no metadata; it only adds the temp pool's check (load and
  // every instruction, kernels/run_temp.h) to what is printed.
  const auto v141 = test::Etmem("analyze " + cnn + " --runtime 1.4.1 --target x86_64");
  const auto v141_tp = test::Etmem("analyze " + cnn + " --runtime 1.4.1 --target x86_64 --temp-pool 100");
  EXPECT_EQ(v141.out.find("temp pool"), std::string::npos);
  const std::string check = "  temp pool 100 B (--temp-pool): load DOES NOT FIT";
  const size_t at = v141_tp.out.find(check);
  ASSERT_NE(at, std::string::npos) << v141_tp.out;
  std::string without = v141_tp.out;
  without.erase(at, without.find('\n', at) + 1 - at);
  EXPECT_EQ(v141.out, without);
  // --runtime all is every published release: main is not among them.
  const auto all = test::Etmem("analyze " + cnn + " --runtime all --target x86_64 --format csv");
  EXPECT_EQ(all.out.find("main-"), std::string::npos);
}

}  // namespace measured_main_test
}  // namespace etmem
