// Owns: board descriptions as data - a board's named memory regions (size, base alignment,
// optional origin and linker section), what the rest of the firmware reserves in each
// (stack, heap, application data) and the core that runs the model (what it says of the
// target: CMSIS-NN's M-profile extension) - the JSON reader for them (etmem's built-in boards, embedded
// at build time from board/boards/*.json, and a user's own file), and choosing a board by name
// or file. Not: placing pools in the regions (fit.h); no board is special-cased in code.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "etmem/abi/abi.h"
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

// The core that runs the model ("core": {"name": ..., "m_extension": ...}).
struct Core {
  std::string name;                                 // e.g. "Cortex-M4F"
  abi::MExtension m_extension = abi::MExtension::kNone;  // its DSP / MVE extension (none: neither)
};

struct Board {
  std::string name;  // what --board takes
  std::string description;
  std::optional<Core> core;
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

// The target as the board's core has it: where the target does not say which M-profile extension
// CMSIS-NN is built for (Abi::m_extension_assumed), the core does (Abi::m_extension_from names
// it); a target that says otherwise than the core is an error naming both. A board without a
// core leaves the target as it is.
Result<abi::Abi> TargetOnBoard(abi::Abi target, const Board& board);

// "SRAM1=24K" (or "SRAM1=24576", "SRAM1=0x6000"): adds a reservation named "application" to
// that region. Errors name the region or the size.
Status AddReservation(Board& board, const std::string& spec);
// The same as a region's name and the bytes (Python's {"SRAM1": 24576}): messages name the region.
Status AddReservation(Board& board, const std::string& region, uint64_t bytes);

}  // namespace etmem::board
