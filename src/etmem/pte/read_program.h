// Owns: turning bytes into a verified ProgramView: extended header, flatbuffers verification,
// and range checks of every index the later stages follow. Verify once, here; trust afterwards.
// Not: what any runtime release does with the program (runtime/).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "etmem/base/result.h"
#include "etmem/pte/program_view.h"

namespace etmem::pte {

// Limits that keep hostile files from costing time or memory out of proportion to their size.
struct ReadLimits {
  uint32_t max_depth = 64;
  uint32_t max_tables = 50'000'000;
  uint32_t max_rank = 1024;  // far above any runtime's limit; larger is certainly corrupt
};

// Maps `path` and reads it. Errors name the file and say what is wrong.
Result<ProgramView> ReadProgram(const std::string& path, const ReadLimits& limits = {});

// Reads bytes held in memory; `name` stands in for the path in messages.
Result<ProgramView> ReadProgramBytes(std::span<const uint8_t> bytes, const std::string& name,
                                     const ReadLimits& limits = {});

class MappedFile;
// Reads an already mapped file; `name` is used in messages.
Result<ProgramView> ReadProgramFile(std::shared_ptr<const MappedFile> file, const std::string& name,
                                    const ReadLimits& limits = {});

// Parses the optional extended header at byte 8. NotFound (no "eh00") is not an error: the
// returned optional is empty. A present but inconsistent header is an error.
Result<std::optional<ExtendedHeader>> ReadExtendedHeader(std::span<const uint8_t> bytes,
                                                         const std::string& name);

}  // namespace etmem::pte
