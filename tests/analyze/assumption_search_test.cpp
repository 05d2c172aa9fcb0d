// `etmem check`'s assumption search and runner printouts: the runner lines are parsed after any
// prefix, with one-line errors naming file:line; figures are compared as plain numbers; the
// search finds exactly the combinations that etmem's own `analyze` says reproduce a failure
// line (derived here by running analyze under every combination, not typed in); the goldens'
// failure lines measured on the real runtime are found under the goldens' own assumptions; and
// docs/check.md's example output is what etmem prints.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "etmem/abi/abi.h"
#include "etmem/etmem.h"
#include "etmem/check/runner_prediction.h"
#include "etmem/check/search.h"
#include "etmem/device/device_log.h"
#include "etmem/pte/read_program.h"
#include "etmem/runtime/release.h"
#include "etmem/sim/simulate.h"
#include "etmem_cli.h"

namespace etmem::test {
namespace check_search_test {

using device::DeviceLog;

DeviceLog Parse(const std::string& text) {
  auto log = device::ParseDeviceLog(text, "dev.log");
  EXPECT_TRUE(log) << (log ? "" : log.error().message);
  return log ? *log : DeviceLog{};
}

std::string ParseError(const std::string& text) {
  auto log = device::ParseDeviceLog(text, "dev.log");
  EXPECT_FALSE(log) << text;
  return log ? "" : log.error().message;
}

uint64_t Figure(const DeviceLog& log, device::Printout p, const std::string& name) {
  for (const device::RunnerFigure& f : log.runner_figures)
    if (f.printout == p && f.name == name) return f.bytes;
  ADD_FAILURE() << "no figure " << name;
  return 0;
}

// The Arm runner's report as v1.4.1 prints it through its PAL ("%c [executorch:%s:%lu %s()]
// %s"), numbers made up.
const std::string kArmReport =
    "I [executorch:arm_executor_runner.cpp:879 log_mem_status()] model_pte_program_size:     "
    "9000 bytes.\n"
    "I [executorch:arm_executor_runner.cpp:904 log_mem_status()] method_allocator_used:     "
    "37520 / 62914560  free: 62877040 ( used: 0 % ) \n"
    "I [executorch:arm_executor_runner.cpp:911 log_mem_status()] method_allocator_planned:  "
    "33168 bytes\n"
    "I [executorch:arm_executor_runner.cpp:915 log_mem_status()] method_allocator_loaded:   "
    "4336 bytes\n"
    "I [executorch:arm_executor_runner.cpp:919 log_mem_status()] method_allocator_input:    "
    "16 bytes\n"
    "I [executorch:arm_executor_runner.cpp:923 log_mem_status()] method_allocator_executor: 0 "
    "bytes\n"
    "I [executorch:arm_executor_runner.cpp:929 log_mem_status()] temp_allocator:            "
    "2097152\n";

TEST(RunnerPrintouts, ArmMemoryReportIsReadAfterAnyPrefix) {
  const DeviceLog log = Parse("boot\n" + kArmReport);
  using P = device::Printout;
  EXPECT_EQ(log.runner_figures.size(), 8u);
  EXPECT_EQ(Figure(log, P::kArmMemoryReport, "used"), 37520u);
  EXPECT_EQ(Figure(log, P::kArmMemoryReport, "pool"), 62914560u);
  EXPECT_EQ(Figure(log, P::kArmMemoryReport, "free"), 62877040u);
  EXPECT_EQ(Figure(log, P::kArmMemoryReport, "planned"), 33168u);
  EXPECT_EQ(Figure(log, P::kArmMemoryReport, "loaded"), 4336u);
  EXPECT_EQ(Figure(log, P::kArmMemoryReport, "input"), 16u);
  EXPECT_EQ(Figure(log, P::kArmMemoryReport, "executor"), 0u);
  EXPECT_EQ(Figure(log, P::kArmMemoryReport, "temp_pool"), 2097152u);
  EXPECT_EQ(log.runner_figures[3].line, 4);  // after "boot" and model_pte_program_size
  EXPECT_EQ(log.runner_figures[3].label, "method_allocator_planned");
  EXPECT_FALSE(log.has_load_records());
  // v0.5.0-v0.7.0 print other temp lines; those are not figures, and not errors.
  const DeviceLog old = Parse(
      "temp_allocator_used:       12 / 1048576 free: 1 ( used: 0 % ) \n"
      "peak_temp_allocator:       12 / 1048576 free: 1 ( used: 0 % ) \n"
      "method_allocator_loaded:   4298 bytes\n");
  ASSERT_EQ(old.runner_figures.size(), 1u);
  EXPECT_EQ(old.runner_figures[0].name, "loaded");
}

TEST(RunnerPrintouts, Pico2UsageLine) {
  const DeviceLog log = Parse(
      "\xF0\x9F\x93\x8A Memory usage after method load:\n"
      "   Method allocator: 3946 / 204800 bytes used\n"
      "   Activation pool: 204800 bytes allocated\n");
  ASSERT_EQ(log.runner_figures.size(), 2u);
  EXPECT_EQ(Figure(log, device::Printout::kPico2Usage, "used"), 3946u);
  EXPECT_EQ(Figure(log, device::Printout::kPico2Usage, "pool"), 204800u);
  // Other text that says "Method allocator:" is not the probe's line.
  EXPECT_EQ(ParseError("Method allocator: enabled\n").rfind("dev.log: no ETMEM record", 0), 0u);
}

TEST(RunnerPrintouts, BadLinesNameFileAndLine) {
  const std::vector<std::pair<std::string, std::string>> cases = {
      {"x\nmethod_allocator_loaded:   lots bytes\n", "dev.log:2: unreadable runner line"},
      {"method_allocator_used:     1 / 2 free: 1\n", "dev.log:1: unreadable runner line"},
      {"temp_allocator: 1 2\n", "dev.log:1: unreadable runner line"},
      {"method_allocator_loaded: 8 bytes\nmethod_allocator_loaded: 8 bytes\n",
       "dev.log:2: a second 'method_allocator_loaded' line (the first is on line 1)"},
      {"method_allocator_input: \x1b[2J bytes\n", "dev.log:1: unreadable runner line"},
  };
  for (const auto& [text, want] : cases) {
    const std::string e = ParseError(text);
    EXPECT_EQ(e.rfind(want, 0), 0u) << e << "\nwant: " << want;
    EXPECT_EQ(e.find('\n'), std::string::npos) << e;
  }
}

TEST(RunnerFigures, ComparedAsPlainNumbers) {
  const DeviceLog log = Parse(kArmReport);
  const device::FigurePrediction load_only = device::LoadMethodFigures(log, 4336);
  ASSERT_EQ(load_only.size(), 1u);
  EXPECT_EQ(load_only.at("loaded"), 4336u);
  EXPECT_FALSE(device::FirstDifferingFigure(log, load_only));
  const auto checks = device::CompareRunnerFigures(log, {{"planned", 33168}, {"input", 24}});
  ASSERT_EQ(checks.size(), 8u);
  size_t matched = 0, differ = 0, unpredicted = 0;
  for (const auto& c : checks) (c.matches() ? matched : c.differs() ? differ : unpredicted)++;
  EXPECT_EQ(matched, 1u);
  EXPECT_EQ(differ, 1u);
  EXPECT_EQ(unpredicted, 6u);
  auto d = device::FirstDifferingFigure(log, {{"input", 24}});
  ASSERT_TRUE(d);
  EXPECT_EQ(d->figure->line, 5);
  EXPECT_EQ(*d->predicted, 24u);
  // Pico 2: "used" is what load_method took (that example takes nothing else from the pool).
  const DeviceLog pico = Parse("   Method allocator: 3946 / 204800 bytes used\n");
  EXPECT_EQ(device::LoadMethodFigures(pico, 3946).at("used"), 3946u);
  EXPECT_FALSE(device::LoadMethodFigures(pico, 3946).count("pool"));
}

TEST(RunnerFigures, ArmBookkeepingCounter) {
  // 16 B align 8 -> 16; 2 B align 8: (16 | 7) + 1 + 2 = 26; 8 B align 8 -> 34. The bump cursor
  // would be at 16, 18, then 24 + 8 = 32.
  EXPECT_EQ(device::BookkeepingUsed({{16, 8, 0, false}, {2, 8, 16, false}, {8, 8, 24, false}}),
            34u);
  // A failed call is not counted; an odd size at an aligned counter adds a whole alignment.
  EXPECT_EQ(device::BookkeepingUsed({{3, 4, 0, false}, {64, 4, 0, true}}), 7u);
  EXPECT_EQ(device::BookkeepingUsed({{1, 1, 0, false}}, 5), 6u);
}

// ---- The search on the builder's CNN ------------------------------------------------------

using Combination = std::tuple<std::string, uint32_t, bool, uint64_t,
                               uint64_t>;  // release, align, temp, pool, minimum

// The JSON report, or null when the release refuses the method (0.1.0 refuses programs whose
// constants are in a segment: no log of a load can come from it).
nlohmann::json AnalyzeJson(const fs::path& program, const std::string& options) {
  CliRun r = Etmem("analyze " + program.string() + " --format json " + options);
  if (r.exit_code == 2 && r.err.find(" refuses method ") != std::string::npos) return nullptr;
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1) << options << "\n" << r.err;
  return nlohmann::json::parse(r.out.empty() ? "{}" : r.out);
}

// Every (release, alignment 4/8/16, temp) on cortex-m under which etmem analyze, at some pool,
// logs exactly `line`: the pool is found from analyze's own allocations (the failing one's
// consumed bytes are the line's `requested`; the pool is its offset minus its padding plus the
// line's `available`) and then confirmed by analyze --pool.
// analyze's JSON through the public API (byte for byte what `etmem analyze --format json`
// prints: Api.EveryFormatIsWhatTheCommandLinePrints), in this process: the search below is
// checked against some 900 analyses, which as etmem processes took minutes under the sanitizers.
nlohmann::json AnalyzeInProcess(const api::Program& program, const api::Options& options) {
  try {
    return nlohmann::json::parse(api::Analyze(program, options).Render(api::Format::kJson));
  } catch (const api::Error& e) {
    if (std::string(e.what()).find(" refuses method ") != std::string::npos) return nullptr;
    ADD_FAILURE() << options.runtime << ": " << e.what();
    return nullptr;
  }
}

std::set<Combination> ExpectedFromAnalyze(const fs::path& program_path, uint64_t requested,
                                          uint64_t available) {
  std::set<Combination> out;
  const std::string want = "Memory allocation failed: " + std::to_string(requested) +
                           "B requested (adjusted for alignment), " + std::to_string(available) +
                           "B available";
  const api::Program program = api::Program::Open(program_path.string());
  for (const std::string& v : runtime::ReleaseVersions())
    for (uint32_t align : {4u, 8u, 16u})
      for (bool temp : {false, true}) {
        api::Options options;
        options.runtime = v;
        options.target = "cortex-m";
        options.pool_align = align;
        options.temp = temp ? "nonnull" : "null";
        const nlohmann::json j = AnalyzeInProcess(program, options);
        if (j.is_null()) continue;
        const auto& m = j["methods"][0]["method_allocator"];
        for (const auto& a : m["allocations"]) {
          if (a["consumed"].get<uint64_t>() != requested) continue;
          const uint64_t padding = a["consumed"].get<uint64_t>() - a["size"].get<uint64_t>();
          const uint64_t pool = a["offset"].get<uint64_t>() - padding + available;
          api::Options at = options;
          at.pool = pool;
          const nlohmann::json checked = AnalyzeInProcess(program, at);
          if (checked["methods"][0]["pool_check"]["log"] == want)
            out.insert({v, align, temp, pool, m["bytes"].get<uint64_t>()});
        }
      }
  return out;
}

std::set<Combination> Searched(const fs::path& program_path, const std::string& log_text) {
  const pte::ProgramView program = *pte::ReadProgram(program_path.string());
  const DeviceLog log = Parse(log_text);
  check::SearchSpace space;
  space.releases = *check::MatchingReleases("all");
  space.targets = {*abi::FindBuiltinTarget("cortex-m")};
  auto found = check::Search(program, program.methods.front(), log, space);
  EXPECT_TRUE(found) << (found ? "" : found.error().message);
  std::set<Combination> out;
  for (const check::Reproduction& r : found->reproductions)
    for (uint64_t pool : r.pools)
      out.insert({r.config.release->version, r.config.pool_align, r.config.temp_allocator, pool,
                  r.minimum_pool});
  return out;
}

std::string FailureLine(uint64_t requested, uint64_t available) {
  return "E 00:00:00.140 executorch:memory_allocator.h:87] Memory allocation failed: " +
         std::to_string(requested) + "B requested (adjusted for alignment), " +
         std::to_string(available) + "B available\n";
}

TEST(AssumptionSearch, FindsExactlyWhatAnalyzeReproducesForTheMotivatingLines) {
  const fs::path cnn = MotivatingCnnFile();
  for (uint64_t available : {40u, 44u}) {
    const std::set<Combination> want = ExpectedFromAnalyze(cnn, 48, available);
    const std::set<Combination> got = Searched(cnn, FailureLine(48, available));
    EXPECT_EQ(got, want) << available << " B available";
    // The cases: 0.3, 4096 B, a 4- (40 B available) or 8-aligned (44 B) pool base.
    const uint32_t align = available == 40 ? 4 : 8;
    const bool has = std::any_of(got.begin(), got.end(), [&](const Combination& c) {
      return std::get<0>(c) == "0.3.0" && std::get<1>(c) == align && std::get<3>(c) == 4096;
    });
    EXPECT_TRUE(has) << available;
  }
}

TEST(AssumptionSearch, CliListsTheCombinationsAndExitsOnTheGivenOnes) {
  const fs::path cnn = MotivatingCnnFile();
  const fs::path log = WriteTemp("fail40.log", FailureLine(48, 40));
  const nlohmann::json exact_json =
      AnalyzeJson(cnn, "--runtime 0.3 --target cortex-m --pool-align 4 --pool 4096");
  const uint64_t minimum = exact_json["methods"][0]["method_allocator"]["bytes"];
  const std::string line =
      "ExecuTorch 0.2.0, 0.2.1 or 0.3.0, cortex-m, pool base aligned to 4 B, with or without "
      "a temp allocator, a 4096 B pool -> minimum " +
      std::to_string(minimum) + " B under these assumptions";
  // The same with the pool left open: one line lists every pool that fits the line, 4096 too.
  const std::string open_line_start =
      "    ExecuTorch 0.2.0, 0.2.1 or 0.3.0, cortex-m, pool base aligned to 4 B, with or without a temp "
      "allocator, "
      "a ";
  const std::string open_line_end =
      " B pool -> minimum " + std::to_string(minimum) + " B under these assumptions\n";
  // Nothing given: etmem's defaults (1.4.1) do not reproduce it; the search says which do.
  CliRun open = Etmem("check " + cnn.string() + " " + log.string());
  EXPECT_EQ(open.exit_code, 1) << open.out << open.err;
  const size_t at = open.out.find(open_line_start);
  ASSERT_NE(at, std::string::npos) << open.out;
  const std::string open_line = open.out.substr(at, open.out.find('\n', at) + 1 - at);
  EXPECT_NE(open_line.find(" 4096"), std::string::npos) << open_line;
  EXPECT_TRUE(open_line.ends_with(open_line_end)) << open_line;
  EXPECT_NE(open.out.find("do not reproduce it"), std::string::npos) << open.out;
  // The release and alignment given, the pool left open: found, exit 0.
  CliRun given =
      Etmem("check " + cnn.string() + " " + log.string() + " --runtime 0.3 --pool-align 4");
  EXPECT_EQ(given.exit_code, 0) << given.out << given.err;
  EXPECT_NE(given.out.find("are among them, with a "), std::string::npos) << given.out;
  EXPECT_NE(given.out.find("4096"), std::string::npos) << given.out;
  // Everything given and right: the old exact match, unchanged.
  CliRun exact = Etmem("check " + cnn.string() + " " + log.string() +
                       " --runtime 0.3 --pool-align 4 --pool 4096");
  EXPECT_EQ(exact.exit_code, 0) << exact.out;
  EXPECT_NE(exact.out.find("the failure is exactly the one etmem predicts for a 4096 B pool"),
            std::string::npos)
      << exact.out;
  // Everything given and wrong: the difference, then what would reproduce it.
  CliRun wrong = Etmem("check " + cnn.string() + " " + log.string() +
                       " --runtime 0.3 --pool-align 8 --pool 4096");
  EXPECT_EQ(wrong.exit_code, 1) << wrong.out;
  EXPECT_NE(wrong.out.find("differs from etmem's prediction"), std::string::npos) << wrong.out;
  EXPECT_NE(wrong.out.find(line), std::string::npos) << wrong.out;
  // Deterministic.
  EXPECT_EQ(Etmem("check " + cnn.string() + " " + log.string()).out, open.out);
  // --target all searches every built-in target.
  CliRun all = Etmem("check " + cnn.string() + " " + log.string() + " --target all");
  EXPECT_NE(all.out.find("riscv32"), std::string::npos) << all.out;
}

TEST(AssumptionSearch, NoCombinationSaysSoWithTheNearest) {
  const fs::path cnn = MotivatingCnnFile();
  CliRun r =
      Etmem("check " + cnn.string() + " " + WriteTemp("odd.log", FailureLine(47, 40)).string());
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_NE(r.out.find("no modelled combination reproduces the log exactly"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("nearest: "), std::string::npos) << r.out;
  // A failed call without a failure line or a pool: the pool cannot be derived.
  CliRun p =
      Etmem("check " + cnn.string() + " " + WriteTemp("fail.log", "ETMEM A 0 8 8 FAIL\n").string());
  EXPECT_EQ(p.exit_code, 2);
  EXPECT_NE(p.err.find("--pool"), std::string::npos) << p.err;
}

TEST(AssumptionSearch, RunnerFiguresInTheCli) {
  const fs::path cnn = MotivatingCnnFile();
  const std::string options = "--runtime 1.4 --target cortex-m --pool-align 16 --temp nonnull";
  const nlohmann::json j = AnalyzeJson(cnn, options + " --allocations");
  const uint64_t load = j["methods"][0]["method_allocator"]["bytes"];
  auto report = [&](uint64_t loaded) {
    return WriteTemp("arm.log",
                     "method_allocator_used:     99 / 60000  free: 59901 ( used: 0 % ) \n"
                     "method_allocator_loaded:   " +
                         std::to_string(loaded) + " bytes\n");
  };
  CliRun ok = Etmem("check " + cnn.string() + " " + report(load).string() + " " + options);
  EXPECT_EQ(ok.exit_code, 0) << ok.out << ok.err;
  EXPECT_NE(ok.out.find("line 2: method_allocator_loaded " + std::to_string(load) +
                        " B: as etmem predicts"),
            std::string::npos)
      << ok.out;
  EXPECT_NE(ok.out.find("not compared"), std::string::npos) << ok.out;
  // What the v0.5-v1.3 runner's bookkeeping counts for the same calls: named as such.
  std::vector<device::PredictedCall> calls;
  for (const auto& a : j["methods"][0]["method_allocator"]["allocations"])
    calls.push_back({a["size"], a["align"], a["offset"], false});
  const uint64_t counted = device::BookkeepingUsed(calls);
  if (counted == load) GTEST_SKIP() << "the bookkeeping counts the same for this program";
  CliRun off = Etmem("check " + cnn.string() + " " + report(counted).string() + " " + options);
  EXPECT_EQ(off.exit_code, 1) << off.out;
  EXPECT_NE(off.out.find(":2: differs from etmem's prediction"), std::string::npos) << off.out;
  EXPECT_NE(off.out.find("ArmMemoryAllocator"), std::string::npos) << off.out;
}

TEST(AssumptionSearch, BadRunnerLineIsOneLineNamingFileAndLine) {
  const fs::path cnn = MotivatingCnnFile();
  const fs::path bad = WriteTemp("bad_runner.log", "ok\nmethod_allocator_loaded: x bytes\n");
  CliRun r = Etmem("check " + cnn.string() + " " + bad.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "etmem: " + bad.string() +
                       ":2: unreadable runner line (want 'method_allocator_loaded: <n> bytes')\n");
}

// The shortcut a large program's many candidate pools take is the simulation's own answer.
TEST(AssumptionSearch, PredictionFromAFailureIsTheSimulatedOne) {
  size_t compared = 0, unchecked = 0;
  for (const fs::path& path :
       {MotivatingCnnFile(), WriteScenario(testing::ProgramWithEveryValueKind(), "every_kind")}) {
    const pte::ProgramView program = *pte::ReadProgram(path.string());
    check::SearchSpace space;
    space.releases = *check::MatchingReleases("all");
    space.targets = {*abi::FindBuiltinTarget("cortex-m"), *abi::FindBuiltinTarget("x86_64")};
    for (const check::ModelConfig& c : check::CandidateConfigs(space)) {
      const check::ConfigPlan plan = check::PlanConfig(program, program.methods.front(), c, {});
      const auto& requests = plan.plan.requests;
      const sim::SimResult unbounded =
          sim::Simulate(requests, {c.pool_align, std::nullopt}, {c.pool_align, std::nullopt});
      size_t call = 0;
      for (size_t i = 0; i < requests.size(); ++i) {
        const auto& r = requests[i];
        if (r.pool != runtime::PoolKind::kMethod) continue;
        const uint64_t consumed = unbounded.placements[i].consumed(r.size);
        const size_t this_call = call++;
        if (consumed == 0) continue;
        const uint64_t available = consumed - 1 - i % consumed;  // some value below requested
        const uint64_t pool =
            unbounded.placements[i].offset - unbounded.placements[i].padding + available;
        const auto fast =
            check::PredictFromFailure(requests, unbounded, i, this_call, c.pool_align, pool, true);
        if (!fast) continue;  // a tolerated zero-size failure: the search simulates those
        const check::MethodPrediction full = check::PredictMethodPool(requests, c.pool_align, pool);
        ASSERT_EQ(fast->prediction.calls.size(), full.prediction.calls.size()) << i;
        for (size_t k = 0; k < fast->prediction.calls.size(); ++k) {
          const auto& a = fast->prediction.calls[k];
          const auto& b = full.prediction.calls[k];
          EXPECT_TRUE(a.size == b.size && a.align == b.align && a.failed == b.failed &&
                      (a.failed || a.offset == b.offset))
              << c.release->version << " request " << i << " call " << k;
        }
        ASSERT_EQ(fast->prediction.failures.size(), full.prediction.failures.size()) << i;
        for (size_t k = 0; k < full.prediction.failures.size(); ++k) {
          EXPECT_EQ(fast->prediction.failures[k].requested, full.prediction.failures[k].requested);
          EXPECT_EQ(fast->prediction.failures[k].available, full.prediction.failures[k].available);
          EXPECT_EQ(fast->prediction.failures[k].call, full.prediction.failures[k].call);
        }
        EXPECT_EQ(fast->prediction.used_bytes, full.prediction.used_bytes) << i;
        EXPECT_EQ(fast->request_of_call, full.request_of_call);
        ++compared;
        unchecked += r.on_failure == runtime::OnFailure::kUnchecked;
      }
    }
  }
  EXPECT_GT(compared, 1000u);
  EXPECT_GT(unchecked, 0u) << "no unchecked request: the pair case is not exercised";
}

// ---- docs/check.md ------------------------------------------------------------------------

// Each block after "<!-- etmem-check-example -->" is a shell session: "$ cat FILE" then its
// lines (written to FILE), "$ etmem ARGS" then exactly what etmem prints, run in a directory
// holding the builder's CNN as cnn.pte.
TEST(AssumptionSearch, DocsExamplesAreWhatEtmemPrints) {
  const std::string doc = ReadFile(fs::path(ETMEM_SOURCE_DIR) / "docs/check.md");
  const fs::path dir = TempPath("check_docs");
  fs::create_directories(dir);
  fs::copy_file(MotivatingCnnFile(), dir / "cnn.pte", fs::copy_options::overwrite_existing);
  const std::string marker = "<!-- etmem-check-example -->\n```\n";
  int commands = 0;
  for (size_t at = doc.find(marker); at != std::string::npos; at = doc.find(marker, at + 1)) {
    const size_t begin = at + marker.size();
    const std::string block = doc.substr(begin, doc.find("```", begin) - begin);
    std::vector<std::pair<std::string, std::string>> steps;  // command, the lines after it
    std::istringstream in(block);
    for (std::string line; std::getline(in, line);) {
      if (line.starts_with("$ "))
        steps.push_back({line.substr(2), ""});
      else if (!steps.empty())
        steps.back().second += line + "\n";
    }
    for (const auto& [command, text] : steps) {
      if (command.starts_with("cat ")) {
        std::ofstream(dir / command.substr(4), std::ios::binary) << text;
      } else {
        ASSERT_TRUE(command.starts_with("etmem ")) << command;
        CliRun r = Shell("cd " + dir.string() + " && " + ETMEM_BINARY + " " + command.substr(6));
        EXPECT_EQ(r.out, text) << command;
        ++commands;
      }
    }
  }
  EXPECT_GE(commands, 2);
}

// ---- The goldens' failure lines (real runtime) ----------------------------------------------

TEST(AssumptionSearch, GoldenFailureLinesAreFoundUnderTheGoldensAssumptions) {
  const fs::path golden = fs::path(ETMEM_SHARED_DIR) / "golden/arm-cortex-m4";
  const std::string stem = "cnn_trained_2025-04-04_34b7e8d";
  if (!fs::exists(golden) || !HaveRealModels())
    GTEST_SKIP() << "../shared/golden is absent: golden failure lines not checked";
  const fs::path program = RealModel(stem);
  int checked = 0;
  for (const std::string tag : {"v0.3.0", "v0.5.0", "v1.0.0", "v1.4.1"}) {
    const nlohmann::json g = nlohmann::json::parse(ReadFile(golden / tag / (stem + ".json")));
    for (const uint32_t align : {4u, 8u})
      for (const bool temp : {false, true}) {
        const std::string key =
            "pool_align" + std::to_string(align) + "/temp_" + (temp ? "nonnull" : "null");
        const nlohmann::json& v = g["methods"][0]["variants"][key];
        const uint64_t total = v["total_bytes"];
        for (const auto& [field, pool] : {std::pair{"fail_line_at_4096", uint64_t{4096}},
                                          std::pair{"fail_line_at_min_minus_1", total - 1}}) {
          if (!v.contains(field) || v[field].is_null()) continue;
          const std::string line = v[field].get<std::string>() + "\n";
          const std::set<Combination> found = Searched(program, line);
          const Combination own{tag.substr(1), align, temp, pool, total};
          EXPECT_TRUE(found.count(own)) << tag << " " << key << " " << field << ": " << line;
          ++checked;
        }
      }
  }
  EXPECT_GE(checked, 24);
}

}  // namespace check_search_test
}  // namespace etmem::test
