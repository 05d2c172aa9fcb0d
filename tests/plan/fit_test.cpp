// etmem fit: placement properties on random programs (the builder's) and random region sets -
// every fit reported is valid (the written program's plan passes etmem's validation, every piece
// lies within its region's free bytes, no two overlap, the method pool is unchanged) and the
// reported shortfall is never below the lower bound (so "fits" never contradicts it) - and the
// command line on the motivating CNN.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <random>
#include <sstream>

#include <nlohmann/json.hpp>

#include "etmem/api/internal.h"
#include "etmem/board/fit_program.h"
#include "etmem/etmem.h"
#include "etmem/plan/check.h"
#include "etmem/plan/lifetimes.h"
#include "etmem/plan/rewrite.h"
#include "etmem/pte/read_program.h"
#include "etmem/testing/program_builder.h"
#include "etmem/testing/scenarios.h"
#include "etmem_cli.h"

namespace etmem {
namespace fit_test {

using board::Board;
using board::ProgramFit;

// A chain of relu calls over planned tensors of random sizes; some tensors share bytes with
// ones whose live ranges do not meet (a sound, compact plan), in one or two buffers.
std::vector<uint8_t> RandomProgram(std::mt19937_64& rng) {
  testing::ProgramBuilder program;
  testing::MethodBuilder& m = program.Method("forward");
  const int op = m.Operator("aten::relu", "out");
  const size_t n = 2 + rng() % 12;
  const uint32_t buffers = 1 + static_cast<uint32_t>(rng() % 2);
  std::vector<int64_t> sizes(buffers, 0);
  std::vector<int> values;
  // Tensor i is live at instructions i-1 and i: tensors i and i+2 never meet, so they alternate
  // between two slots per buffer.
  std::vector<std::array<uint64_t, 2>> slot(buffers, {0, 0});
  std::vector<std::pair<uint32_t, int32_t>> shape(n);
  for (size_t i = 0; i < n; ++i) {
    const uint32_t id = 1 + static_cast<uint32_t>(rng() % buffers);
    shape[i] = {id, 1 + static_cast<int32_t>(rng() % 3000)};
    const uint64_t bytes = 4 * static_cast<uint64_t>(shape[i].second);
    auto& s = slot[id - 1][i % 2];
    s = std::max<uint64_t>(s, (bytes + 15) / 16 * 16);
  }
  for (size_t i = 0; i < n; ++i) {
    const uint32_t id = shape[i].first;
    const uint64_t offset = i % 2 ? slot[id - 1][0] : 0;
    values.push_back(
        m.Tensor({.sizes = {shape[i].second}, .placement = testing::Placement{id, offset}}));
    sizes[id - 1] = static_cast<int64_t>(slot[id - 1][0] + slot[id - 1][1]);
  }
  for (auto& s : sizes) s = std::max<int64_t>(s, 16);
  m.Inputs({values.front()});
  m.Outputs({values.back()});
  for (size_t i = 0; i + 1 < n; ++i) m.KernelCall(op, {values[i], values[i + 1], values[i + 1]});
  m.PlannedBufferSizes(sizes);
  return program.Build();
}

Board RandomBoard(std::mt19937_64& rng, uint64_t scale) {
  Board b;
  b.name = "random";
  b.file = "random";
  const size_t regions = 1 + rng() % 4;
  for (size_t r = 0; r < regions; ++r) {
    board::Region region;
    region.name = "R" + std::to_string(r);
    region.size = 16 + rng() % std::max<uint64_t>(scale, 32);
    region.base_align = 1u << (2 + rng() % 3);
    b.regions.push_back(region);
  }
  return b;
}

// Checks one fit: the placement's geometry, the bound, and the written program.
void CheckFit(const api::Program& program, const api::Report& report, const ProgramFit& fit) {
  const board::Placement& p = fit.result.best;
  EXPECT_GE(p.short_bytes, fit.result.bound.short_bytes);
  if (p.fits()) EXPECT_EQ(fit.result.bound.short_bytes, 0u);
  // Every piece placed, every split part once; within a region no two overlap.
  std::vector<size_t> parts(fit.pieces.size(), 1);
  for (const board::Split& s : p.splits) parts[s.piece] = s.part_bytes.size();
  std::vector<std::vector<size_t>> seen(fit.pieces.size());
  uint64_t short_bytes = 0;
  for (size_t r = 0; r < fit.regions.size(); ++r) {
    std::vector<std::pair<uint64_t, uint64_t>> spans;
    uint64_t end = 0;
    for (const board::Placed& q : p.placed) {
      if (q.region != r) continue;
      seen[q.piece].push_back(q.part);
      const uint64_t a = std::min<uint64_t>(q.align, fit.regions[r].base_align);
      EXPECT_EQ(q.offset % a, 0u);
      if (q.align > fit.regions[r].base_align)
        EXPECT_GE(q.padding, q.align - fit.regions[r].base_align);
      spans.emplace_back(q.offset, q.offset + q.bytes);
      end = std::max(end, q.offset + q.bytes);
    }
    std::sort(spans.begin(), spans.end());
    for (size_t i = 1; i < spans.size(); ++i) EXPECT_LE(spans[i - 1].second, spans[i].first);
    EXPECT_EQ(end, p.used[r]);
    if (end > fit.regions[r].free) short_bytes += end - fit.regions[r].free;
  }
  EXPECT_EQ(short_bytes, p.short_bytes);
  for (size_t i = 0; i < fit.pieces.size(); ++i) {
    std::sort(seen[i].begin(), seen[i].end());
    ASSERT_EQ(seen[i].size(), parts[i]) << fit.pieces[i].name;
    for (size_t k = 0; k < parts[i]; ++k) EXPECT_EQ(seen[i][k], k);
  }
  if (!fit.edit) return;
  // The split program: sound, each part the size placed, the method pool unchanged.
  auto bytes = plan::RewritePlan(api::Internal(program), {*fit.edit});
  ASSERT_TRUE(bytes) << bytes.error().message;
  auto back = pte::ReadProgramBytes(*bytes, "fitted");
  ASSERT_TRUE(back) << back.error().message;
  auto l = plan::ComputeLifetimes(back->methods.at(0));
  ASSERT_TRUE(l);
  EXPECT_TRUE(plan::Validate(*l).sound());
  for (const board::Split& s : p.splits)
    for (size_t k = 0; k < s.part_bytes.size(); ++k)
      EXPECT_EQ(l->planned_buffer_sizes.at(fit.MemoryIdOf(s.piece, k)),
                static_cast<int64_t>(s.part_bytes[k]));
  const api::Report again = api::Analyze(api::Program::FromBytes(bytes->data(), bytes->size()));
  EXPECT_EQ(again.methods().at(0).method_pool_bytes, report.methods().at(0).method_pool_bytes);
}

TEST(Fit, RandomProgramsOnRandomBoardsAreValidAndNeverBelowTheBound) {
  std::mt19937_64 rng(1414);
  size_t fits = 0, splits = 0, proven = 0;
  for (int round = 0; round < 300; ++round) {
    const std::vector<uint8_t> bytes = RandomProgram(rng);
    const api::Program program = api::Program::FromBytes(bytes.data(), bytes.size(), "random.pte");
    const api::Report report = api::Analyze(program);
    const uint64_t planned = report.methods().at(0).planned_bytes;
    const Board b = RandomBoard(rng, planned + report.methods().at(0).method_pool_bytes);
    auto fit = board::FitProgram(api::Internal(report), b);
    ASSERT_TRUE(fit) << fit.error().message;
    SCOPED_TRACE("round " + std::to_string(round));
    CheckFit(program, report, *fit);
    fits += fit->result.best.fits();
    splits += fit->result.best.fits() && fit->edit.has_value();
    proven += fit->result.bound.short_bytes > 0;
  }
  // The generator reaches every outcome.
  EXPECT_GT(fits, 20u);
  EXPECT_GT(splits, 5u);
  EXPECT_GT(proven, 20u);
}

TEST(Fit, AllowsNothingTheBoundForbids) {
  // Exhaustive on small cases: two pools and one unsplittable buffer over two regions; the
  // search is exhaustive there, so "does not fit" happens exactly when no assignment fits.
  std::mt19937_64 rng(7);
  for (int round = 0; round < 500; ++round) {
    std::vector<board::RegionSpace> regions = {{"A", rng() % 300, 8}, {"B", rng() % 300, 4}};
    std::vector<board::Piece> pieces(3);
    for (auto& p : pieces) {
      p.bytes = rng() % 200;
      p.align = 1u << (rng() % 5);
    }
    const board::FitResult r = board::Fit(regions, pieces);
    bool any = false;
    for (int a = 0; a < 8; ++a) {
      std::vector<std::pair<uint64_t, uint32_t>> in[2];
      for (int k = 0; k < 3; ++k) in[(a >> k) & 1].emplace_back(pieces[k].bytes, pieces[k].align);
      any |= board::RegionCost(8, in[0]) <= regions[0].free &&
             board::RegionCost(4, in[1]) <= regions[1].free;
    }
    EXPECT_EQ(r.best.fits(), any) << round;
    EXPECT_GE(r.best.short_bytes, r.bound.short_bytes);
  }
}

TEST(FitCli, TheMotivatingCnnFitsTheStm32wb55WithTheApplicationsReservation) {
  const auto r = test::Etmem("fit " + test::MotivatingCnnFile().string() +
                             " --board stm32wb55 --reserve SRAM1=24K --runtime 0.3");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("method allocator pool"), std::string::npos);
  EXPECT_NE(r.out.find("\nfits\n"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("4266 B"), std::string::npos) << r.out;
}

TEST(FitCli, ABufferTooLargeForAnyRegionIsSplitAndTheWrittenProgramLoadsTheSame) {
  const test::fs::path board = test::TempPath("three.json");
  std::ofstream(board) << R"({"name": "three", "regions": [
      {"name": "A", "size": "20K"}, {"name": "B", "size": "20K"}, {"name": "C", "size": "20K"}]})";
  const test::fs::path out = test::TempPath("fitted.pte");
  const auto r = test::Etmem("fit " + test::MotivatingCnnFile().string() + " --board " +
                             board.string() + " -o " + out.string());
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_NE(r.out.find("is re-planned into 2 buffers"), std::string::npos) << r.out;
  const auto again = test::Etmem("fit " + out.string() + " --board " + board.string());
  EXPECT_EQ(again.exit_code, 0) << again.out;
  EXPECT_EQ(again.out.find("is re-planned into"), std::string::npos) << again.out;
  const auto a = test::Etmem("analyze " + test::MotivatingCnnFile().string());
  const auto b = test::Etmem("analyze " + out.string());
  EXPECT_EQ(a.out.substr(a.out.find("Method allocator pool"), 60),
            b.out.substr(b.out.find("Method allocator pool"), 60));
}

TEST(FitCli, TooSmallABoardIsShortByAtLeastTheBound) {
  const test::fs::path board = test::TempPath("tiny.json");
  std::ofstream(board) << R"({"name": "tiny", "regions": [{"name": "A", "size": "8K"}]})";
  const auto r =
      test::Etmem("fit " + test::MotivatingCnnFile().string() + " --board " + board.string());
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.out.find("does not fit: "), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("lower bound: no placement can exist"), std::string::npos) << r.out;
}

TEST(FitCli, BadBoardsAndReservationsAreOneLineErrors) {
  const test::fs::path board = test::TempPath("bad.json");
  std::ofstream(board) << R"({"name": "bad", "regions": [{"name": "A", "size": "twelve"}]})";
  for (const std::string& args : {" --board " + board.string(), std::string(" --board nosuchboard"),
                                  std::string(" --board stm32wb55 --reserve SRAM9=1K")}) {
    const auto r = test::Etmem("fit " + test::MotivatingCnnFile().string() + args);
    EXPECT_EQ(r.exit_code, 2) << args;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  }
}

// The board's core names the M-profile extension CMSIS-NN is built for where the target does not
// (the built-in cortex-m assumes MVE): the Cortex-M backend's run-time scratch, and so the temp
// pool fit places, is the one a target file saying the core's extension gives; the fit's temp
// pool is the larger of the load and run-time peaks (issue 22), not the load peak alone.
TEST(Fit, TheBoardsCoreSizesTheRunTimeTempPoolItPlaces) {
  const std::vector<uint8_t> bytes = testing::NamedScenarioProgram("cortex_m_conv").Build();
  const api::Program program = api::Program::FromBytes(bytes.data(), bytes.size(), "conv.pte");
  api::Options o;
  o.runtime = "1.2.0";  // CMSIS-NN's scratch comes from the temp allocator at 1.1-1.3
  const test::fs::path dsp_target = test::TempPath("m4.json");
  std::ofstream(dsp_target) << R"({"name": "m4", "pointer": [4, 4], "size_t": [4, 4],
      "int64": [8, 8], "double": [8, 8], "m_extension": "dsp"})";
  const api::Board wb55 = api::Board::Open("stm32wb55");
  ASSERT_EQ(wb55.core_m_extension(), "dsp");
  const report::MethodReport assumed = api::Internal(api::Analyze(program, o)).methods.at(0);
  const report::MethodReport on_board =
      api::Internal(api::Analyze(program, o, wb55)).methods.at(0);
  api::Options said = o;
  said.target = dsp_target.string();
  const report::MethodReport dsp = api::Internal(api::Analyze(program, said)).methods.at(0);
  ASSERT_TRUE(on_board.run_temp.known());
  EXPECT_EQ(on_board.run_temp.peak_bytes, dsp.run_temp.peak_bytes);
  EXPECT_NE(on_board.run_temp.peak_bytes, assumed.run_temp.peak_bytes);  // MVE's paths differ
  EXPECT_NE(on_board.run_temp.assumed_brief.find("board stm32wb55's core, Cortex-M4F"),
            std::string::npos)
      << on_board.run_temp.assumed_brief;
  // What fit places is that figure, at least the load peak.
  const api::BoardFit fit = api::Fit(api::Analyze(program, o, wb55), wb55);
  bool placed = false;
  for (const api::FitPlacement& p : fit.placement()) {
    if (p.piece != "temp allocator pool") continue;
    placed = true;
    EXPECT_EQ(p.bytes, std::max(on_board.temp_load_peak_bytes, on_board.run_temp.peak_bytes));
    EXPECT_GT(p.bytes, on_board.temp_load_peak_bytes);  // the run-time peak sets it here
  }
  EXPECT_TRUE(placed) << fit.Render();
  // The command line says where the extension came from, and a target that says otherwise than
  // the board's core is one line naming both.
  const test::fs::path file = test::TempPath("conv.pte");
  std::ofstream(file, std::ios::binary).write(reinterpret_cast<const char*>(bytes.data()),
                                              static_cast<std::streamsize>(bytes.size()));
  const auto r = test::Etmem("fit " + file.string() + " --board stm32wb55 --runtime 1.2.0");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("CMSIS-NN built for m_extension dsp (board stm32wb55's core, Cortex-M4F)"),
            std::string::npos)
      << r.out;
  const test::fs::path mve_target = test::TempPath("m55.json");
  std::ofstream(mve_target) << R"({"name": "m55", "pointer": [4, 4], "size_t": [4, 4],
      "int64": [8, 8], "double": [8, 8], "m_extension": "mve"})";
  const auto clash = test::Etmem("fit " + file.string() + " --board stm32wb55 --target " +
                                 mve_target.string());
  EXPECT_EQ(clash.exit_code, 2);
  EXPECT_EQ(std::count(clash.err.begin(), clash.err.end(), '\n'), 1) << clash.err;
  EXPECT_NE(clash.err.find("board stm32wb55: its core (Cortex-M4F) has M-profile extension dsp"),
            std::string::npos)
      << clash.err;
}

TEST(FitCli, ListBoardsNamesEveryBuiltinBoard) {
  const auto r = test::Etmem("list boards");
  ASSERT_EQ(r.exit_code, 0);
  for (const auto& b : board::BuiltinBoards()) EXPECT_NE(r.out.find(b->name), std::string::npos);
}

TEST(FitCli, HeaderWithABoardGivesSectionsAndALinkerFragment) {
  const test::fs::path ld = test::TempPath("pools.ld");
  const auto r =
      test::Etmem("header " + test::MotivatingCnnFile().string() +
                  " --board stm32wb55 --reserve SRAM1=24K --linker-script " + ld.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("__attribute__((section(\".etmem_sram1\"), aligned("), std::string::npos)
      << r.out;
  const std::string fragment = test::ReadFile(ld);
  EXPECT_NE(fragment.find("SRAM1 (rw) : ORIGIN = 0x20000000, LENGTH = 0x30000"), std::string::npos)
      << fragment;
  EXPECT_NE(fragment.find("KEEP(*(.etmem_sram1))"), std::string::npos);
}

TEST(FitCli, PlanShowsASplitPlanRegionByRegion) {
  const test::fs::path board = test::TempPath("three2.json");
  std::ofstream(board) << R"({"name": "three", "regions": [
      {"name": "A", "size": "20K"}, {"name": "B", "size": "20K"}, {"name": "C", "size": "20K"}]})";
  const test::fs::path out = test::TempPath("fitted2.pte");
  ASSERT_EQ(test::Etmem("fit " + test::MotivatingCnnFile().string() + " --board " + board.string() +
                        " -o " + out.string())
                .exit_code,
            0);
  const auto text = test::Etmem("plan " + out.string() + " --board " + board.string());
  ASSERT_EQ(text.exit_code, 0) << text.err;
  EXPECT_NE(text.out.find("region by region"), std::string::npos);
  EXPECT_NE(text.out.find("planned buffer 2"), std::string::npos) << text.out;
  const auto html =
      test::Etmem("plan " + out.string() + " --format html --board " + board.string());
  ASSERT_EQ(html.exit_code, 0) << html.err;
  EXPECT_NE(html.out.find("<section class=\"board\">"), std::string::npos);
}

// docs/boards.md: each block after "<!-- etmem-board-example -->" is a shell session ("$ cat
// FILE" then its lines, written to FILE; "$ etmem ARGS" then exactly what etmem prints), run in
// a directory holding the builder's CNN as cnn.pte, in order.
TEST(FitDocs, TheExamplesAreWhatEtmemPrints) {
  const std::string doc = test::ReadFile(test::fs::path(ETMEM_SOURCE_DIR) / "docs/boards.md");
  const test::fs::path dir = test::TempPath("board_docs");
  test::fs::create_directories(dir);
  test::fs::copy_file(test::MotivatingCnnFile(), dir / "cnn.pte",
                      test::fs::copy_options::overwrite_existing);
  const std::string marker = "<!-- etmem-board-example -->\n```\n";
  int commands = 0;
  for (size_t at = doc.find(marker); at != std::string::npos; at = doc.find(marker, at + 1)) {
    const size_t begin = at + marker.size();
    const std::string block = doc.substr(begin, doc.find("```", begin) - begin);
    std::vector<std::pair<std::string, std::string>> steps;
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
        continue;
      }
      ASSERT_TRUE(command.starts_with("etmem ")) << command;
      const auto r =
          test::Shell("cd " + dir.string() + " && " + ETMEM_BINARY + " " + command.substr(6));
      EXPECT_EQ(r.out, text) << command;
      ++commands;
    }
  }
  EXPECT_GE(commands, 4);
}

// The pools fit places hold together (issue 37 item 3): with the temp pool at the size fit gives
// it, the method pool is the one fit gives. On main a temp pool below a kernel call's worst case
// n_args x (sizeof(TensorMeta) + 16) sends that call's metadata to the method allocator, so the
// temp pool is never placed below that; from 1.0.0 a 0 B temp pool (--temp-pool 0) sends all of it.
TEST(FitCli, TheTempPoolFitPlacesKeepsTheMethodPoolItPlaces) {
  for (const std::string extra : {"--runtime main", "--runtime 1.4.1", "--runtime 1.4.1 --temp-pool 0",
                                  "--runtime main --temp-pool 0"}) {
    SCOPED_TRACE(extra);
    const auto r = test::Etmem("fit " + test::MotivatingCnnFile().string() +
                               " --board stm32wb55 --runner arm-baremetal --format json " + extra);
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    uint64_t method = 0, temp = 0;
    for (const auto& p : j.at("placement")) {
      if (p.at("symbol") == "etmem_method_allocation_pool") method = p.at("bytes");
      if (p.at("symbol") == "etmem_temp_allocation_pool") temp = p.at("bytes");
    }
    ASSERT_GT(method, 0u);
    api::Options o;
    o.runtime = extra.find("main") != std::string::npos ? "main" : "1.4.1";
    o.runner = "arm-baremetal";
    o.temp_pool = temp;
    const api::Report a = api::Analyze(api::Program::Open(test::MotivatingCnnFile().string()), o);
    EXPECT_EQ(a.methods()[0].method_pool_bytes, method) << "temp pool " << temp;
    if (extra.find("--temp-pool 0") != std::string::npos) EXPECT_EQ(temp, 0u);
  }
}

}  // namespace fit_test
}  // namespace etmem
