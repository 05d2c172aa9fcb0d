// Owns: reading what etmem's measuring harness prints besides the device-log records (the
// "measure: KEY ..." lines: each load step's ExecuTorch Error, the planned buffers, the runner's
// failed allocation, the harness's own error), and the real runtime's verdict in words. Not:
// building or running the harness (build.h, process.h), the comparison with etmem (the CLI).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace etmem::measure {

struct HarnessFacts {
  // ExecuTorch Error codes; data_map_load: the .ptd's FlatTensorDataMap::load (--external-data)
  std::optional<int> program_load, method_meta, data_map_load, load_method;
  std::vector<uint64_t> planned;
  std::string runner_failed, harness_error;
};

HarnessFacts ReadFacts(const std::string& output);

// ExecuTorch's Error value by name ("MemoryAllocationFailed"; "error N" when unknown).
std::string ErrorName(int code);

// What the real runtime did: "Ok", "MemoryAllocationFailed", "crashed (signal 11)", ... from the
// facts and the harness's exit status.
std::string Verdict(const HarnessFacts& f, int status);

// Whether the real runtime's verdict (Verdict) is etmem's `predicted` one ("Ok", an Error name,
// "Program::load " + an Error name, "crash (...)", "abort (ET_CHECK)"): the same words, or a
// harness killed by a signal where etmem predicts a crash, or by SIGABRT (or SIGILL, where the
// build's abort traps, as v0.1.0's does) where it predicts an abort.
bool VerdictsAgree(const std::string& measured, const std::string& predicted, int status);

}  // namespace etmem::measure
