// Owns: reading an ELF file (ELF32 and ELF64, little-endian): its header, its sections (names,
// flags, addresses), its program headers (segments), its symbol table, and the Arm EABI build
// attributes. Every offset and size the file states is checked against the file's length first,
// so a truncated or hostile file is a one-line error. An executable (ReadExecutable) is also
// checked for sections whose file bytes or addresses overlap and segments past the file's end.
// Not: relocations, or what the symbols mean (tools/etmem/probe_command.cpp, firmware/).
//
//   auto object = elf::ReadObjectFile("probe.o");
//   if (object) for (const elf::Symbol& s : object->symbols) ... s.name, s.size
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "etmem/base/result.h"

namespace etmem::elf {

struct Symbol {
  std::string name;
  uint64_t value = 0;
  uint64_t size = 0;     // st_size: for a data object, its size in bytes
  uint8_t type = 0;      // STT_*: 0 none, 1 object, 2 function, 3 section, 4 file
  uint8_t binding = 0;   // STB_*: 0 local, 1 global, 2 weak
  uint16_t section = 0;  // st_shndx: 0 undefined
};

constexpr uint32_t kShtNobits = 8;   // a section with no file bytes (.bss)
constexpr uint64_t kShfWrite = 0x1;  // sh_flags
constexpr uint64_t kShfAlloc = 0x2;
constexpr uint64_t kShfExecInstr = 0x4;
constexpr uint64_t kShfTls = 0x400;
constexpr uint32_t kPtLoad = 1;      // p_type

struct Section {
  std::string name;       // from the section header string table
  uint32_t type = 0;      // SHT_*: 1 progbits, 2 symtab, 3 strtab, 8 nobits ...
  uint64_t flags = 0;     // SHF_*
  uint64_t address = 0;   // sh_addr: where it lives when the image runs (VMA)
  uint64_t offset = 0;    // sh_offset: its bytes in the file (none for SHT_NOBITS)
  uint64_t size = 0;
  uint64_t align = 0;     // sh_addralign
  uint64_t entsize = 0;
  uint32_t link = 0;
  bool allocated() const { return (flags & kShfAlloc) != 0; }
  bool writable() const { return (flags & kShfWrite) != 0; }
  bool executable() const { return (flags & kShfExecInstr) != 0; }
  bool has_file_bytes() const { return type != kShtNobits && type != 0; }
  // Whether [address, address + bytes) lies inside the section's addresses.
  bool Contains(uint64_t at, uint64_t bytes) const {
    return at >= address && bytes <= size && at - address <= size - bytes;
  }
};

// One program header: a piece of the image the loader (or the boot code) places.
struct Segment {
  uint32_t type = 0;     // PT_*: 1 load
  uint32_t flags = 0;    // PF_*: 1 execute, 2 write, 4 read
  uint64_t offset = 0, vaddr = 0, paddr = 0, filesz = 0, memsz = 0, align = 0;
};

// Arm EABI build attributes ("aeabi" subsection of .ARM.attributes), the fields etmem uses.
struct ArmAttributes {
  std::string cpu_name;      // Tag_CPU_name, e.g. "cortex-m4" ("" when absent)
  std::optional<uint64_t> cpu_arch;   // Tag_CPU_arch (e.g. 13 = v7E-M)
  std::optional<char> profile;        // Tag_CPU_arch_profile: 'M', 'A', 'R', 'S'
  std::optional<uint64_t> dsp_extension;  // Tag_DSP_extension (46): 1 = the DSP instructions
  std::optional<uint64_t> mve_arch;       // Tag_MVE_arch (48): 1 = integer MVE, 2 = with FP
};

struct ObjectFile {
  unsigned bits = 0;            // 32 or 64 (EI_CLASS)
  uint16_t machine = 0;         // e_machine: 3 i386, 40 ARM, 62 x86-64, 183 AArch64, 243 RISC-V ...
  uint16_t file_type = 0;       // e_type: 1 relocatable, 2 executable, 3 shared object
  uint32_t flags = 0;           // e_flags (Arm: EABI version in the top byte)
  uint64_t entry = 0;           // e_entry
  std::vector<Symbol> symbols;  // every entry of the SHT_SYMTAB section, index 0 included
  std::vector<Section> sections;  // every section header, index 0 included
  std::vector<Segment> segments;  // every program header (none in an object file)
  std::optional<ArmAttributes> arm;  // from .ARM.attributes, when present

  // The first symbol called `name` that is defined in a section, if any.
  std::optional<Symbol> Find(const std::string& name) const;
  // The section a defined symbol lives in (nullptr: undefined, absolute or common).
  const Section* SectionOf(const Symbol& s) const;
  // The allocated section whose addresses hold `address` (nullptr: none).
  const Section* SectionAt(uint64_t address) const;
};

// Parses `bytes`; `path` names the file in messages.
Result<ObjectFile> ReadObject(std::span<const uint8_t> bytes, const std::string& path);

// Reads and parses the file at `path`.
Result<ObjectFile> ReadObjectFile(const std::string& path);

// An executable (or shared object) as a whole: the parsed file and its bytes, for reading what
// a section holds. Besides ReadObject's checks: no two sections' file bytes overlap, no two
// allocated sections' addresses overlap, no address range wraps, every segment's bytes lie in
// the file and its file size is at most its memory size.
struct Executable {
  ObjectFile elf;
  std::vector<uint8_t> bytes;
  // A section's bytes in the file (empty for SHT_NOBITS); ranges are checked when read.
  std::span<const uint8_t> SectionBytes(const Section& s) const;
  // The LOAD segment whose memory (vaddr .. vaddr + memsz) holds the section, if any.
  const Segment* SegmentOf(const Section& s) const;
};
Result<Executable> ReadExecutable(std::vector<uint8_t> bytes, const std::string& path);
Result<Executable> ReadExecutableFile(const std::string& path);

}  // namespace etmem::elf
