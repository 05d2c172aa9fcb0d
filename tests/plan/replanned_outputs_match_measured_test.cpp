// Re-planned and fitted programs compute what the originals compute. tests/measured/
// x86_64_computed_outputs.json holds, per program and method, the sha256 of every output the
// real ExecuTorch v1.4.1 runtime with its real portable kernels computed on fixed inputs, for
// the original and for the program `etmem replan` (default options) or `etmem fit` (a board
// that forces a split, or a shipped board where fit splits) wrote from it (how: its
// "how_measured" field). This test writes the same programs again, in process, requires the
// recorded bytes (so the record is about today's rewriter), and holds the record to: outputs
// identical bit for bit, and not trivially so (finite, not all one value); every real program
// etmem can re-plan and every builder program the real kernels can execute covered by a replan
// and by a fit whose plan really is split (two or more planned buffers).
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "etmem/api/internal.h"
#include "etmem/base/sha256.h"
#include "etmem/board/board.h"
#include "etmem/board/fit_program.h"
#include "etmem/plan/rewrite.h"
#include "etmem/pte/mapped_file.h"
#include "etmem/pte/read_program.h"
#include "etmem_cli.h"
#include "measured.h"

namespace etmem {
namespace measured_outputs_test {

using nlohmann::json;

const json& Measured() {
  static const json kMeasured = test::ReadMeasured("x86_64_computed_outputs.json");
  return kMeasured;
}

std::string Key(const json& e) {
  return e["program_set"].get<std::string>() + "." + e["program"].get<std::string>();
}

const api::Program& Original(const json& e) {
  static std::map<std::string, api::Program> cache;
  auto it = cache.find(Key(e));
  if (it == cache.end()) it = cache.emplace(Key(e), test::MeasuredProgram(e)).first;
  return it->second;
}

// The board a fit record names: the small board it records, or a shipped board with the
// reservations it records (REGION=BYTES, as `etmem fit --reserve` takes them).
board::Board RecordedBoard(const json& e) {
  if (e.contains("board")) {
    auto b = board::ParseBoard(e["board"].dump(), Key(e) + " board");
    EXPECT_TRUE(b) << b.error().message;
    return b ? *b : board::Board{};
  }
  auto b = board::SelectBoard(e["variant"].get<std::string>().substr(4));
  EXPECT_TRUE(b) << b.error().message;
  if (!b) return {};
  for (const json& r : e.value("reserve", json::array())) EXPECT_TRUE(board::AddReservation(*b, r));
  return *b;
}

// The bytes the record's variant writes, as the CLI would (see how_measured for the options).
std::vector<uint8_t> Transformed(const json& e) {
  static std::map<std::string, std::vector<uint8_t>> cache;
  const std::string variant = e["variant"];
  const std::string key = Key(e) + " " + variant + " " + e["method"].get<std::string>() +
                          (e.contains("reserve") ? e["reserve"].dump() : "");
  if (auto it = cache.find(key); it != cache.end()) return it->second;
  const api::Program& program = Original(e);
  std::vector<uint8_t> bytes;
  if (variant == "replan") {
    bytes = test::Replanned(api::Internal(program));
  } else {
    api::Options o;
    if (e.contains("board")) {  // the small board was fitted at 1.4.1 without a temp allocator
      o.runtime = "1.4";
      o.temp = "null";
    }
    if (e.value("multi_method", false)) o.method = e["method"];
    const api::Report report = api::Analyze(program, o);
    auto fit = board::FitProgram(api::Internal(report), RecordedBoard(e), o.method);
    EXPECT_TRUE(fit) << key;
    if (fit && fit->edit) {
      auto written = plan::RewritePlan(api::Internal(program), {*fit->edit});
      EXPECT_TRUE(written) << key;
      if (written) bytes = *written;
    }
  }
  return cache[key] = std::move(bytes);
}

TEST(ComputedOutputs, TransformedProgramsComputeWhatTheOriginalsCompute) {
  const bool have_real = test::HaveRealModels();
  std::set<std::string> replanned, split, executable, malformed;
  size_t compared = 0, nontrivial_builder_split = 0, nontrivial_builder_replan = 0;
  for (const json& e : Measured()["results"]) {
    if (e["program_set"] != "builder" && !have_real) continue;
    const std::string what = Key(e) + " " + e["variant"].get<std::string>() + " " +
                             e.value("method", std::string());
    if (e.value("malformed", false)) {
      // etmem replan refuses the file (so does the runtime's Program::load); so must the reader.
      EXPECT_FALSE(pte::ReadProgram(test::RealModel(e["program"].get<std::string>()).string()))
          << what << ": recorded as refused, but it reads now";
      malformed.insert(Key(e));
      continue;
    }
    if (!e.value("executable", false)) continue;  // the record says why (the original fails alike)
    executable.insert(Key(e));
    ASSERT_EQ(Sha256Hex(Transformed(e)), e["transformed_sha256"])
        << what << ": etmem writes other bytes now";
    EXPECT_EQ(Sha256Hex(api::Internal(Original(e)).file->bytes()), e["input_sha256"]) << what;
    EXPECT_TRUE(e["identical"].get<bool>()) << what << ": the outputs differ";
    EXPECT_EQ(e["original_output_sha256"], e["transformed_output_sha256"]) << what;
    const bool split_fit =
        e["variant"] != "replan" && e["transformed_planned_buffer_sizes"].size() >= 2;
    if (e.contains("trivial_reason")) {
      // Only builder programs whose weights are counter bytes (NaN or saturated outputs); the
      // comparison still holds bit for bit, but says little.
      EXPECT_EQ(e["program_set"], "builder") << what << ": " << e["trivial_reason"];
      EXPECT_FALSE(e["outputs_nontrivial"].get<bool>()) << what;
    } else {
      EXPECT_TRUE(e["outputs_nontrivial"].get<bool>()) << what;
      if (e["program_set"] == "builder") {
        nontrivial_builder_replan += e["variant"] == "replan";
        nontrivial_builder_split += split_fit;
      }
    }
    if (e["variant"] == "replan") replanned.insert(Key(e));
    if (split_fit) split.insert(Key(e));
    ++compared;
  }
  // Coverage: every real program (but the malformed ones) and every executable builder program
  // has a replan and a split fit on record.
  if (have_real)
    for (const auto& f : std::filesystem::directory_iterator(test::RealModels()))
      if (f.path().extension() == ".pte") {
        const std::string key = "real." + f.path().stem().string();
        if (malformed.count(key)) continue;
        EXPECT_TRUE(executable.count(key)) << key << ": no executable record";
      }
  for (const std::string& key : executable) {
    EXPECT_TRUE(replanned.count(key)) << key << ": no replan compared";
    EXPECT_TRUE(split.count(key)) << key << ": no split fit compared";
  }
  // At least one builder program computes finite, varied outputs through a replan and a split.
  EXPECT_GE(nontrivial_builder_replan, 1u);
  EXPECT_GE(nontrivial_builder_split, 1u);
  EXPECT_GE(compared, have_real ? 60u : 4u);
  if (!have_real)
    GTEST_LOG_(INFO) << "../shared/models/real absent: the real programs are skipped";
}

}  // namespace measured_outputs_test
}  // namespace etmem
