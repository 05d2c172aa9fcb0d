// Owns: etmem_web_bench_program OUT.pte BYTES, which writes the web benchmark's large program:
// the program builder's ScaledCnn (scenarios.h) at the smallest scale whose file is at least
// BYTES long (a program of many operators and values, not of large weights), and prints its
// scale and size. Not: the benchmark (web_bench.mjs).
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "etmem/testing/scenarios.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s OUT.pte BYTES\n", argv[0]);
    return 2;
  }
  const std::string out = argv[1];
  const size_t want = std::strtoull(argv[2], nullptr, 10);
  // The file grows linearly with the scale: measure one unit, then step up to the size.
  const size_t one = etmem::testing::ScaledCnn(1).Build().size();
  int scale = static_cast<int>(want / one > 0 ? want / one : 1);
  std::vector<uint8_t> bytes = etmem::testing::ScaledCnn(scale).Build();
  while (bytes.size() < want) bytes = etmem::testing::ScaledCnn(++scale).Build();
  const etmem::Status written = etmem::testing::ScaledCnn(scale).WriteFile(out);
  if (!written) {
    std::fprintf(stderr, "etmem_web_bench_program: %s\n", written.error().message.c_str());
    return 1;
  }
  std::printf("%s: ScaledCnn(%d), %zu bytes\n", out.c_str(), scale, bytes.size());
  return 0;
}
