// Owns: `etmem-examples OUTDIR`, which writes the program builder's named scenarios as .pte
// files (cnn.pte is the motivating report's CNN), so the quick start has programs to analyse;
// `etmem-examples OUTDIR --refusals` writes the programs some release refuses instead (the
// programs tests/measured/ measured the refusals on, and the .ptd files some of them are measured
// with, ptd_scenarios.h RefusalPtds); `--executable` writes the programs the real
// portable kernels can execute (their computed outputs are compared in tests/measured/);
// `--acceptance` writes the exporter's layouts a strict reader could call invalid (no constants,
// no segments; scenario_acceptance.cpp, measured in tests/measured/x86_64_acceptance.json);
// `--temp` writes the programs whose kernels take temp memory while running (scenario_temp.cpp).
// `--methods` writes the issue-39 programs: a good method beside a bad one (scenario_methods.cpp).
// `--ptd` writes external_data.pte and the .ptd files that match it or not (ptd_scenarios.h).
// The scenario names (scenarios.h) and the OUTPUT list in CMakeLists.txt must name the same files.
#include <cstdio>
#include <filesystem>
#include <span>
#include <string>
#include <vector>

#include "etmem/testing/ptd_scenarios.h"
#include "etmem/testing/scenarios.h"

int main(int argc, char** argv) {
  const bool refusals = argc == 3 && std::string(argv[2]) == "--refusals";
  const bool executable = argc == 3 && std::string(argv[2]) == "--executable";
  const bool ptd = argc == 3 && std::string(argv[2]) == "--ptd";
  const bool acceptance = argc == 3 && std::string(argv[2]) == "--acceptance";
  const bool temp = argc == 3 && std::string(argv[2]) == "--temp";
  const bool methods = argc == 3 && std::string(argv[2]) == "--methods";
  if (argc != 2 && !refusals && !executable && !ptd && !acceptance && !temp && !methods) {
    std::fprintf(stderr,
                 "usage: etmem-examples OUTDIR\n"
                 "Writes etmem's example programs (.pte) into OUTDIR.\n");
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    std::fprintf(stderr, "etmem-examples: cannot create %s: %s\n", dir.c_str(),
                 ec.message().c_str());
    return 1;
  }
  if (ptd) {
    etmem::Status written =
        etmem::testing::NamedScenarioProgram("external_data").WriteFile((dir / "external_data.pte").string());
    for (const auto& p : etmem::testing::PtdScenarios()) {
      if (!written) break;
      const std::vector<uint8_t> bytes = p.make();
      const std::filesystem::path path = dir / (std::string(p.name) + ".ptd");
      std::FILE* f = std::fopen(path.c_str(), "wb");
      if (f == nullptr || std::fwrite(bytes.data(), 1, bytes.size(), f) != bytes.size()) {
        if (f) std::fclose(f);
        std::fprintf(stderr, "etmem-examples: cannot write %s\n", path.c_str());
        return 1;
      }
      std::fclose(f);
    }
    if (!written) {
      std::fprintf(stderr, "etmem-examples: %s\n", written.error().message.c_str());
      return 1;
    }
    std::printf("etmem-examples: wrote external_data.pte and %zu .ptd files to %s\n",
                etmem::testing::PtdScenarios().size(), dir.c_str());
    return 0;
  }
  const auto scenarios = refusals     ? etmem::testing::RefusalScenarios()
                         : executable ? etmem::testing::ExecutableScenarios()
                         : acceptance ? etmem::testing::AcceptanceScenarios()
                         : temp       ? etmem::testing::TempScenarios()
                         : methods    ? etmem::testing::MethodScenarios()
                                      : etmem::testing::NamedScenarios();
  for (const auto& e : scenarios) {
    const std::string file = std::string(e.name) + ".pte";
    etmem::Status written = e.make().WriteFile((dir / file).string());
    if (!written) {
      std::fprintf(stderr, "etmem-examples: %s\n", written.error().message.c_str());
      return 1;
    }
  }
  size_t ptds = 0;
  for (const auto& p : refusals ? etmem::testing::RefusalPtds()
                                : std::span<const etmem::testing::NamedPtd>()) {
    const std::vector<uint8_t> bytes = p.make();
    const std::filesystem::path path = dir / (std::string(p.name) + ".ptd");
    std::FILE* f = std::fopen(path.c_str(), "wb");
    const bool ok = f != nullptr && std::fwrite(bytes.data(), 1, bytes.size(), f) == bytes.size();
    if (f) std::fclose(f);
    if (!ok) {
      std::fprintf(stderr, "etmem-examples: cannot write %s\n", path.c_str());
      return 1;
    }
    ++ptds;
  }
  std::printf("etmem-examples: wrote %zu programs", scenarios.size());
  if (ptds > 0) std::printf(" and %zu .ptd files", ptds);
  std::printf(" to %s\n", dir.c_str());
  return 0;
}
