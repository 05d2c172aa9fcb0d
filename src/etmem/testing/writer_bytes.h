// Owns: what the program and .ptd writers share for laying out bytes: rounding an offset up to
// an alignment (any alignment, not only powers of two: the builder writes odd ones on purpose)
// and little-endian stores (the host is little-endian; CMakeLists.txt refuses others).
#pragma once

#include <cstdint>
#include <cstring>

namespace etmem::testing {

inline uint64_t AlignUp(uint64_t value, uint64_t alignment) {
  return (value + alignment - 1) / alignment * alignment;
}
inline void StoreU32(uint8_t* p, uint32_t v) { std::memcpy(p, &v, 4); }
inline void StoreU64(uint8_t* p, uint64_t v) { std::memcpy(p, &v, 8); }

}  // namespace etmem::testing
