// Owns: the checks every fuzz target makes of etmem's answers. A failed check aborts, which
// libFuzzer (and the replay binaries in ctest) report as a finding with the input behind it.
#pragma once

#include <cstdio>
#include <cstdlib>
#include <string>

#include "etmem/base/printable.h"

namespace etmem::fuzz {

// Each target defines its name, which a failed check prints.
extern const char* const kTargetName;

inline void Require(bool ok, const std::string& what) {
  if (ok) return;
  std::fprintf(stderr, "%s: %s\n", kTargetName, what.c_str());
  std::abort();
}

// One line of printable ASCII: bytes from the input must not split a message's line or reach a
// terminal raw (etmem::Printable turns them into \xNN).
inline bool OnePrintableLine(const std::string& s) {
  for (const char c : s)
    if (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7e) return false;
  return true;
}

// Lines of printable ASCII: a report meant for a terminal, where only etmem's own newlines
// separate lines.
inline bool PrintableLines(const std::string& s) {
  for (const char c : s)
    if (c != '\n' && (static_cast<unsigned char>(c) < 0x20 || static_cast<unsigned char>(c) > 0x7e))
      return false;
  return true;
}

// The first line of `s` that PrintableLines refuses, escaped (for a finding's message).
inline std::string FirstUnprintableLine(const std::string& s) {
  size_t begin = 0;
  while (begin < s.size()) {
    size_t end = s.find('\n', begin);
    if (end == std::string::npos) end = s.size();
    const std::string line = s.substr(begin, end - begin);
    if (!PrintableLines(line)) return Printable(line, 400);
    begin = end + 1;
  }
  return "";
}

}  // namespace etmem::fuzz
