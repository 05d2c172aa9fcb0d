// Owns: writing the generated seeds of the fuzz corpora (fuzz/run.sh calls it): the builder's
// scenarios as programs, the built-in targets as target-description files, the device logs the
// recording allocator would write for those programs' loads (fitting and failing), the Arm
// runner's memory report and the Pico 2 example's usage line around their figures, and budget
// files around their figures.
//   fuzz_seeds CORPUS_DIR   (writes CORPUS_DIR/{pte,target_file,device_log,budget}/)
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "etmem/abi/abi.h"
#include "etmem/pte/read_program.h"
#include "etmem/analysis/report.h"
#include "etmem/runtime/load_plan.h"
#include "etmem/runtime/release.h"
#include "etmem/sim/simulate.h"
#include "etmem/testing/scenarios.h"

namespace {

using namespace etmem;

void Write(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

std::vector<std::pair<std::string, std::vector<uint8_t>>> Programs() {
  using namespace testing;
  std::vector<std::pair<std::string, ProgramBuilder>> builders;
  builders.emplace_back("every_value_kind", ProgramWithEveryValueKind());
  builders.emplace_back("dynamic_shapes", ProgramWithDynamicShapes());
  builders.emplace_back("xnnpack_inline", ProgramWithDelegate("XnnpackBackend"));
  builders.emplace_back("unknown_backend_segment", ProgramWithDelegate("EtmemNoSuchBackend", true));
  builders.emplace_back("two_methods", ProgramWithTwoMethods());
  builders.emplace_back("control_flow", ProgramWithControlFlow());
  builders.emplace_back("external_data", ProgramWithExternalData());
  builders.emplace_back("motivating_cnn", MotivatingCnn());
  std::vector<std::pair<std::string, std::vector<uint8_t>>> out;
  for (auto& [name, builder] : builders) out.emplace_back(name, builder.Build());
  return out;
}

void WritePrograms(const std::string& dir) {
  for (const auto& [name, bytes] : Programs())
    Write(dir + "/" + name + ".pte", std::string(bytes.begin(), bytes.end()));
}

// What include/etmem/recording_allocator.h logs for the method allocator of `m`'s load into a
// pool of `pool` bytes (the whole requirement when empty), with a logger's prefix on some
// lines and the runtime's failure line after a failed call.
std::string DeviceLog(const report::MethodReport& m, uint32_t base_align,
                      std::optional<uint64_t> pool) {
  const auto& requests = m.plan.requests;
  const sim::SimResult s = sim::Simulate(requests, {base_align, pool}, {base_align, std::nullopt});
  std::string log = "boot\n[00:00.001] ETMEM P " + std::to_string(pool.value_or(m.method_bytes)) +
                    " " + std::to_string(base_align) + "\n";
  size_t call = 0;
  for (size_t i = 0; i < requests.size(); ++i) {
    if (requests[i].pool != runtime::PoolKind::kMethod) continue;
    const sim::Placement& p = s.placements[i];
    log += (call % 3 == 1 ? "I app.cpp:12] " : "") + std::string("ETMEM A ") +
           std::to_string(call) + " " + std::to_string(requests[i].size) + " " +
           std::to_string(requests[i].align) + " " +
           (p.failed ? std::string("FAIL") : std::to_string(p.offset)) + "\r\n";
    ++call;
    for (const sim::AllocationFailure& f : s.failures)
      if (f.request == i) log += "E executorch:memory_allocator.h:94] " + f.log + "\n";
  }
  return log + "ETMEM T " + std::to_string(s.method_bytes) + " " + std::to_string(call) + "\n";
}

// The Arm runner's memory report (v1.4.1 format, through its PAL's prefix) with `loaded` as
// load_method's bytes and made-up runner figures around it.
std::string ArmReport(uint64_t loaded) {
  const std::string p = "I [executorch:arm_executor_runner.cpp:904 log_mem_status()] ";
  const uint64_t planned = 33168, input = 16, used = planned + loaded + input;
  return p + "model_pte_program_size:     9000 bytes.\n" + p + "method_allocator_used:     " +
         std::to_string(used) + " / 62914560  free: " + std::to_string(62914560 - used) +
         " ( used: 0 % ) \n" + p + "method_allocator_planned:  " + std::to_string(planned) +
         " bytes\r\n" + p + "method_allocator_loaded:   " + std::to_string(loaded) + " bytes\n" +
         p + "method_allocator_input:    " + std::to_string(input) + " bytes\n" + p +
         "method_allocator_executor: 0 bytes\n" + p + "temp_allocator:            2097152\n";
}

void WriteDeviceLogs(const std::string& dir) {
  const abi::Abi target = *abi::FindBuiltinTarget("cortex-m");
  for (const auto& [name, bytes] : Programs()) {
    auto program = pte::ReadProgramBytes(bytes, name + ".pte");
    if (!program) continue;
    for (const char* release : {"0.3", "1.4.1"}) {
      const runtime::RuntimeModel model(**runtime::FindRelease(release), target);
      report::ReportOptions o;
      o.pool_align = target.malloc_align;
      auto r = report::BuildReport(*program, model, o);
      if (!r || r->methods.empty()) continue;
      const report::MethodReport& m = r->methods.front();
      const std::string stem = dir + "/" + name + "_" + release;
      Write(stem + ".log", DeviceLog(m, o.pool_align, std::nullopt));
      Write(stem + "_arm_report.log", ArmReport(m.method_bytes));
      Write(stem + "_pico2.log",
            "\xF0\x9F\x93\x8A Memory usage after method load:\n"
            "   Method allocator: " +
                std::to_string(m.method_bytes) +
                " / 204800 bytes used\n   Activation pool: 204800 bytes allocated\n");
      if (m.method_bytes > 1)
        Write(stem + "_fails.log", DeviceLog(m, o.pool_align, m.method_bytes / 2));
    }
  }
}

// Budget files around the figures of the motivating program; the last one's limits are over.
void WriteBudgets(const std::string& dir) {
  Write(dir + "/board.budget", "# STM32WB55\nram = 192K   # SRAM1\n  flash=1M\n");
  Write(dir + "/ram_only.budget", "ram = 4266\r\n");
  Write(dir + "/suffixes.budget", "\n# sizes\nflash = 256KiB\nram=64kb\n");
  Write(dir + "/tight.budget", "ram = 1\nflash = 0\n");
}
void WriteTargets(const std::string& dir) {
  for (const abi::Abi& a : abi::BuiltinTargets()) {
    const nlohmann::json j = {
        {"name", a.name},
        {"description", a.description},
        {"compiler", a.compiler},
        {"pointer", {a.pointer.size, a.pointer.align}},
        {"size_t", {a.size_type.size, a.size_type.align}},
        {"int64", {a.int64.size, a.int64.align}},
        {"double", {a.float64.size, a.float64.align}},
        {"max_align", a.max_align},
        {"malloc_align", a.malloc_align},
    };
    Write(dir + "/" + a.name + ".json", j.dump(1));
  }
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s CORPUS_DIR\n", argv[0]);
    return 2;
  }
  const std::string corpus = argv[1];
  for (const char* kind : {"pte", "target_file", "device_log", "budget"})
    std::filesystem::create_directories(corpus + "/" + kind);
  WritePrograms(corpus + "/pte");
  WriteTargets(corpus + "/target_file");
  WriteDeviceLogs(corpus + "/device_log");
  WriteBudgets(corpus + "/budget");
  return 0;
}
