// Owns: ParseByteSize (see byte_size.h).
#include "etmem/base/byte_size.h"

#include <string>

#include "etmem/base/checked_math.h"
#include "etmem/base/printable.h"

namespace etmem {
namespace {

// The multiplier a unit spells ("", "B", "K", "KB", "KiB", ... any case); 0 when none.
uint64_t UnitMultiplier(std::string_view unit) {
  std::string u;
  for (char c : unit) u += static_cast<char>(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
  if (u.empty() || u == "b") return 1;
  uint64_t m = 0;
  switch (u[0]) {
    case 'k': m = uint64_t{1} << 10; break;
    case 'm': m = uint64_t{1} << 20; break;
    case 'g': m = uint64_t{1} << 30; break;
    default: return 0;
  }
  const std::string_view rest = std::string_view(u).substr(1);
  return rest.empty() || rest == "b" || rest == "ib" ? m : 0;
}

int DigitValue(char c, int base) {
  if (c >= '0' && c <= '9') return c - '0';
  if (base == 16 && c >= 'a' && c <= 'f') return c - 'a' + 10;
  if (base == 16 && c >= 'A' && c <= 'F') return c - 'A' + 10;
  return -1;
}

}  // namespace

Result<uint64_t> ParseByteSize(std::string_view text) {
  auto not_a_size = [&] {
    return MakeError(ErrorCode::kInvalidArgument, "'" + Printable(text) +
                                                      "' is not a byte size (" +
                                                      kByteSizeGrammar + ")");
  };
  auto too_large = [&] {
    return MakeError(ErrorCode::kInvalidArgument, "'" + Printable(text) + "' is too large");
  };
  std::string_view s = text;
  int base = 10;
  if (s.size() > 2 && s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
    base = 16;
    s.remove_prefix(2);
  }
  uint64_t v = 0;
  size_t digits = 0;
  for (; digits < s.size(); ++digits) {
    const int d = DigitValue(s[digits], base);
    if (d < 0) break;
    auto next = CheckedMul(v, static_cast<uint64_t>(base));
    if (next) next = CheckedAdd(*next, static_cast<uint64_t>(d));
    if (!next) return too_large();
    v = *next;
  }
  if (digits == 0) return not_a_size();
  const std::string_view unit = s.substr(digits);
  if (base == 16 && !unit.empty()) return not_a_size();  // "0x1B" is hex, never 1 byte
  const uint64_t multiplier = UnitMultiplier(unit);
  if (multiplier == 0) return not_a_size();
  const auto bytes = CheckedMul(v, multiplier);
  if (!bytes) return too_large();
  return *bytes;
}

}  // namespace etmem
