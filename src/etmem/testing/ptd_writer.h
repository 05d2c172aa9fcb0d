// Owns: writing external data files (.ptd) for tests and measurements: either layout (0.6's
// tensor entries, or the named blobs of 0.7 and later), the 40-byte header spliced in after the
// identifier, the segments after the flatbuffer, and deliberate defects (a wrong magic or
// identifier, a short header, a truncated file, a segment index or size out of bounds) so the
// releases' refusals can be triggered and measured.
// Not: which files the scenarios write (ptd_scenarios.h), nor reading them (pte/ptd_file.h).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace etmem::testing {

struct PtdShape {
  int8_t dtype = 6;  // ScalarType code (6: Float)
  std::vector<int32_t> sizes;
  std::vector<uint8_t> dim_order;  // empty: 0, 1, ... rank-1
};

// One named blob (a tensor's data when `shape` is set).
struct PtdBlob {
  std::string key;
  bool keyless = false;      // no NamedData.key at all (the key field left out)
  std::optional<PtdShape> shape;
  uint64_t bytes = 0;        // 0 with a shape: the shape's byte size (4-byte elements)
  int64_t segment = -1;      // the segment index written; -1: its own segment
  int64_t extra_segment_size = 0;  // added to the segment size written (past the data)
};

struct PtdFileSpec {
  bool layout06 = false;           // the 0.6 layout (tensor entries); else 0.7 and later
  std::vector<PtdBlob> blobs;
  std::string header_magic = "FH01";
  uint32_t header_length = 40;
  std::string identifier = "FT01";
  uint64_t truncate_by = 0;        // bytes cut from the end of the file
};

std::vector<uint8_t> WritePtd(const PtdFileSpec& spec);

}  // namespace etmem::testing
