// Owns: the benchmark program list (programs.h).
#include "programs.h"

#include "etmem/testing/scenarios.h"

namespace etmem::bench {

const std::vector<BenchProgram>& BenchPrograms() {
  static const std::vector<BenchProgram> kPrograms = {
      {"motivating_cnn", [] { return testing::MotivatingCnn(); }},
      {"lstm_1", [] { return testing::LstmLike(1); }},
      {"lstm_10", [] { return testing::LstmLike(10); }},
      {"lstm_100", [] { return testing::LstmLike(100); }},
      {"lstm_1000", [] { return testing::LstmLike(1000); }},
      {"scaled_cnn_100", [] { return testing::ScaledCnn(100); }},
      {"scaled_cnn_1000", [] { return testing::ScaledCnn(1000); }},
      {"sparse_1k", nullptr, uint64_t{1} << 10},
      {"sparse_4g", nullptr, uint64_t{4} << 30},
  };
  return kPrograms;
}

Status WriteBenchProgram(const BenchProgram& program, const std::string& path) {
  if (program.build) return program.build().WriteFile(path);
  return testing::WriteProgramWithSparseSegment(path, program.sparse_weight_bytes);
}

}  // namespace etmem::bench
