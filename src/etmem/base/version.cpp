// Owns: Version (version.h).
#include "etmem/base/version.h"

#include <algorithm>
#include <tuple>

namespace etmem {
namespace {

bool Digit(char c) { return c >= '0' && c <= '9'; }

// Up to `max_digits` digits at `text[i]`, advancing `i`; nullopt when there are none or more.
std::optional<uint32_t> ReadNumber(std::string_view text, size_t& i, size_t max_digits) {
  const size_t begin = i;
  uint32_t n = 0;
  while (i < text.size() && Digit(text[i]) && i - begin < max_digits)
    n = n * 10 + static_cast<uint32_t>(text[i++] - '0');
  if (i == begin || (i < text.size() && Digit(text[i]))) return std::nullopt;
  return n;
}

}  // namespace

std::optional<Version> Version::Parse(std::string_view text) {
  constexpr std::string_view kMain = "main-";
  if (text.starts_with(kMain)) {
    const std::string_view rest = text.substr(kMain.size());
    if (rest.size() < 10 || rest[8] != '-') return std::nullopt;
    const std::string_view date = rest.substr(0, 8), commit = rest.substr(9);
    if (!std::all_of(date.begin(), date.end(), Digit) ||
        !std::all_of(commit.begin(), commit.end(),
                     [](char c) { return Digit(c) || (c >= 'a' && c <= 'f'); }))
      return std::nullopt;
    Version v;
    v.snapshot_date = std::string(date);
    v.snapshot_commit = std::string(commit);
    return v;
  }
  if (!text.empty() && (text.front() == 'v' || text.front() == 'V')) text.remove_prefix(1);
  Version v;
  uint32_t* parts[] = {&v.major, &v.minor, &v.patch};
  size_t i = 0;
  uint8_t count = 0;
  while (true) {
    if (count == 3) return std::nullopt;  // a fourth number
    const auto x = ReadNumber(text, i, 5);
    if (!x) return std::nullopt;
    *parts[count++] = *x;
    if (i == text.size()) break;
    if (text[i] != '.') return std::nullopt;
    ++i;
  }
  v.numbers = count;
  return v;
}

std::optional<Version> Version::FromVersionText(std::string_view text) {
  text = text.substr(0, text.find('\n'));
  size_t i = 0;
  if (i < text.size() && text[i] == 'v') ++i;
  Version v;
  uint32_t* parts[] = {&v.major, &v.minor, &v.patch};
  int n = 0;
  for (; n < 3; ++n) {
    const auto x = ReadNumber(text, i, 3);
    if (!x) break;
    *parts[n] = *x;
    if (n == 2 || i >= text.size() || text[i] != '.') {
      ++n;
      break;
    }
    ++i;  // the dot
  }
  if (n < 2) return std::nullopt;
  v.numbers = 3;
  return v;
}

std::string Version::ToString() const {
  if (snapshot()) return "main-" + snapshot_date + "-" + snapshot_commit;
  std::string out = std::to_string(major);
  if (numbers >= 2) out += "." + std::to_string(minor);
  if (numbers >= 3) out += "." + std::to_string(patch);
  return out;
}

int Version::Number() const {
  if (snapshot()) return 0;
  return static_cast<int>(major * 10000 + minor * 100 + patch);
}

std::strong_ordering Version::operator<=>(const Version& o) const {
  if (snapshot() != o.snapshot()) return snapshot() ? std::strong_ordering::greater
                                                    : std::strong_ordering::less;
  // Field by field: em++'s libc++ (clang 14) has no operator<=> for tuples or strings.
  auto order = [](int c) {
    return c < 0 ? std::strong_ordering::less
                 : c > 0 ? std::strong_ordering::greater : std::strong_ordering::equal;
  };
  if (snapshot()) {
    if (const int c = snapshot_date.compare(o.snapshot_date); c != 0) return order(c);
    return order(snapshot_commit.compare(o.snapshot_commit));
  }
  if (major != o.major) return major < o.major ? std::strong_ordering::less : std::strong_ordering::greater;
  if (minor != o.minor) return minor < o.minor ? std::strong_ordering::less : std::strong_ordering::greater;
  if (patch != o.patch) return patch < o.patch ? std::strong_ordering::less : std::strong_ordering::greater;
  return std::strong_ordering::equal;
}

}  // namespace etmem
