// Owns: the one verdict (src/etmem/analysis/verdict.h) as every verb shows it: the exit status
// (0 fits, 1 does not fit or refused, 2 could not judge), the JSON's top-level "schema",
// "verdict" and "verdict_detail", the verdict at every published release beside a default one,
// and `--runtime all` with a release that refuses (one object, one line on stderr, a row with no
// bytes). Programs from the builder; every figure compared is read from etmem's own output at
// another setting, never typed in.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <sstream>

#include "etmem/etmem.h"
#include "etmem/testing/scenarios.h"
#include "etmem_cli.h"

namespace etmem::test {
namespace verdict_test {

using nlohmann::json;

json Json(const CliRun& r) {
  EXPECT_FALSE(r.out.empty()) << r.err;
  return json::parse(r.out, nullptr, /*allow_exceptions=*/false);
}

size_t Lines(const std::string& s) { return std::count(s.begin(), s.end(), '\n'); }

fs::path Topk() { return WriteScenario(testing::NamedScenarioProgram("topk"), "verdict_topk"); }

// The temp pool a configuration needs: the larger of its load and run-time peaks, as analyze's
// JSON gives it.
uint64_t TempPoolNeeded(const fs::path& p, const std::string& options) {
  const CliRun r = Etmem("analyze " + p.string() + " --format json " + options);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  const json j = Json(r);
  const json& t = j.at("methods").at(0).at("temp_allocator");
  EXPECT_GT(t.at("run").at("peak_bytes").get<uint64_t>(), t.at("load_peak_bytes").get<uint64_t>())
      << "the test wants the run-time peak to set the pool";
  return t.at("pool_bytes").get<uint64_t>();
}

// The bug of issue 37: a temp pool one byte below the run-time request printed "DOES NOT FIT"
// and exited 0, in analyze, with --pool, with --runner and in summary.
TEST(Verdict, ATempPoolOneByteBelowTheRunPeakExitsOneEverywhere) {
  const fs::path p = Topk();
  for (const std::string& config : {std::string("--temp nonnull"),
                                    std::string("--temp nonnull --pool 100000"),
                                    std::string("--runner arm-baremetal")}) {
    const uint64_t need = TempPoolNeeded(p, config);
    const std::string below = config + " --temp-pool " + std::to_string(need - 1);
    const std::string at = config + " --temp-pool " + std::to_string(need);
    for (const std::string& verb : {std::string("analyze"), std::string("summary")}) {
      if (verb == "summary" && config.find("--pool ") != std::string::npos) continue;  // no --pool
      const CliRun fails = Etmem(verb + " " + p.string() + " " + below);
      EXPECT_EQ(fails.exit_code, 1) << verb << " " << below << "\n" << fails.out << fails.err;
      EXPECT_NE(fails.out.find("DOES NOT FIT"), std::string::npos) << verb << " " << below;
      const CliRun fits = Etmem(verb + " " + p.string() + " " + at);
      EXPECT_EQ(fits.exit_code, 0) << verb << " " << at << "\n" << fits.out << fits.err;
      // The JSON says the same.
      const json j = Json(Etmem(verb + " " + p.string() + " --format json " + below));
      EXPECT_EQ(j.at("schema"), 1);
      EXPECT_EQ(j.at("verdict"), "does_not_fit") << verb << " " << below;
      const std::string step = j.at("verdict_detail").at("step");
      EXPECT_NE(step.find("instruction"), std::string::npos) << step;
      EXPECT_FALSE(j.at("verdict_detail").at("log").empty()) << "the runtime's line";
      EXPECT_EQ(Json(Etmem(verb + " " + p.string() + " --format json " + at)).at("verdict"),
                "fits");
    }
  }
}

// The library's verdict is the one the command line takes its status from.
TEST(Verdict, TheApisVerdictIsTheExitStatus) {
  const fs::path p = Topk();
  const uint64_t need = TempPoolNeeded(p, "--temp nonnull --runtime 1.4.1");
  api::Options o;
  o.runtime = "1.4.1";
  o.temp = "nonnull";
  o.temp_pool = need - 1;
  const api::Report below = api::Analyze(p.string(), o);
  EXPECT_EQ(below.verdict().kind, api::VerdictKind::kDoesNotFit);
  EXPECT_EQ(below.verdict().name(), "does_not_fit");
  EXPECT_EQ(api::ExitStatus(below.verdict()), 1);
  EXPECT_NE(below.verdict().line().find("method 'forward'"), std::string::npos)
      << below.verdict().line();
  o.temp_pool = need;
  const api::Report at = api::Analyze(p.string(), o);
  EXPECT_EQ(at.verdict().kind, api::VerdictKind::kFits);
  EXPECT_EQ(api::ExitStatus(at.verdict()), 0);
  EXPECT_FALSE(at.verdict().judged.empty());
  EXPECT_FALSE(at.default_release().has_value()) << "--runtime given";
}

TEST(Verdict, ABudgetIsPartOfTheVerdict) {
  const fs::path p = MotivatingCnnFile();
  const json j = Json(Etmem("analyze " + p.string() + " --runtime 1.4.1 --budget flash=1 "
                            "--format json"));
  EXPECT_EQ(j.at("verdict"), "does_not_fit");
  EXPECT_NE(j.at("verdict_detail").at("step").get<std::string>().find("over budget"),
            std::string::npos);
  const CliRun r = Etmem("analyze " + p.string() + " --runtime 1.4.1 --budget flash=1");
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_EQ(Lines(r.err), 1u) << r.err;
}

// The releases, in order, with each one's verdict for `options` and its method pool.
struct AtRelease {
  std::string version, verdict;
  uint64_t method_pool = 0;
  std::string error;  // refused: the runtime's error
};
std::vector<AtRelease> EveryRelease(const fs::path& p, const std::string& options) {
  std::vector<AtRelease> out;
  const json all = Json(Etmem("analyze " + p.string() + " --runtime all --format json " + options));
  for (const json& r : all.at("results")) {
    AtRelease a{r.at("runtime"), r.at("verdict")};
    if (a.verdict != "refused")
      a.method_pool = r.at("methods").at(0).at("method_allocator").at("bytes").get<uint64_t>();
    else
      a.error = r.at("methods").at(0).at("load_refused").at("error");
    out.push_back(a);
  }
  return out;
}

// The seed user's question without --runtime: the default (the newest release) loads, and the
// report names every release where the same pool does not, in ranges of consecutive releases.
TEST(Verdict, ADefaultReleaseNeverFlipsTheVerdictSilently) {
  const fs::path p = MotivatingCnnFile();
  const std::vector<AtRelease> every = EveryRelease(p, "--pool 4096");
  ASSERT_GE(every.size(), 10u);
  const AtRelease& newest = every.back();
  ASSERT_EQ(newest.verdict, "fits") << "the seed: 4096 B loads at the newest release";
  // What etmem must say: the runs of consecutive releases whose verdict differs from the
  // newest's (a refusal: with the same error), each with the least and most it needs.
  struct Range {
    std::string first, last, verdict, error;
    uint64_t least = 0, most = 0;
  };
  std::vector<Range> expected;
  for (size_t i = 0; i < every.size(); ++i) {
    const AtRelease& a = every[i];
    if (a.verdict == newest.verdict) continue;
    if (!expected.empty() && i > 0 && expected.back().last == every[i - 1].version &&
        expected.back().verdict == a.verdict && expected.back().error == a.error) {
      expected.back().last = a.version;
      expected.back().least = std::min(expected.back().least, a.method_pool);
      expected.back().most = std::max(expected.back().most, a.method_pool);
      continue;
    }
    expected.push_back({a.version, a.version, a.verdict, a.error, a.method_pool, a.method_pool});
  }
  ASSERT_FALSE(expected.empty());
  const json j = Json(Etmem("analyze " + p.string() + " --pool 4096 --format json"));
  EXPECT_EQ(j.at("runtime"), newest.version);
  EXPECT_EQ(j.at("verdict"), "fits");
  const json& d = j.at("default_release");
  EXPECT_EQ(d.at("runtime"), newest.version);
  ASSERT_EQ(d.at("other_releases").size(), expected.size()) << d.dump();
  for (size_t i = 0; i < expected.size(); ++i) {
    const json& o = d.at("other_releases")[i];
    EXPECT_EQ(o.at("first"), expected[i].first);
    EXPECT_EQ(o.at("last"), expected[i].last);
    EXPECT_EQ(o.at("verdict"), expected[i].verdict);
    if (expected[i].verdict == "does_not_fit") {
      EXPECT_EQ(o.at("min_method_pool_bytes"), expected[i].least);
      EXPECT_EQ(o.at("max_method_pool_bytes"), expected[i].most);
    } else if (expected[i].verdict == "refused") {
      EXPECT_EQ(o.at("refusal").at("error"), expected[i].error);
    }
  }
  // The 0.3 user's device: 0.3.0 lies in a range that does not load, with its own figure.
  const json at03 = Json(Etmem("analyze " + p.string() + " --runtime 0.3 --pool 4096 --format json"));
  EXPECT_EQ(at03.at("verdict"), "does_not_fit");
  EXPECT_FALSE(at03.contains("default_release")) << "--runtime given: nothing to compare";
  bool named = false;
  const uint64_t at03_bytes = at03.at("methods").at(0).at("method_allocator").at("bytes");
  for (const Range& e : expected)
    named |= e.verdict == "does_not_fit" && e.first <= "0.3.0" && "0.3.0" <= e.last &&
             e.least <= at03_bytes && at03_bytes <= e.most;
  EXPECT_TRUE(named);
  // The text says it beside the verdict, in one line ending with what to do.
  const CliRun text = Etmem("analyze " + p.string() + " --pool 4096");
  EXPECT_EQ(text.exit_code, 0) << "the default's verdict: " << text.err;
  const size_t at = text.out.find("Verdict: FITS at " + newest.version + ", the default; ");
  ASSERT_NE(at, std::string::npos) << text.out;
  const std::string line = text.out.substr(at, text.out.find('\n', at) - at);
  for (const Range& e : expected) {
    const std::string range = e.first == e.last ? e.first : e.first + "\u2013" + e.last;
    EXPECT_NE(line.find(" at " + range), std::string::npos) << range << " in: " << line;
    if (e.verdict != "does_not_fit") continue;
    const std::string need = e.least == e.most ? std::to_string(e.least) + " B needed"
                                               : std::to_string(e.least) + "\u2013" +
                                                     std::to_string(e.most) + " B needed";
    EXPECT_NE(line.find(range + " (" + need + ")"), std::string::npos) << need << " in: " << line;
  }
  EXPECT_TRUE(line.ends_with(": pass --runtime")) << line;
  // Nothing judged: no comparison.
  EXPECT_FALSE(Json(Etmem("analyze " + p.string() + " --format json")).contains("default_release"));
}

// --runtime all with a release that refuses the program (0.1.0 knows no constant segment).
TEST(Verdict, RuntimeAllWithARefusingReleaseIsARowWithNoBytes) {
  const fs::path p = MotivatingCnnFile();
  const std::vector<AtRelease> every = EveryRelease(p, "");
  std::vector<std::string> refusing;
  for (const AtRelease& a : every)
    if (a.verdict == "refused") refusing.push_back(a.version);
  ASSERT_FALSE(refusing.empty()) << "the CNN has a constant segment, which 0.1.0 refuses";
  ASSERT_LT(refusing.size(), every.size());
  // JSON: one object, the verdict over all of them.
  const CliRun j = Etmem("analyze " + p.string() + " --runtime all --format json");
  EXPECT_EQ(j.exit_code, 1) << j.err;
  EXPECT_LE(Lines(j.err), 1u) << j.err;
  const json all = Json(j);
  EXPECT_EQ(all.at("schema"), 1);
  EXPECT_EQ(all.at("verdict"), "refused");
  EXPECT_EQ(all.at("results").size(), every.size());
  // A refused method's pool holds no byte count; what was allocated before the refusal is kept
  // apart.
  for (const json& r : all.at("results")) {
    const json& m = r.at("methods").at(0);
    const json& pool = m.at("method_allocator");
    if (m.contains("load_refused")) {
      EXPECT_TRUE(pool.at("bytes").is_null()) << r.at("runtime");
      EXPECT_TRUE(pool.at("high_water_bytes").is_null()) << r.at("runtime");
      EXPECT_TRUE(pool.at("bytes_before_refusal").is_number()) << r.at("runtime");
    } else {
      EXPECT_TRUE(pool.at("bytes").is_number()) << r.at("runtime");
      EXPECT_FALSE(pool.contains("bytes_before_refusal")) << r.at("runtime");
    }
  }
  // Text: exit 1, at most one line on stderr over every release and target.
  const CliRun t = Etmem("analyze " + p.string() + " --runtime all --target all");
  EXPECT_EQ(t.exit_code, 1) << t.err;
  EXPECT_EQ(Lines(t.err), 1u) << t.err;
  EXPECT_NE(t.err.find(refusing.front()), std::string::npos) << t.err;
  std::istringstream rows(t.out);
  std::string row;
  size_t refused_rows = 0;
  while (std::getline(rows, row))
    if (row.rfind(refusing.front() + " ", 0) == 0) {
      ++refused_rows;
      EXPECT_NE(row.find("REFUSED"), std::string::npos) << row;
    }
  EXPECT_GT(refused_rows, 0u);
  // CSV: the refused rows say so and hold no bytes.
  const CliRun c = Etmem("analyze " + p.string() + " --runtime all --format csv");
  EXPECT_EQ(c.exit_code, 1);
  EXPECT_LE(Lines(c.err), 1u);
  std::istringstream lines(c.out);
  std::string header_line;
  std::getline(lines, header_line);
  std::vector<std::string> columns;
  std::stringstream hs(header_line);
  for (std::string cell; std::getline(hs, cell, ',');) columns.push_back(cell);
  auto column = [&](const std::string& name) {
    return static_cast<size_t>(std::find(columns.begin(), columns.end(), name) - columns.begin());
  };
  ASSERT_LT(column("verdict"), columns.size());
  size_t seen = 0;
  for (std::string line; std::getline(lines, line);) {
    // No refusal reason of the CNN holds a comma or quote before the byte columns we read.
    std::vector<std::string> cells;
    std::stringstream ls(line);
    for (std::string cell; std::getline(ls, cell, ',');) cells.push_back(cell);
    ASSERT_GT(cells.size(), column("ram_bytes"));
    const bool refused = std::find(refusing.begin(), refusing.end(), cells[column("runtime")]) !=
                         refusing.end();
    EXPECT_EQ(cells[column("refused")].empty(), !refused) << line;
    EXPECT_EQ(cells[column("method_pool_bytes")].empty(), refused) << line;
    EXPECT_EQ(cells[column("ram_bytes")].empty(), refused) << line;
    EXPECT_EQ(cells[column("temp_load_bytes")].empty(), refused) << line;
    if (cells.size() > column("verdict"))
      EXPECT_EQ(cells[column("verdict")], refused ? "refused" : "fits") << line;
    ++seen;
  }
  EXPECT_EQ(seen, every.size());
  // Without the refusing releases: every release loads, exit 0.
  const CliRun loads = Etmem("analyze " + p.string() + " --runtime " + every.back().version);
  EXPECT_EQ(loads.exit_code, 0) << loads.err;
}

// The CNN as method 0, then a method whose 1 MiB planned buffer no runner pool here holds.
fs::path CnnThenALargeMethod() {
  testing::ProgramBuilder p = testing::MotivatingCnn();
  testing::MethodBuilder& m = p.Method("large");
  constexpr int kElements = 128 * 1024;
  const int x = m.Tensor({.sizes = {1, kElements}, .placement = testing::Placement{1, 0}});
  const int y = m.Tensor(
      {.sizes = {1, kElements}, .placement = testing::Placement{1, uint64_t{kElements} * 4}});
  m.Inputs({x});
  m.Outputs({y});
  m.KernelCall(m.Operator("aten::relu", "out"), {x, y, y});
  m.PlannedBufferSizes({int64_t{kElements} * 8});
  return WriteScenario(p, "verdict_cnn_then_large");
}

// Every built-in runner loads program.get_method_name(0) only: with --runner, analyze and
// header size and judge that method alone and say the other is not judged (issue 37 item 4,
// as firmware does).
TEST(Verdict, WithARunnerOnlyTheMethodItLoadsIsJudged) {
  const fs::path p = CnnThenALargeMethod();
  const std::string runner = " --runtime 1.4.1 --target cortex-m --runner arm-baremetal";
  const json alone = Json(Etmem("analyze " + p.string() + " --format json" + runner));
  ASSERT_EQ(alone.at("methods").size(), 1u) << alone.dump();
  EXPECT_EQ(alone.at("methods").at(0).at("name"), "forward");
  ASSERT_EQ(alone.at("methods_not_judged").size(), 1u);
  EXPECT_EQ(alone.at("methods_not_judged").at(0).at("name"), "large");
  EXPECT_NE(alone.at("methods_not_judged").at(0).at("why").get<std::string>().find(
                "get_method_name(0)"),
            std::string::npos);
  // The runner's method pool is the first method's, so a pool of that size fits.
  uint64_t needed = 0;
  for (const json& pool : alone.at("methods").at(0).at("runner").at("pools"))
    if (pool.at("role") == "method") needed = pool.at("minimum_bytes").get<uint64_t>();
  ASSERT_GT(needed, 0u) << alone.dump();
  const CliRun fits =
      Etmem("analyze " + p.string() + runner + " --pool " + std::to_string(needed));
  EXPECT_EQ(fits.exit_code, 0) << fits.out << fits.err;
  EXPECT_NE(fits.out.find("Not judged: method large: "), std::string::npos) << fits.out;
  // Asked for by name, the other method is judged, with a note that the runner never loads it.
  const CliRun asked = Etmem("analyze " + p.string() + runner + " --method large --format json");
  const json a = Json(asked);
  ASSERT_EQ(a.at("methods").size(), 1u);
  EXPECT_EQ(a.at("methods").at(0).at("name"), "large");
  EXPECT_NE(a.at("notes").dump().find("never this one"), std::string::npos) << a.dump();
  // Without a runner every method is analysed.
  EXPECT_EQ(Json(Etmem("analyze " + p.string() + " --format json --runtime 1.4.1"))
                .at("methods")
                .size(),
            2u);
  // The header sizes the pools for the method the runner loads.
  const CliRun h = Etmem("header " + p.string() + runner);
  EXPECT_EQ(h.exit_code, 0) << h.err;
  EXPECT_EQ(h.out.find("LARGE"), std::string::npos) << h.out;
}

// Every verb's JSON is one object with an integer schema; the judging ones have a verdict.
TEST(Verdict, EveryVerbsJsonHasASchemaAndTheJudgingOnesAVerdict) {
  const fs::path p = MotivatingCnnFile();
  const fs::path two = TwoMethodsFile();
  auto object = [](const CliRun& r, const std::string& what, bool judging) {
    const json j = json::parse(r.out, nullptr, false);
    ASSERT_TRUE(j.is_object()) << what << ": " << r.out.substr(0, 200) << r.err;
    ASSERT_TRUE(j.contains("schema")) << what;
    EXPECT_TRUE(j.at("schema").is_number_integer()) << what;
    EXPECT_EQ(j.at("schema"), api::kJsonSchema) << what;
    if (!judging) return;
    ASSERT_TRUE(j.contains("verdict")) << what;
    const std::string v = j.at("verdict");
    EXPECT_TRUE(v == "fits" || v == "does_not_fit" || v == "refused" || v == "unknown") << what;
    EXPECT_TRUE(j.at("verdict_detail").at("judged").is_array()) << what;
    EXPECT_EQ(api::ExitStatus({v == "fits"           ? api::VerdictKind::kFits
                               : v == "does_not_fit" ? api::VerdictKind::kDoesNotFit
                               : v == "refused"      ? api::VerdictKind::kRefused
                                                     : api::VerdictKind::kUnknown}),
              r.exit_code)
        << what << ": the exit status is the verdict's";
  };
  const std::string cnn = p.string();
  object(Etmem("analyze " + cnn + " --format json"), "analyze", true);
  object(Etmem("analyze " + cnn + " --runtime 0.3 --pool 4096 --format json"), "analyze --pool",
         true);
  object(Etmem("analyze " + cnn + " --runtime 1.4 --target all --format json"),
         "analyze --target all", true);
  object(Etmem("summary " + cnn + " --format json"), "summary", true);
  object(Etmem("diff " + cnn + " " + two.string() + " --format json"), "diff", true);
  object(Etmem("plan " + cnn + " --format json"), "plan", true);
  object(Etmem("fit " + cnn + " --board stm32h743 --format json"), "fit", true);
  for (const char* what : {"runtimes", "targets", "runners", "boards"}) {
    const CliRun l = Etmem(std::string("list ") + what + " --format json");
    object(l, std::string("list ") + what, false);
    EXPECT_TRUE(json::parse(l.out).at(what).is_array()) << what;
  }
  const fs::path smaller = TempPath("verdict_replanned.pte");
  object(Etmem("replan " + cnn + " -o " + smaller.string() + " --format json"), "replan", false);
  const fs::path log = WriteTemp("verdict_device.log",
                                 "E 00:00:00.000 executorch:memory_allocator.h:88] Memory "
                                 "allocation failed: 48B requested (adjusted for alignment), 44B "
                                 "available\n");
  object(Etmem("check " + cnn + " " + log.string() + " --runtime 0.3 --format json"), "check",
         true);
}

// Method::init resolves every operator before the method runs: kernels that lack one of the
// program's operators (another library registers it) are a refusal, whatever the pools.
TEST(Verdict, KernelsThatLackAnOperatorAreARefusal) {
  const fs::path p = WriteScenario(testing::NamedScenarioProgram("cnn"), "verdict_cnn");
  const CliRun lacking = Etmem("analyze " + p.string() + " --runtime 1.4.1 --kernels optimized");
  EXPECT_EQ(lacking.exit_code, 1) << lacking.out << lacking.err;
  const json j = Json(Etmem("analyze " + p.string() +
                            " --runtime 1.4.1 --kernels optimized --format json"));
  EXPECT_EQ(j.value("verdict", ""), "refused");
  EXPECT_NE(j.dump().find("OperatorMissing"), std::string::npos);
  const CliRun with_fallback =
      Etmem("analyze " + p.string() + " --runtime 1.4.1 --kernels optimized,portable");
  EXPECT_EQ(with_fallback.exit_code, 0) << with_fallback.out << with_fallback.err;
}

}  // namespace verdict_test
}  // namespace etmem::test
