// Owns: reading the symbol table of an ELF object file (ELF32 and ELF64, little-endian): each
// symbol's name, value, size and section. Every offset and size the file states is checked
// against the file's length first, so a truncated or hostile file is a one-line error.
// Not: relocations, program headers, or what the symbols mean (tools/etmem/probe_command.cpp).
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

struct ObjectFile {
  unsigned bits = 0;            // 32 or 64 (EI_CLASS)
  uint16_t machine = 0;         // e_machine: 3 i386, 40 ARM, 62 x86-64, 183 AArch64, 243 RISC-V ...
  uint16_t file_type = 0;       // e_type: 1 relocatable, 2 executable, 3 shared object
  std::vector<Symbol> symbols;  // every entry of the SHT_SYMTAB section, index 0 included

  // The first symbol called `name` that is defined in a section, if any.
  std::optional<Symbol> Find(const std::string& name) const;
};

// Parses `bytes`; `path` names the file in messages.
Result<ObjectFile> ReadObject(std::span<const uint8_t> bytes, const std::string& path);

// Reads and parses the file at `path`.
Result<ObjectFile> ReadObjectFile(const std::string& path);

}  // namespace etmem::elf
