// Owns: turning bytes from an input file (names, keys) into text that is safe on one line of a
// message: control characters, backslashes and non-ASCII bytes become \xNN, and long names are
// cut short. Programs come from anywhere; a method name must not be able to split an error line.
#pragma once

#include <string>
#include <string_view>

namespace etmem {

// How much of a file's path a message shows (paths are quoted through Printable too).
inline constexpr size_t kShownPathBytes = 1024;

inline std::string Printable(std::string_view bytes, size_t max_shown = 80) {
  std::string out;
  for (size_t i = 0; i < bytes.size() && i < max_shown; ++i) {
    const auto c = static_cast<unsigned char>(bytes[i]);
    if (c >= 0x20 && c < 0x7f && c != '\\') {
      out += static_cast<char>(c);
    } else {
      constexpr char kHex[] = "0123456789abcdef";
      out += {'\\', 'x', kHex[c >> 4], kHex[c & 15]};
    }
  }
  if (bytes.size() > max_shown) out += "...";
  return out;
}

// A message on one line of printable ASCII: what Printable escapes, except a backslash (a
// message may already hold Printable's escapes). For errors that quote a file's text: a byte
// missed where it was quoted cannot split or garble the line.
inline std::string PrintableLine(std::string_view text) {
  std::string out;
  for (const char ch : text) {
    const auto c = static_cast<unsigned char>(ch);
    if (c >= 0x20 && c < 0x7f) {
      out += ch;
    } else {
      constexpr char kHex[] = "0123456789abcdef";
      out += {'\\', 'x', kHex[c >> 4], kHex[c & 15]};
    }
  }
  return out;
}

}  // namespace etmem
