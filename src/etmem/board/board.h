// Owns: board descriptions as data - a board's named memory regions (size, base alignment,
// optional origin and linker section) and what the rest of the firmware reserves in each
// (stack, heap, application data) - the JSON reader for them (etmem's built-in boards, embedded
// at build time from board/boards/*.json, and a user's own file), and choosing a board by name
// or file. Not: placing pools in the regions (fit.h); no board is special-cased in code.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "etmem/base/result.h"

namespace etmem::board {

struct Reservation {
  std::string name;  // "stack", "heap", "application data", ...
  uint64_t bytes = 0;
};

struct Region {
  std::string name;                // e.g. "SRAM1"
  std::optional<uint64_t> origin;  // its first address, when known (the linker fragment needs it)
  uint64_t size = 0;               // bytes
  uint32_t base_align = 8;         // what the linker section guarantees at the region's base
  std::string section;             // linker section for what etmem places there ("" = none)
  std::vector<Reservation> reserved;
  std::string comment;  // where the figures come from

  uint64_t reserved_bytes() const;
  // Bytes left for the model: size minus every reservation (0 when they exceed it).
  uint64_t free_bytes() const;
};

struct Board {
  std::string name;  // what --board takes
  std::string description;
  std::vector<std::string> sources;  // the datasheets / manuals the figures come from
  std::string comment;               // anything a figure could not be confirmed against
  std::vector<Region> regions;
  std::string file;  // where it was read from ("built-in (...)" for embedded boards)

  const Region* FindRegion(std::string_view name) const;
};

// Reads one board from JSON text; `origin` names it in errors ("FILE: problem", one line).
Result<Board> ParseBoard(std::string_view json, const std::string& origin);
Result<Board> ReadBoardFile(const std::string& path);

// Every built-in board (embedded at build time), in name order.
const std::vector<std::shared_ptr<const Board>>& BuiltinBoards();

// A built-in board's name, or a path ending in .json. Unknown names list the known ones.
Result<Board> SelectBoard(const std::string& spec);

// "SRAM1=24K" (or "SRAM1=24576", "SRAM1=0x6000"): adds a reservation named "application" to
// that region. Errors name the region or the size.
Status AddReservation(Board& board, const std::string& spec);

}  // namespace etmem::board
