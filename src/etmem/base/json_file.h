// Owns: reading JSON data files (runner profiles, boards, target descriptions): opening one,
// parsing it, and reading an object's fields, with the same one-line errors for every file:
//   FILE: cannot open the <kind> file              FILE: a <kind> file above 1 MiB
//   FILE: not valid JSON                           WHERE: not an object
//   WHERE: unknown key "K"
//   WHERE: missing key "K"                         WHERE: "K" is not a string (a list, ...)
//   WHERE: "K" is N, out of range (LO to HI)
// where WHERE is the file name, then the object in it ("my.json pool 0"), and K a key as read
// from the file (escaped with Printable). Not: what the fields mean (each reader's own).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <vector>

#include "etmem/base/result.h"

namespace etmem::json_file {

using json = nlohmann::json;

Error Bad(const std::string& what);  // kInvalidArgument

// The file's text (refused when it cannot be opened or is above `max_bytes`); `kind` names the
// file in errors ("runner", "board", "target").
Result<std::string> ReadText(const std::string& path, const char* kind,
                             size_t max_bytes = size_t{1} << 20);
// JSON text to a value; "ORIGIN: not valid JSON" when it is not.
Result<json> Parse(std::string_view text, const std::string& origin);

// One JSON object's fields, named `where` in every error.
class Object {
 public:
  Object(const json& j, std::string where) : j_(j), where_(std::move(where)) {}

  // Refuses a value that is not an object, and keys not in `names` (a misspelt key would
  // otherwise be silently ignored).
  Status Known(std::initializer_list<const char*> names) const;
  Result<std::string> String(const char* key, bool required) const;
  Result<std::vector<std::string>> Strings(const char* key, bool required) const;
  Result<bool> Bool(const char* key, bool required, bool fallback = false) const;
  // A whole number in [lo, hi]; `fallback` when absent and not required.
  Result<uint64_t> Unsigned(const char* key, bool required, uint64_t lo, uint64_t hi,
                            uint64_t fallback = 0) const;
  Result<const json*> Array(const char* key) const;  // required
  const json* Optional(const char* key) const;        // nullptr when absent

  const std::string& where() const { return where_; }
  Error Missing(const char* key) const;
  Error WrongType(const char* key, const char* what) const;  // "K" is not <what>
  Error OutOfRange(const char* key, const json& v, uint64_t lo, uint64_t hi) const;

 private:
  const json& j_;
  std::string where_;
};

}  // namespace etmem::json_file
