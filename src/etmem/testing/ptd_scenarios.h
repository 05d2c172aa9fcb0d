// Owns: the named external data files (.ptd) written beside ProgramWithExternalData
// (external_data.pte): one that matches it in each layout, and one per way a release refuses a
// .ptd (a key missing, an index or size out of bounds, another tensor layout, a damaged header,
// a truncated file). etmem-examples --ptd writes them; tests/measured/ measured them. Also the
// .ptd files some refusal scenarios are measured with (RefusalPtds).
// Not: the writer (ptd_writer.h), nor the program (scenarios.h).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace etmem::testing {

struct NamedPtd {
  const char* name;     // file stem, e.g. "external_data.match"
  const char* program;  // the scenario it goes with ("external_data")
  const char* what;     // one line: how it differs from the program
  std::vector<uint8_t> (*make)();
};

std::span<const NamedPtd> PtdScenarios();

// The .ptd files that go with refusal scenarios (scenarios.h RefusalScenarios), named after the
// program ("NAME.ptd" in the 0.7+ layout, "NAME.06.ptd" in the 0.6 layout) so that a release's
// data map loads and load_method meets the program's refusal; etmem-examples --refusals writes
// them beside the programs.
std::span<const NamedPtd> RefusalPtds();

}  // namespace etmem::testing
