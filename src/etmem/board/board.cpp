// Owns: the board JSON reader, the embedded built-in boards and --board / --reserve parsing.
// Not: placement (fit.cpp).
#include "etmem/board/board.h"

#include <fmt/format.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <limits>
#include <nlohmann/json.hpp>
#include <set>

#include "etmem/base/byte_size.h"
#include "etmem/base/checked_math.h"
#include "etmem/base/json_file.h"
#include "etmem/base/printable.h"

namespace etmem::board {
namespace {

constexpr size_t kMaxText = 4096;  // a text field (name, comment, source) longer than this is cut short

using nlohmann::json;

struct Embedded {
  const char* file;
  const char* text;
};
#define ETMEM_BOARD(file, text) Embedded{file, text},
constexpr Embedded kEmbedded[] = {
#include "etmem/board/board_list.inc"
};
#undef ETMEM_BOARD

constexpr uint64_t kMaxRegionBytes = uint64_t{1} << 40;  // 1 TiB: anything above is a typo
constexpr size_t kMaxRegions = 64;
constexpr size_t kMaxReservations = 64;

Error Bad(const std::string& message) { return MakeError(ErrorCode::kInvalidArgument, message); }

// Bytes given as a number or a string ("192K", "0x30000"): `o[key]`, which is present.
Result<uint64_t> Bytes(const json& o, const char* key, const std::string& where) {
  const json_file::Object f(o, where);
  const json& v = o.at(key);
  if (v.is_string()) {
    auto b = ParseByteSize(v.get<std::string>());
    if (!b) return f.WrongType(key, "a size (bytes, or a number with K, M or G, or 0x...)");
    if (*b > kMaxRegionBytes) return f.OutOfRange(key, v, 0, kMaxRegionBytes);
    return *b;
  }
  return f.Unsigned(key, true, 0, kMaxRegionBytes);
}

Result<std::string> Text(const json& o, const char* key, const std::string& where, bool required) {
  ETMEM_TRY(std::string text, json_file::Object(o, where).String(key, required));
  return Printable(text, kMaxText);  // reports quote it
}

// A comment or source: a string or a list of strings.
Result<std::vector<std::string>> Texts(const json& o, const char* key, const std::string& where) {
  std::vector<std::string> out;
  if (!o.contains(key)) return out;
  const json& v = o[key];
  if (v.is_string()) return std::vector<std::string>{Printable(v.get<std::string>(), kMaxText)};
  ETMEM_TRY(std::vector<std::string> texts, json_file::Object(o, where).Strings(key, false));
  for (std::string& t : texts) t = Printable(t, kMaxText);  // reports quote them
  return texts;
}

std::string Join(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : " ") + p;
  return out;
}

Status CheckKeys(const json& o, std::initializer_list<const char*> known,
                 const std::string& where) {
  return json_file::Object(o, where).Known(known);
}

bool IsSectionName(const std::string& s) {
  if (s.empty() || s.size() > 64) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' ||
           c == '_' || c == '-';
  });
}

bool IsRegionName(const std::string& s) {
  if (s.empty() || s.size() > 32) return false;
  return std::all_of(s.begin(), s.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
  });
}

Result<Region> ParseRegion(const json& r, const std::string& where) {
  if (auto s = CheckKeys(
          r, {"name", "origin", "size", "base_align", "section", "reserved", "comment"}, where);
      !s)
    return s.error();
  Region region;
  ETMEM_TRY(region.name, Text(r, "name", where, true));
  if (!IsRegionName(region.name))
    return Bad(where + ": the name must be 1-32 letters, digits or '_'");
  const std::string at = where + " (" + region.name + ")";
  if (!r.contains("size")) return json_file::Object(r, at).Missing("size");
  ETMEM_TRY(region.size, Bytes(r, "size", at));
  if (region.size == 0) return Bad(at + ": \"size\" is 0");
  if (r.contains("origin")) {
    ETMEM_TRY(uint64_t origin, Bytes(r, "origin", at));
    region.origin = origin;
  }
  if (r.contains("base_align")) {
    ETMEM_TRY(const uint64_t align,
              json_file::Object(r, at).Unsigned("base_align", true, 1, 4096));
    if (!IsPowerOfTwo(align)) return Bad(at + ": \"base_align\" must be a power of two up to 4096");
    region.base_align = static_cast<uint32_t>(align);
  }
  ETMEM_TRY(region.section, Text(r, "section", at, false));
  if (!region.section.empty() && !IsSectionName(region.section))
    return Bad(at + ": \"section\" must be a linker section name (letters, digits, . _ -)");
  ETMEM_TRY(std::vector<std::string> comment, Texts(r, "comment", at));
  region.comment = Join(comment);
  if (r.contains("reserved")) {
    const json& list = r["reserved"];
    if (!list.is_array()) return json_file::Object(r, at).WrongType("reserved", "a list");
    if (list.size() > kMaxReservations) return Bad(at + ": more than 64 reservations");
    for (size_t i = 0; i < list.size(); ++i) {
      const std::string rw = at + ": reservation " + std::to_string(i + 1);
      if (auto s = CheckKeys(list[i], {"name", "bytes", "comment"}, rw); !s) return s.error();
      Reservation res;
      ETMEM_TRY(res.name, Text(list[i], "name", rw, true));
      if (res.name.empty() || res.name.size() > 64)
        return Bad(rw + ": the name must be 1-64 characters");
      if (!list[i].contains("bytes")) return json_file::Object(list[i], rw).Missing("bytes");
      ETMEM_TRY(res.bytes, Bytes(list[i], "bytes", rw));
      region.reserved.push_back(std::move(res));
    }
    if (region.reserved_bytes() > region.size)
      return Bad(at + ": the reservations (" + std::to_string(region.reserved_bytes()) +
                 " B) exceed the region's size (" + std::to_string(region.size) + " B)");
  }
  return region;
}

Result<Core> ParseCore(const json& j, const std::string& at) {
  if (!j.is_object()) return Bad(at + ": must be an object {\"name\": ..., \"m_extension\": ...}");
  if (auto s = CheckKeys(j, {"name", "m_extension"}, at); !s) return s.error();
  Core core;
  ETMEM_TRY(core.name, Text(j, "name", at, true));
  if (core.name.empty()) return Bad(at + ": \"name\" must not be empty");
  ETMEM_TRY(const std::string ext, json_file::Object(j, at).String("m_extension", true));
  const auto e = abi::MExtensionNamed(ext);
  if (!e) return Bad(at + ": \"m_extension\" must be \"none\", \"dsp\" or \"mve\"");
  core.m_extension = *e;
  return core;
}

Result<Board> ParseJson(const json& j, const std::string& origin) {
  if (auto s = CheckKeys(j, {"name", "description", "sources", "comment", "core", "regions"},
                         origin);
      !s)
    return s.error();
  Board b;
  ETMEM_TRY(b.name, Text(j, "name", origin, true));
  if (b.name.empty() || b.name.size() > 64 ||
      !std::all_of(b.name.begin(), b.name.end(), [](char c) {
        return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '_';
      }))
    return Bad(origin + ": \"name\" must be 1-64 lower-case letters, digits, '-' or '_'");
  ETMEM_TRY(b.description, Text(j, "description", origin, false));
  ETMEM_TRY(b.sources, Texts(j, "sources", origin));
  if (j.contains("core")) {
    ETMEM_TRY(b.core, ParseCore(j["core"], origin + ": core"));
  }
  ETMEM_TRY(std::vector<std::string> comment, Texts(j, "comment", origin));
  b.comment = Join(comment);
  if (!j.contains("regions") || !j["regions"].is_array() || j["regions"].empty())
    return Bad(origin + ": \"regions\" must be a non-empty list");
  if (j["regions"].size() > kMaxRegions) return Bad(origin + ": more than 64 regions");
  std::set<std::string> names;
  for (size_t i = 0; i < j["regions"].size(); ++i) {
    ETMEM_TRY(Region r, ParseRegion(j["regions"][i], origin + ": region " + std::to_string(i + 1)));
    if (!names.insert(r.name).second)
      return Bad(origin + ": region \"" + r.name + "\" is named twice");
    b.regions.push_back(std::move(r));
  }
  return b;
}

}  // namespace

uint64_t Region::reserved_bytes() const {
  uint64_t sum = 0;
  for (const Reservation& r : reserved) sum += r.bytes;  // each at most 1 TiB, at most 64 of them
  ;
  return sum;
}

uint64_t Region::free_bytes() const {
  const uint64_t r = reserved_bytes();
  return r >= size ? 0 : size - r;
}

const Region* Board::FindRegion(std::string_view name) const {
  for (const Region& r : regions)
    if (r.name == name) return &r;
  return nullptr;
}

Result<Board> ParseBoard(std::string_view text, const std::string& origin_raw) {
  const std::string origin = Printable(origin_raw, kShownPathBytes);  // every message quotes it
  ETMEM_TRY(const json j, json_file::Parse(text, origin));
  return ParseJson(j, origin);
}

Result<Board> ReadBoardFile(const std::string& path) {
  ETMEM_TRY(const std::string text, json_file::ReadText(path, "board"));
  ETMEM_TRY(Board b, ParseBoard(text, path));
  b.file = path;
  return b;
}

const std::vector<std::shared_ptr<const Board>>& BuiltinBoards() {
  static const std::vector<std::shared_ptr<const Board>> all = [] {
    std::vector<std::shared_ptr<const Board>> out;
    for (const Embedded& e : kEmbedded) {
      Result<Board> b = ParseBoard(e.text, std::string("built-in board ") + e.file);
      if (!b) CheckFailed(__FILE__, __LINE__, b.error().message.c_str());
      b->file = std::string("built-in (") + e.file + ")";
      out.push_back(std::make_shared<const Board>(std::move(*b)));
    }
    std::sort(out.begin(), out.end(),
              [](const auto& a, const auto& b) { return a->name < b->name; });
    return out;
  }();
  return all;
}

Result<Board> SelectBoard(const std::string& spec) {
  if (spec.size() > 5 && spec.substr(spec.size() - 5) == ".json") return ReadBoardFile(spec);
  std::string known;
  for (const auto& b : BuiltinBoards()) {
    if (b->name == spec) return *b;
    known += (known.empty() ? "" : ", ") + b->name;
  }
  return Bad("unknown board '" + Printable(spec) + "' (built-in: " + known +
             "; or a board file ending in .json)");
}

namespace {

// Region `name` of the board for a reservation (`shown` names the request in messages), or the
// error listing the regions.
Result<Region*> ReservedRegion(Board& board, const std::string& name, const std::string& shown) {
  for (Region& r : board.regions)
    if (r.name == name) return &r;
  std::string known;
  for (const Region& r : board.regions) known += (known.empty() ? "" : ", ") + r.name;
  return Bad("--reserve " + shown + ": board " + board.name + " has no region '" + Printable(name) +
             "' (regions: " + known + ")");
}

// Reserves `bytes` of `region` for the rest of the firmware, checked before it is added (so no
// sum wraps, whatever the bytes).
Status Reserve(Region& region, uint64_t bytes, const std::string& shown) {
  const uint64_t before = region.reserved_bytes();
  if (before > region.size || bytes > region.size - before) {
    const bool wraps = bytes > std::numeric_limits<uint64_t>::max() - before;
    return Bad("--reserve " + shown + ": the reservations in " + region.name + " (" +
               (wraps ? "more than 2^64" : std::to_string(before + bytes)) +
               " B) exceed its size (" + std::to_string(region.size) + " B)");
  }
  region.reserved.push_back({"application (--reserve)", bytes});
  return Ok{};
}

}  // namespace

Status AddReservation(Board& board, const std::string& spec) {
  const size_t eq = spec.find('=');
  if (eq == std::string::npos)
    return Bad("--reserve " + Printable(spec) + ": expected REGION=BYTES (e.g. SRAM1=24K)");
  auto region = ReservedRegion(board, spec.substr(0, eq), Printable(spec));
  if (!region) return region.error();
  auto bytes = ParseByteSize(std::string_view(spec).substr(eq + 1));
  if (!bytes)
    return Bad("--reserve " + Printable(spec) + ": '" + Printable(spec.substr(eq + 1)) +
               "' is not a size (bytes, 0x hex, or with K, M or G)");
  return Reserve(**region, *bytes, Printable(spec));
}

Status AddReservation(Board& board, const std::string& region, uint64_t bytes) {
  auto r = ReservedRegion(board, region, Printable(region));
  if (!r) return r.error();
  return Reserve(**r, bytes, Printable(region));
}

Result<abi::Abi> TargetOnBoard(abi::Abi target, const Board& board) {
  if (!board.core) return target;
  const Core& core = *board.core;
  if (target.m_extension_assumed.empty()) {
    if (target.m_extension == core.m_extension) return target;
    return Bad(fmt::format(
        "board {}: its core ({}) has M-profile extension {}, target {} says {}: choose the "
        "target of this core",
        board.name, core.name, abi::MExtensionName(core.m_extension), Printable(target.name),
        abi::MExtensionName(target.m_extension)));
  }
  target.m_extension = core.m_extension;
  target.m_extension_assumed.clear();
  target.m_extension_from = fmt::format("board {}'s core, {}", board.name, core.name);
  return target;
}

}  // namespace etmem::board
