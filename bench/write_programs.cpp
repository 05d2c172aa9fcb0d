// Owns: etmem_bench_programs OUTDIR, which writes every benchmark program (programs.h) as
// OUTDIR/<name>.pte for bench/compare. Zero-filled weights are left as file holes.
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>

#include "programs.h"

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: %s OUTDIR\n", argv[0]);
    return 2;
  }
  const std::filesystem::path dir = argv[1];
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) {
    std::fprintf(stderr, "etmem_bench_programs: %s: %s\n", dir.c_str(), ec.message().c_str());
    return 1;
  }
  for (const auto& program : etmem::bench::BenchPrograms()) {
    const std::string path = (dir / (program.name + ".pte")).string();
    const auto start = std::chrono::steady_clock::now();
    etmem::Status written = etmem::bench::WriteBenchProgram(program, path);
    if (!written) {
      std::fprintf(stderr, "etmem_bench_programs: %s\n", written.error().message.c_str());
      return 1;
    }
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    std::fprintf(stderr, "wrote %s (%ju bytes) in %.2f s\n", path.c_str(),
                 static_cast<uintmax_t>(std::filesystem::file_size(path)), seconds);
  }
  return 0;
}
