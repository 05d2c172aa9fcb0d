// Owns: holding the patch releases (0.2.1, 1.0.1, 1.3.1, 1.4.0 before 1.4.1) and 0.2.x against
// 0.3.0 to what `git diff` between neighbouring tags of pytorch/executorch shows for the code
// etmem models:
//   v0.2.0..v0.2.1  Method::execute_instruction only (not run by load_method)
//   v0.2.1..v0.3.0  the Arm Ethos-U backend's init() allocates an ExecutionHandle; nothing else
//                   load_method does (method.cpp changes set_input/outputs and execute only)
//   v1.0.0..v1.0.1  nothing under runtime/, schema/, extension/data_loader/,
//                   backends/{xnnpack,arm}/runtime/, examples/portable/executor_runner/
//   v1.3.0..v1.3.1  nothing there either
//   v1.3.1..v1.4.0  XNNExecutor gains weights_cache_ (shared_ptr) and two atomic<bool>; the rest
//                   (new null checks, MemoryAllocator::used_size) changes no modelled trait
//   v1.4.0..v1.4.1  XNNExecutor gains unpacked_buffers_ (a vector) as its first member
// Not: measurements of those releases on the real runtime (load_matches_measured_test.cpp).
#include <set>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "etmem/abi/abi.h"
#include "etmem/pte/read_program.h"
#include "etmem/report/json_report.h"
#include "etmem/analysis/report.h"
#include "etmem/runtime/load_plan.h"
#include "etmem/runtime/release.h"
#include "etmem/testing/scenarios.h"

namespace etmem {
namespace patch_releases_test {

using runtime::RuntimeTraits;

const RuntimeTraits& Release(const std::string& v) { return **runtime::FindRelease(v); }

// What differs between two releases' traits: "trait NAME", "backend ID", "type NAME".
std::set<std::string> DifferingTraits(const RuntimeTraits& a, const RuntimeTraits& b) {
  std::set<std::string> out;
  auto trait = [&](const char* name, auto x, auto y) {
    if (x != y) out.insert(std::string("trait ") + name);
  };
  trait("platform_allocator_when_no_temp", a.platform_allocator_when_no_temp, b.platform_allocator_when_no_temp);
  trait("input_set_array", a.input_set_array, b.input_set_array);
  trait("external_constants", a.external_constants, b.external_constants);
  trait("merged_data_map", a.merged_data_map, b.merged_data_map);
  trait("refuses_external_map_with_named_data", a.refuses_external_map_with_named_data,
        b.refuses_external_map_with_named_data);
  trait("boxed_lists", a.boxed_lists, b.boxed_lists);
  trait("operator_metadata_on_user_temp", a.operator_metadata_on_user_temp, b.operator_metadata_on_user_temp);
  trait("null_compile_specs_skipped", a.null_compile_specs_skipped, b.null_compile_specs_skipped);
  trait("runner_passes_temp", a.runner_passes_temp, b.runner_passes_temp);
  trait("null_values_prescanned", a.null_values_prescanned, b.null_values_prescanned);
  trait("external_map_null_checked", a.external_map_null_checked, b.external_map_null_checked);
  trait("none_value_is_invalid_program", a.none_value_is_invalid_program, b.none_value_is_invalid_program);
  trait("empty_chains_refused_first", a.empty_chains_refused_first, b.empty_chains_refused_first);
  trait("constant_segment", a.constant_segment, b.constant_segment);
  trait("cmake_build_drops_inline_constants", a.cmake_build_drops_inline_constants,
        b.cmake_build_drops_inline_constants);
  trait("max_tensor_rank", a.max_tensor_rank, b.max_tensor_rank);
  trait("on_failure", a.on_failure, b.on_failure);
  trait("constant_segment_min_offsets", a.constant_segment_min_offsets, b.constant_segment_min_offsets);
  trait("copies_mutable_state_at_load", a.copies_mutable_state_at_load, b.copies_mutable_state_at_load);
  trait("named_data_for_backends", a.named_data_for_backends, b.named_data_for_backends);
  std::set<std::string> ids;
  for (const auto& [id, m] : a.backends) ids.insert(id);
  for (const auto& [id, m] : b.backends) ids.insert(id);
  for (const std::string& id : ids) {
    auto x = a.backends.find(id), y = b.backends.find(id);
    if (x == a.backends.end() || y == b.backends.end() || x->second.name != y->second.name ||
        x->second.type != y->second.type || x->second.unknown_because != y->second.unknown_because ||
        x->second.on_failure != y->second.on_failure ||
        x->second.reads_blob_in_place != y->second.reads_blob_in_place)
      out.insert("backend " + id);
  }
  std::set<std::string> types;
  for (const auto& [name, def] : a.types.all()) types.insert(name);
  for (const auto& [name, def] : b.types.all()) types.insert(name);
  for (const std::string& name : types) {
    if (!a.types.Has(name) || !b.types.Has(name)) {
      out.insert("type " + name);
      continue;
    }
    for (const abi::Abi& target : abi::BuiltinTargets())
      if (a.types.SizeAlignOfType(name, target) != b.types.SizeAlignOfType(name, target))
        out.insert("type " + name);
  }
  return out;
}

TEST(PatchReleases, EachDiffersFromTheReleaseBeforeItExactlyWhereTheSourceChanged) {
  using Set = std::set<std::string>;
  EXPECT_EQ(DifferingTraits(Release("0.1.0"), Release("0.2.0")),
            (Set{"trait constant_segment", "trait none_value_is_invalid_program",
                 "trait empty_chains_refused_first", "backend XnnpackBackend", "type XNNExecutor",
                 "type XNNProfiler", "type std::unique_ptr<T, deleter fn>", "type std::vector",
                 "type std::shared_ptr"}));
  EXPECT_EQ(DifferingTraits(Release("0.2.0"), Release("0.2.1")), Set{});
  EXPECT_EQ(DifferingTraits(Release("0.2.1"), Release("0.3.0")),
            (Set{"backend ArmBackend", "type EthosU::ExecutionHandle"}));
  EXPECT_EQ(DifferingTraits(Release("1.0.0"), Release("1.0.1")), Set{});
  EXPECT_EQ(DifferingTraits(Release("1.3.0"), Release("1.3.1")), Set{});
  EXPECT_EQ(DifferingTraits(Release("1.3.1"), Release("1.4.0")), Set{"type XNNExecutor"});
  EXPECT_EQ(DifferingTraits(Release("1.4.0"), Release("1.4.1")), Set{"type XNNExecutor"});
  // The comparison itself sees differences: 1.0.1 to 1.1.0 changes much.
  EXPECT_GT(DifferingTraits(Release("1.0.1"), Release("1.1.0")).size(), 3u);
}

TEST(PatchReleases, ListedAsTheReleaseTheyEqual) {
  EXPECT_EQ(Release("0.2.1").summary.rfind("as 0.2.0", 0), 0u) << Release("0.2.1").summary;
  EXPECT_EQ(Release("1.0.1").summary.rfind("as 1.0.0", 0), 0u) << Release("1.0.1").summary;
  EXPECT_EQ(Release("1.3.1").summary.rfind("as 1.3.0", 0), 0u) << Release("1.3.1").summary;
  EXPECT_NE(Release("1.4.0").summary.find("as 1.3.1"), std::string::npos);
  EXPECT_NE(Release("1.4.1").summary.find("as 1.4.0"), std::string::npos);
}

// sizeof(std::shared_ptr) + 2 atomic<bool> (1.4.0), sizeof(std::vector) (1.4.1), each rounded
// to XNNExecutor's alignment: libstdc++ on LP64 (x86_64) and ILP32 (cortex-m).
uint64_t XnnExecutorGrowth(const std::string& target) { return target == "x86_64" ? 24 : 12; }

// `j` (a report's JSON) as at release `to`: its "runtime" and each method's assumption sentence
// ("ExecuTorch 1.0.1, ...") name the release.
void NameRelease(nlohmann::json& j, const std::string& from, const std::string& to) {
  j["runtime"] = to;
  for (nlohmann::json& m : j["methods"])
    if (m.contains("assuming")) {
      std::string s = m["assuming"].get<std::string>();
      const std::string was = "ExecuTorch " + from;
      if (s.starts_with(was)) s = "ExecuTorch " + to + s.substr(was.size());
      m["assuming"] = s;
    }
}

struct Scenario {
  std::string name;
  testing::ProgramBuilder (*make)();
};

std::vector<Scenario> AllScenarios() {
  std::vector<Scenario> out;
  for (const testing::NamedScenario& s : testing::NamedScenarios()) out.push_back({s.name, s.make});
  out.push_back({"delegate_ethos_u", [] { return testing::ProgramWithDelegate("EthosUBackend"); }});
  // The id Ethos-U registers under up to 0.5.
  out.push_back({"delegate_arm", [] { return testing::ProgramWithDelegate("ArmBackend"); }});
  return out;
}

// Every builder scenario, every method, cortex-m and x86_64, with and without a temp allocator
// and a .ptd data map: the whole report of `newer`, with its release name put back to `older`'s,
// equals `older`'s, except that every XNNPACK delegate's init request grows by
// `xnn_growth(target)` bytes (and everything placed after it moves).
void ExpectSameReports(const std::string& older, const std::string& newer, bool xnn_grows,
                       const std::string& skip = "") {
  size_t compared = 0, xnn_requests = 0;
  for (const Scenario& s : AllScenarios()) {
    if (s.name == skip) continue;
    const std::vector<uint8_t> bytes = s.make().Build();
    auto program = pte::ReadProgramBytes(bytes, s.name);
    ASSERT_TRUE(program) << s.name << ": " << program.error().message;
    for (const char* target_name : {"cortex-m", "x86_64"}) {
      const abi::Abi target = *abi::FindBuiltinTarget(target_name);
      const runtime::RuntimeModel a(Release(older), target), b(Release(newer), target);
      for (bool temp : {false, true})
        for (bool map : {false, true}) {
          const std::string what = s.name + " " + target_name + (temp ? " temp" : "") +
                                   (map ? " map" : "") + ": " + older + " vs " + newer;
          report::ReportOptions o;
          o.pool_align = target.malloc_align;
          o.load.temp_allocator = temp;
          o.load.external_data_map = map;
          auto ra = report::BuildReport(*program, a, o);
          auto rb = report::BuildReport(*program, b, o);
          ASSERT_TRUE(ra && rb) << what;
          bool any_xnn = false;
          for (size_t m = 0; m < ra->methods.size(); ++m) {
            const auto& pa = ra->methods[m].plan;
            const auto& pb = rb->methods[m].plan;
            ASSERT_EQ(pa.requests.size(), pb.requests.size()) << what;
            for (size_t i = 0; i < pa.requests.size(); ++i) {
              const auto &x = pa.requests[i], &y = pb.requests[i];
              const bool xnn = x.site == runtime::Site::kBackendInit &&
                               pa.backend_types[static_cast<size_t>(x.subject)] == "XNNExecutor";
              any_xnn |= xnn;
              xnn_requests += xnn;
              EXPECT_EQ(y.size, x.size + (xnn && xnn_grows ? XnnExecutorGrowth(target_name) : 0))
                  << what << " request " << i;
              EXPECT_EQ(x.align, y.align) << what << " request " << i;
              EXPECT_EQ(x.site, y.site) << what << " request " << i;
              EXPECT_EQ(x.pool, y.pool) << what << " request " << i;
            }
          }
          if (any_xnn && xnn_grows) continue;  // the rest of the report moves with it
          nlohmann::json ja = report::ToJson(*ra), jb = report::ToJson(*rb);
          ASSERT_EQ(jb["runtime"], newer);
          NameRelease(jb, newer, older);
          // The verdict's words name the release ("where"): the verdicts themselves must agree.
          ja.erase("verdict_detail");
          jb.erase("verdict_detail");
          EXPECT_EQ(ja, jb) << what;
          ++compared;
        }
    }
  }
  EXPECT_GT(compared, 40u);
  EXPECT_GT(xnn_requests, 0u);  // the scenarios do exercise XNNPACK
}

// 0.1.0 against 0.2.0 on every builder scenario: a program with constants in a segment is
// refused at its first constant (InvalidArgument, after that tensor's TensorImpl); XNNPACK is
// unknown; everything else gives 0.2.0's report.
TEST(PatchReleases, ZeroOneDiffersFromZeroTwoOnlyInConstantsAndXnnpack) {
  size_t same = 0, refused = 0;
  for (const Scenario& s : AllScenarios()) {
    const std::vector<uint8_t> bytes = s.make().Build();
    auto program = pte::ReadProgramBytes(bytes, s.name);
    ASSERT_TRUE(program) << s.name;
    for (const char* target_name : {"cortex-m", "x86_64"}) {
      const abi::Abi target = *abi::FindBuiltinTarget(target_name);
      const runtime::RuntimeModel a(Release("0.1.0"), target), b(Release("0.2.0"), target);
      report::ReportOptions o;
      o.pool_align = target.malloc_align;
      auto ra = report::BuildReport(*program, a, o);
      auto rb = report::BuildReport(*program, b, o);
      ASSERT_TRUE(ra && rb);
      bool differs = false;
      for (size_t k = 0; k < ra->methods.size(); ++k) {
        const auto& m = *ra->methods[k].method;
        int64_t first_constant = -1;  // value index of the first tensor with a data index
        for (size_t v = 0; v < m.values.size() && first_constant < 0; ++v)
          if (m.values[v].kind == pte::ValueKind::kTensor && m.tensors[m.values[v].index].data_index > 0)
            first_constant = static_cast<int64_t>(v);
        const auto& pa = ra->methods[k].plan;
        const auto& pb = rb->methods[k].plan;
        // A value both releases refuse before any constant (DYNAMIC_UNBOUND): the same refusal.
        const bool refused_before = pb.refusal && !pb.requests.empty() &&
                                    pb.requests.back().subject < first_constant;
        if (first_constant >= 0 && program->inline_constant_buffers == 0 && !refused_before) {
          ASSERT_TRUE(pa.refusal.has_value()) << s.name;
          EXPECT_EQ(pa.refusal->error, "InvalidArgument") << s.name;
          ASSERT_FALSE(pa.requests.empty());
          EXPECT_EQ(pa.requests.back().site, runtime::Site::kTensorImpl) << s.name;
          EXPECT_EQ(pa.requests.back().subject, first_constant) << s.name;
          for (size_t i = 0; i < pa.requests.size(); ++i) EXPECT_EQ(pa.requests[i].size, pb.requests[i].size);
          differs = true;
          ++refused;
        } else if (!pb.backend_types.empty()) {
          differs = true;  // XNNPACK: unknown on 0.1.0, one XNNExecutor on 0.2.0
          EXPECT_FALSE(pa.unknowns.empty()) << s.name;
        }
      }
      if (differs) continue;
      nlohmann::json ja = report::ToJson(*ra), jb = report::ToJson(*rb);
      NameRelease(ja, ja["runtime"].get<std::string>(), rb->assumptions.runtime);
      ja.erase("verdict_detail");  // names the release; the verdicts themselves are compared
      jb.erase("verdict_detail");
      // The flash split names the constant segment "not read" on 0.1.0.
      ja.erase("flash");
      jb.erase("flash");
      // While running: 0.1.0 resets no temp allocator between instructions (kernels/run_temp.h).
      for (nlohmann::json* j : {&ja, &jb})
        for (nlohmann::json& m : (*j)["methods"])
          if (m.contains("temp_allocator")) m["temp_allocator"].erase("run");
      EXPECT_EQ(ja, jb) << s.name << " " << target_name;
      ++same;
    }
  }
  EXPECT_GT(refused, 5u);
  EXPECT_GT(same, 3u);  // cnn_inline_constants and the programs without constants
}

TEST(PatchReleases, ZeroTwoOneGivesZeroTwoZerosReportOnEveryScenario) {
  ExpectSameReports("0.2.0", "0.2.1", false);
}

TEST(PatchReleases, ZeroThreeZeroDiffersFromZeroTwoOneOnlyInTheArmHandle) {
  ExpectSameReports("0.2.1", "0.3.0", false, "delegate_arm");
  const std::vector<uint8_t> bytes = testing::ProgramWithDelegate("ArmBackend").Build();
  auto program = pte::ReadProgramBytes(bytes, "delegate_arm");
  ASSERT_TRUE(program) << program.error().message;
  for (const char* target_name : {"cortex-m", "x86_64"}) {
    const abi::Abi target = *abi::FindBuiltinTarget(target_name);
    const runtime::RuntimeModel a(Release("0.2.1"), target), b(Release("0.3.0"), target);
    const auto pa = runtime::PlanMethodLoad(*program, program->methods[0], a, {});
    const auto pb = runtime::PlanMethodLoad(*program, program->methods[0], b, {});
    ASSERT_EQ(pb.requests.size(), pa.requests.size() + 1) << target_name;
    size_t j = 0;  // walks pa
    for (size_t i = 0; i < pb.requests.size(); ++i) {
      const auto& y = pb.requests[i];
      if (y.site == runtime::Site::kBackendInit) {
        EXPECT_EQ(pb.backend_types[static_cast<size_t>(y.subject)], "EthosU::ExecutionHandle");
        EXPECT_EQ(y.size, target.pointer.size * 2u) << target_name;  // {pointer, bool}, padded
        continue;
      }
      ASSERT_LT(j, pa.requests.size());
      EXPECT_EQ(y.size, pa.requests[j].size) << target_name << " request " << i;
      EXPECT_EQ(y.site, pa.requests[j].site) << target_name << " request " << i;
      ++j;
    }
    EXPECT_TRUE(pa.exact() && pb.exact());
  }
}

TEST(PatchReleases, OneZeroOneGivesOneZeroZerosReportOnEveryScenario) {
  ExpectSameReports("1.0.0", "1.0.1", false);
}

TEST(PatchReleases, OneThreeOneGivesOneThreeZerosReportOnEveryScenario) {
  ExpectSameReports("1.3.0", "1.3.1", false);
}

TEST(PatchReleases, OneFourZeroDiffersFromOneThreeOneOnlyInXnnpacksExecutor) {
  ExpectSameReports("1.3.1", "1.4.0", true);
}

TEST(PatchReleases, OneFourOneDiffersFromOneFourZeroOnlyInXnnpacksExecutor) {
  ExpectSameReports("1.4.0", "1.4.1", true);
}

}  // namespace patch_releases_test
}  // namespace etmem
