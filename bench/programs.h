// Owns: the list of programs the benchmarks and bench/compare measure, and writing them to a
// directory. Benchmarks and the comparison script see the same files under the same names.
// Not: the programs themselves (etmem/testing/scenarios.h).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "etmem/base/result.h"
#include "etmem/testing/program_builder.h"

namespace etmem::bench {

struct BenchProgram {
  std::string name;  // file stem: <name>.pte
  // Exactly one of these is set: a builder program, or a sparse-segment program of this size.
  std::function<testing::ProgramBuilder()> build;
  uint64_t sparse_weight_bytes = 0;
};

// Builder programs from small (the motivating CNN) to large (ScaledCnn(1000)), then the
// sparse-segment program with a small weight and with a multi-GB weight (a file hole).
const std::vector<BenchProgram>& BenchPrograms();

// Writes `program` to `path` (holes for zero-filled constants).
Status WriteBenchProgram(const BenchProgram& program, const std::string& path);

}  // namespace etmem::bench
