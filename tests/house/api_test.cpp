// The public C++ API (include/etmem/etmem.h): a program given as bytes and as a path gives the
// same report; every rendering is the bytes the command line prints for the same options; errors
// are api::Error with the command line's one-line message; the motivating CNN's figures.
#include "etmem/etmem.h"

#include <cstring>
#include <fstream>
#include <thread>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <algorithm>

#include "etmem_cli.h"
#include "etmem/testing/scenarios.h"

namespace etmem::test {
namespace api_test {

std::vector<std::byte> Bytes(const fs::path& p) {
  const std::string s = ReadFile(p);
  std::vector<std::byte> out(s.size());
  std::memcpy(out.data(), s.data(), s.size());
  return out;
}

// The message of the api::Error that `f` throws, with its kind checked.
template <typename F>
std::string ErrorOf(F f, api::ErrorKind kind) {
  try {
    f();
  } catch (const api::Error& e) {
    EXPECT_EQ(e.kind(), kind) << e.what();
    return e.what();
  }
  ADD_FAILURE() << "no api::Error";
  return "";
}

TEST(Api, BytesAndPathGiveTheSameJsonAsTheCommandLine) {
  const fs::path path = MotivatingCnnFile();
  api::Options o;
  o.runtime = "0.3";
  o.pool = 4096;
  const std::string from_path = api::Analyze(path.string(), o).Render(api::Format::kJson);
  const std::vector<std::byte> bytes = Bytes(path);
  const api::Program named = api::Program::FromBytes(bytes, path.string());
  EXPECT_EQ(api::Analyze(named, o).Render(api::Format::kJson), from_path);
  EXPECT_EQ(api::Analyze(api::Program::FromBytes(bytes.data(), bytes.size(), path.string()), o)
                .Render(api::Format::kJson),
            from_path);
  CliRun cli = Etmem("analyze " + path.string() + " --runtime 0.3 --pool 4096 --format json");
  EXPECT_EQ(cli.exit_code, 1);  // the pool does not fit
  EXPECT_EQ(from_path, cli.out);
  // Bytes without a name: the same report under the name "<memory>".
  const api::Report anonymous = api::Analyze(std::span<const std::byte>(bytes), o);
  EXPECT_EQ(anonymous.program_name(), "<memory>");
  EXPECT_EQ(anonymous.methods()[0].method_pool_bytes,
            api::Analyze(named, o).methods()[0].method_pool_bytes);
}

// 4266 B on Cortex-M with 0.3; a 4096 B pool fails with the runtime's line.
void ExpectTheMotivatingFigures(const fs::path& p) {
  api::Options o;
  o.runtime = "0.3";
  o.target = "cortex-m";
  o.pool = 4096;
  const api::Report r = api::Analyze(p.string(), o);
  ASSERT_EQ(r.methods().size(), 1u) << p;
  const api::MethodSummary m = r.methods()[0];
  EXPECT_EQ(m.method_pool_bytes, 4266u) << p;
  EXPECT_TRUE(m.exact);
  ASSERT_TRUE(m.pool_check);
  EXPECT_FALSE(m.pool_check->fits);
  EXPECT_EQ(m.pool_check->log,
            "Memory allocation failed: 48B requested (adjusted for alignment), 44B available");
  EXPECT_EQ(r.assumptions().runtime, "0.3.0");
  EXPECT_EQ(r.assumptions().pool_align, 8u);
  EXPECT_FALSE(r.assumptions().temp_allocator);
  o.pool = 4266;
  EXPECT_TRUE(api::Analyze(p.string(), o).methods()[0].pool_check->fits);
}

TEST(Api, TheBuildersMotivatingCnnNeeds4266Bytes) { ExpectTheMotivatingFigures(MotivatingCnnFile()); }

TEST(Api, TheRealMotivatingCnnNeeds4266Bytes) {
  const fs::path real = RealModel("cnn_trained_2025-04-04_34b7e8d");
  if (!fs::exists(real)) GTEST_SKIP() << "the real program is not in ../shared (" << real << ")";
  ExpectTheMotivatingFigures(real);
}

TEST(Api, EveryFormatIsWhatTheCommandLinePrints) {
  const fs::path path = TwoMethodsFile();
  const api::Program program = api::Program::Open(path.string());
  api::Options one;
  one.runtime = "0.6";
  one.target = "x86_64";
  one.temp = "nonnull";
  const api::Report r = api::Analyze(program, one);
  const std::string args = " --runtime 0.6 --target x86_64 --temp nonnull";
  EXPECT_EQ(r.Render(api::Format::kText), Etmem("analyze " + path.string() + args).out);
  EXPECT_EQ(r.Render(api::Format::kText, {.all_allocations = true}),
            Etmem("analyze " + path.string() + args + " --allocations").out);
  EXPECT_EQ(r.Render(api::Format::kCsv), Etmem("analyze " + path.string() + args + " --format csv").out);
  EXPECT_EQ(r.Render(api::Format::kMarkdown),
            Etmem("analyze " + path.string() + args + " --format md").out);
  api::Options all;
  all.runtime = "all";
  all.target = "all";
  const std::vector<api::Report> reports = api::AnalyzeAll(program, all);
  // "all" is every published release; snapshots of main (with a commit) are not among them.
  const std::vector<api::ReleaseInfo> listed = api::Releases();
  const auto releases = std::count_if(listed.begin(), listed.end(),
                                      [](const api::ReleaseInfo& r) { return r.commit.empty(); });
  EXPECT_EQ(reports.size(), static_cast<size_t>(releases) * api::Targets().size());
  for (auto [format, name] : {std::pair{api::Format::kText, "text"}, {api::Format::kJson, "json"},
                              {api::Format::kCsv, "csv"}, {api::Format::kMarkdown, "md"}})
    EXPECT_EQ(api::Render(reports, format),
              Etmem("analyze " + path.string() + " --runtime all --target all --format " + name).out)
        << name;
}

TEST(Api, HeaderPlanReplanDiffAndListsAreTheCommandLines) {
  const fs::path path = MotivatingCnnFile();
  const api::Program program = api::Program::Open(path.string());
  api::Options o;
  o.runtime = "0.3";
  EXPECT_EQ(api::Header(program, o, {.margin = "10%", .define_pools = true, .section = ".sram2"}),
            Etmem("header " + path.string() +
                  " --runtime 0.3 --margin 10% --define-pools --section .sram2")
                .out);
  for (auto [format, name] : {std::pair{api::PlanFormat::kText, "text"},
                              {api::PlanFormat::kJson, "json"}, {api::PlanFormat::kHtml, "html"}}) {
    api::PlanOptions p;
    p.format = format;
    p.model = o;
    const api::PlanResult plan = api::Plan(program, p);
    EXPECT_TRUE(plan.sound);
    EXPECT_EQ(plan.output, Etmem("plan " + path.string() + " --runtime 0.3 --format " + name).out)
        << name;
  }
  const fs::path written = TempPath("replanned.pte");
  CliRun cli = Etmem("replan " + path.string() + " -o " + written.string());
  ASSERT_EQ(cli.exit_code, 0) << cli.err;
  const api::Replanned replanned = api::Replan(program);
  EXPECT_EQ(replanned.program, Bytes(written));
  ASSERT_FALSE(replanned.buffers.empty());
  EXPECT_LE(replanned.buffers[0].after, replanned.buffers[0].before);
  // What WriteReplanned wrote, rendered as the command line prints it.
  const fs::path again = TempPath("replanned_again.pte");
  const api::ReplannedFile file = api::WriteReplanned(replanned, again.string());
  EXPECT_EQ(file.path, again.string());
  EXPECT_EQ(file.bytes, replanned.program.size());
  EXPECT_EQ(file.buffers.size(), replanned.buffers.size());
  EXPECT_EQ(Bytes(again), replanned.program);
  for (auto [format, name] : {std::pair{api::Format::kText, "text"}, {api::Format::kJson, "json"}})
    EXPECT_EQ(api::Render(file, format),
              Etmem("replan " + path.string() + " -o " + again.string() + " --format " + name).out)
        << name;
  EXPECT_THROW(api::Render(file, api::Format::kCsv), api::Error);
  const api::Report before = api::Analyze(program, o);
  const api::Report after =
      api::Analyze(api::Program::FromBytes(replanned.program, written.string()), o);
  for (auto [format, name] : {std::pair{api::Format::kText, "text"}, {api::Format::kJson, "json"},
                              {api::Format::kMarkdown, "md"}})
    EXPECT_EQ(api::Diff(before, after, format),
              Etmem("diff " + path.string() + " " + written.string() + " --runtime 0.3 --format " +
                    name)
                  .out)
        << name;
  std::string releases, targets;
  for (const api::ReleaseInfo& r : api::Releases()) releases += r.version + "\n";
  for (const api::TargetInfo& t : api::Targets()) targets += t.name + "\n";
  EXPECT_EQ(releases, Shell(std::string(ETMEM_BINARY) + " list runtimes | cut -d' ' -f1").out);
  // (A target's details are indented below its line.)
  EXPECT_EQ(targets,
            Shell(std::string(ETMEM_BINARY) + " list targets | grep -v '^ ' | cut -d' ' -f1").out);
  for (const char* what : {"runtimes", "targets", "runners", "boards", "kernels"})
    for (auto [format, name] : {std::pair{api::Format::kText, "text"}, {api::Format::kJson, "json"}})
      EXPECT_EQ(api::List(what, format),
                Etmem(std::string("list ") + what + " --format " + name).out)
          << what << " " << name;
  EXPECT_THROW(api::List("nothing"), api::Error);
  EXPECT_THROW(api::List("targets", api::Format::kCsv), api::Error);
  EXPECT_EQ("etmem " + api::Version() + "\n", Etmem("--version").out);
}

TEST(Api, ErrorsAreTheCommandLinesLines) {
  // Not a program: the same line as the command line's, after "etmem: ".
  const fs::path junk = WriteTemp("junk.pte", std::string(64, 'x'));
  const std::string message = ErrorOf([&] { api::Program::Open(junk.string()); },
                                      api::ErrorKind::kInvalidProgram);
  EXPECT_EQ("etmem: " + message + "\n", Etmem("analyze " + junk.string()).err);
  EXPECT_EQ(message.find('\n'), std::string::npos);
  // The same bytes from memory name the name given.
  const std::string junk_bytes(64, 'x');
  EXPECT_EQ(ErrorOf([&] { api::Program::FromBytes(junk_bytes.data(), junk_bytes.size(), junk.string()); },
                    api::ErrorKind::kInvalidProgram),
            message);
  const fs::path missing = TempPath("does_not_exist.pte");
  EXPECT_EQ("etmem: " + ErrorOf([&] { api::Analyze(missing.string()); }, api::ErrorKind::kIo) + "\n",
            Etmem("analyze " + missing.string()).err);

  const api::Program program = api::Program::Open(MotivatingCnnFile().string());
  auto analyze = [&](api::Options o) { return [=] { api::Analyze(program, o); }; };
  // Every built-in runner by name, once, in etmem's order (a new profile joins the list).
  std::vector<std::string> names;
  for (const api::RunnerInfo& r : api::Runners())
    if (names.empty() || names.back() != r.name) names.push_back(r.name);
  std::string builtin;
  for (const std::string& n : names) builtin += (builtin.empty() ? "" : ", ") + n;
  EXPECT_NE(builtin.find("arduino, arm-baremetal, cadence"), std::string::npos) << builtin;
  EXPECT_EQ(ErrorOf(analyze({.runner = "stm32-cube"}), api::ErrorKind::kInvalidArgument),
            "--runner stm32-cube: no such runner (built-in: " + builtin +
                "; or a runner file ending in .json)");
  // The runner's method pool through the API: the same figure `etmem analyze --runner` prints.
  const api::Report arm =
      api::Analyze(program, {.runtime = "1.4.1", .target = "cortex-m", .runner = "arm-baremetal"});
  const api::MethodSummary m = arm.methods().at(0);
  ASSERT_EQ(m.runner_pools.size(), 2u);
  EXPECT_EQ(m.runner_pools[0].macro, "ET_ARM_BAREMETAL_METHOD_ALLOCATOR_POOL_SIZE");
  EXPECT_TRUE(m.runner_pools[0].method_allocator);
  EXPECT_EQ(m.method_pool_bytes, m.runner_pools[0].minimum_bytes);
  EXPECT_GT(m.method_pool_bytes, m.planned_bytes);  // the planned buffer is inside the pool
  EXPECT_NE(arm.Render(api::Format::kText).find(
                "ET_ARM_BAREMETAL_METHOD_ALLOCATOR_POOL_SIZE (method_allocation_pool): " +
                std::to_string(m.method_pool_bytes) + " bytes minimum"),
            std::string::npos);
  const api::Report short_pool = api::Analyze(
      program, {.runtime = "1.4.1", .pool = m.method_pool_bytes - 1, .runner = "arm-baremetal"});
  ASSERT_TRUE(short_pool.methods().at(0).pool_check);
  EXPECT_FALSE(short_pool.methods().at(0).pool_check->fits);
  EXPECT_NE(short_pool.methods().at(0).pool_check->log.find("Memory allocation failed"),
            std::string::npos);
  EXPECT_NE(ErrorOf(analyze({.runtime = "9.9"}), api::ErrorKind::kInvalidArgument), "");
  EXPECT_EQ(ErrorOf(analyze({.runtime = "all"}), api::ErrorKind::kInvalidArgument),
            "--runtime all: this verb needs one value (etmem analyze takes all)");
  EXPECT_NE(ErrorOf(analyze({.target = "z80"}), api::ErrorKind::kInvalidArgument), "");
  EXPECT_NE(ErrorOf(analyze({.temp = "maybe"}), api::ErrorKind::kInvalidArgument), "");
  EXPECT_NE(ErrorOf(analyze({.pool_align = 3}), api::ErrorKind::kInvalidArgument), "");
  EXPECT_NE(ErrorOf(analyze({.method = "nope"}), api::ErrorKind::kInvalidArgument), "");
  EXPECT_EQ(ErrorOf(analyze({.backends = {"=12"}}), api::ErrorKind::kInvalidArgument),
            "--backend =12: no backend id (want ID=BYTES or ID=BYTES:ALIGN)");
  api::Options totals;
  totals.keep_allocations = false;
  const api::Report r = api::Analyze(program, totals);
  EXPECT_NE(r.Render(api::Format::kText), "");
  ErrorOf([&] { r.Render(api::Format::kJson); }, api::ErrorKind::kInvalidArgument);
  ErrorOf([&] { api::Header(program, {}, {.section = ".x"}); }, api::ErrorKind::kInvalidArgument);
}

// A caller's threads (the library has none): two threads analysing one shared Program at once,
// every release on a target each, get what one thread gets.
TEST(Api, CallsFromTwoThreadsAtOnceGiveOneThreadsReports) {
  const api::Program program = api::Program::Open(TwoMethodsFile().string());
  auto all_releases = [&](const std::string& target) {
    std::string out;
    for (const api::ReleaseInfo& r : api::Releases()) {
      api::Options o;
      o.runtime = r.version;
      o.target = target;
      out += api::Analyze(program, o).Render(api::Format::kJson);
    }
    return out;
  };
  const std::string cortex_m = all_releases("cortex-m"), x86_64 = all_releases("x86_64");
  std::string a, b;
  std::thread first([&] { a = all_releases("cortex-m"); });
  std::thread second([&] { b = all_releases("x86_64"); });
  first.join();
  second.join();
  EXPECT_EQ(a, cortex_m);
  EXPECT_EQ(b, x86_64);
}

// The budget check is the command line's --budget / --budget-file: the same items, the same
// lines for what is over, the same errors.
TEST(Api, BudgetsAreTheCommandLines) {
  const fs::path path = MotivatingCnnFile();
  api::Options o;
  o.runtime = "0.3";
  const std::vector<api::Report> reports = {api::Analyze(path.string(), o)};
  const api::MethodSummary m = reports[0].methods()[0];
  const uint64_t ram = m.method_pool_bytes + m.planned_bytes + m.temp_load_peak_bytes;
  const uint64_t flash = reports[0].file_bytes();

  std::vector<api::BudgetItem> fits =
      api::CheckBudget(reports, api::ParseBudget(fmt::format("ram={},flash={}", ram, flash)));
  ASSERT_EQ(fits.size(), 2u);
  EXPECT_EQ(fits[0].item, "ram");
  EXPECT_EQ(fits[0].used, ram);
  EXPECT_EQ(fits[0].limit, ram);
  EXPECT_FALSE(fits[0].over);
  EXPECT_EQ(fits[0].message, "");
  EXPECT_EQ(fits[1].item, "flash");
  EXPECT_EQ(fits[1].used, flash);
  EXPECT_FALSE(fits[1].over);

  const std::string spec = fmt::format("ram={},flash={}", ram - 1, flash - 1);
  const std::vector<api::BudgetItem> over = api::CheckBudget(reports, api::ParseBudget(spec));
  ASSERT_EQ(over.size(), 2u);
  EXPECT_TRUE(over[0].over && over[1].over);
  const CliRun cli = Etmem("analyze " + path.string() + " --runtime 0.3 --budget " + spec);
  EXPECT_EQ(cli.exit_code, 1);
  EXPECT_EQ(cli.err, "etmem: " + over[0].message + "\netmem: " + over[1].message + "\n");

  // Only what the budget sets; a budget file reads the same.
  const fs::path file = WriteTemp("board.budget", fmt::format("# board\nram = {}\n", ram - 1));
  const std::vector<api::BudgetItem> from_file =
      api::CheckBudget(reports, api::ReadBudgetFile(file.string()));
  ASSERT_EQ(from_file.size(), 1u);
  EXPECT_EQ(from_file[0].message, over[0].message);

  const std::string bad = ErrorOf([] { api::ParseBudget("rom=1K"); }, api::ErrorKind::kInvalidArgument);
  EXPECT_EQ("etmem: " + bad + "\n", Etmem("analyze " + path.string() + " --budget rom=1K").err);
  ErrorOf([] { api::ReadBudgetFile("/nonexistent/board.budget"); }, api::ErrorKind::kIo);
}

}  // namespace api_test
}  // namespace etmem::test

namespace etmem::test {
namespace api_test {

// Boards and fit through the public API: `etmem list boards`, `fit`, `fit -o`, `header --board
// --linker-script` and `plan --board`, byte for byte; bad boards are the command line's lines.
TEST(ApiBoards, FitHeaderPlanAndListAreTheCommandLines) {
  const fs::path path = MotivatingCnnFile();
  const api::Program program = api::Program::Open(path.string());
  std::string names;
  for (const api::Board& b : api::Boards()) names += b.name() + "\n";
  EXPECT_EQ(names, Shell(std::string(ETMEM_BINARY) + " list boards | grep -v '^ ' | cut -d' ' -f1").out);
  api::Options o;
  o.runtime = "0.3";
  const api::Report report = api::Analyze(program, o);
  for (const api::Board& b : api::Boards()) {
    const api::BoardFit fit = api::Fit(report, b);
    const CliRun cli = Etmem("fit " + path.string() + " --board " + b.name() + " --runtime 0.3");
    EXPECT_EQ(fit.Render(), cli.out) << b.name();
    EXPECT_EQ(cli.exit_code, fit.fits() ? 0 : 1) << b.name();
    EXPECT_EQ(fit.fits(), fit.short_bytes() == 0);
    uint64_t used = 0;
    for (const api::FitRegion& r : fit.regions()) used += r.used_bytes;
    uint64_t placed = 0;
    for (const api::FitPlacement& p : fit.placement()) placed += p.bytes + p.padding;
    EXPECT_EQ(used, placed) << b.name();
  }
  // A reservation, the header and its linker fragment.
  const api::Board wb55 = api::Board::Open("stm32wb55").Reserve("SRAM1=24K");
  const fs::path ld = TempPath("api_pools.ld");
  const CliRun header = Etmem("header " + path.string() + " --runtime 0.3 --board stm32wb55 " +
                              "--reserve SRAM1=24K --define-pools --linker-script " + ld.string());
  ASSERT_EQ(header.exit_code, 0) << header.err;
  api::HeaderOptions h;
  h.define_pools = true;
  h.board = wb55;
  EXPECT_EQ(api::Header(report, h), header.out);
  EXPECT_EQ(api::Fit(report, wb55).LinkerScript(), ReadFile(ld));
  // A board of one's own, as JSON text: the buffer is split, the fitted program is `fit -o`'s.
  const std::string three = R"({"name": "three", "regions": [
    {"name": "A", "size": "20K"}, {"name": "B", "size": "20K"}, {"name": "C", "size": "20K"}]})";
  const fs::path board_file = WriteTemp("api_three.json", three);
  const fs::path out = TempPath("api_fitted.pte");
  const CliRun fitted = Etmem("fit " + path.string() + " --board " + board_file.string() +
                              " --runtime 0.3 -o " + out.string());
  ASSERT_EQ(fitted.exit_code, 0) << fitted.err;
  const api::BoardFit split = api::Fit(report, api::Board::FromJson(three, board_file.string()));
  EXPECT_TRUE(split.splits());
  EXPECT_EQ(fitted.out.substr(0, split.Render().size()), split.Render());
  EXPECT_EQ(split.FittedProgram(), Bytes(out));
  // --format json: the same fit as one object, the file -o wrote in "output".
  const CliRun fitted_json = Etmem("fit " + path.string() + " --board " + board_file.string() +
                                   " --runtime 0.3 -o " + out.string() + " --format json");
  ASSERT_EQ(fitted_json.exit_code, 0) << fitted_json.err;
  EXPECT_EQ(fitted_json.out,
            split.Render(api::Format::kJson, api::BoardFit::Written{out.string(), Bytes(out).size()}));
  EXPECT_EQ(fitted.out, split.Render(api::Format::kText,
                                     api::BoardFit::Written{out.string(), Bytes(out).size()}));
  const nlohmann::json j = nlohmann::json::parse(fitted_json.out);
  EXPECT_EQ(j["analysis"]["runtime"], "0.3.0");
  EXPECT_EQ(j["board"], "three");
  EXPECT_EQ(j["fits"], split.fits());
  EXPECT_EQ(j["splits"], true);
  EXPECT_EQ(j["output"]["bytes"], Bytes(out).size());
  ASSERT_EQ(j["placement"].size(), split.placement().size());
  for (size_t i = 0; i < j["placement"].size(); ++i) {
    EXPECT_EQ(j["placement"][i]["piece"], split.placement()[i].piece);
    EXPECT_EQ(j["placement"][i]["region"], split.placement()[i].region);
    EXPECT_EQ(j["placement"][i]["offset"], split.placement()[i].offset);
    EXPECT_EQ(j["placement"][i]["bytes"], split.placement()[i].bytes);
  }
  ASSERT_EQ(j["regions"].size(), 3u);
  EXPECT_EQ(j["regions"][0]["used_bytes"], split.regions()[0].used_bytes);
  // A board it does not fit: the verdict and the bound, exit 1 as in text.
  const fs::path tiny_board =
      WriteTemp("api_tiny.json", R"({"name": "tiny", "regions": [{"name": "A", "size": "4K"}]})");
  const CliRun tiny =
      Etmem("fit " + path.string() + " --board " + tiny_board.string() + " --runtime 0.3 --format json");
  if (tiny.exit_code == 1) {
    const nlohmann::json t = nlohmann::json::parse(tiny.out);
    EXPECT_EQ(t["fits"], false);
    EXPECT_GT(t["short_bytes"].get<uint64_t>(), 0u);
    EXPECT_TRUE(t["output"].is_null());
  } else {
    ADD_FAILURE() << "expected the CNN not to fit: " << tiny.out << tiny.err;
  }
  EXPECT_EQ(ErrorOf([&] { split.Render(api::Format::kCsv); }, api::ErrorKind::kInvalidArgument),
            "etmem fit renders text or JSON, not CSV or Markdown");
  EXPECT_EQ(ErrorOf([&] { api::Header(report, {.board = api::Board::FromJson(three)}); },
                    api::ErrorKind::kInvalidArgument),
            path.string() + ": its planned buffers fit board three only split: run etmem fit -o "
                            "FITTED.pte and make the header of that");
  api::PlanOptions p;
  p.model = o;
  p.board = api::Board::Open(board_file.string());
  for (auto [format, name] :
       {std::pair{api::PlanFormat::kText, "text"}, {api::PlanFormat::kHtml, "html"}}) {
    p.format = format;
    EXPECT_EQ(api::Plan(api::Program::Open(out.string()), p).output,
              Etmem("plan " + out.string() + " --runtime 0.3 --board " + board_file.string() +
                    " --format " + name)
                  .out)
        << name;
  }
  // Bad boards: the command line's one line.
  const CliRun unknown = Etmem("fit " + path.string() + " --board nosuchboard");
  EXPECT_EQ("etmem: " + ErrorOf([] { api::Board::Open("nosuchboard"); },
                                api::ErrorKind::kInvalidArgument) + "\n",
            unknown.err);
  EXPECT_EQ(ErrorOf([] { api::Board::FromJson("{", "mine.json"); }, api::ErrorKind::kInvalidArgument),
            "mine.json: not valid JSON");
  const CliRun region = Etmem("fit " + path.string() + " --board stm32wb55 --reserve SRAM9=1K");
  EXPECT_EQ("etmem: " + ErrorOf([] { api::Board::Open("stm32wb55").Reserve("SRAM9=1K"); },
                                api::ErrorKind::kInvalidArgument) + "\n",
            region.err);
  EXPECT_EQ(ErrorOf([&] { api::Fit(report, wb55, "nope"); }, api::ErrorKind::kInvalidArgument),
            path.string() + ": no method 'nope'");
}

// `etmem check` through the public API: the motivating failure line at 0.3, matched and searched.
TEST(ApiCheck, CheckIsTheCommandLines) {
  const fs::path path = MotivatingCnnFile();
  const fs::path log = WriteTemp(
      "api_device.log",
      "E 00:00:00.000 executorch:memory_allocator.h:88] Memory allocation failed: 48B requested "
      "(adjusted for alignment), 44B available\n");
  const api::Program program = api::Program::Open(path.string());
  for (const std::string& flags : {std::string(" --runtime 0.3 --pool 4096"),
                                   std::string(" --runtime 0.3"), std::string(""),
                                   std::string(" --runtime 1.4 --temp nonnull --pool 4096")}) {
    const CliRun cli = Etmem("check " + path.string() + " " + log.string() + flags);
    api::CheckOptions c;
    if (flags.find("0.3") != std::string::npos) c.model.runtime = "0.3";
    if (flags.find("1.4") != std::string::npos) c.model.runtime = "1.4";
    if (flags.find("--pool") != std::string::npos) c.pool = 4096;
    if (flags.find("nonnull") != std::string::npos) {
      c.model.temp = "nonnull";
      c.temp_given = true;
    }
    const api::CheckResult r = api::Check(program, log.string(), c);
    EXPECT_EQ(r.output, cli.out) << flags;
    EXPECT_TRUE(r.error.empty()) << r.error;
    EXPECT_EQ(cli.exit_code, r.reproduced ? 0 : 1) << flags << cli.err;
  }
  const fs::path missing = TempPath("api_missing.log");
  const CliRun cli = Etmem("check " + path.string() + " " + missing.string());
  EXPECT_EQ("etmem: " + ErrorOf([&] { api::Check(program, missing.string()); }, api::ErrorKind::kIo) +
                "\n",
            cli.err);
}

}  // namespace api_test
}  // namespace etmem::test
