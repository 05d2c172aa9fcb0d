// Owns: the scenarios the real portable kernels can execute to finite, varied outputs
// (ExecutableScenarios): the motivating CNN with real-valued weights. The other scenarios'
// weights are counter bytes, which as float32 include huge values, infinities and NaNs, so the
// CNN built from them computes NaN. Not: the program's structure (scenario_cnn.cpp).
#include <cstring>

#include "etmem/testing/scenario_helpers.h"
#include "etmem/testing/scenarios.h"

namespace etmem::testing {
namespace {

// float32 weights in [-0.47, 0.47]: element k is ((37 k) mod 61 - 30) / 64, little-endian.
std::vector<uint8_t> SmallFloats(uint64_t size) {
  std::vector<uint8_t> out(size);
  for (uint64_t k = 0; k + 4 <= size; k += 4) {
    const float v = static_cast<float>(static_cast<int>((k / 4 * 37) % 61) - 30) / 64.0f;
    uint32_t bits = 0;
    std::memcpy(&bits, &v, 4);
    for (int b = 0; b < 4; ++b) out[k + b] = static_cast<uint8_t>(bits >> (8 * b));
  }
  return out;
}

constexpr NamedScenario kExecutable[] = {
    {"cnn_finite_weights", [] { return MotivatingCnnWithWeights(SmallFloats); }},
};

}  // namespace

std::span<const NamedScenario> ExecutableScenarios() { return kExecutable; }

}  // namespace etmem::testing
