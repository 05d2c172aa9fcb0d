// Owns: holding etmem to the real ExecuTorch runtime of the patch releases 1.0.1, 1.3.1 and 1.4.0,
// and of the first releases 0.1.0, 0.2.0 and 0.2.1.
// Not: the source-level deltas (patch_releases_test.cpp), the minor releases (load_matches_measured_test.cpp).
//
// tests/measured/x86_64_patch_releases.json holds what the real portable runtime of each of those
// tags did on the builder's scenarios and the real programs in ../shared, and whether its whole
// output equalled that of the neighbouring tag (v1.0.0, v1.3.0, v1.4.1). How it was measured is in
// its "how_measured" field: each tag built from source with g++ 12 -O2 for x86-64 outside this
// repository, Program::load + load_method with a recording MemoryAllocator over a pool whose base
// is 16 mod 32, stub kernels, stub backends ("FakeBackend"/"StubBackend" take nothing; in
// "xnnpack_stub_noalloc" an "XnnpackBackend" stub takes nothing either, so the XNNExecutor
// difference between 1.4.0 and 1.4.1 is not in these traces: patch_releases_test.cpp holds it to
// the source).
//
// tests/measured/x86_64_early_releases.json holds the same harness's runs of v0.1.0, v0.2.0 and
// v0.2.1 on the same programs (its how_measured says what differs in building those tags), with,
// for a method the runtime refuses, the allocations it made before refusing and its error code.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <array>
#include <map>
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
namespace measured_patch_releases_test {

using nlohmann::json;

const json& Measured() {
  static const json kMeasured = test::ReadMeasured("x86_64_patch_releases.json");
  return kMeasured;
}

const json& MeasuredEarly() {
  static const json kMeasured = test::ReadMeasured("x86_64_early_releases.json");
  return kMeasured;
}

// ExecuTorch's Error names for the codes these runs logged (runtime/core/error.h).
std::string ErrorName(int code) {
  switch (code) {
    case 0x10: return "NotSupported";
    case 0x12: return "InvalidArgument";
    case 0x14: return "OperatorMissing";
    case 0x20: return "NotFound";
    case 0x23: return "InvalidProgram";
    default: return "code " + std::to_string(code);
  }
}

report::Report Analyze(const pte::ProgramView& p, const std::string& tag, const json& e,
                       std::optional<uint64_t> pool = std::nullopt) {
  runtime::RuntimeModel model(**runtime::FindRelease(tag), *abi::FindBuiltinTarget("x86_64"));
  report::ReportOptions o;
  o.pool_align = 16;
  o.pool_bytes = pool;
  o.load.temp_allocator = e["temp"] == "nonnull";
  o.load.declared_backends["FakeBackend"] = {0, 8};  // the harness's stubs take nothing
  o.load.declared_backends["StubBackend"] = {0, 8};
  if (e["harness_config"] == "xnnpack_stub_noalloc") o.load.declared_backends["XnnpackBackend"] = {0, 8};
  return *report::BuildReport(p, model, o);
}

// Runs etmem can be compared with: without an XnnpackBackend stub the runtime refuses delegate
// programs (backend not registered), which is the harness's setup, not a release's behaviour.
bool Comparable(const json& e) {
  return e["harness_config"] == "xnnpack_stub_noalloc" ||
         !e["program"].get<std::string>().starts_with("delegate_");
}

// The text after "] " of the runtime's log line.
std::string LogText(const std::string& line) {
  std::string s = line.substr(line.find("] ") == std::string::npos ? 0 : line.find("] ") + 2);
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  return s;
}

TEST(MeasuredPatchReleases, EachPatchReleaseLoadsExactlyAsTheRuntimeDid) {
  const bool have_real = test::HaveRealModels();
  size_t compared = 0;
  for (const json& e : Measured()["results"]) {
    if (!Comparable(e) || (e["program_set"] != "builder" && !have_real)) continue;
    const std::string tag = e["tag"].get<std::string>().substr(1);
    const std::string what = tag + " " + e["program"].get<std::string>() + " temp " +
                             e["temp"].get<std::string>() + " " + e["harness_config"].get<std::string>();
    const std::vector<uint8_t>& bytes = test::MeasuredProgramBytes(e);
    // The program measured is the program analysed here.
    ASSERT_EQ(Sha256Hex(bytes), e["sha256"]) << what;
    auto program = pte::ReadProgramBytes(bytes, e["program"].get<std::string>());
    if (!e["program_load_ok"].get<bool>()) {
      EXPECT_FALSE(program) << what << ": the runtime refuses the program in Program::load";
      ++compared;
      continue;
    }
    ASSERT_TRUE(program) << what << ": " << program.error().message;
    // The runtime gave the neighbouring tag's output; etmem must agree with itself too.
    EXPECT_TRUE(e["identical_to_compared_tag"].get<bool>()) << what;
    const std::string other = e["compared_with"].get<std::string>().substr(1);
    const report::Report r = Analyze(*program, tag, e);
    const report::Report r_other = Analyze(*program, other, e);
    ASSERT_EQ(r.methods.size(), e["methods"].size()) << what;
    for (size_t k = 0; k < r.methods.size(); ++k) {
      const report::MethodReport& m = r.methods[k];
      const json& mm = e["methods"][k];
      ASSERT_EQ(m.method->name, mm["method"].get<std::string>()) << what;
      const std::string where = what + " method " + mm["method"].get<std::string>();
      if (mm["load_error_code"] != 0) {
        EXPECT_TRUE(m.plan.refusal.has_value()) << where << ": the runtime fails with code "
                                                << mm["load_error_code"];
        continue;
      }
      EXPECT_FALSE(m.plan.refusal.has_value()) << where;
      EXPECT_EQ(m.method_bytes, mm["total_bytes"].get<uint64_t>()) << where;
      EXPECT_EQ(m.temp_load_peak_bytes, mm["temp_peak_bytes"].get<uint64_t>()) << where;
      EXPECT_EQ(r_other.methods[k].method_bytes, m.method_bytes) << where << " vs " << other;
      const std::vector<std::array<uint64_t, 3>> got = test::PoolCalls(m, runtime::PoolKind::kMethod);
      ASSERT_EQ(got.size(), mm["n_calls"].get<size_t>()) << where;
      if (mm.contains("trace") && !mm["trace"].is_null()) {
        for (size_t i = 0; i < got.size(); ++i) {
          ASSERT_EQ(json(got[i]), mm["trace"][i]) << where << " call " << i;
        }
      }
      // A pool one byte short: the same failure line.
      const json& check = mm["min_pool_check"];
      if (check["fails_at_total_minus_1"].get<bool>() && check["fail_line_at_min_minus_1"].is_string()) {
        const report::Report short_pool = Analyze(*program, tag, e, m.method_bytes - 1);
        const auto& pc = short_pool.methods[k].pool_check;
        ASSERT_TRUE(pc.has_value()) << where;
        EXPECT_FALSE(pc->fits) << where;
        EXPECT_EQ(pc->log, LogText(check["fail_line_at_min_minus_1"])) << where;
      }
    }
    ++compared;
  }
  EXPECT_EQ(compared, have_real ? 264u : 66u);
  if (!have_real) GTEST_LOG_(INFO) << "../shared absent: real-program runs skipped";
}

// 0.1.0, 0.2.0, 0.2.1: every run's verdict (loads, or the error the runtime refuses the method
// with), and the allocations made (up to the refusal), call for call.
TEST(MeasuredPatchReleases, TheFirstReleasesLoadOrRefuseExactlyAsTheRuntimeDid) {
  const bool have_real = test::HaveRealModels();
  size_t compared = 0, refused = 0;
  for (const json& e : MeasuredEarly()["results"]) {
    if (!Comparable(e) || (e["program_set"] != "builder" && !have_real)) continue;
    const std::string tag = e["tag"].get<std::string>().substr(1);
    const std::string what = tag + " " + e["program"].get<std::string>() + " temp " +
                             e["temp"].get<std::string>() + " " + e["harness_config"].get<std::string>();
    const std::vector<uint8_t>& bytes = test::MeasuredProgramBytes(e);
    ASSERT_EQ(Sha256Hex(bytes), e["sha256"]) << what;
    auto program = pte::ReadProgramBytes(bytes, e["program"].get<std::string>());
    if (!e["program_load_ok"].get<bool>()) {
      EXPECT_FALSE(program) << what << ": the runtime refuses the program in Program::load";
      ++compared;
      continue;
    }
    ASSERT_TRUE(program) << what << ": " << program.error().message;
    const report::Report r = Analyze(*program, tag, e);
    ASSERT_EQ(r.methods.size(), e["methods"].size()) << what;
    for (size_t k = 0; k < r.methods.size(); ++k) {
      const report::MethodReport& m = r.methods[k];
      const json& mm = e["methods"][k];
      const std::string where = what + " method " + mm["method"].get<std::string>();
      ASSERT_EQ(m.method->name, mm["method"].get<std::string>()) << where;
      const int code = mm["load_error_code"].get<int>();
      if (code != 0) {
        ASSERT_TRUE(m.plan.refusal.has_value()) << where << ": the runtime fails with "
                                                << ErrorName(code);
        EXPECT_EQ(m.plan.refusal->error, ErrorName(code)) << where;
        ++refused;
      } else {
        EXPECT_FALSE(m.plan.refusal.has_value()) << where;
        EXPECT_EQ(m.method_bytes, mm["total_bytes"].get<uint64_t>()) << where;
        EXPECT_EQ(m.temp_load_peak_bytes, mm["temp_peak_bytes"].get<uint64_t>()) << where;
      }
      const std::vector<std::array<uint64_t, 3>> got = test::PoolCalls(m, runtime::PoolKind::kMethod);
      ASSERT_EQ(got.size(), mm["n_calls"].get<size_t>()) << where;
      if (mm.contains("trace") && !mm["trace"].is_null()) {
        for (size_t i = 0; i < got.size(); ++i)
          ASSERT_EQ(json(got[i]), mm["trace"][i]) << where << " call " << i;
      }
    }
    ++compared;
  }
  EXPECT_GT(compared, 0u);
  EXPECT_GT(refused, 0u) << "no 0.1.0 refusal compared";
  if (!have_real) GTEST_LOG_(INFO) << "../shared absent: real-program runs skipped";
}

}  // namespace measured_patch_releases_test
}  // namespace etmem
