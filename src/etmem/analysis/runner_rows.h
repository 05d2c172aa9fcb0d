// Owns: the words and rows every format prints for a runner's pools (RunnerReport), so text,
// JSON, markdown, CSV and the header agree. Not: layout of any one format.
#pragma once

#include <string>
#include <vector>

#include "etmem/analysis/report.h"

namespace etmem::report {

// One line of a runner pool's breakdown.
struct RunnerRow {
  std::string by;  // "runner" or "load_method"
  std::string what;
  uint64_t offset = 0;  // load_method: the cursor before it (its padding is in `bytes`)
  uint64_t first = 0;   // the first allocation's first byte
  uint64_t end = 0;     // the cursor after it
  uint64_t bytes = 0;   // load_method in the method pool: consumed, padding included
  uint32_t padding = 0;
  uint32_t align = 0;    // load_method: the largest alignment among its requests
  uint64_t written = 0;  // the runner's: bytes it writes from offset
  uint32_t allocations = 1;
};

// The name a firmware developer sets: the macro, or the variable when the size is a literal.
std::string RunnerPoolName(const runner::PoolSpec& pool);
// "MACRO (variable)", or the variable alone when no macro sizes the pool.
std::string RunnerPoolTitle(const runner::PoolSpec& pool);
std::vector<RunnerRow> RunnerRows(const RunnerReport& r, const sim::RunnerPoolResult& pool);
// Whether the planned buffers come from one of the runner's pools (else they are separate).
bool RunnerHoldsPlannedBuffers(const RunnerReport& r);
// "the runner's allocation 'input list ...'" or "load_method's allocation #12: TensorMeta ...".
std::string RunnerFailureWhat(const RunnerReport& r, const sim::RunnerFailure& f);
// One line about the runner that the assumptions cite.
std::string RunnerPoolAlignText(const RunnerReport& r);

}  // namespace etmem::report
