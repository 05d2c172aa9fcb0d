// Owns: the in-process benchmarks of etmem's pipeline over the benchmark programs (programs.h):
// read + verify a file (pte::ReadProgram), one (release, target) analysis (RuntimeModel +
// report::BuildReport, as `etmem analyze` does per pair), and all releases x all built-in
// targets over one parsed program. Counters: file bytes/s, values/s and instructions/s.
// Also the public API's call that the Python module makes (api_analyze_json: a program from
// bytes, one pair, rendered as JSON), the baseline of bench/python_bench.py.
// Not: process start-up or printing (bench/compare times the `etmem analyze` process).
#include <benchmark/benchmark.h>
#include <stdlib.h>
#include <sys/stat.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "etmem/abi/abi.h"
#include "etmem/etmem.h"
#include "etmem/pte/read_program.h"
#include "etmem/analysis/report.h"
#include "etmem/runtime/load_plan.h"
#include "etmem/runtime/release.h"
#include "programs.h"

namespace etmem::bench {
namespace {

struct Sizes {
  uint64_t file_bytes = 0;
  uint64_t values = 0;
  uint64_t instructions = 0;
};

Sizes SizesOf(const pte::ProgramView& program) {
  Sizes s{.file_bytes = program.file_size};
  for (const auto& m : program.methods) {
    s.values += m.values.size();
    s.instructions += m.instructions.size();
  }
  return s;
}

// Per-iteration work of `pairs` analyses (or one read) expressed as rates.
void SetCounters(benchmark::State& state, const Sizes& s, uint64_t pairs) {
  using benchmark::Counter;
  state.SetBytesProcessed(static_cast<int64_t>(state.iterations() * s.file_bytes));
  state.counters["values/s"] =
      Counter(static_cast<double>(s.values * pairs), Counter::kIsIterationInvariantRate);
  state.counters["instrs/s"] =
      Counter(static_cast<double>(s.instructions * pairs), Counter::kIsIterationInvariantRate);
  state.counters["values"] = static_cast<double>(s.values);
  state.counters["instrs"] = static_cast<double>(s.instructions);
}

// What `etmem analyze` passes for one pair with its default options (--temp runner).
report::ReportOptions CliOptions(const runtime::RuntimeTraits& release, const abi::Abi& target) {
  report::ReportOptions o;
  o.temp_is_runner_default = true;
  o.load.temp_allocator = release.runner_passes_temp;
  o.pool_align = target.malloc_align;
  return o;
}

pte::ProgramView MustRead(const std::string& path) {
  auto program = pte::ReadProgram(path);
  if (!program) {
    std::fprintf(stderr, "analyze_bench: %s\n", program.error().message.c_str());
    std::exit(1);
  }
  return std::move(program).value();
}

void BM_ReadProgram(benchmark::State& state, const std::string& path) {
  const Sizes sizes = SizesOf(MustRead(path));
  for (auto _ : state) {
    auto program = pte::ReadProgram(path);
    if (!program) state.SkipWithError(program.error().message.c_str());
    benchmark::DoNotOptimize(program);
  }
  SetCounters(state, sizes, 1);
}

// One pair: the newest release on cortex-m, the CLI's default. `keep`: every allocation is
// kept, as JSON and --allocations need; otherwise streamed, as the default text report does.
void BM_AnalyzeOnePair(benchmark::State& state, const std::string& path, bool keep) {
  const pte::ProgramView program = MustRead(path);
  const auto& release = runtime::AllReleases().back();
  const abi::Abi target = *abi::FindBuiltinTarget("cortex-m");
  report::ReportOptions options = CliOptions(release, target);
  options.keep_allocations = keep;
  for (auto _ : state) {
    runtime::RuntimeModel model(release, target);
    auto r = report::BuildReport(program, model, options);
    benchmark::DoNotOptimize(r);
  }
  SetCounters(state, SizesOf(program), 1);
}

// Every release x every built-in target over one parsed program (`--runtime all --target all`,
// as the text table asks for it: report::BuildReports, totals only).
void BM_AnalyzeAllPairs(benchmark::State& state, const std::string& path) {
  const pte::ProgramView program = MustRead(path);
  std::vector<report::PairRequest> pairs;
  for (const auto& release : runtime::AllReleases())
    for (const auto& target : abi::BuiltinTargets()) {
      report::ReportOptions options = CliOptions(release, target);
      options.keep_allocations = false;
      pairs.push_back({&release, target, options});
    }
  for (auto _ : state) {
    auto r = report::BuildReports(program, pairs);
    benchmark::DoNotOptimize(r);
  }
  SetCounters(state, SizesOf(program), pairs.size());
  state.counters["pairs"] = static_cast<double>(pairs.size());
}

// What etmem.analyze(bytes, runtime="0.3", pool=4096) asks of the library: the program read
// from memory (copied and verified), one pair analysed with every allocation kept, rendered as
// `--format json`. `render`: false stops at the report.
void BM_ApiAnalyze(benchmark::State& state, const std::string& path, bool render) {
  std::FILE* f = std::fopen(path.c_str(), "rb");
  std::vector<std::byte> bytes(std::filesystem::file_size(path));
  if (f == nullptr || std::fread(bytes.data(), 1, bytes.size(), f) != bytes.size()) std::exit(1);
  std::fclose(f);
  etmem::api::Options o;
  o.runtime = "0.3";
  o.pool = 4096;
  for (auto _ : state) {
    etmem::api::Report r = etmem::api::Analyze(std::span<const std::byte>(bytes), o);
    if (render) {
      std::string json = r.Render(etmem::api::Format::kJson);
      benchmark::DoNotOptimize(json);
    }
    benchmark::DoNotOptimize(r);
  }
}

// The program-independent part of a pair: laying out the release's types on one ABI.
void BM_RuntimeModel(benchmark::State& state) {
  const auto& release = runtime::AllReleases().back();
  const abi::Abi target = *abi::FindBuiltinTarget("cortex-m");
  for (auto _ : state) {
    runtime::RuntimeModel model(release, target);
    benchmark::DoNotOptimize(model);
  }
}

}  // namespace
}  // namespace etmem::bench

int main(int argc, char** argv) {
  namespace fs = std::filesystem;
  using namespace etmem::bench;
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;

  char dir_template[] = "/tmp/etmem_bench.XXXXXX";
  if (mkdtemp(dir_template) == nullptr) {
    std::perror("analyze_bench: mkdtemp");
    return 1;
  }
  const fs::path dir = dir_template;
  for (const auto& program : BenchPrograms()) {
    const std::string path = (dir / (program.name + ".pte")).string();
    const auto start = std::chrono::steady_clock::now();
    etmem::Status written = WriteBenchProgram(program, path);
    if (!written) {
      std::fprintf(stderr, "analyze_bench: %s\n", written.error().message.c_str());
      fs::remove_all(dir);
      return 1;
    }
    struct stat st {};
    stat(path.c_str(), &st);
    std::fprintf(stderr, "built %s: %jd bytes (%jd allocated on disk) in %.2f s\n",
                 program.name.c_str(), static_cast<intmax_t>(st.st_size),
                 static_cast<intmax_t>(st.st_blocks) * 512,
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
    benchmark::RegisterBenchmark(("read/" + program.name).c_str(), BM_ReadProgram, path)
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(("analyze_1pair/" + program.name).c_str(), BM_AnalyzeOnePair,
                                 path, false)
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(("analyze_1pair_kept/" + program.name).c_str(),
                                 BM_AnalyzeOnePair, path, true)
        ->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark(("analyze_50pairs/" + program.name).c_str(),
                                 BM_AnalyzeAllPairs, path)
        ->Unit(benchmark::kMicrosecond);
    if (program.name == "motivating_cnn") {
      benchmark::RegisterBenchmark(("api_analyze_json/" + program.name).c_str(), BM_ApiAnalyze,
                                   path, true)
          ->Unit(benchmark::kMicrosecond);
      benchmark::RegisterBenchmark(("api_analyze/" + program.name).c_str(), BM_ApiAnalyze, path,
                                   false)
          ->Unit(benchmark::kMicrosecond);
    }
  }
  benchmark::RegisterBenchmark("runtime_model/newest/cortex-m", BM_RuntimeModel)
      ->Unit(benchmark::kMicrosecond);
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  fs::remove_all(dir);
  return 0;
}
