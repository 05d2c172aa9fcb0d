// Fitted programs on the real ExecuTorch runtime. tests/measured/x86_64_fitted_programs.json
// holds what the real portable runtime of every modelled release did with each program
// `etmem fit` wrote for a small three-region board (how: its "how_measured" field), next to the
// original. This test fits the same programs onto the same boards again, in process, requires
// the same bytes (sha256), and holds etmem to the measurements: the fitted program loads as the
// original did, with an identical method-allocator trace, the planned buffer sizes the runtime
// reported (one span per memory id) are etmem's parts, and etmem's model of the fitted program
// gives the measured method-pool total, call count and temp peak.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>

#include "etmem/abi/abi.h"
#include "etmem/api/internal.h"
#include "etmem/base/checked_math.h"
#include "etmem/base/sha256.h"
#include "etmem/board/fit_program.h"
#include "etmem/plan/rewrite.h"
#include "etmem/pte/mapped_file.h"
#include "etmem/pte/read_program.h"
#include "etmem/analysis/report.h"
#include "etmem/testing/scenarios.h"
#include "etmem_cli.h"
#include "measured.h"

namespace etmem {
namespace measured_fit_test {

using nlohmann::json;

const json& Measured() {
  static const json kMeasured = test::ReadMeasured("x86_64_fitted_programs.json");
  return kMeasured;
}

// The board the measurement used (see how_measured): POOL holds the method pool (plus 64,
// rounded up to 256), A and B each 60% of the largest planned buffer (rounded up to 256, at
// least 256), so that buffer fits neither whole.
board::Board SmallBoard(const api::Report& r, const pte::ProgramView& p) {
  const uint64_t method = r.methods().front().method_pool_bytes;
  int64_t largest = 0;
  const auto& sizes = p.methods.front().planned_buffer_sizes;
  for (size_t i = 1; i < sizes.size(); ++i) largest = std::max(largest, sizes[i]);
  const uint64_t half =
      std::max<uint64_t>(256, AlignUp((static_cast<uint64_t>(largest) * 6 + 9) / 10, 256));
  board::Board b;
  b.name = "small-split";
  b.regions = {{"POOL", std::nullopt, AlignUp(method + 64, 256), 8, "", {}, ""},
               {"A", std::nullopt, half, 8, "", {}, ""},
               {"B", std::nullopt, half, 8, "", {}, ""}};
  return b;
}

struct Fitted {
  pte::ProgramView original;
  std::vector<uint8_t> bytes;
  pte::ProgramView fitted;
};

const Fitted& Programs(const json& e) {
  static std::map<std::string, Fitted> cache;
  const std::string name = e["program"];
  const std::string key = e["program_set"].get<std::string>() + "." + name;
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  const api::Program program = test::MeasuredProgram(e);
  api::Options o;
  o.runtime = "1.4";
  o.temp = "null";
  const api::Report report = api::Analyze(program, o);
  const board::Board b = SmallBoard(report, api::Internal(program));
  auto fit = board::FitProgram(api::Internal(report), b);
  EXPECT_TRUE(fit) << key;
  Fitted f;
  f.original = *pte::ReadProgramBytes(api::Internal(program).file->bytes(), name);
  if (fit && fit->edit) {
    auto bytes = plan::RewritePlan(api::Internal(program), {*fit->edit});
    EXPECT_TRUE(bytes) << key;
    if (bytes) f.bytes = *bytes;
  } else {
    std::span<const uint8_t> in = api::Internal(program).file->bytes();
    f.bytes.assign(in.begin(), in.end());
  }
  f.fitted = *pte::ReadProgramBytes(f.bytes, name + " (fitted)");
  return cache[key] = std::move(f);
}

std::vector<int64_t> MetaSizes(const pte::MethodView& m) {
  return {m.planned_buffer_sizes.begin() + 1, m.planned_buffer_sizes.end()};
}

size_t MethodCalls(const report::MethodReport& m) {
  return static_cast<size_t>(
      std::count_if(m.plan.requests.begin(), m.plan.requests.end(),
                    [](const auto& r) { return r.pool == runtime::PoolKind::kMethod; }));
}

TEST(FittedOnRealRuntime, EtmemMatchesWhatTheRuntimeMeasured) {
  const bool have_real = test::HaveRealModels();
  size_t compared = 0, split = 0, loaded = 0;
  for (const json& e : Measured()["results"]) {
    if (e["program_set"] != "builder" && !have_real) continue;
    if (!e.contains("method")) continue;  // the program itself is refused (both alike)
    const std::string what = e["tag"].get<std::string>() + " " + e["program"].get<std::string>() +
                             " " + e["method"].get<std::string>() + " temp " +
                             e["temp"].get<std::string>();
    const Fitted& f = Programs(e);
    ASSERT_EQ(Sha256Hex(f.bytes), e["fitted_sha256"])
        << what << ": etmem fit writes other bytes now";
    EXPECT_TRUE(e["trace_identical_to_original"].get<bool>()) << what;
    EXPECT_TRUE(e["temp_trace_identical_to_original"].get<bool>()) << what;
    EXPECT_EQ(e["load_error_code"], e["original_load_error_code"]) << what;
    const pte::MethodView* method = f.fitted.FindMethod(e["method"].get<std::string>());
    ASSERT_NE(method, nullptr) << what;
    EXPECT_EQ(json(MetaSizes(*method)), e["planned_buffer_sizes"]) << what;
    const report::Report r = test::AnalyzeAsStubHarness(f.fitted, e);
    const report::MethodReport& m = r.methods.front();
    if (e["load_error_code"] != 0) {
      EXPECT_TRUE(m.plan.refusal.has_value()) << what;
    } else {
      EXPECT_FALSE(m.plan.refusal.has_value()) << what;
      EXPECT_EQ(m.method_bytes, e["total_bytes"].get<uint64_t>()) << what;
      EXPECT_EQ(MethodCalls(m), e["n_calls"].get<size_t>()) << what;
      EXPECT_EQ(m.temp_load_peak_bytes, e["temp_peak_bytes"].get<uint64_t>()) << what;
      ++loaded;
    }
    split += e["split"].get<bool>() &&
             e["planned_buffer_sizes"].size() > e["original_planned_buffer_sizes"].size();
    ++compared;
  }
  EXPECT_GT(compared, 200u);
  // Most runs load a program whose plan really was split (96 of the builder's alone).
  EXPECT_GT(split, have_real ? 100u : 90u);
  EXPECT_GT(loaded, 150u);
  if (!have_real)
    GTEST_LOG_(INFO) << "../shared/models/real absent: the fitted real programs are skipped";
}

}  // namespace measured_fit_test
}  // namespace etmem
