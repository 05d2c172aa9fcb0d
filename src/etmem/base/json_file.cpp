// Owns: the JSON data-file reader (json_file.h).
#include "etmem/base/json_file.h"

#include <algorithm>
#include <fstream>
#include <iterator>

#include "etmem/base/printable.h"

namespace etmem::json_file {
namespace {

std::string Key(std::string_view key) { return "\"" + Printable(key) + "\""; }

}  // namespace

// Every refusal of a JSON file passes here: bytes of the file quoted unescaped are escaped.
Error Bad(const std::string& what) {
  return MakeError(ErrorCode::kInvalidArgument, PrintableLine(what));
}

Result<std::string> ReadText(const std::string& path, const char* kind, size_t max_bytes) {
  std::ifstream in(path, std::ios::binary);
  const std::string shown = Printable(path, kShownPathBytes);  // messages quote the path escaped
  if (!in) return MakeError(ErrorCode::kIo, shown + ": cannot open the " + kind + " file");
  std::string text;
  char buffer[4096];
  while (in.read(buffer, sizeof buffer) || in.gcount() > 0) {
    text.append(buffer, static_cast<size_t>(in.gcount()));
    if (text.size() > max_bytes)
      return Bad(shown + ": a " + kind + " file above " + std::to_string(max_bytes >> 20) + " MiB");
  }
  return text;
}

Result<json> Parse(std::string_view text, const std::string& origin) {
  json j = json::parse(text.begin(), text.end(), nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded()) return Bad(origin + ": not valid JSON");
  return j;
}

Status Object::Known(std::initializer_list<const char*> names) const {
  if (!j_.is_object()) return Bad(where_ + ": not an object");
  for (const auto& item : j_.items()) {
    const std::string& key = item.key();  // em++ (clang 14) cannot capture a structured binding
    if (std::none_of(names.begin(), names.end(), [&](const char* n) { return key == n; }))
      return Bad(where_ + ": unknown key " + Key(key));
  }
  return Ok{};
}

Error Object::Missing(const char* key) const { return Bad(where_ + ": missing key " + Key(key)); }

Error Object::WrongType(const char* key, const char* what) const {
  return Bad(where_ + ": " + Key(key) + " is not " + what);
}

Error Object::OutOfRange(const char* key, const json& v, uint64_t lo, uint64_t hi) const {
  return Bad(where_ + ": " + Key(key) + " is " + Printable(v.dump(), 24) + ", out of range (" +
             std::to_string(lo) + " to " + std::to_string(hi) + ")");
}

const json* Object::Optional(const char* key) const {
  return j_.is_object() && j_.contains(key) ? &j_.at(key) : nullptr;
}

Result<std::string> Object::String(const char* key, bool required) const {
  const json* v = Optional(key);
  if (!v) {
    if (required) return Missing(key);
    return std::string();
  }
  if (!v->is_string()) return WrongType(key, "a string");
  return v->get<std::string>();
}

Result<std::vector<std::string>> Object::Strings(const char* key, bool required) const {
  std::vector<std::string> out;
  const json* v = Optional(key);
  if (!v) {
    if (required) return Missing(key);
    return out;
  }
  if (!v->is_array()) return WrongType(key, "a list of strings");
  for (const json& s : *v) {
    if (!s.is_string()) return WrongType(key, "a list of strings");
    out.push_back(s.get<std::string>());
  }
  return out;
}

Result<bool> Object::Bool(const char* key, bool required, bool fallback) const {
  const json* v = Optional(key);
  if (!v) {
    if (required) return Missing(key);
    return fallback;
  }
  if (!v->is_boolean()) return WrongType(key, "true or false");
  return v->get<bool>();
}

Result<uint64_t> Object::Unsigned(const char* key, bool required, uint64_t lo, uint64_t hi,
                                  uint64_t fallback) const {
  const json* v = Optional(key);
  if (!v) {
    if (required) return Missing(key);
    return fallback;
  }
  if (v->is_number_integer() && !v->is_number_unsigned()) return OutOfRange(key, *v, lo, hi);
  if (v->is_number_float()) {
    const double d = v->get<double>();
    if (d < 0 || d > static_cast<double>(hi)) return OutOfRange(key, *v, lo, hi);
    return WrongType(key, "a whole number");
  }
  if (!v->is_number_unsigned()) return WrongType(key, "a whole number");
  const uint64_t n = v->get<uint64_t>();
  if (n < lo || n > hi) return OutOfRange(key, *v, lo, hi);
  return n;
}

Result<const json*> Object::Array(const char* key) const {
  const json* v = Optional(key);
  if (!v) return Missing(key);
  if (!v->is_array()) return WrongType(key, "a list");
  return v;
}

}  // namespace etmem::json_file
