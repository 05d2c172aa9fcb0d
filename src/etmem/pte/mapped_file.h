// Owns: read-only memory mapping of an input file. Pages are only touched when read, so a
// multi-gigabyte program whose weights sit in segments costs only its metadata pages.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "etmem/base/result.h"

namespace etmem::pte {

class MappedFile {
 public:
  static Result<std::shared_ptr<const MappedFile>> Open(const std::string& path);
  // Wraps bytes held in memory (tests, fuzzers); the copy is owned by the MappedFile.
  static std::shared_ptr<const MappedFile> FromBytes(std::span<const uint8_t> bytes);
  // The same without a copy when the bytes are 16-byte aligned: the caller keeps them alive and
  // unchanged while the MappedFile (and any view of it) is in use.
  static std::shared_ptr<const MappedFile> Borrowing(std::span<const uint8_t> bytes);
  ~MappedFile();
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;

  std::span<const uint8_t> bytes() const { return {data_, size_}; }

 private:
  MappedFile() = default;
  const uint8_t* data_ = nullptr;
  uint64_t size_ = 0;
  bool mapped_ = false;
  std::unique_ptr<uint8_t[]> owned_;  // FromBytes' copy (not zero-filled first)
};

}  // namespace etmem::pte
