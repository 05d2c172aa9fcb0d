// Owns: reading an external data file (.ptd, ExecuTorch's FlatTensor format) into PtdFile: the
// 40-byte header at byte 8, the flatbuffer identifier, which of the two layouts the flatbuffer
// has (0.6's tensor entries or the named blobs of 0.7 and later), verified with our schema
// (schema/flat_tensor.fbs), and its keys, tensor layouts and segments.
// Not: what a release does with the file (runtime/ptd_check.h reads the bytes as the release's
// own unverified reader would).
//
// A file that is not a .ptd at all (too short for its header, neither header magic nor
// identifier of the format, a flatbuffer that verifies in neither layout) is an error naming the
// file. A damaged header or identifier is not: the release refuses it, and etmem says how.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "etmem/base/result.h"

namespace etmem::pte {

class MappedFile;

struct PtdHeader {
  char magic[4] = {};
  uint32_t length = 0;
  uint64_t flatbuffer_offset = 0;
  uint64_t flatbuffer_size = 0;
  uint64_t segment_base_offset = 0;
  uint64_t segment_data_size = 0;
};

struct PtdTensorLayout {
  int8_t dtype = 0;
  std::vector<int32_t> sizes;
  std::vector<uint8_t> dim_order;
};

struct PtdEntry {
  std::string key;
  uint32_t segment = 0;
  uint64_t offset = 0;                    // inside the segment (0.6 layout only)
  std::optional<PtdTensorLayout> layout;  // absent: a blob that is not a tensor
};

struct PtdSegment {
  uint64_t offset = 0;  // from the header's segment base offset
  uint64_t size = 0;
};

enum class PtdLayout : uint8_t {
  kUnread,  // the header or identifier is damaged: the flatbuffer was not read
  k06,      // tensor entries (read by 0.6)
  k07,      // named blobs (read by 0.7 and later)
};

struct PtdFile {
  std::string name;
  std::shared_ptr<const MappedFile> file;
  PtdHeader header;
  char identifier[4] = {};
  PtdLayout layout = PtdLayout::kUnread;
  std::vector<PtdEntry> entries;  // 0.6: the tensors; 0.7+: the named blobs
  std::vector<PtdSegment> segments;
  std::span<const uint8_t> bytes() const;
  bool operator==(const PtdFile& o) const { return this == &o; }
};

const char* PtdLayoutName(PtdLayout layout);  // "0.6 layout", "0.7+ layout", "unread"

Result<std::shared_ptr<const PtdFile>> ReadPtd(const std::string& path);
Result<std::shared_ptr<const PtdFile>> ReadPtdBytes(std::span<const uint8_t> bytes,
                                                    const std::string& name);

}  // namespace etmem::pte
