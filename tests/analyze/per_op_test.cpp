// Owns: the tests of `etmem analyze --per-op` (analysis/per_op.h, api::PerOp): the seed CNN's table
// adds up to the method's totals as analyze reports them (builder's and, when ../shared has it, the
// real one); each row's live sum equals a scan of the live ranges over builder programs with loops,
// several chains, several methods and delegates; the topk rows carry the run-time temp calls;
// sorting; every format on the command line, and bad --sort / --per-op input.
#include "etmem/analysis/per_op.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>

#include "etmem/api/internal.h"
#include "etmem/etmem.h"
#include "etmem/report/per_op_render.h"
#include "etmem/plan/lifetimes.h"
#include "etmem/testing/scenarios.h"
#include "etmem_cli.h"

namespace etmem {
namespace per_op_test {

using test::fs::path;

// The seed CNN's table against analyze's figures.
void ExpectTheTableAddsUp(const path& file) {
  const api::Report r = api::Analyze(file.string());
  const std::vector<api::PerOpMethod> tables = api::PerOp(r);
  const std::vector<api::MethodSummary> methods = r.methods();
  ASSERT_EQ(tables.size(), methods.size());
  const report::Report& internal = api::Internal(r);
  for (size_t m = 0; m < tables.size(); ++m) {
    const api::PerOpMethod& t = tables[m];
    SCOPED_TRACE(t.name);
    EXPECT_EQ(t.name, methods[m].name);
    EXPECT_FALSE(t.refusal);
    // One row per instruction, in execution order.
    ASSERT_EQ(t.rows.size(), internal.methods[m].counts.instructions);
    for (size_t i = 0; i < t.rows.size(); ++i) EXPECT_EQ(t.rows[i].index, i);
    // Planned: the plan's size is analyze's planned figure; the peak live sum is the largest row
    // and at most the plan's size.
    uint64_t peak = 0, temp_peak = 0, column = 0;
    for (const api::PerOpRow& row : t.rows) {
      peak = std::max(peak, row.live_planned_bytes);
      temp_peak = std::max(temp_peak, row.temp_bytes);
      column += row.constant_bytes;
      EXPECT_FALSE(row.stack_bytes) << "no image: no stack figure";
      if (row.kind == "kernel call") EXPECT_EQ(row.library, "portable") << row.op;
    }
    EXPECT_EQ(t.totals.planned_bytes, methods[m].planned_bytes);
    EXPECT_EQ(t.totals.peak_live_planned_bytes, peak);
    EXPECT_GT(peak, 0u);
    EXPECT_LE(peak, t.totals.planned_bytes);
    // Temp: the largest row is the run-time temp peak.
    EXPECT_FALSE(t.totals.temp_summed);
    EXPECT_EQ(t.totals.temp_peak_bytes, temp_peak);
    EXPECT_EQ(t.totals.temp_peak_bytes, methods[m].temp_run_peak_bytes);
    EXPECT_EQ(t.totals.temp_unknown_rows, 0u);
    // Constants: the column's sum, each constant once = every constant tensor of the method
    // (the CNN's instructions read all of them), and within the constant segment.
    EXPECT_EQ(t.totals.constant_column_bytes, column);
    EXPECT_EQ(t.totals.constant_bytes, t.totals.method_constant_bytes);
    EXPECT_EQ(t.totals.constants, t.totals.method_constants);
    EXPECT_GT(t.totals.constant_bytes, 0u);
    const uint64_t segment =
        internal.flash.segment_constant_bytes + internal.flash.inline_constant_bytes;
    EXPECT_LE(t.totals.constant_bytes, segment);
    // What the segment holds beyond the data is the padding between entries: less than the
    // segment's alignment per constant (ExecuTorch's exporter aligns each to 16 B).
    EXPECT_LT(segment - t.totals.constant_bytes, 16u * (t.totals.constants + 1));
  }
}

TEST(PerOp, TheBuildersSeedCnnAddsUpToAnalyze) { ExpectTheTableAddsUp(test::MotivatingCnnFile()); }

TEST(PerOp, TheExampleSeedCnnAddsUpToAnalyze) {
  const path example =
      path(ETMEM_BINARY).parent_path().parent_path().parent_path() / "examples" / "cnn.pte";
  if (!test::fs::exists(example)) GTEST_SKIP() << example << " not built (etmem_examples)";
  ExpectTheTableAddsUp(example);
}

TEST(PerOp, TheRealSeedCnnAddsUpToAnalyze) {
  const path real = test::RealModel("cnn_trained_2025-04-04_34b7e8d");
  if (!test::fs::exists(real))
    GTEST_SKIP() << "the real program is not in ../shared (" << real << ")";
  ExpectTheTableAddsUp(real);
}

// Each row's live sum (and per memory id) against a scan of every planned storage.
void ExpectLiveIsTheScan(const testing::ProgramBuilder& builder, const std::string& name) {
  const path file = test::WriteScenario(builder, name);
  api::Options o;
  o.runtime = "1.4.1";
  const api::Report r = api::Analyze(file.string(), o);
  const std::vector<api::PerOpMethod> tables = api::PerOp(r);
  const report::Report& internal = api::Internal(r);
  ASSERT_EQ(tables.size(), internal.methods.size());
  for (size_t m = 0; m < tables.size(); ++m) {
    SCOPED_TRACE(name + " " + tables[m].name);
    if (internal.methods[m].plan.refusal) continue;
    auto lifetimes = plan::ComputeLifetimes(*internal.methods[m].method);
    ASSERT_TRUE(lifetimes.has_value());
    const std::vector<plan::Storage> storages = plan::Storages(*lifetimes);
    std::set<uint32_t> ids;
    for (const plan::Storage& s : storages)
      if (s.used) ids.insert(s.memory_id);
    std::map<uint32_t, uint64_t> peak_by_id;
    for (const api::PerOpRow& row : tables[m].rows) {
      std::map<uint32_t, uint64_t> by_id;
      uint64_t sum = 0;
      for (const plan::Storage& s : storages)
        if (s.used && s.first <= static_cast<int64_t>(row.index) &&
            static_cast<int64_t>(row.index) <= s.last) {
          sum += s.bytes;
          by_id[s.memory_id] += s.bytes;
        }
      EXPECT_EQ(row.live_planned_bytes, sum) << "instruction " << row.index;
      for (const auto& [id, bytes] : by_id) peak_by_id[id] = std::max(peak_by_id[id], bytes);
      if (ids.size() > 1) {
        ASSERT_EQ(row.live_planned_by_memory_id.size(), ids.size());
        for (const api::PerOpBytes& b : row.live_planned_by_memory_id)
          EXPECT_EQ(b.bytes, by_id[b.memory_id]) << "memory id " << b.memory_id;
      } else {
        EXPECT_TRUE(row.live_planned_by_memory_id.empty());
      }
    }
    // Each memory id's own peak, over the instructions.
    ASSERT_EQ(tables[m].totals.peak_live_planned_by_memory_id.size(), ids.size());
    for (const api::PerOpBytes& b : tables[m].totals.peak_live_planned_by_memory_id)
      EXPECT_EQ(b.bytes, peak_by_id[b.memory_id]) << "memory id " << b.memory_id;
  }
}

TEST(PerOp, LiveBytesAreAScanOfTheLiveRanges) {
  ExpectLiveIsTheScan(testing::MotivatingCnn(), "per_op_cnn");
  ExpectLiveIsTheScan(testing::ProgramWithControlFlow(), "per_op_control_flow");
  ExpectLiveIsTheScan(testing::ProgramWithTwoMethods(), "per_op_two_methods");
  ExpectLiveIsTheScan(testing::ProgramWithEveryValueKind(), "per_op_every_value_kind");
  ExpectLiveIsTheScan(testing::LstmLike(2), "per_op_lstm");
  for (const testing::NamedScenario& s : testing::NamedScenarios())
    ExpectLiveIsTheScan(s.make(), std::string("per_op_named_") + s.name);
}

// Every other scenario (faulty methods, refusals, temp, acceptance): a table or one error line
// naming the file, never a crash.
TEST(PerOp, EveryScenarioGivesATableOrOneLine) {
  for (auto scenarios : {testing::MethodScenarios(), testing::RefusalScenarios(),
                         testing::TempScenarios(), testing::AcceptanceScenarios(),
                         testing::ExecutableScenarios()})
    for (const testing::NamedScenario& s : scenarios) {
      const std::string name = std::string("per_op_scenario_") + s.name;
      try {
        ExpectLiveIsTheScan(s.make(), name);
      } catch (const api::Error& e) {
        const std::string what = e.what();
        EXPECT_NE(what.find(name), std::string::npos) << what;
        EXPECT_EQ(what.find('\n'), std::string::npos) << what;
      }
    }
}

TEST(PerOp, KindsAndDelegatesAreNamed) {
  const path file = test::WriteScenario(testing::ProgramWithControlFlow(), "per_op_kinds");
  const std::vector<api::PerOpMethod> t = api::PerOp(api::Analyze(file.string()));
  std::set<std::string> kinds;
  for (const api::PerOpRow& r : t[0].rows) {
    kinds.insert(r.kind);
    if (r.kind != "kernel call" && r.kind != "delegate call") {
      EXPECT_TRUE(r.op.empty());
      EXPECT_TRUE(r.library.empty());
      EXPECT_EQ(r.temp_bytes, 0u);
    }
  }
  EXPECT_TRUE(kinds.contains("move"));
  EXPECT_TRUE(kinds.contains("jump"));
  EXPECT_TRUE(kinds.contains("free"));

  const path d =
      test::WriteScenario(testing::ProgramWithDelegate("XnnpackBackend"), "per_op_delegate");
  const std::vector<api::PerOpMethod> dt = api::PerOp(api::Analyze(d.string()));
  bool delegate = false;
  for (const api::PerOpRow& r : dt[0].rows)
    if (r.kind == "delegate call") {
      delegate = true;
      EXPECT_EQ(r.library, "XnnpackBackend");
      EXPECT_NE(r.op.find("XnnpackBackend"), std::string::npos) << r.op;
    }
  EXPECT_TRUE(delegate);
}

// The builder's topk: the three topk.values rows carry their run-time temp requests, the largest
// (in the middle) is the run-time peak, and --sort temp puts it first.
TEST(PerOp, TopkRowsCarryTheirTempRequests) {
  const path file = test::WriteScenario(testing::NamedScenarioProgram("topk"), "per_op_topk");
  api::Options o;
  o.runtime = "1.4.1";
  const api::Report r = api::Analyze(file.string(), o);
  const report::Report& internal = api::Internal(r);
  const std::vector<api::PerOpMethod> t = api::PerOp(r);
  ASSERT_EQ(t.size(), 1u);
  std::map<size_t, uint64_t> expected;
  for (const kernels::CallTemp& c : internal.methods[0].run_temp.calls)
    expected[c.instruction] = c.pool_bytes;
  ASSERT_EQ(expected.size(), 3u);
  size_t asking = 0;
  for (const api::PerOpRow& row : t[0].rows) {
    const auto it = expected.find(row.index);
    EXPECT_EQ(row.temp_bytes, it == expected.end() ? 0 : it->second) << row.index;
    if (row.temp_bytes) {
      ++asking;
      EXPECT_EQ(row.op, "aten::topk.values");
      EXPECT_EQ(row.library, "portable");
    }
  }
  EXPECT_EQ(asking, 3u);
  EXPECT_EQ(t[0].totals.temp_peak_bytes, r.methods()[0].temp_run_peak_bytes);
  EXPECT_GT(t[0].totals.temp_peak_bytes, 0u);

  const std::vector<api::PerOpMethod> sorted = api::PerOp(r, "temp");
  EXPECT_EQ(sorted[0].sorted_by, "temp");
  ASSERT_EQ(sorted[0].rows.size(), t[0].rows.size());
  EXPECT_EQ(sorted[0].rows[0].temp_bytes, t[0].totals.temp_peak_bytes);
  for (size_t i = 1; i < sorted[0].rows.size(); ++i) {
    EXPECT_GE(sorted[0].rows[i - 1].temp_bytes, sorted[0].rows[i].temp_bytes);
    if (sorted[0].rows[i - 1].temp_bytes == sorted[0].rows[i].temp_bytes)
      EXPECT_LT(sorted[0].rows[i - 1].index, sorted[0].rows[i].index) << "ties in execution order";
  }
  // Before topk was registered (0.3.0), the library column says no chosen library has it.
  o.runtime = "0.3.0";
  const std::vector<api::PerOpMethod> old = api::PerOp(api::Analyze(file.string(), o));
  for (const api::PerOpRow& row : old[0].rows)
    if (row.op == "aten::topk.values") EXPECT_EQ(row.library, "") << "0.3.0's portable lacks topk";
}

TEST(PerOp, SortByLiveAndConstantIsLargestFirst) {
  const api::Report r = api::Analyze(test::MotivatingCnnFile().string());
  for (const std::string column : {"live", "constant"}) {
    const std::vector<api::PerOpMethod> t = api::PerOp(r, column);
    auto value = [&](const api::PerOpRow& row) {
      return column == "live" ? row.live_planned_bytes : row.constant_bytes;
    };
    for (size_t i = 1; i < t[0].rows.size(); ++i)
      EXPECT_GE(value(t[0].rows[i - 1]), value(t[0].rows[i])) << column;
  }
  EXPECT_THROW(api::PerOp(r, "bogus"), api::Error);
}

// The stack column's slot: empty from analyze; what the stack stage fills (FillPerOpStack) is
// sorted on, totalled as the largest row and printed. The figures here are placeholders of the
// test, not stack sizes.
TEST(PerOp, TheStackSlotIsFilledOnlyByAnImage) {
  const api::Report r = api::Analyze(test::MotivatingCnnFile().string());
  const report::Report& internal = api::Internal(r);
  auto built = report::BuildPerOp(internal);
  ASSERT_TRUE(built.has_value());
  report::PerOpTable& t = (*built)[0];
  EXPECT_FALSE(t.totals.stack_bytes);
  EXPECT_NE(report::PerOpText(internal, *built).find("stack: not computed"), std::string::npos);
  report::FillPerOpStack(
      t,
      [](const report::PerOpRow& row) -> std::optional<uint64_t> {
        if (row.index == 3) return std::nullopt;  // not known for this row
        return 100 + row.index;
      },
      "test placeholder");
  EXPECT_EQ(t.totals.stack_bytes, 100u + t.rows.size() - 1);
  EXPECT_FALSE(t.rows[3].stack_bytes);
  report::SortPerOp(t, report::PerOpColumn::kStack);
  EXPECT_EQ(t.rows.front().stack_bytes, t.totals.stack_bytes);
  EXPECT_FALSE(t.rows.back().stack_bytes) << "rows without a figure last";
  const std::string text = report::PerOpText(internal, *built);
  EXPECT_NE(text.find("stack: " + std::to_string(*t.totals.stack_bytes) + " B, the largest row"),
            std::string::npos)
      << text;
  const nlohmann::json j = nlohmann::json::parse(report::PerOpJson(internal, *built));
  EXPECT_EQ(j.at("per_op")[0].at("totals").at("stack_bytes"), *t.totals.stack_bytes);
}

TEST(PerOp, EveryFormatOnTheCommandLine) {
  const std::string cnn = test::MotivatingCnnFile().string();
  const api::Report r = api::Analyze(cnn);
  const std::vector<api::PerOpMethod> t = api::PerOp(r);
  const size_t rows = t[0].rows.size();

  const test::CliRun text = test::Etmem("analyze " + cnn + " --per-op");
  EXPECT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("Per-operator table: method 'forward'"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("aten::convolution.out"), std::string::npos);
  EXPECT_NE(
      text.out.find("peak live planned: " + std::to_string(t[0].totals.peak_live_planned_bytes)),
      std::string::npos);
  EXPECT_NE(text.out.find("stack: not computed"), std::string::npos);
  EXPECT_EQ(text.out, api::RenderPerOp(r, api::Format::kText));

  const test::CliRun json = test::Etmem("analyze " + cnn + " --per-op --format json --sort live");
  EXPECT_EQ(json.exit_code, 0) << json.err;
  const nlohmann::json j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j.at("schema"), api::kJsonSchema);
  EXPECT_EQ(j.at("verdict"), "fits");
  ASSERT_EQ(j.at("per_op").size(), 1u);
  const nlohmann::json& m = j.at("per_op")[0];
  EXPECT_EQ(m.at("method"), "forward");
  EXPECT_EQ(m.at("sorted_by"), "live");
  ASSERT_EQ(m.at("rows").size(), rows);
  EXPECT_EQ(m.at("rows")[0].at("live_planned_bytes"), t[0].totals.peak_live_planned_bytes);
  EXPECT_TRUE(m.at("rows")[0].at("stack_bytes").is_null());
  EXPECT_EQ(m.at("totals").at("temp_peak_bytes"), t[0].totals.temp_peak_bytes);
  EXPECT_EQ(m.at("totals").at("constant_bytes"), t[0].totals.constant_bytes);
  EXPECT_EQ(m.at("totals").at("planned_bytes"), t[0].totals.planned_bytes);

  const test::CliRun csv = test::Etmem("analyze " + cnn + " --per-op --format csv");
  EXPECT_EQ(csv.exit_code, 0) << csv.err;
  EXPECT_EQ(static_cast<size_t>(std::count(csv.out.begin(), csv.out.end(), '\n')), rows + 2)
      << "a header, a line per instruction, a total line";
  EXPECT_TRUE(csv.out.starts_with("method,index,")) << csv.out;
  EXPECT_NE(csv.out.find("\nforward,total,"), std::string::npos);

  const test::CliRun md = test::Etmem("analyze " + cnn + " --per-op --format md --sort constant");
  EXPECT_EQ(md.exit_code, 0) << md.err;
  EXPECT_NE(md.out.find("| # | chain:instr | kind |"), std::string::npos) << md.out;
  EXPECT_NE(md.out.find("sorted by constant"), std::string::npos);
}

TEST(PerOp, BadInputIsOneLine) {
  const std::string cnn = test::MotivatingCnnFile().string();
  const test::CliRun sort = test::Etmem("analyze " + cnn + " --per-op --sort bogus");
  EXPECT_EQ(sort.exit_code, 2);
  EXPECT_NE(sort.err.find("--sort"), std::string::npos) << sort.err;
  const test::CliRun alone = test::Etmem("analyze " + cnn + " --sort live");
  EXPECT_EQ(alone.exit_code, 2) << "--sort needs --per-op";
  const test::CliRun all = test::Etmem("analyze " + cnn + " --per-op --runtime all");
  EXPECT_EQ(all.exit_code, 2);
  EXPECT_NE(all.err.find("--per-op"), std::string::npos) << all.err;
  EXPECT_EQ(std::count(all.err.begin(), all.err.end(), '\n'), 1) << all.err;
}

// A method the release refuses has no rows, and says why (exit 1 as analyze's).
TEST(PerOp, ARefusedMethodHasNoRows) {
  const path file = test::WriteScenario(testing::MotivatingCnn(), "per_op_refused");
  api::Options o;
  o.runtime = "0.1.0";
  const api::Report r = api::Analyze(file.string(), o);
  const std::vector<api::MethodSummary> methods = r.methods();
  ASSERT_TRUE(methods[0].refusal) << "0.1.0 refuses the CNN (docs/json.md)";
  const std::vector<api::PerOpMethod> t = api::PerOp(r);
  ASSERT_EQ(t.size(), methods.size());
  EXPECT_EQ(t[0].refusal.has_value(), true);
  EXPECT_TRUE(t[0].rows.empty());
  const test::CliRun cli = test::Etmem("analyze " + file.string() + " --runtime 0.1.0 --per-op");
  EXPECT_EQ(cli.exit_code, 1) << "a refusal exits 1, as analyze does";
  EXPECT_NE(cli.out.find("refused: "), std::string::npos) << cli.out;
}

}  // namespace per_op_test
}  // namespace etmem
