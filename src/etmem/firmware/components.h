// Owns: flash and RAM of a linked image by component (`etmem firmware`'s table): every
// allocated section's bytes attributed to symbols, and symbols to components by name rules held
// as data (firmware/components.json): ExecuTorch runtime core, each operator's kernels, each
// backend, flatbuffers, the programs, the runner's pools, the C and C++ runtime libraries, the
// application. Bytes no symbol covers (padding, unnamed data) are a row of their own, so the
// table adds up to the sections' sizes exactly. Not: the verdicts (firmware.h).
#pragma once

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "etmem/elf/elf_reader.h"
#include "etmem/etmem.h"
#include "etmem/pte/program_view.h"
#include "etmem/analysis/firmware_verdict.h"

namespace etmem::firmware {

// `report` gives the programs and pools found (by address); `programs` their views (for the
// operators they call), in the same order as report.programs.
report::FirmwareComponents Components(const elf::Executable& image,
                                      const report::FirmwareReport& report,
                                      const std::vector<const pte::ProgramView*>& programs,
                                      const std::optional<api::Board>& board);

// The component a symbol name belongs to by the rules ("" = the application's), and for an
// operator kernel or a backend, its name ("add_out", "arm"; "" for a kernel's helper, which
// Components() gives to the kernel of its op_NAME.cpp when the symbol is local to that file).
// `present`: the rules' `when_image_has` patterns that the image's symbols contain
// (PresentPatterns).
struct Attribution {
  std::string component;
  std::string kind;  // "operator", "backend" or ""
  std::string detail;
};
Attribution Attribute(const std::string& symbol, const std::set<std::string>& present = {});
std::set<std::string> PresentPatterns(const std::vector<elf::Symbol>& symbols);

}  // namespace etmem::firmware
