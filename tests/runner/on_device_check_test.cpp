// `etmem check` with a runner: logs built here from simulated runs of the builder's programs with
// each runner profile (the runner's memory report from a call-by-call replay written in this
// file, with the Arm runner's used_ counter re-derived from its source; failure lines from the
// runner simulation at one byte below the first pool that gets through) are read back, and the
// search must list the generating assumptions among its answers; the runner's own lines narrow
// the answer; a figure changed by one byte is named as differing; `--runner all`, the Pico 2
// usage line, a user's runner file with a fast-memory region, the Arm runner's +semihosting file
// pool, and the CLI's exit codes.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "etmem/abi/abi.h"
#include "etmem/check/runner_prediction.h"
#include "etmem/check/search.h"
#include "etmem/report/search_text.h"
#include "etmem/device/device_log.h"
#include "etmem/pte/read_program.h"
#include "etmem/runner/profile.h"
#include "etmem/runner/runner_plan.h"
#include "etmem/runtime/release.h"
#include "etmem/sim/runner_sim.h"
#include "etmem/testing/scenarios.h"
#include "etmem_cli.h"

namespace etmem::test {
namespace check_runner_test {

struct Program {
  std::vector<uint8_t> bytes;
  pte::ProgramView view;
};

Program Load(const testing::ProgramBuilder& builder) {
  Program p;
  p.bytes = builder.Build();
  p.view = *pte::ReadProgramBytes(p.bytes, "program.pte");
  return p;
}

abi::Abi CortexM() { return *abi::FindBuiltinTarget("cortex-m"); }

// One runner at one release, as the firmware was built.
struct Firmware {
  std::string runner;   // --runner spec: "arm-baremetal+etdump"
  std::string release;  // "1.4.1"
  // How the runner counts its pool's use in its report, read from its source at that tag:
  // ArmMemoryAllocator's used_ (v0.5.0-v1.3.x) or the allocator's cursor (v1.4.0 on, Pico 2).
  bool arm_bookkeeping = false;
};

struct Planned {
  runner::RunnerSelection selection;
  const runner::Profile* profile = nullptr;
  runner::RunnerPlan plan;
  runtime::LoadPlan load;
};

Planned Plan(const Program& p, const Firmware& f) {
  Planned out;
  out.selection = *runner::SelectRunner(f.runner);
  out.profile = *runner::ProfileFor(out.selection, f.release);
  const runtime::RuntimeModel model(**runtime::FindRelease(f.release), CortexM());
  out.plan = *runner::PlanRunner(*out.profile, out.selection, p.view, p.view.methods[0], model);
  runtime::LoadOptions lo;
  lo.temp_allocator = out.plan.passes_temp_allocator();
  out.load = runtime::PlanMethodLoad(p.view, p.view.methods[0], model, lo);
  return out;
}

// ArmMemoryAllocator::allocate's bookkeeping (v1.0.0 examples/arm/executor_runner/
// arm_memory_allocator.cpp; the same in the class inside arm_executor_runner.cpp at v0.5.0):
// an aligned size adds itself, any other rounds the counter up past the next multiple first.
uint64_t Book(uint64_t used, uint64_t size, uint64_t align) {
  if ((size & (align - 1)) == 0) return used + size;
  return (used | (align - 1)) + 1 + size;
}

// The figures the runner prints after a run, replayed call by call on the method pool (its
// base aligned to the pool's declared alignment and not twice that).
std::map<std::string, uint64_t> ReplayFigures(const Planned& p, bool bookkeeping) {
  const uint32_t base_align = p.plan.pools[p.plan.method_pool].base_align;
  const uint64_t base = base_align;  // aligned to base_align, not to 2 * base_align
  uint64_t cursor = 0, book = 0;
  std::map<std::string, std::pair<uint64_t, uint64_t>> spans;  // figure -> (first before, after)
  auto alloc = [&](uint64_t size, uint32_t align) {
    const uint64_t cur = base + cursor;
    const uint64_t start = (cur + align - 1) / align * align;
    cursor = start + size - base;
    book = Book(book, size, align);
  };
  for (const runner::RunnerRequest& r : p.plan.requests) {
    if (r.pool != p.plan.method_pool) continue;
    const uint64_t before = bookkeeping ? book : cursor;
    if (r.load_method) {
      for (const runtime::AllocationRequest& q : p.load.requests)
        if (q.pool == runtime::PoolKind::kMethod) alloc(q.size, q.align);
    } else {
      alloc(r.size, r.align);
    }
    const std::string& figure = p.profile->steps[r.step].figure;
    if (figure.empty()) continue;
    auto it = spans.find(figure);
    if (it == spans.end()) it = spans.emplace(figure, std::pair{before, before}).first;
    it->second.second = bookkeeping ? book : cursor;
  }
  std::map<std::string, uint64_t> out;
  for (const auto& [name, span] : spans) out[name] = span.second - span.first;
  // The Arm report's used: the counter after everything (the Pico 2 probe's is a step figure).
  if (!out.count("used")) out["used"] = bookkeeping ? book : cursor;
  return out;
}

std::string ArmReport(const std::map<std::string, uint64_t>& f, uint64_t pool,
                      std::optional<uint64_t> temp_pool) {
  const std::string prefix = "I [executorch:arm_executor_runner.cpp:904 log_mem_status()] ";
  auto at = [&](const char* name) { return f.count(name) ? f.at(name) : 0; };
  std::string s = prefix + "method_allocator_used:     " + std::to_string(at("used")) + " / " +
                  std::to_string(pool) + "  free: " + std::to_string(pool - at("used")) +
                  " ( used: " + std::to_string(100 * at("used") / pool) + " % ) \n";
  s += prefix + "method_allocator_planned:  " + std::to_string(at("planned")) + " bytes\n";
  s += prefix + "method_allocator_loaded:   " + std::to_string(at("loaded")) + " bytes\n";
  s += prefix + "method_allocator_input:    " + std::to_string(at("input")) + " bytes\n";
  s += prefix + "method_allocator_executor: 0 bytes\n";
  if (temp_pool) s += prefix + "temp_allocator:            " + std::to_string(*temp_pool) + "\n";
  return s;
}

// The log of a successful run: the runner's own printout.
std::string SuccessLog(const Planned& p, const Firmware& f) {
  const std::map<std::string, uint64_t> figures = ReplayFigures(p, f.arm_bookkeeping);
  const runner::PoolSpec& pool = *p.plan.pools[p.plan.method_pool].spec;
  if (p.profile->printout->format == "pi_pico_usage")
    return "Loading method...\n   Method allocator: " + std::to_string(figures.at("used")) +
           " / " + std::to_string(pool.default_bytes) + " bytes used\n";
  std::optional<uint64_t> temp;
  for (const runner::FigureSpec& s : p.profile->printout->figures)
    if (s.name == "temp_pool") temp = p.profile->FindPool(s.pool)->default_bytes;
  return ArmReport(figures, pool.default_bytes, temp);
}

// The log of a run one byte below the first pool the runner gets through: the runtime's line
// and the runner's own, as the runner simulation gives them. `pool` gets that size.
std::string FailureLog(const Planned& p, uint64_t& pool, bool runner_lines = true) {
  const sim::RunnerResult unbounded = sim::SimulateRunner(p.plan, p.load.requests, std::nullopt);
  pool = std::min(unbounded.method().minimum, unbounded.method().high_water) - 1;
  const sim::RunnerResult r = sim::SimulateRunner(p.plan, p.load.requests, pool);
  std::string s = "I [executorch:runner.cpp:10 main()] Starting\n";
  std::vector<sim::RunnerFailure> failures = r.check->tolerated;
  if (r.check->failure) failures.push_back(*r.check->failure);
  EXPECT_FALSE(failures.empty());
  for (const sim::RunnerFailure& f : failures)
    for (size_t i = 0; i < f.log.size() && (runner_lines || i == 0); ++i)
      s += (i == 0 ? "E [executorch:memory_allocator.h:87 allocate()] "
                   : "E [executorch:runner.cpp:690 runner_init()] ") +
           f.log[i] + "\n";
  return s;
}

check::SearchSpace Space(const std::vector<runner::RunnerSelection>& runners) {
  check::SearchSpace space;
  space.releases = *check::MatchingReleases("all");
  space.targets = {CortexM()};
  space.runners = runners;
  return space;
}

bool Found(const check::SearchResult& r, const Firmware& f, uint32_t align,
           std::optional<uint64_t> pool = std::nullopt) {
  const std::string name = check::SelectionName(*runner::SelectRunner(f.runner));
  return std::any_of(r.reproductions.begin(), r.reproductions.end(),
                     [&](const check::Reproduction& x) {
                       return x.config.release->version == f.release && x.config.runner &&
                              x.config.runner->Name() == name && x.config.pool_align == align &&
                              (!pool || std::binary_search(x.pools.begin(), x.pools.end(), *pool));
                     });
}

std::string Describe(const check::SearchResult& r) {
  std::string s;
  for (const std::string& line : report::GroupedLines(r)) s += "  " + line + "\n";
  return s.empty() ? "  (none)\n" : s;
}

device::DeviceLog Parse(const std::string& text) {
  auto log = device::ParseDeviceLog(text, "device.log");
  EXPECT_TRUE(log) << (log ? "" : log.error().message);
  return log ? *log : device::DeviceLog{};
}

// Every runner that prints a memory report, at two or more releases (the counter as read from
// each tag's source).
const Firmware kPrinting[] = {
    {"arm-baremetal", "0.5.0", true},        {"arm-baremetal", "0.7.0", true},
    {"arm-baremetal", "1.0.0", true},        {"arm-baremetal", "1.3.0", true},
    {"arm-baremetal", "1.4.1", false},       {"arm-baremetal+etdump", "1.0.0", true},
    {"arm-baremetal+etdump", "1.4.1", false}, {"zephyr-hello", "1.1.0", true},
    {"zephyr-hello", "1.3.0", true},         {"zephyr-hello", "1.4.1", false},
    {"pico2", "1.3.0", false},               {"pico2", "1.4.1", false},
    {"arm-baremetal", "main-20260822-cff6f4dd", false},
    {"arm-baremetal+etdump", "main-20260822-cff6f4dd", false},
};

class PrintingRunner : public ::testing::TestWithParam<Firmware> {};

TEST_P(PrintingRunner, ItsReportIsReproducedByTheAssumptionsThatMadeIt) {
  const Firmware f = GetParam();
  for (const testing::ProgramBuilder& builder : {testing::MotivatingCnn(), testing::ScaledCnn(2)}) {
    const Program program = Load(builder);
    const Planned p = Plan(program, f);
    const std::string text = SuccessLog(p, f);
    const device::DeviceLog log = Parse(text);
    check::SearchSpace space = Space(check::AllRunners());
    // A snapshot of main is never in "all": search it too when the firmware runs one.
    if (f.release.starts_with("main-"))
      for (const runtime::RuntimeTraits* s : runtime::AllSnapshots()) space.releases.push_back(s);
    const auto found = check::Search(program.view, program.view.methods[0], log, space);
    ASSERT_TRUE(found) << found.error().message;
    const uint32_t align = p.plan.pools[p.plan.method_pool].base_align;
    EXPECT_TRUE(Found(*found, f, align)) << f.runner << " " << f.release << "\n"
                                         << text << Describe(*found);
    // Only runners that print this report are among the answers.
    for (const check::Reproduction& x : found->reproductions) {
      ASSERT_TRUE(x.config.runner && x.config.runner->profile) << Describe(*found);
      EXPECT_EQ(x.config.runner->profile->printout->format, p.profile->printout->format);
    }
    // One byte more in any figure etmem predicts: the generating assumptions no longer match.
    for (const device::RunnerFigure& figure : log.runner_figures) {
      if (figure.name == "pool" || figure.name == "temp_pool") continue;
      device::DeviceLog mutated = log;
      for (device::RunnerFigure& m : mutated.runner_figures)
        if (m.name == figure.name) m.bytes += 1;
      check::SearchSpace pinned = Space({*runner::SelectRunner(f.runner)});
      pinned.releases = {*runtime::FindRelease(f.release)};
      pinned.pool_aligns = {align};
      const auto again =
          check::Search(program.view, program.view.methods[0], mutated, pinned);
      ASSERT_TRUE(again) << again.error().message;
      EXPECT_TRUE(again->reproductions.empty())
          << figure.name << " + 1 still reproduces:\n" << Describe(*again);
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Runners, PrintingRunner, ::testing::ValuesIn(kPrinting),
                         [](const auto& info) {
                           std::string s = info.param.runner + "_" + info.param.release;
                           std::replace_if(s.begin(), s.end(),
                                           [](char c) { return !std::isalnum(c); }, '_');
                           return s;
                         });

// Every built-in profile at its first and last release: the runtime's failure line and the
// runner's own lines, one byte below the first pool the runner gets through.
TEST(RunnerFailureLines, EveryProfileAtItsFirstAndLastReleaseIsFoundWithItsPool) {
  const Program program = Load(testing::MotivatingCnn());
  for (const auto& profile : runner::BuiltinProfiles()) {
    for (const std::string& release : {profile->first_release, profile->last_release}) {
      auto traits = runtime::FindRelease(release);
      ASSERT_TRUE(traits) << release;
      const Firmware f{profile->name, release};
      const Planned p = Plan(program, f);
      if (p.load.refusal) continue;  // the release refuses the program
      uint64_t pool = 0;
      const std::string text = FailureLog(p, pool);
      const device::DeviceLog log = Parse(text);
      check::SearchSpace space = Space(check::AllRunners());
      space.releases = {*traits};
      const auto found = check::Search(program.view, program.view.methods[0], log, space);
      ASSERT_TRUE(found) << found.error().message;
      const uint32_t align = p.plan.pools[p.plan.method_pool].base_align;
      EXPECT_TRUE(Found(*found, f, align, pool))
          << profile->name << " " << release << " at " << pool << "\n"
          << text << Describe(*found);
      // The runner's own lines, when it prints any, rule out runners that print none.
      const bool own_lines = !log.lines_after_failure.empty();
      for (const check::Reproduction& x : found->reproductions)
        if (own_lines) {
          EXPECT_TRUE(x.config.runner->profile) << text << Describe(*found);
        }
    }
  }
}

TEST(RunnerFailureLines, ABareFailureLineKeepsThePortableRunnerAndTheRunner) {
  const Program program = Load(testing::MotivatingCnn());
  const Firmware f{"arm-baremetal", "1.4.1"};
  const Planned p = Plan(program, f);
  uint64_t pool = 0;
  const device::DeviceLog bare = Parse(FailureLog(p, pool, /*runner_lines=*/false));
  check::SearchSpace space = Space(check::AllRunners());
  space.releases = {*runtime::FindRelease("1.4.1")};
  const auto found = check::Search(program.view, program.view.methods[0], bare, space);
  ASSERT_TRUE(found);
  EXPECT_TRUE(Found(*found, f, 16, pool)) << Describe(*found);
  EXPECT_TRUE(std::any_of(found->reproductions.begin(), found->reproductions.end(),
                          [](const check::Reproduction& x) { return !x.config.runner->profile; }))
      << Describe(*found);
  // With the runner's lines, the portable runner is out.
  const device::DeviceLog full = Parse(FailureLog(p, pool));
  const auto narrowed = check::Search(program.view, program.view.methods[0], full, space);
  ASSERT_TRUE(narrowed);
  EXPECT_TRUE(Found(*narrowed, f, 16, pool)) << Describe(*narrowed);
  EXPECT_LT(narrowed->reproductions.size(), found->reproductions.size());
  for (const check::Reproduction& x : narrowed->reproductions)
    EXPECT_TRUE(x.config.runner->profile) << Describe(*narrowed);
}

// The figure prediction is the replay's (the Arm runner's used_ under-report included).
TEST(RunnerFigures, PredictedFromTheProfileAsTheRunnerCountsThem) {
  const Program program = Load(testing::MotivatingCnn());
  for (const Firmware& f : kPrinting) {
    const Planned p = Plan(program, f);
    const std::map<std::string, uint64_t> want = ReplayFigures(p, f.arm_bookkeeping);
    check::ModelConfig config{*runtime::FindRelease(f.release), CortexM(),
                              p.plan.pools[p.plan.method_pool].base_align,
                              p.plan.passes_temp_allocator(),
                              check::ConfigRunner{p.profile, p.selection.options}};
    check::ConfigPlan plan;
    check::PlanConfig(program.view, program.view.methods[0], config, {}, plan);
    constexpr uint64_t kPool = uint64_t{1} << 26;  // room for the 2 MiB ETDump buffer
    const check::MethodPrediction got = check::PredictConfig(config, plan, kPool);
    for (const auto& [name, bytes] : want) {
      ASSERT_TRUE(got.figures.count(name)) << f.runner << " " << f.release << " " << name;
      EXPECT_EQ(got.figures.at(name), bytes) << f.runner << " " << f.release << " " << name;
    }
    if (got.figures.count("free")) {
      EXPECT_EQ(got.figures.at("free"), kPool - want.at("used"));
    }
  }
  // The bookkeeping differs from the cursor for this program at 1.0 (else the test proves
  // nothing about it).
  const Planned p = Plan(program, {"arm-baremetal", "1.0.0", true});
  EXPECT_NE(ReplayFigures(p, true).at("used"), ReplayFigures(p, false).at("used"));
}

// ---- Through the command line ----

struct Files {
  std::string program;
  std::string log;
};

Files Write(const std::string& name, const std::string& log_text) {
  return {WriteScenario(testing::MotivatingCnn(), name).string(),
          WriteTemp(name + ".log", log_text).string()};
}

TEST(CheckRunnerCli, ArmReportMatchesAndAChangedFigureIsNamed) {
  const Program program = Load(testing::MotivatingCnn());
  const Firmware f{"arm-baremetal", "1.4.1"};
  const std::string text = SuccessLog(Plan(program, f), f);
  const Files ok = Write("arm_ok", text);
  const std::string args = " --runtime 1.4.1 --runner arm-baremetal";
  const CliRun run = Etmem("check " + ok.program + " " + ok.log + args);
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_NE(run.out.find("matches etmem's prediction"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("method_allocator_planned 33168 B: as etmem predicts"),
            std::string::npos)
      << run.out;
  EXPECT_NE(run.out.find("ET_ARM_BAREMETAL_METHOD_ALLOCATOR_POOL_SIZE (method_allocation_pool) "
                         "36080 B"),
            std::string::npos)
      << run.out;
  // The planned figure one byte off: exit 1, that figure named as differing, the others not.
  std::string mutated = text;
  const std::string planned = "method_allocator_planned:  33168 bytes";
  ASSERT_NE(mutated.find(planned), std::string::npos) << text;
  mutated.replace(mutated.find(planned), planned.size(), "method_allocator_planned:  33169 bytes");
  const Files bad = Write("arm_bad", mutated);
  const CliRun differs = Etmem("check " + bad.program + " " + bad.log + args);
  EXPECT_EQ(differs.exit_code, 1) << differs.out << differs.err;
  EXPECT_NE(differs.out.find("device: method_allocator_planned: 33169 B"), std::string::npos)
      << differs.out;
  EXPECT_NE(differs.out.find("method_allocator_planned 33169 B: DIFFERS, etmem predicts 33168 B"),
            std::string::npos)
      << differs.out;
  EXPECT_EQ(differs.out.find("loaded 2896 B: DIFFERS"), std::string::npos) << differs.out;
  // --runner all finds the runner that printed it (and not the portable runner).
  const CliRun all = Etmem("check " + ok.program + " " + ok.log + " --runner all");
  EXPECT_EQ(all.exit_code, 0) << all.out << all.err;
  EXPECT_NE(all.out.find("runner arm-baremetal, pool base aligned to 16 B"), std::string::npos)
      << all.out;
  EXPECT_EQ(all.out.find(", runner portable, pool base"), std::string::npos) << all.out;
}

TEST(CheckRunnerCli, TheRunnersFailureLinesAndTheMinimum) {
  const Program program = Load(testing::MotivatingCnn());
  const Planned p = Plan(program, {"arm-baremetal", "1.4.1"});
  uint64_t pool = 0;
  const Files files = Write("arm_fail", FailureLog(p, pool));
  ASSERT_EQ(pool, 36079u);  // docs/sizing-guide.md: one byte below 36080
  const CliRun run = Etmem("check " + files.program + " " + files.log +
                           " --runtime 1.4.1 --runner arm-baremetal --pool 36079");
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_NE(run.out.find("then the runner prints: Could not allocate memory for input evalues."),
            std::string::npos)
      << run.out;
  // Without the pool: derived from the line, the runner's lines narrow it.
  const CliRun derived = Etmem("check " + files.program + " " + files.log +
                               " --runtime 1.4.1 --runner arm-baremetal");
  EXPECT_EQ(derived.exit_code, 0) << derived.out << derived.err;
  EXPECT_NE(derived.out.find("a 36079 B pool -> minimum 36080 B"), std::string::npos)
      << derived.out;
}

TEST(CheckRunnerCli, PicoUsageLine) {
  const Program program = Load(testing::MotivatingCnn());
  const Firmware f{"pico2", "1.4.1"};
  const Files files = Write("pico", SuccessLog(Plan(program, f), f));
  const CliRun run =
      Etmem("check " + files.program + " " + files.log + " --runtime 1.4.1 --runner pico2");
  EXPECT_EQ(run.exit_code, 0) << run.out << run.err;
  EXPECT_NE(run.out.find("Method allocator"), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("a 204800 B pool"), std::string::npos) << run.out;
  // The wrong runner: the Arm runner prints another report; exit 1 and the search says which.
  const CliRun wrong = Etmem("check " + files.program + " " + files.log +
                             " --runtime 1.4.1 --runner arm-baremetal");
  EXPECT_EQ(wrong.exit_code, 1) << wrong.out << wrong.err;
  EXPECT_NE(wrong.out.find("runner pico2"), std::string::npos) << wrong.out;
}

TEST(CheckRunnerCli, WithoutARunnerTheOutputDoesNotNameOne) {
  const Program program = Load(testing::MotivatingCnn());
  uint64_t pool = 0;
  const Files files = Write("plain", FailureLog(Plan(program, {"arm-baremetal", "1.4.1"}), pool));
  const CliRun run = Etmem("check " + files.program + " " + files.log + " --runtime 1.4.1");
  EXPECT_EQ(run.out.find("runner "), std::string::npos) << run.out;
}

TEST(CheckRunnerCli, BadRunnerIsOneLine) {
  const Files files = Write("bad_runner", "Memory allocation failed: 48B requested (adjusted "
                                          "for alignment), 40B available\n");
  const CliRun run = Etmem("check " + files.program + " " + files.log + " --runner nosuch");
  EXPECT_EQ(run.exit_code, 2);
  EXPECT_NE(run.err.find("no such runner"), std::string::npos) << run.err;
  EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1) << run.err;
}

// ---- A fast-memory region (docs/runner-profiles.md's user file) ----

TEST(RunnerFastRegion, TheDocsFileMovesMemoryIdThreeIntoItsOwnPool) {
  const std::string doc = ReadFile(fs::path(ETMEM_SOURCE_DIR) / "docs/runner-profiles.md");
  const size_t section = doc.find("## A fast-memory region");
  ASSERT_NE(section, std::string::npos);
  const size_t begin = doc.find("```json\n", section) + 8;
  const std::string json = doc.substr(begin, doc.find("```", begin) - begin);
  const fs::path file = WriteTemp("fast_runner.json", json);
  // Three planned buffers: memory id 2 empty (skipped), memory id 3 for the fast region.
  testing::ProgramBuilder builder = testing::MotivatingCnn();
  builder.Method("forward").PlannedBufferSizes({33168, 0, 4000});
  const Program program = Load(builder);
  const runtime::RuntimeModel model(**runtime::FindRelease("1.4.1"), CortexM());
  for (const bool fast : {false, true}) {
    auto selection = runner::SelectRunner(file.string() + (fast ? "+fast" : ""));
    ASSERT_TRUE(selection) << selection.error().message;
    const runner::Profile* profile = *runner::ProfileFor(*selection, "1.4.1");
    auto plan =
        runner::PlanRunner(*profile, *selection, program.view, program.view.methods[0], model);
    ASSERT_TRUE(plan) << plan.error().message;
    std::vector<std::pair<std::string, uint64_t>> own;  // (pool variable, size)
    for (const runner::RunnerRequest& r : plan->requests)
      if (!r.load_method) own.push_back({plan->pools[r.pool].spec->variable, r.size});
    const std::vector<std::pair<std::string, uint64_t>> want =
        fast ? std::vector<std::pair<std::string, uint64_t>>{{"method_pool", 33168},
                                                             {"fast_pool", 4000}}
             : std::vector<std::pair<std::string, uint64_t>>{{"method_pool", 33168},
                                                             {"method_pool", 4000}};
    EXPECT_EQ(own, want) << "fast " << fast;
    runtime::LoadOptions lo;
    const runtime::LoadPlan load =
        runtime::PlanMethodLoad(program.view, program.view.methods[0], model, lo);
    const sim::RunnerResult r = sim::SimulateRunner(*plan, load.requests, std::nullopt);
    ASSERT_EQ(r.pools.size(), fast ? 2u : 1u);
    if (fast) {
      EXPECT_EQ(r.pools[1].minimum, 4000u);
    }
    // The method pool: 33168, then (without the region) 4000 more, then load_method's bytes.
    uint64_t load_bytes = 0;
    for (const sim::RunnerEntry& e : r.method().entries)
      if (e.load_method) load_bytes = e.bytes;
    EXPECT_EQ(r.method().minimum, 33168 + (fast ? 0 : 4000) + load_bytes);
  }
  const fs::path pte = WriteScenario(builder, "fast_cnn");
  const CliRun run = Etmem("analyze " + pte.string() + " --runtime 1.4.1 --runner " +
                           file.string() + "+fast");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("FAST_POOL_SIZE (fast_pool): 4000 bytes minimum"), std::string::npos)
      << run.out;
}

// The built-in Arm profile at main (cff6f4dd's examples/arm/executor_runner: memory id 3, the
// planned buffer at index 2, comes from planned_fast_memory_pool when the firmware is built with
// ET_ARM_BAREMETAL_PLANNED_FAST_MEMORY_SIZE; empty planned buffers are not allocated).
TEST(RunnerFastRegion, ArmMainPutsMemoryIdThreeInThePlannedFastPool) {
  const std::string main = "main-20260822-cff6f4dd";
  testing::ProgramBuilder builder = testing::MotivatingCnn();
  builder.Method("forward").PlannedBufferSizes({33168, 0, 4000});
  const Program program = Load(builder);
  const runtime::RuntimeModel model(**runtime::FindRelease(main), CortexM());
  for (const bool fast : {false, true}) {
    auto selection = runner::SelectRunner(fast ? "arm-baremetal+fast_memory" : "arm-baremetal");
    ASSERT_TRUE(selection) << selection.error().message;
    auto profile = runner::ProfileFor(*selection, main);
    ASSERT_TRUE(profile) << profile.error().message;
    auto plan =
        runner::PlanRunner(**profile, *selection, program.view, program.view.methods[0], model);
    ASSERT_TRUE(plan) << plan.error().message;
    std::vector<std::pair<std::string, uint64_t>> own;  // (pool variable, size)
    uint64_t input_list = 0;
    for (const runner::RunnerRequest& r : plan->requests) {
      if (r.load_method) continue;
      if ((*profile)->steps[r.step].kind == runner::StepKind::kInputList) {
        EXPECT_EQ(plan->pools[r.pool].spec->variable, "method_allocation_pool");
        input_list = r.size;
        continue;
      }
      own.push_back({plan->pools[r.pool].spec->variable, r.size});
    }
    const std::vector<std::pair<std::string, uint64_t>> want =
        fast ? std::vector<std::pair<std::string, uint64_t>>{{"method_allocation_pool", 33168},
                                                             {"planned_fast_memory_pool", 4000}}
             : std::vector<std::pair<std::string, uint64_t>>{{"method_allocation_pool", 33168},
                                                             {"method_allocation_pool", 4000}};
    EXPECT_EQ(own, want) << "fast_memory " << fast;
    EXPECT_GT(input_list, 0u);
    runtime::LoadOptions lo;
    const runtime::LoadPlan load =
        runtime::PlanMethodLoad(program.view, program.view.methods[0], model, lo);
    const sim::RunnerResult r = sim::SimulateRunner(*plan, load.requests, std::nullopt);
    uint64_t fast_minimum = 0;
    for (const sim::RunnerPoolResult& pool : r.pools)
      if (plan->pools[pool.pool].spec->variable == "planned_fast_memory_pool")
        fast_minimum = pool.minimum;
    EXPECT_EQ(fast_minimum, fast ? 4000u : 0u);
    // The method pool: 33168 (16-aligned at the base), then without the region 4000 more (16 B
    // multiples stay aligned), load_method's bytes (its padding included), the input list.
    uint64_t load_bytes = 0, input_padding = 0;
    for (const sim::RunnerEntry& e : r.method().entries) {
      if (e.load_method) load_bytes = e.bytes;
      else if ((*profile)->steps[plan->requests[e.request].step].kind ==
               runner::StepKind::kInputList)
        input_padding = e.padding;
    }
    EXPECT_GT(load_bytes, 0u);
    EXPECT_EQ(r.method().minimum,
              33168 + (fast ? 0 : 4000) + load_bytes + input_padding + input_list);
  }
  const fs::path pte = WriteScenario(builder, "fast_cnn_main");
  const CliRun with = Etmem("analyze " + pte.string() + " --runtime " + main +
                            " --runner arm-baremetal+fast_memory");
  EXPECT_EQ(with.exit_code, 0) << with.err;
  EXPECT_NE(with.out.find("ET_ARM_BAREMETAL_PLANNED_FAST_MEMORY_SIZE (planned_fast_memory_pool): "
                          "4000 bytes minimum"),
            std::string::npos)
      << with.out;
  // Without the option the real runner aborts on memory id 3; the output says so (the option's
  // text, listed with the profile's options) while placing the buffer in the method pool.
  const CliRun without =
      Etmem("analyze " + pte.string() + " --runtime " + main + " --runner arm-baremetal");
  EXPECT_EQ(without.exit_code, 0) << without.err;
  EXPECT_NE(without.out.find("the real runner aborts on this program's non-empty memory id 3"),
            std::string::npos)
      << without.out;
}

// +semihosting (examples/arm/executor_runner at each tag: read_binary_file allocates each file
// with the default alignment from the file pool, -m before the -i files in ExecuTorch's run
// scripts): its own pool, the method pool as without it.
TEST(ArmSemihosting, TheFilesGoToTheirOwnPoolInOrder) {
  const Program program = Load(testing::MotivatingCnn());
  for (const char* release : {"0.4.0", "0.7.0", "1.3.0", "1.4.1"}) {
    const Planned with = Plan(program, {"arm-baremetal+semihosting", release});
    const Planned without = Plan(program, {"arm-baremetal", release});
    std::vector<std::pair<uint64_t, uint32_t>> files;
    std::string pool;
    for (const runner::RunnerRequest& r : with.plan.requests)
      if (!r.load_method && r.pool != with.plan.method_pool) {
        files.push_back({r.size, r.align});
        pool = with.plan.pools[r.pool].spec->variable;
      }
    const uint64_t input_bytes = 100 * 4;  // the CNN's one float32 [1, 1, 100] input
    ASSERT_EQ(files.size(), 2u) << release;
    EXPECT_EQ(files[0], (std::pair<uint64_t, uint32_t>{program.bytes.size(), 4})) << release;
    EXPECT_EQ(files[1], (std::pair<uint64_t, uint32_t>{input_bytes, 4})) << release;
    EXPECT_EQ(pool, std::string(release) == "0.4.0" ? "input_allocation_pool"
                                                    : "input_file_allocation_pool");
    const auto a = sim::SimulateRunner(with.plan, with.load.requests, std::nullopt);
    const auto b = sim::SimulateRunner(without.plan, without.load.requests, std::nullopt);
    EXPECT_EQ(a.method().minimum, b.method().minimum) << release;
  }
  const fs::path pte = WriteScenario(testing::MotivatingCnn(), "semihosting_cnn");
  const CliRun run =
      Etmem("analyze " + pte.string() + " --runtime 1.4.1 --runner arm-baremetal+semihosting");
  EXPECT_EQ(run.exit_code, 0) << run.err;
  EXPECT_NE(run.out.find("ET_ARM_BAREMETAL_SEMIHOSTING_FILE_ALLOCATOR_POOL_SIZE "
                         "(input_file_allocation_pool): "),
            std::string::npos)
      << run.out;
}

// A pool sized by a literal is named once (its variable), one with a macro as MACRO (variable).
TEST(RunnerReport, APoolWithoutAMacroIsNamedOnce) {
  const fs::path pte = WriteScenario(testing::MotivatingCnn(), "pico_names");
  const CliRun pico = Etmem("analyze " + pte.string() + " --runtime 1.4.1 --runner pico2");
  EXPECT_EQ(pico.exit_code, 0) << pico.err;
  EXPECT_NE(pico.out.find("\nmethod_allocator_pool: "), std::string::npos) << pico.out;
  EXPECT_EQ(pico.out.find("method_allocator_pool (method_allocator_pool)"), std::string::npos)
      << pico.out;
  const CliRun arm = Etmem("analyze " + pte.string() + " --runtime 1.4.1 --runner arm-baremetal");
  EXPECT_NE(arm.out.find("ET_ARM_BAREMETAL_METHOD_ALLOCATOR_POOL_SIZE (method_allocation_pool): "),
            std::string::npos)
      << arm.out;
}

}  // namespace check_runner_test
}  // namespace etmem::test
