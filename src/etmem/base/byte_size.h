// Owns: THE byte-size grammar every option, budget and data file reads ("4096", "64K", "1M",
// "2G", "0x6000"): 1024-based units K, M, G (any case, "KB" and "KiB" mean the same), or 0x hex;
// no sign, no fraction, no space, no overflow. Not: which option a size belongs to (callers
// name it in their one-line error), ranges (callers check their own maxima).
//
//   auto bytes = ParseByteSize("64K");  // 65536
//   if (!bytes) puts(("--pool " + bytes.error().message).c_str());
#pragma once

#include <cstdint>
#include <string_view>

#include "etmem/base/result.h"

namespace etmem {

// The grammar in words, for error lines.
inline constexpr const char* kByteSizeGrammar =
    "a whole number of bytes, optionally followed by K, M or G, 1024-based; or 0x hex";

// The size `text` spells, or an error quoting it (escaped): "'TEXT' is not a byte size (...)",
// "'TEXT' is too large".
Result<uint64_t> ParseByteSize(std::string_view text);

}  // namespace etmem
