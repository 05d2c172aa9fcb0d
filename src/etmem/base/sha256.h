// Owns: SHA-256 (FIPS 180-4), so reports can name the exact program bytes they describe.
// Not: any other hash, HMAC, or reading files (callers hash bytes they already hold).
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>

namespace etmem {

class Sha256 {
 public:
  using Digest = std::array<uint8_t, 32>;

  Sha256();
  void Update(std::span<const uint8_t> bytes);
  Digest Finish();  // the object must not be updated afterwards

 private:
  void Compress(const uint8_t* block);

  std::array<uint32_t, 8> state_;
  std::array<uint8_t, 64> buffer_{};
  size_t buffered_ = 0;
  uint64_t total_bytes_ = 0;
};

// Lower-case hex of the digest of `bytes`.
std::string Sha256Hex(std::span<const uint8_t> bytes);
std::string ToHex(std::span<const uint8_t> bytes);

}  // namespace etmem
