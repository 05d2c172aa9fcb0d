// Owns: the byte size of ExecuTorch ScalarType codes and of a tensor's data (numel x element
// size), for every stage that reads tensors from a ProgramView.
// Not: names of dtypes (runtime/labels.h).
#pragma once

#include <cstdint>
#include <optional>

#include "etmem/base/checked_math.h"
#include "etmem/pte/program_view.h"

namespace etmem::pte {

// Bytes per element of a ScalarType code; empty for codes no release knows.
inline std::optional<uint32_t> ScalarTypeBytes(int8_t dtype) {
  static constexpr uint8_t kSizes[] = {
      1, 1, 2, 4, 8, 2, 4, 8,  // u8 i8 i16 i32 i64 f16 f32 f64
      4, 8, 16, 1,             // c32 c64 c128 bool
      1, 1, 4, 2,              // qi8 qu8 qi32 bf16
      1, 1, 1, 1, 1, 1, 2,     // qu4x2 qu2x4 bits1x8 bits2x4 bits4x2 bits8 bits16
      1, 1, 1, 1,              // float8 variants
      2, 4, 8,                 // u16 u32 u64
  };
  if (dtype < 0 || static_cast<size_t>(dtype) >= sizeof(kSizes)) return std::nullopt;
  return kSizes[dtype];
}

// numel x element size (the upper bound for dynamic shapes); empty for an unknown dtype, a
// negative size or a product that overflows 64 bits.
inline std::optional<uint64_t> TensorDataBytes(const MethodView& m, const TensorView& t) {
  std::optional<uint32_t> element = ScalarTypeBytes(t.dtype);
  if (!element) return std::nullopt;
  std::optional<uint64_t> bytes = *element;
  for (int32_t s : m.SizesOf(t)) {
    if (s < 0) return std::nullopt;
    if (bytes) bytes = CheckedMul(*bytes, static_cast<uint64_t>(s));
  }
  return bytes;
}

}  // namespace etmem::pte
