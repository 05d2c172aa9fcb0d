// Owns: etmem_scaled_lstm SCALE PATH, which writes the builder's LstmLike(SCALE) (extended
// header, constants in a segment, zero-filled weights left as file holes) for the scale smoke
// test (tests/scale/smoke.sh).
#include <cstdio>
#include <cstdlib>
#include <string>

#include "etmem/testing/scenarios.h"

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: %s SCALE PATH\n", argv[0]);
    return 2;
  }
  const int scale = std::atoi(argv[1]);
  if (scale < 1 || scale > 100000) {
    std::fprintf(stderr, "etmem_scaled_lstm: scale %s is not 1..100000\n", argv[1]);
    return 2;
  }
  etmem::Status written = etmem::testing::LstmLike(scale).WriteFile(argv[2]);
  if (!written) {
    std::fprintf(stderr, "etmem_scaled_lstm: %s\n", written.error().message.c_str());
    return 1;
  }
  return 0;
}
