// Owns: turning recorded methods into a program file: where constants, delegate blobs and named
// data go (segments or inline), the flatbuffer itself, and the extended header spliced in after
// the "ET12" identifier when the file has segments.
// Not: the recording API (program_builder.h).
//
// File layout written (section 7.1 of the allocation spec):
//   [0,4)  root offset   [4,8) "ET12"   [8,40) extended header, only when there are segments
//   [40, program_size)   the rest of the flatbuffer
//   segment_base_offset = program_size rounded up to the segment alignment; each segment is
//   aligned likewise relative to that base. Segment order: constants, delegate blobs (method
//   order, then delegate order), named data, the mutable data segment.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "etmem/base/result.h"
#include "etmem/testing/program_record.h"

namespace etmem::testing {

// A laid-out file: the flatbuffer region plus the explicit byte runs after it. Every byte not
// covered by `head` or a piece is zero. Pieces point into the records, which must outlive it.
class ProgramImage {
 public:
  struct Piece {
    uint64_t file_offset = 0;
    const uint8_t* data = nullptr;
    uint64_t size = 0;
  };

  ProgramImage(std::vector<uint8_t> head, std::vector<Piece> pieces, uint64_t file_size);

  // The whole file in memory.
  std::vector<uint8_t> Materialize() const;
  // Writes the file, seeking over the zero runs so they become holes on a sparse filesystem.
  Status Write(const std::string& path) const;

  uint64_t file_size() const { return file_size_; }

 private:
  std::vector<uint8_t> head_;
  std::vector<Piece> pieces_;
  uint64_t file_size_ = 0;
};

ProgramImage LayOutProgram(const ProgramOptions& options,
                           std::span<const MethodRecord* const> methods,
                           std::span<const NamedDataRecord> named_data);

}  // namespace etmem::testing
