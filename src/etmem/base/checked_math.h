// Owns: overflow-checked arithmetic and alignment helpers on target-sized integers.
// Not: any notion of which target; callers pass the width they model.
#pragma once

#include <cstdint>
#include <optional>

namespace etmem {

// Rounds v up to a multiple of align (a power of two). Caller guarantees no overflow.
constexpr uint64_t AlignUp(uint64_t v, uint64_t align) { return (v + align - 1) & ~(align - 1); }

constexpr bool IsPowerOfTwo(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

inline std::optional<uint64_t> CheckedAdd(uint64_t a, uint64_t b) {
  uint64_t r;
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}

// a + b, or UINT64_MAX when that overflows (a sum of sizes no device can hold).
inline uint64_t SaturatingAdd(uint64_t a, uint64_t b) { return CheckedAdd(a, b).value_or(UINT64_MAX); }

inline std::optional<uint64_t> CheckedMul(uint64_t a, uint64_t b) {
  uint64_t r;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

// a x b, or UINT64_MAX when that overflows.
inline uint64_t SaturatingMul(uint64_t a, uint64_t b) { return CheckedMul(a, b).value_or(UINT64_MAX); }

// Largest value of an unsigned integer that is `bytes` wide (1..8).
constexpr uint64_t MaxUnsigned(unsigned bytes) {
  return bytes >= 8 ? UINT64_MAX : (uint64_t{1} << (8 * bytes)) - 1;
}

}  // namespace etmem
