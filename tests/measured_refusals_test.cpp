// Owns: holding etmem's load-time refusals to the real runtime of every release (issue 13
// item 4): for each refusal class a builder program (testing::RefusalScenarios) measured at
// every tag and at main, and etmem's verdict, error code, log line and the allocations made
// before the refusal (scalar types, mutable state, constants a release cannot resolve, data
// from outside the program without a data map, and crashes of the real runtime).
// Not: the programs every release loads (the other measured tests).
//
// tests/measured/x86_64_refusals.json says how it was measured (how_measured): the same portable
// harness as x86_64_early_releases.json, run at all 16 tags and at main.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <array>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "etmem/abi/abi.h"
#include "etmem/base/sha256.h"
#include "etmem/pte/read_program.h"
#include "etmem/report/report.h"
#include "etmem/testing/scenarios.h"
#include "measured.h"

namespace etmem {
namespace {

using nlohmann::json;

const json& Measured() {
  static const json kMeasured = test::ReadMeasured("x86_64_refusals.json");
  return kMeasured;
}

// Issue 26's programs (planned memory, storage offsets, dim orders, strings, operator names,
// several methods, several faults), measured with etmem measure's own harness at the tags the
// file lists.
const json& MeasuredIssue26() {
  static const json kMeasured = test::ReadMeasured("x86_64_refusals_issue26.json");
  return kMeasured;
}

// ExecuTorch's Error names (runtime/core/error.h).
std::string ErrorName(int code) {
  switch (code) {
    case 0x01: return "Internal";
    case 0x02: return "InvalidState";
    case 0x10: return "NotSupported";
    case 0x12: return "InvalidArgument";
    case 0x14: return "OperatorMissing";
    case 0x20: return "NotFound";
    case 0x21: return "MemoryAllocationFailed";
    case 0x23: return "InvalidProgram";
    case 0x24: return "InvalidExternalData";
    default: return "code " + std::to_string(code);
  }
}

std::string LogText(const std::string& line) {
  std::string s = line.substr(line.find("] ") == std::string::npos ? 0 : line.find("] ") + 2);
  while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
  return s;
}

std::string Release(const json& e) {
  const std::string tag = e["tag"];
  return tag == "main" ? "main" : tag.substr(1);
}

TEST(MeasuredRefusals, EveryReleaseRefusesOrLoadsExactlyAsItsRuntimeDid) {
  std::map<std::string, std::vector<uint8_t>> bytes;
  for (const testing::NamedScenario& s : testing::RefusalScenarios())
    bytes[s.name] = s.make().Build();
  size_t compared = 0, refused = 0, crashed = 0;
  std::map<std::string, std::set<std::string>> tags_by_program;
  std::vector<json> records(Measured()["results"].begin(), Measured()["results"].end());
  std::set<std::string> issue26_programs;
  for (const json& e : MeasuredIssue26()["results"]) {
    records.push_back(e);
    issue26_programs.insert(e["program"].get<std::string>());
  }
  for (const json& e : records) {
    const std::string name = e["program"];
    const std::string what = e["tag"].get<std::string>() + " " + name + " temp " +
                             e["temp"].get<std::string>();
    ASSERT_TRUE(bytes.count(name)) << what << ": no such refusal scenario";
    ASSERT_EQ(Sha256Hex(bytes[name]), e["sha256"]) << what;
    tags_by_program[name].insert(e["tag"]);
    auto program = pte::ReadProgramBytes(bytes[name], name + ".pte");
    ASSERT_TRUE(program) << what << ": " << program.error().message;
    runtime::RuntimeModel model(**runtime::FindRelease(Release(e)), *abi::FindBuiltinTarget("x86_64"));
    report::ReportOptions o;
    o.pool_align = 16;
    o.temp_is_runner_default = false;
    o.load.temp_allocator = e["temp"] == "nonnull";
    o.load.temp_pool_bytes = 1u << 20;  // the harness's temp pool
    const report::Report r = *report::BuildReport(*program, model, o);
    if (e.contains("crash")) {
      // The real runtime died in load_method (abort or fault): etmem reports a refusal whose
      // error names the crash, not an error code.
      ASSERT_EQ(r.methods.size(), 1u) << what;
      ASSERT_TRUE(r.methods[0].plan.refusal.has_value()) << what << ": the runtime crashed";
      // SIGABRT (rc -6) is an ET_CHECK: "abort (ET_CHECK)" (SIGILL, rc -4, where the build's
      // abort traps: v0.1.0 with etmem measure's harness, after the runtime's "assert failed"
      // line); SIGSEGV (rc -11) a null dereference: "crash (null dereference)".
      const int rc = e["crash"]["rc"].get<int>();
      ASSERT_TRUE(rc == -6 || rc == -4 || rc == -11) << what << ": rc " << rc;
      EXPECT_EQ(r.methods[0].plan.refusal->error,
                rc == -11 ? "crash (null dereference)" : "abort (ET_CHECK)")
          << what;
      ++crashed;
      ++compared;
      continue;
    }
    ASSERT_TRUE(e["program_load_ok"].get<bool>()) << what;
    ASSERT_EQ(r.methods.size(), e["methods"].size()) << what;
    for (size_t k = 0; k < r.methods.size(); ++k) {
      const report::MethodReport& m = r.methods[k];
      const json& mm = e["methods"][k];
      const int code = mm["load_error_code"].get<int>();
      if (code != 0) {
        ASSERT_TRUE(m.plan.refusal.has_value()) << what << ": the runtime fails with "
                                                << ErrorName(code);
        EXPECT_EQ(m.plan.refusal->error, ErrorName(code)) << what;
        EXPECT_EQ(m.plan.refusal->log, LogText(mm["load_log"].get<std::string>())) << what;
        ++refused;
      } else {
        EXPECT_FALSE(m.plan.refusal.has_value()) << what << ": " << m.plan.refusal->reason;
        EXPECT_EQ(m.method_bytes, mm["total_bytes"].get<uint64_t>()) << what;
        // (etmem measure's harness does not record the temp allocator.)
        if (mm.contains("temp_peak_bytes")) {
          EXPECT_EQ(m.temp_load_peak_bytes, mm["temp_peak_bytes"].get<uint64_t>()) << what;
        }
      }
      // Every allocation the runtime made (up to the refusal), call for call.
      const std::vector<std::array<uint64_t, 3>> got = test::PoolCalls(m, runtime::PoolKind::kMethod);
      ASSERT_EQ(got.size(), mm["n_calls"].get<size_t>()) << what;
      for (size_t i = 0; i < got.size(); ++i) ASSERT_EQ(json(got[i]), mm["trace"][i]) << what << " call " << i;
    }
    ++compared;
  }
  // Each refusal program was measured at all 16 tags and at main; issue 26's at the tags its
  // file lists (with and without a temp allocator).
  const size_t issue26_tags = MeasuredIssue26()["tags"].size();
  for (const testing::NamedScenario& s : testing::RefusalScenarios())
    EXPECT_EQ(tags_by_program[s.name].size(),
              issue26_programs.count(s.name) ? issue26_tags : 17u)
        << s.name;
  EXPECT_GT(refused, 0u);
  EXPECT_GT(crashed, 0u);
  EXPECT_GT(compared, 0u);
}

}  // namespace
}  // namespace etmem
