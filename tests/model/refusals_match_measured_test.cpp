// Owns: holding etmem's load-time refusals to the real runtime of every release (issue 13
// item 4): for each refusal class a builder program (testing::RefusalScenarios) measured at
// every tag and at main, and etmem's verdict, error code, log line and the allocations made
// before the refusal (scalar types, mutable state, constants a release cannot resolve, data
// from outside the program without a data map, and crashes of the real runtime); and the
// exporter's layouts a strict reader could call invalid (testing::AcceptanceScenarios, issue 25
// item 3), measured the same way at every tag.
// Not: the programs every release loads (the other measured tests).
//
// tests/measured/x86_64_refusals.json says how it was measured (how_measured): the same portable
// harness as x86_64_early_releases.json, run at all 16 tags and at main;
// x86_64_refusals_issue26.json, i686_refusals_issue26.json (a 32-bit host: g++ -m32) and
// x86_64_acceptance.json were measured with etmem measure's own harness (each file's
// how_measured); x86_64_refusals_ptd.json with it too, given the program's .ptd
// (etmem measure --external-data, testing::RefusalPtds) and without it, at every release with a
// data map (0.6+).
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

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
namespace measured_refusals_test {

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

// Issue 25's exporter layouts (no constants, that with a delegate segment, inline constants
// only), measured with the etmem measure binary at every tag.
// Issue 26's paths that depend on the width of size_t (planned offsets with a high word,
// mutable-segment and constant offsets whose sum with the size wraps), measured with etmem
// measure's harness built by g++ -m32 (i686) at the tags the file lists; its "target" is the
// target file `etmem probe` wrote for that compiler.
const json& Measured32Bit() {
  static const json kMeasured = test::ReadMeasured("i686_refusals_issue26.json");
  return kMeasured;
}

// Issue 26's refusals reached only with a data map (an external constant without a key),
// measured with etmem measure --external-data FILE.ptd and without a .ptd, at 0.6.0 ... main.
const json& MeasuredPtd() {
  static const json kMeasured = test::ReadMeasured("x86_64_refusals_ptd.json");
  return kMeasured;
}

const json& MeasuredMerged() {
  static const json kMeasured = test::ReadMeasured("x86_64_merged_data_map.json");
  return kMeasured;
}

const json& MeasuredAcceptance() {
  static const json kMeasured = test::ReadMeasured("x86_64_acceptance.json");
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

// What the records compared: runs, method refusals, crashes, programs Program::load refused.
struct Counts {
  size_t compared = 0, refused = 0, crashed = 0, program_refused = 0;
};

// One record (a program at one tag, with or without a temp allocator) against etmem's analysis
// as etmem measure's harness ran it: the verdict, the error, the log line and every call to the
// method allocator up to the refusal.
void HoldRecord(const json& e, const std::vector<uint8_t>& bytes, Counts& counts,
                const abi::Abi& target = *abi::FindBuiltinTarget("x86_64"),
                std::shared_ptr<const pte::PtdFile> ptd = nullptr) {
  const std::string name = e["program"];
  const std::string what = e["tag"].get<std::string>() + " " + name + " temp " +
                           e["temp"].get<std::string>();
  ASSERT_EQ(Sha256Hex(bytes), e["sha256"]) << what;
  auto program = pte::ReadProgramBytes(bytes, name + ".pte");
  ASSERT_TRUE(program) << what << ": " << program.error().message;
  runtime::RuntimeModel model(**runtime::FindRelease(Release(e)), target);
  report::ReportOptions o;
  o.pool_align = 16;
  o.temp_is_runner_default = false;
  o.load.temp_allocator = e["temp"] == "nonnull";
  o.load.temp_pool_bytes = 1u << 20;  // the harness's temp pool
  if (ptd) {  // etmem measure --external-data: the harness passed this .ptd to load_method
    o.load.external_data_map = true;
    o.load.ptd = std::move(ptd);
  }
  for (const pte::MethodView& m : program->methods)
    for (const pte::DelegateView& d : m.delegates)
      o.load.declared_backends[std::string(d.backend)] = {0, 8};  // the harness's stubs take nothing
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
    ++counts.crashed;
    ++counts.compared;
    return;
  }
  ASSERT_EQ(r.methods.size(), e["methods"].size()) << what;
  if (!e["program_load_ok"].get<bool>()) {
    // Program::load refused the file: no method was loaded and nothing allocated; etmem names
    // the program's refusal in every method.
    const int code = e["program_load_code"].get<int>();
    for (size_t k = 0; k < r.methods.size(); ++k) {
      const report::MethodReport& m = r.methods[k];
      const json& mm = e["methods"][k];
      ASSERT_TRUE(m.plan.refusal.has_value()) << what << ": Program::load fails with "
                                              << ErrorName(code);
      EXPECT_EQ(m.plan.refusal->error, ErrorName(code)) << what;
      EXPECT_TRUE(m.plan.refusal->program_load) << what;
      EXPECT_EQ(m.plan.refusal->log, LogText(mm["load_log"].get<std::string>())) << what;
      EXPECT_EQ(mm["n_calls"].get<size_t>(), 0u) << what;
      EXPECT_TRUE(test::PoolCalls(m, runtime::PoolKind::kMethod).empty()) << what;
    }
    ++counts.program_refused;
    ++counts.compared;
    return;
  }
  for (size_t k = 0; k < r.methods.size(); ++k) {
    const report::MethodReport& m = r.methods[k];
    const json& mm = e["methods"][k];
    const int code = mm["load_error_code"].get<int>();
    if (code != 0) {
      ASSERT_TRUE(m.plan.refusal.has_value()) << what << ": the runtime fails with "
                                              << ErrorName(code);
      EXPECT_EQ(m.plan.refusal->error, ErrorName(code)) << what;
      EXPECT_FALSE(m.plan.refusal->program_load) << what << ": load_method refused, not Program::load";
      EXPECT_EQ(m.plan.refusal->log, LogText(mm["load_log"].get<std::string>())) << what;
      ++counts.refused;
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
  ++counts.compared;
}

TEST(MeasuredRefusals, EveryReleaseRefusesOrLoadsExactlyAsItsRuntimeDid) {
  std::map<std::string, std::vector<uint8_t>> bytes;
  for (const testing::NamedScenario& s : testing::RefusalScenarios())
    bytes[s.name] = s.make().Build();
  Counts counts;
  std::map<std::string, std::set<std::string>> tags_by_program;
  std::vector<json> records(Measured()["results"].begin(), Measured()["results"].end());
  std::set<std::string> issue26_programs;
  for (const json& e : MeasuredIssue26()["results"]) {
    records.push_back(e);
    issue26_programs.insert(e["program"].get<std::string>());
  }
  for (const json& e : records) {
    const std::string name = e["program"];
    ASSERT_TRUE(bytes.count(name)) << e["tag"] << " " << name << ": no such refusal scenario";
    tags_by_program[name].insert(e["tag"]);
    HoldRecord(e, bytes[name], counts);
    if (::testing::Test::HasFatalFailure()) return;
  }
  // Each refusal program was measured at all 16 tags and at main; issue 26's at the tags its
  // file lists (with and without a temp allocator); those with a .ptd in
  // WithADataMapEveryReleaseRefusesAKeylessConstantAsItsRuntimeDid.
  const size_t issue26_tags = MeasuredIssue26()["tags"].size();
  std::set<std::string> ptd_programs;
  for (const json& e : MeasuredPtd()["results"]) ptd_programs.insert(e["program"]);
  // The merged data map's programs that were measured with their .ptd only.
  for (const json& e : MeasuredMerged()["results"])
    if (!tags_by_program.count(e["program"])) ptd_programs.insert(e["program"]);
  for (const testing::NamedScenario& s : testing::RefusalScenarios())
    if (!ptd_programs.count(s.name))
      EXPECT_EQ(tags_by_program[s.name].size(),
              issue26_programs.count(s.name) ? issue26_tags : 17u)
        << s.name;
  EXPECT_EQ(issue26_tags, 17u);  // every tag and main
  EXPECT_GT(counts.refused, 0u);
  EXPECT_GT(counts.crashed, 0u);
  EXPECT_GT(counts.compared, 0u);
}

// Issue 26, P280a92: an external constant without a key, refused by parse_external_constants
// only once load_method is given a data map. Each program of testing::RefusalPtds measured with
// etmem measure --external-data NAME.ptd (NAME.06.ptd at 0.6, whose data map reads the 0.6
// layout) and without a .ptd, at every release with a data map (0.6.0 ... main), with and
// without a temp allocator: the verdict, the error, the log line and every method-allocator call.
TEST(MeasuredRefusals, WithADataMapEveryReleaseRefusesAKeylessConstantAsItsRuntimeDid) {
  std::map<std::string, std::vector<uint8_t>> bytes, ptd_bytes;
  for (const testing::NamedScenario& s : testing::RefusalScenarios())
    bytes[s.name] = s.make().Build();
  for (const testing::NamedPtd& p : testing::RefusalPtds()) ptd_bytes[p.name] = p.make();
  Counts counts;
  std::map<std::string, std::set<std::string>> runs_by_program;  // "tag ptd|none temp"
  std::set<std::string> logs;
  for (const json& e : MeasuredPtd()["results"]) {
    const std::string name = e["program"];
    ASSERT_TRUE(bytes.count(name)) << e["tag"] << " " << name << ": no such refusal scenario";
    std::shared_ptr<const pte::PtdFile> ptd;
    if (e.contains("ptd")) {
      const std::string ptd_name = e["ptd"];
      ASSERT_TRUE(ptd_bytes.count(ptd_name)) << ptd_name << ": no such .ptd";
      ASSERT_EQ(Sha256Hex(ptd_bytes[ptd_name]), e["ptd_sha256"]) << ptd_name;
      auto read = pte::ReadPtdBytes(ptd_bytes[ptd_name], ptd_name + ".ptd");
      ASSERT_TRUE(read) << read.error().message;
      ptd = *read;
      EXPECT_EQ(e["data_map_load_code"], 0) << e["tag"] << " " << ptd_name;
    }
    runs_by_program[name].insert(e["tag"].get<std::string>() + (ptd ? " ptd " : " none ") +
                                 e["temp"].get<std::string>());
    EXPECT_EQ(e["etmem_measure_exit"], 0) << e["tag"] << " " << name;
    for (const json& m : e["methods"])
      if (m.contains("load_log")) logs.insert(LogText(m["load_log"].get<std::string>()));
    HoldRecord(e, bytes[name], counts, *abi::FindBuiltinTarget("x86_64"), ptd);
    if (::testing::Test::HasFatalFailure()) return;
  }
  const size_t n_tags = MeasuredPtd()["tags"].size();
  EXPECT_EQ(n_tags, 11u);  // 0.6.0 ... 1.4.1 and main
  for (const char* name : {"external_constant_without_key", "external_constant_keyed_then_without_key"})
    EXPECT_EQ(runs_by_program[name].size(), 4 * n_tags) << name;  // .ptd or not, temp or not
  EXPECT_TRUE(logs.count("Fully qualified name of external tensor is null at index 2"));
  EXPECT_GT(counts.refused, 0u);
  EXPECT_GT(counts.crashed, 0u);  // 0.6 without a map, a keyed constant first
}

// Issue 26, runtime/executor/merged_data_map.h: a .ptd together with the program's own named
// data. From 1.0 Method::init merges the two (MergedDataMap::load, after the values) for the
// delegates only; the tensors look their keys up in the .ptd alone. Each pair of
// testing::RefusalPtds measured with etmem measure --external-data at 0.7.0 ... main, with and
// without a temp allocator: a key in both maps loads (the duplicate scan asks the program's
// PteDataMap, whose get_tensor_layout is NotImplemented), a key only in the program's named data
// is NotFound, a constant or a planned tensor whose key only the .ptd holds loads, a keyless
// second .ptd entry crashes the scan (and loads without named data); 0.7 refuses every pair with
// named data (NotSupported), an empty Program.named_data vector included (the runtime's
// PteDataMap exists for a present vector: 1.0+ merge and allocate the merged map then too). The verdict, the error, the log line and every method-allocator call.
TEST(MeasuredRefusals, WithTheProgramsOwnNamedDataEveryReleaseMergesOrRefusesAsItsRuntimeDid) {
  std::map<std::string, std::vector<uint8_t>> bytes, ptd_bytes;
  for (const testing::NamedScenario& s : testing::RefusalScenarios())
    bytes[s.name] = s.make().Build();
  for (const testing::NamedPtd& p : testing::RefusalPtds()) ptd_bytes[p.name] = p.make();
  Counts counts;
  std::map<std::string, std::set<std::string>> runs_by_pair;  // "tag temp"
  std::map<std::string, std::set<std::string>> verdicts;      // pair -> "tag verdict"
  for (const json& e : MeasuredMerged()["results"]) {
    const std::string name = e["program"];
    ASSERT_TRUE(bytes.count(name)) << e["tag"] << " " << name << ": no such refusal scenario";
    const std::string ptd_name = e["ptd"];
    ASSERT_TRUE(ptd_bytes.count(ptd_name)) << ptd_name << ": no such .ptd";
    ASSERT_EQ(Sha256Hex(ptd_bytes[ptd_name]), e["ptd_sha256"]) << ptd_name;
    auto ptd = pte::ReadPtdBytes(ptd_bytes[ptd_name], ptd_name + ".ptd");
    ASSERT_TRUE(ptd) << ptd.error().message;
    EXPECT_EQ(e["data_map_load_code"], 0) << e["tag"] << " " << ptd_name;
    EXPECT_EQ(e["etmem_measure_exit"], 0) << e["tag"] << " " << name << " " << ptd_name;
    const std::string pair = name + " " + ptd_name;
    runs_by_pair[pair].insert(e["tag"].get<std::string>() + " " + e["temp"].get<std::string>());
    verdicts[pair].insert(e["tag"].get<std::string>() + " " +
                          e["methods"][0]["real_verdict"].get<std::string>());
    HoldRecord(e, bytes[name], counts, *abi::FindBuiltinTarget("x86_64"), *ptd);
    if (::testing::Test::HasFatalFailure()) return;
  }
  const std::vector<std::string> tags = MeasuredMerged()["tags"];
  EXPECT_EQ(tags.size(), 10u);  // 0.7.0 ... 1.4.1 and main
  EXPECT_EQ(runs_by_pair.size(), 7u);
  for (const auto& [pair, runs] : runs_by_pair) EXPECT_EQ(runs.size(), 2 * tags.size()) << pair;
  for (const std::string& tag : tags) {
    const bool v07 = tag == "v0.7.0";
    EXPECT_TRUE(verdicts["external_constant_in_named_data external_constant_in_named_data"].count(
        tag + (v07 ? " NotSupported" : " Ok"))) << tag;
    // An empty Program.named_data vector: the program's map exists all the same.
    EXPECT_TRUE(verdicts["merged_empty_named_data merged_empty_named_data"].count(
        tag + (v07 ? " NotSupported" : " Ok"))) << tag;
    EXPECT_TRUE(verdicts["merged_external_planned merged_external_planned"].count(
        tag + (v07 ? " NotSupported" : " Ok"))) << tag;
    if (!v07)
      EXPECT_TRUE(verdicts["merged_external_constant merged_external_constant.keyless"].count(
          tag + " crashed (signal 11)")) << tag;
    EXPECT_TRUE(verdicts["external_constant_without_map external_constant_without_map.keyless"]
                    .count(tag + " Ok")) << tag;
  }
  EXPECT_GT(counts.refused, 0u);
  EXPECT_GT(counts.crashed, 0u);
  EXPECT_GT(counts.compared, 0u);
}

// Issue 26: on a 32-bit target (g++ -m32, the target etmem probe measured), the paths that
// depend on size_t: a planned offset with a high word is NotSupported ("size_t cannot hold
// memory offset ...", 0.2+), a mutable-segment offset is read into a 32-bit size_t, and the
// planned, mutable and constant offsets whose sum with the size wraps, tensors whose element
// count or bytes wrap in a 32-bit ssize_t / size_t (1.1 aborts); the verdict, the error,
// the log line and every method-allocator call (4-byte pointers) as the real runtime had them.
TEST(MeasuredRefusals, A32BitTargetRefusesOrLoadsExactlyAsItsRuntimeDid) {
  const Result<abi::Abi> target =
      abi::ReadTargetText(Measured32Bit()["target"].dump(), "i686_refusals_issue26.json");
  ASSERT_TRUE(target) << target.error().message;
  ASSERT_EQ(target->size_type.size, 4u);
  std::map<std::string, std::vector<uint8_t>> bytes;
  for (const testing::NamedScenario& s : testing::RefusalScenarios())
    bytes[s.name] = s.make().Build();
  Counts counts;
  std::map<std::string, std::set<std::string>> runs_by_program;  // "tag temp"
  std::set<std::string> logs;
  for (const json& e : Measured32Bit()["results"]) {
    const std::string name = e["program"];
    ASSERT_TRUE(bytes.count(name)) << e["tag"] << " " << name << ": no such refusal scenario";
    runs_by_program[name].insert(e["tag"].get<std::string>() + " " + e["temp"].get<std::string>());
    for (const json& m : e["methods"])
      if (m.contains("load_log")) logs.insert(LogText(m["load_log"].get<std::string>()));
    HoldRecord(e, bytes[name], counts, *target);
    if (::testing::Test::HasFatalFailure()) return;
  }
  const size_t n_tags = Measured32Bit()["tags"].size();
  EXPECT_GT(n_tags, 0u);
  for (const char* name : {"planned_offset_high_word", "planned_offset_overflow",
                           "mutable_state_offset_wraps", "constant_offset_wraps",
                           "mutable_state_in_segment", "numel_wraps_to_zero",
                           "nbytes_wraps_to_zero", "numel_wraps_past_buffer",
                           "numel_wraps_in_32_bits", "delegate_without_id"})
    EXPECT_EQ(runs_by_program[name].size(), 2 * n_tags) << name;
  // A tensor's element count wraps in a 32-bit ssize_t (65537^2 -> 131073 elements, 524292
  // bytes), where a 64-bit one holds it (17180393476 bytes): the wrapped size was in the line.
  EXPECT_TRUE(logs.count("offset_bytes (16) + size_bytes (524292) >= allocator size (48) for "
                         "memory_id 0"));
  // The 32-bit refusal itself was met (both spellings of its line, 0.2-1.0 and 1.1+).
  EXPECT_TRUE(logs.count("size_t cannot hold memory offset 0x00000001.00000010")) << "0.2-1.0";
  EXPECT_TRUE(logs.count("size_t cannot hold memory offset 0x0000000100000010")) << "1.1+";
  EXPECT_GT(counts.refused, 0u);
}

// Issue 25 item 3: the exporter's layouts that a strict reader could call invalid load (or are
// refused by Program::load, no_constants at 0.2-0.3) in etmem exactly as on the real runtime, at
// every tag, with and without a temp allocator: the verdict, the error and log line, and every
// method-allocator call.
TEST(MeasuredAcceptance, EveryReleaseLoadsTheExporterLayoutsAsItsRuntimeDid) {
  std::map<std::string, std::vector<uint8_t>> bytes;
  for (const testing::NamedScenario& s : testing::AcceptanceScenarios())
    bytes[s.name] = s.make().Build();
  Counts counts;
  std::map<std::string, std::set<std::string>> runs_by_program;  // "tag temp"
  for (const json& e : MeasuredAcceptance()["results"]) {
    const std::string name = e["program"];
    ASSERT_TRUE(bytes.count(name)) << e["tag"] << " " << name << ": no such acceptance scenario";
    runs_by_program[name].insert(e["tag"].get<std::string>() + " " + e["temp"].get<std::string>());
    HoldRecord(e, bytes[name], counts);
    if (::testing::Test::HasFatalFailure()) return;
  }
  // Every scenario at all 16 tags and main, with and without a temp allocator.
  for (const testing::NamedScenario& s : testing::AcceptanceScenarios())
    EXPECT_EQ(runs_by_program[s.name].size(), 34u) << s.name;
  EXPECT_EQ(MeasuredAcceptance()["tags"].size(), 17u);
  EXPECT_GT(counts.compared, 0u);
}

}  // namespace measured_refusals_test
}  // namespace etmem
