// etmem against the real ExecuTorch runtime on programs the goldens do not cover: the builder's
// scenarios (delegates, every value kind, dynamic shapes, two methods, control flow, external
// data) and the real programs on the six releases without goldens (0.4, 0.6, 0.7, 1.1-1.3).
//
// tests/measured/x86_64_builder_programs.json holds what the real runtime did. How it was
// measured is in its "how_measured" field: each tag's portable runtime built from source with
// g++ 12 -O2 for x86-64 outside this repository, Program::load + load_method with a recording
// MemoryAllocator over a pool whose base is 16 mod 32, stub kernels, and stub backends
// ("FakeBackend" takes nothing; the "XnnpackBackend" stub takes sizeof(XNNExecutor) at align 8).
#include <filesystem>
#include <functional>
#include <map>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "etmem/abi/abi.h"
#include "etmem/pte/read_program.h"
#include "etmem/analysis/report.h"
#include "etmem/testing/scenarios.h"
#include "etmem_cli.h"
#include "measured.h"

namespace etmem {
namespace measured_runtime_test {

using nlohmann::json;

const json& Measured() {
  static const json kMeasured = test::ReadMeasured("x86_64_builder_programs.json");
  return kMeasured;
}

testing::ProgramBuilder Scenario(const std::string& name) {
  return testing::NamedScenarioProgram(name);
}

Result<pte::ProgramView> Program(const json& e) {
  if (e["program_set"] == "builder") {
    static std::map<std::string, std::vector<uint8_t>> bytes;
    const std::string name = e["program"];
    if (!bytes.count(name)) bytes[name] = Scenario(name).Build();
    return pte::ReadProgramBytes(bytes[name], name);
  }
  return pte::ReadProgram(test::RealModel(e["program"].get<std::string>()).string());
}

report::Report Analyze(const pte::ProgramView& p, const json& e) {
  runtime::RuntimeModel model(**runtime::FindRelease(e["tag"]), *abi::FindBuiltinTarget("x86_64"));
  report::ReportOptions o;
  o.pool_align = 16;
  o.load.temp_allocator = e["temp"] == "nonnull";
  o.load.declared_backends["FakeBackend"] = {0, 8};  // the harness's stub takes nothing
  o.load.declared_backends["StubBackend"] = {0, 8};
  o.method = e["method"].is_string() ? e["method"].get<std::string>() : "";
  return *report::BuildReport(p, model, o);
}

void CheckTrace(const report::MethodReport& m, const json& e, const std::string& what) {
  const std::vector<std::array<uint64_t, 3>> got = test::PoolCalls(m, runtime::PoolKind::kMethod);
  ASSERT_EQ(got.size(), e["n_calls"].get<size_t>()) << what;
  if (!e.contains("trace") || e["trace"].is_null()) return;  // real programs: totals only
  for (size_t i = 0; i < got.size(); ++i)
    ASSERT_EQ(json(got[i]), e["trace"][i]) << what << " call " << i;
}

// Which measured runs etmem is compared with: runs whose stubs match what etmem models.
bool Comparable(const json& e) {
  const std::string config = e["harness_config"];
  const bool delegate = e["program"].get<std::string>().starts_with("delegate_");
  if (config == "xnnpack_stub_sizeof_xnnexecutor") return true;
  return config == "stubs_fake_stub" && !delegate;
}

TEST(MeasuredRuntime, EveryComparableRunMatchesCallForCall) {
  const bool have_real = test::HaveRealModels();
  size_t compared = 0;
  for (const json& e : Measured()["results"]) {
    if (!Comparable(e) || (e["program_set"] != "builder" && !have_real)) continue;
    const std::string what = e["tag"].get<std::string>() + " " + e["program"].get<std::string>() +
                             " temp " + e["temp"].get<std::string>();
    auto program = Program(e);
    if (e["program_load_error"] != "Ok") {
      EXPECT_FALSE(program) << what << ": the runtime refuses the program";
      ++compared;
      continue;
    }
    ASSERT_TRUE(program) << what << ": " << program.error().message;
    report::Report r = Analyze(*program, e);
    const report::MethodReport& m = r.methods.front();
    if (e["load_error"] != "Ok") {
      EXPECT_TRUE(m.plan.refusal.has_value()) << what << ": the runtime fails with " << e["load_error"];
    } else {
      EXPECT_FALSE(m.plan.refusal.has_value()) << what;
      EXPECT_EQ(m.method_bytes, e["total_bytes"].get<uint64_t>()) << what;
      EXPECT_EQ(m.temp_load_peak_bytes, e["temp_peak_bytes"].get<uint64_t>()) << what;
      CheckTrace(m, e, what);
    }
    ++compared;
  }
  EXPECT_GT(compared, 200u);
  if (!have_real) GTEST_LOG_(INFO) << "../shared absent: real-program runs skipped";
}

// v1.3/v1.4 built with ExecuTorch's CMake refuse programs without a constant segment; etmem
// says so in a note (the figures themselves assume the source default).
TEST(MeasuredRuntime, CmakeBuiltRefusalsAreFlagged) {
  for (const json& e : Measured()["results"]) {
    if (e["harness_config"] != "cmake_no_deprecated_constant_buffer" || e["program_set"] != "builder")
      continue;
    auto program = Program(e);
    ASSERT_TRUE(program);
    report::Report r = Analyze(*program, e);
    EXPECT_EQ(!r.notes.empty(), e["program_load_error"] != "Ok") << e["tag"] << " " << e["program"];
  }
}

}  // namespace measured_runtime_test
}  // namespace etmem
