// Owns: checking a linked firmware image (`etmem firmware APP.elf`): the target from the ELF
// header, the ExecuTorch programs embedded in its allocated sections (found by their file
// identifier, verified with etmem's reader, placed: read in place or copied to RAM at boot), the
// runner whose pool symbols it has (data: each runner profile's "image"), each pool's exact size
// and address (so its alignment is a fact), and every pool's verdict for every method, as a
// report::FirmwareReport (= api::FirmwareReport); api::CheckFirmware, the public entry
// (firmware_api.cpp), calls it. Flash and RAM by component: components.h. Not: reading ELF
// (elf/), the runner's behaviour (runner/ profiles), rendering (report/firmware_report.h).
//
//   firmware::FirmwareOptions o;
//   o.model.runtime = "1.4.1";
//   report::FirmwareReport r = firmware::CheckFirmware("app.elf", o);  // throws api::Error
//   r.fits();
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "etmem/elf/elf_reader.h"
#include "etmem/etmem.h"
#include "etmem/analysis/firmware_verdict.h"
#include "etmem/runner/profile.h"

namespace etmem::firmware {

// The options (include/etmem/etmem.h: api::FirmwareOptions).
using FirmwareOptions = api::FirmwareOptions;

// One runner's declarations in an image, from its profile (runner::ImageSpec, "image" in the
// profile's JSON), with the symbol of each pool (the pool's variable).
struct RunnerSymbols {
  struct Pool {
    std::string pool;     // the profile's pool id
    std::string symbol;   // as the runner declares it
    std::string section;  // its section attribute ("" = the compiler's default)
    bool operator==(const Pool&) const = default;
  };
  std::string runner;  // the profile's name
  std::string first, last;  // the releases these declarations hold for (inclusive)
  std::vector<Pool> pools;
  std::string program_symbol, program_section;  // "" = the runner embeds no program
  uint32_t program_align = 0;
  std::vector<std::string> markers;  // substrings of symbol names only this runner's image has
};
// The declarations of a profile that has them (Profile::image).
RunnerSymbols SymbolsOf(const runner::Profile& profile);
// Every built-in profile's, a runner's successive profiles with the same declarations as one.
const std::vector<RunnerSymbols>& BuiltinRunnerSymbols();

// Whether `symbol` is the variable `name`: the name itself, a C++ static (_ZL<len><name>), a
// C++ static local (_ZZ...E<len><name>[_n]) or a C static local (<name>.<n>).
bool NamesVariable(const std::string& symbol, const std::string& name);
// The defined data symbol a runner's `name` is in the image (NamesVariable). nullptr: none.
const elf::Symbol* FindPoolSymbol(const elf::ObjectFile& elf, const std::string& name);

// etmem's built-in target for the ELF header, with the evidence in words; empty: none fits.
struct TargetGuess {
  std::string target;    // "cortex-m", ... ("" = none)
  std::string machine;   // "ARM"
  std::string evidence;  // "EM_ARM ELF32, EABI 5, Tag_CPU_arch_profile 'M', Tag_CPU_name ..."
};
TargetGuess GuessTarget(const elf::ObjectFile& elf);

// Throws api::Error: kIo / kInvalidArgument for a file that is no usable image (one line naming
// it), kInvalidProgram for an embedded program that does not verify.
report::FirmwareReport CheckFirmware(const std::string& path, const FirmwareOptions& options);
report::FirmwareReport CheckFirmware(std::vector<uint8_t> bytes, const std::string& name,
                                     const FirmwareOptions& options);
report::FirmwareReport CheckFirmware(const elf::Executable& image, const std::string& name,
                                     const FirmwareOptions& options);

}  // namespace etmem::firmware
