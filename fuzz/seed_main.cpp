// Owns: writing the generated seeds of the fuzz corpora (fuzz/run.sh calls it): the builder's
// scenarios as programs, and the built-in targets as target-description files.
//   fuzz_seeds PTE_DIR TARGET_DIR
#include <cstdio>
#include <fstream>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "etmem/abi/abi.h"
#include "etmem/testing/scenarios.h"

namespace {

using namespace etmem;

void Write(const std::string& path, const std::string& bytes) {
  std::ofstream(path, std::ios::binary) << bytes;
}

void WritePrograms(const std::string& dir) {
  using namespace testing;
  std::vector<std::pair<std::string, ProgramBuilder>> programs;
  programs.emplace_back("every_value_kind", ProgramWithEveryValueKind());
  programs.emplace_back("dynamic_shapes", ProgramWithDynamicShapes());
  programs.emplace_back("xnnpack_inline", ProgramWithDelegate("XnnpackBackend"));
  programs.emplace_back("unknown_backend_segment", ProgramWithDelegate("EtmemNoSuchBackend", true));
  programs.emplace_back("two_methods", ProgramWithTwoMethods());
  programs.emplace_back("control_flow", ProgramWithControlFlow());
  programs.emplace_back("external_data", ProgramWithExternalData());
  programs.emplace_back("motivating_cnn", MotivatingCnn());
  for (auto& [name, builder] : programs) {
    const std::vector<uint8_t> bytes = builder.Build();
    Write(dir + "/" + name + ".pte", std::string(bytes.begin(), bytes.end()));
  }
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
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s PTE_DIR TARGET_DIR\n", argv[0]);
    return 2;
  }
  WritePrograms(argv[1]);
  WriteTargets(argv[2]);
  return 0;
}
