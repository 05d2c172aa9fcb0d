// Owns: the structured value `etmem firmware` answers (a linked image checked against what its
// embedded program needs: the target read from the ELF header, the runner found by its pool
// symbols, each pool's size, address and alignment as facts, a verdict per pool, flash and RAM
// by component) and its text and JSON renderings. Not: reading the ELF (elf/) or deciding the
// verdicts (firmware/); this file only holds and prints them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace etmem::report {

// An ExecuTorch program found in the image (or named on the command line).
struct FirmwareProgram {
  std::string name;      // "model_pte" (the symbol) or "network_model_sec+0x40"; a path if given
  std::string section;   // the allocated section holding it ("" when from the command line)
  uint64_t address = 0;  // where it lives when the firmware runs
  uint64_t bytes = 0;
  bool from_file = false;  // named on the command line (read from a file system / semihosting)
  // "read in place" (its bytes are used where they are linked), "copied to RAM at boot"
  // (initialised data: a load image in flash copied to `address` by the start-up code).
  std::string placement;
  uint64_t ram_bytes = 0;      // RAM it costs (copied: its size; read in place from flash: 0)
  std::optional<uint64_t> load_address;  // copied: where its load image is
  std::string region;          // the board region of `address` (with --board), else ""
  std::string file_identifier;  // "ET12"
  std::vector<std::string> methods;
};

// One pool the runner declares, as the image has it, and its verdict for one method.
struct FirmwarePool {
  std::string id;       // the profile's pool id ("method", "temp", ...)
  std::string symbol;   // the symbol found, e.g. "method_allocation_pool"
  std::string section;  // the section it is in
  std::string expected_section;  // the runner's own declaration's section ("" = the default)
  uint64_t address = 0;
  uint64_t bytes = 0;  // the symbol's size
  // The largest power of two dividing the address (capped at 2^30; `align_capped` says so):
  // the pool's base alignment, a fact of this image.
  uint64_t align = 0;
  bool align_capped = false;
  std::string role;  // the profile's words
  std::string region;  // the board region (with --board)
  // The verdict: needed = the smallest pool that works (the temp pool: its peak during
  // load_method); fits when bytes >= needed.
  uint64_t needed = 0;
  bool fits = true;
  bool temp = false;           // load_method's temp allocator
  std::string failing;         // does not fit: the allocation that fails, in words
  std::vector<std::string> log;  // the runtime's line, then the runner's (empty: not known)
  std::string consequence;     // what the firmware does next
  std::string note;            // anything the figure does not cover (the run-time temp peak)
};

struct FirmwareMethod {
  std::string program;  // FirmwareProgram::name
  std::string name;
  std::optional<std::string> refusal;  // the release refuses it: "Error: reason"
  std::vector<FirmwarePool> pools;     // in the runner's order
  bool exact = true;                   // false: a part etmem does not model (a lower bound)
};

// One line of the flash and RAM table.
struct FirmwareComponent {
  std::string name;   // "ExecuTorch runtime core", "operator aten::add.out", "program model_pte" ...
  uint64_t flash_bytes = 0;  // code, read-only data, and the load images of initialised data
  uint64_t ram_bytes = 0;    // initialised data, zero-initialised data and the pools
  uint64_t symbols = 0;      // how many symbols (or section remainders) it holds
  bool unused_operator = false;  // an operator's kernel the program does not call
};
struct FirmwareRegionTotal {
  std::string name;  // a board region, or "segment N (R-X)" from the image
  uint64_t origin = 0, size = 0, used = 0;
  bool known_size = false;  // a board region's size (segments: used only)
};
struct FirmwareComponents {
  std::vector<FirmwareComponent> rows;  // in the order of the table
  uint64_t flash_total = 0, ram_total = 0;  // summed rows (= the sections' sizes)
  uint64_t section_flash_bytes = 0, section_ram_bytes = 0;  // from the section headers
  std::vector<FirmwareRegionTotal> regions;
  std::vector<std::string> unused_operators;  // linked, not called: "name (N B)"
  uint64_t unused_operator_bytes = 0;
  std::string method;  // how symbols were attributed, in one line
};

struct FirmwareReport {
  std::string image;          // the ELF's path
  unsigned bits = 0;
  std::string machine;        // "ARM", "RISC-V", ...
  std::string abi_evidence;   // "EM_ARM ELF32, Tag_CPU_arch_profile 'M', Tag_CPU_name cortex-m4"
  std::string target;         // etmem's target the figures use
  std::string target_source;  // "the ELF header" or "--target"
  std::string runtime;        // the release modelled
  std::string runtime_source;  // "--runtime" (the image never shows it beyond doubt)
  std::string runner;          // the profile's name
  std::string runner_releases;  // the profile's release range
  std::string runner_source;    // "its pool symbols" or "--runner"
  std::vector<std::string> other_runners;  // whose symbols the image also has
  std::vector<std::string> runner_options;  // options the image's symbols turn on
  std::vector<FirmwareProgram> programs;
  std::vector<FirmwareMethod> methods;
  std::vector<std::string> notes;
  std::optional<FirmwareComponents> components;
  bool fits() const {
    for (const FirmwareMethod& m : methods) {
      if (m.refusal) return false;
      for (const FirmwarePool& p : m.pools)
        if (!p.fits) return false;
    }
    return true;
  }
};

std::string RenderFirmwareText(const FirmwareReport& r);
std::string RenderFirmwareJson(const FirmwareReport& r);  // one JSON object, with a final newline

}  // namespace etmem::report
