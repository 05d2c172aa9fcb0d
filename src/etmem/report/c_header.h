// Owns: the C/C++ header form of a report (`etmem header`): per method, one macro per quantity
// (the method pool with its margin, the temp pool's load and run peaks and the pool to declare,
// each planned buffer by its memory id); a comment that states every assumption; with a board,
// each pool's region and attributes (by the same names); the pool arrays, each declared once
// (with --define-pools, or under ETMEM_DEFINE_BOARD_POOLS with a board); with a runner, the
// defines the runner's own source reads (its pool-size macros) and the -D flags that set them.
// The text is a pure function of the report and the options (no dates, no absolute paths), so
// builds are reproducible.
// Not: hashing or reading the program (callers pass the digest), writing files.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "etmem/base/result.h"
#include "etmem/analysis/budget.h"
#include "etmem/analysis/report.h"

namespace etmem::report {

// Where a board places one pool of one method (`etmem header --board`): what the fit placed,
// as plain data (the fit is a later stage).
struct CHeaderPlacement {
  enum class Pool { kMethodPool, kTempPool, kPlannedBuffer, kRunnerPool };
  Pool pool = Pool::kMethodPool;
  uint32_t memory_id = 0;  // kPlannedBuffer: its memory id
  size_t runner_pool = 0;  // kRunnerPool: the index into the runner's result.pools
  uint64_t bytes = 0;      // as placed (the method pool with its margin)
  std::string region;
  std::string section;     // the region's input section; empty: none
  uint32_t align = 0;
};

struct CHeaderBoard {
  std::string name, file;
  std::string method;  // the method placed
  bool fits = false;
  std::vector<CHeaderPlacement> pools;
};

struct CHeaderOptions {
  std::string etmem_version;     // "0.1.0"
  std::string program_sha256;    // lower-case hex digest of the program file
  std::optional<Margin> margin;  // added to every METHOD_POOL_BYTES
  bool define_pools = false;     // emit static arrays for the method pools and planned buffers
  std::string section;           // linker section of those arrays; empty: the default
  std::optional<CHeaderBoard> board;  // --board: where each pool of board->method goes
};

// Fails when a method name gives no C identifier, two methods give the same one, or the
// section name cannot be written into an attribute.
Result<std::string> ToCHeader(const Report& report, const CHeaderOptions& options);

// "forward" -> "FORWARD", "encode-v2" -> "ENCODE_V2": the method's part of the macro names.
std::string MacroName(std::string_view method);

// Section names that can be quoted as they are: letters, digits and . _ $ , -
bool IsValidSectionName(std::string_view section);

}  // namespace etmem::report
