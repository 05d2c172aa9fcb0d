// Owns: `etmem-examples OUTDIR`, which writes the program builder's named scenarios as .pte
// files (cnn.pte is the motivating report's CNN), so the quick start has programs to analyse.
// The list of files here and the OUTPUT list in CMakeLists.txt must name the same files.
#include <cstdio>
#include <filesystem>
#include <functional>
#include <string>

#include "etmem/testing/scenarios.h"

namespace {

using etmem::testing::ProgramBuilder;

struct Example {
  const char* file;
  std::function<ProgramBuilder()> make;
};

ProgramBuilder CnnWithInlineConstants() {
  ProgramBuilder program = etmem::testing::MotivatingCnn();
  program.ConstantsInSegment(false);
  return program;
}

const Example kExamples[] = {
    {"cnn.pte", etmem::testing::MotivatingCnn},
    {"cnn_inline_constants.pte", CnnWithInlineConstants},
    {"every_value_kind.pte", etmem::testing::ProgramWithEveryValueKind},
    {"dynamic_shapes.pte", etmem::testing::ProgramWithDynamicShapes},
    {"delegate_inline.pte", [] { return etmem::testing::ProgramWithDelegate("XnnpackBackend"); }},
    {"delegate_segment.pte",
     [] { return etmem::testing::ProgramWithDelegate("XnnpackBackend", true); }},
    {"two_methods.pte", etmem::testing::ProgramWithTwoMethods},
    {"control_flow.pte", etmem::testing::ProgramWithControlFlow},
    {"external_data.pte", etmem::testing::ProgramWithExternalData},
    {"lstm_like.pte", [] { return etmem::testing::LstmLike(1); }},
    {"scaled_cnn.pte", [] { return etmem::testing::ScaledCnn(1); }},
};

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
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
  for (const Example& e : kExamples) {
    etmem::Status written = e.make().WriteFile((dir / e.file).string());
    if (!written) {
      std::fprintf(stderr, "etmem-examples: %s\n", written.error().message.c_str());
      return 1;
    }
  }
  std::printf("etmem-examples: wrote %zu programs to %s\n", std::size(kExamples), dir.c_str());
  return 0;
}
