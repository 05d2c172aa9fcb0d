// Owns: parsing an ELF object's header, section headers and symbol tables from bytes in memory.
// Fields are read with memcpy at checked offsets, never through casts of the file's bytes.
#include "etmem/elf/elf_reader.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "etmem/base/checked_math.h"

namespace etmem::elf {
namespace {

constexpr uint32_t kShtSymtab = 2;
constexpr uint32_t kShtStrtab = 3;
constexpr uint64_t kMaxFileBytes = uint64_t{1} << 31;
constexpr uint64_t kMaxNameBytes = uint64_t{1} << 26;  // all symbol names together

// The layout facts that differ between ELF32 and ELF64.
struct Format {
  unsigned bits;
  uint64_t header_size, section_size, symbol_size;
  uint64_t e_shoff, e_shentsize, e_shnum;            // offsets in the ELF header
  uint64_t sh_offset, sh_size, sh_link, sh_entsize;  // offsets in a section header
  unsigned word;                                     // bytes of an address-sized field
};
constexpr Format kElf32{32, 52, 40, 16, 32, 46, 48, 16, 20, 24, 36, 4};
constexpr Format kElf64{64, 64, 64, 24, 40, 58, 60, 24, 32, 40, 56, 8};

struct Section {
  uint32_t type = 0;
  uint64_t offset = 0, size = 0, entsize = 0;
  uint32_t link = 0;
};

// Bounds-checked little-endian reads from the file; every failure names the file.
class Reader {
 public:
  Reader(std::span<const uint8_t> bytes, const std::string& path) : bytes_(bytes), path_(path) {}

  bool Has(uint64_t offset, uint64_t count) const {
    auto end = CheckedAdd(offset, count);
    return end && *end <= bytes_.size();
  }
  // Callers check Has() first; a read past the end is a bug here.
  uint64_t Read(uint64_t offset, unsigned width) const {
    ETMEM_CHECK(Has(offset, width));
    uint64_t v = 0;
    std::memcpy(&v, bytes_.data() + offset, width);  // little-endian host (CMakeLists.txt)
    return v;
  }
  uint64_t size() const { return bytes_.size(); }
  const uint8_t* data() const { return bytes_.data(); }
  Error Fail(const std::string& what) const {
    return MakeError(ErrorCode::kInvalidArgument, path_ + ": " + what);
  }

 private:
  std::span<const uint8_t> bytes_;
  const std::string& path_;
};

Result<const Format*> ReadIdent(const Reader& r) {
  static const uint8_t kMagic[4] = {0x7f, 'E', 'L', 'F'};
  if (!r.Has(0, 16) || std::memcmp(r.data(), kMagic, 4) != 0)
    return r.Fail("not an ELF file (no \\x7fELF magic)");
  if (r.data()[5] != 1)
    return r.Fail("big-endian or unknown ELF byte order: only little-endian is read");
  if (r.data()[6] != 1) return r.Fail("unknown ELF version " + std::to_string(r.data()[6]));
  const Format* f = r.data()[4] == 1 ? &kElf32 : r.data()[4] == 2 ? &kElf64 : nullptr;
  if (!f)
    return r.Fail("unknown ELF class " + std::to_string(r.data()[4]) + " (want 32 or 64-bit)");
  if (!r.Has(0, f->header_size))
    return r.Fail("truncated ELF header (" + std::to_string(r.size()) + " bytes)");
  return f;
}

Section ReadSection(const Reader& r, const Format& f, uint64_t at) {
  return {static_cast<uint32_t>(r.Read(at + 4, 4)), r.Read(at + f.sh_offset, f.word),
          r.Read(at + f.sh_size, f.word), r.Read(at + f.sh_entsize, f.word),
          static_cast<uint32_t>(r.Read(at + f.sh_link, 4))};
}

Result<std::vector<Section>> ReadSections(const Reader& r, const Format& f) {
  const uint64_t shoff = r.Read(f.e_shoff, f.word);
  const uint64_t entsize = r.Read(f.e_shentsize, 2);
  uint64_t count = r.Read(f.e_shnum, 2);
  if (shoff == 0) return r.Fail("no section header table");
  if (entsize < f.section_size)
    return r.Fail("section header size " + std::to_string(entsize) + " is below the ELF" +
                  std::to_string(f.bits) + " minimum " + std::to_string(f.section_size));
  if (!r.Has(shoff, f.section_size))
    return r.Fail("section header table at offset " + std::to_string(shoff) +
                  " lies past the end of the file (" + std::to_string(r.size()) + " bytes)");
  if (count == 0) count = ReadSection(r, f, shoff).size;  // extended numbering: count in entry 0
  auto table = CheckedMul(count, entsize);
  if (!table || !r.Has(shoff, *table))
    return r.Fail("section header table (" + std::to_string(count) + " entries at offset " +
                  std::to_string(shoff) + ") runs past the end of the file (" +
                  std::to_string(r.size()) + " bytes)");
  std::vector<Section> sections;
  sections.reserve(count);
  for (uint64_t i = 0; i < count; ++i) sections.push_back(ReadSection(r, f, shoff + i * entsize));
  return sections;
}

Status CheckRange(const Reader& r, const Section& s, uint64_t index, const char* what) {
  if (r.Has(s.offset, s.size)) return Ok{};
  return r.Fail(std::string(what) + " (section " + std::to_string(index) + ", offset " +
                std::to_string(s.offset) + ", " + std::to_string(s.size) +
                " bytes) runs past the end of the file (" + std::to_string(r.size()) + " bytes)");
}

// The NUL-terminated name at `offset` in the string table `strtab`. Names share a budget of
// `budget` bytes, so a hostile table cannot make the scan quadratic or the copies huge.
Result<std::string> ReadName(const Reader& r, const Section& strtab, uint64_t offset,
                             uint64_t symbol, uint64_t& budget) {
  if (offset >= strtab.size)
    return r.Fail("symbol " + std::to_string(symbol) + " names string offset " +
                  std::to_string(offset) + " outside its string table (" +
                  std::to_string(strtab.size) + " bytes)");
  const char* begin = reinterpret_cast<const char*>(r.data() + strtab.offset + offset);
  const uint64_t scan = std::min(strtab.size - offset, budget + 1);
  const void* nul = std::memchr(begin, 0, scan);
  if (!nul && scan <= budget)
    return r.Fail("symbol " + std::to_string(symbol) + "'s name is not NUL-terminated");
  if (!nul) return r.Fail("symbol names total more than 64 MiB");
  std::string name(begin, static_cast<const char*>(nul));
  budget -= name.size();
  return name;
}

Symbol ReadSymbolFields(const Reader& r, const Format& f, uint64_t at) {
  Symbol s;
  const bool is32 = f.bits == 32;
  const uint8_t info = static_cast<uint8_t>(r.Read(at + (is32 ? 12 : 4), 1));
  s.value = r.Read(at + (is32 ? 4 : 8), f.word);
  s.size = r.Read(at + (is32 ? 8 : 16), f.word);
  s.type = info & 0xf;
  s.binding = info >> 4;
  s.section = static_cast<uint16_t>(r.Read(at + (is32 ? 14 : 6), 2));
  return s;
}

Status ReadSymtab(const Reader& r, const Format& f, const std::vector<Section>& sections,
                  uint64_t index, ObjectFile& out) {
  const Section& symtab = sections[index];
  if (Status s = CheckRange(r, symtab, index, "symbol table"); !s) return s.error();
  if (symtab.entsize < f.symbol_size || symtab.size % symtab.entsize != 0)
    return r.Fail("symbol table (section " + std::to_string(index) + ") has entry size " +
                  std::to_string(symtab.entsize) + " and size " + std::to_string(symtab.size));
  if (symtab.link >= sections.size() || sections[symtab.link].type != kShtStrtab)
    return r.Fail("symbol table (section " + std::to_string(index) +
                  ") does not link to a string table");
  const Section& strtab = sections[symtab.link];
  if (Status s = CheckRange(r, strtab, symtab.link, "string table"); !s) return s.error();
  uint64_t budget = kMaxNameBytes;
  for (uint64_t i = 0; i < symtab.size / symtab.entsize; ++i) {
    const uint64_t at = symtab.offset + i * symtab.entsize;
    Symbol s = ReadSymbolFields(r, f, at);
    ETMEM_TRY(s.name, ReadName(r, strtab, r.Read(at, 4), i, budget));
    out.symbols.push_back(std::move(s));
  }
  return Ok{};
}

// The one SHT_SYMTAB section (the ELF specification allows at most one).
Result<uint64_t> FindSymtab(const Reader& r, const std::vector<Section>& sections) {
  std::optional<uint64_t> found;
  for (uint64_t i = 0; i < sections.size(); ++i) {
    if (sections[i].type != kShtSymtab) continue;
    if (found)
      return r.Fail("more than one symbol table (sections " + std::to_string(*found) + " and " +
                    std::to_string(i) + ")");
    found = i;
  }
  if (!found) return r.Fail("no symbol table (SHT_SYMTAB); was the object stripped?");
  return *found;
}

}  // namespace

std::optional<Symbol> ObjectFile::Find(const std::string& name) const {
  for (const Symbol& s : symbols)
    if (s.section != 0 && s.name == name) return s;
  return std::nullopt;
}

Result<ObjectFile> ReadObject(std::span<const uint8_t> bytes, const std::string& path) {
  const Reader r(bytes, path);
  ETMEM_TRY(const Format* f, ReadIdent(r));
  ObjectFile out;
  out.bits = f->bits;
  out.file_type = static_cast<uint16_t>(r.Read(16, 2));
  out.machine = static_cast<uint16_t>(r.Read(18, 2));
  ETMEM_TRY(std::vector<Section> sections, ReadSections(r, *f));
  ETMEM_TRY(uint64_t symtab, FindSymtab(r, sections));
  if (Status s = ReadSymtab(r, *f, sections, symtab, out); !s) return s.error();
  return out;
}

Result<ObjectFile> ReadObjectFile(const std::string& path) {
  std::error_code ec;
  const uint64_t size = std::filesystem::file_size(path, ec);
  if (ec) return MakeError(ErrorCode::kIo, path + ": cannot read (" + ec.message() + ")");
  if (size > kMaxFileBytes) return MakeError(ErrorCode::kIo, path + ": larger than 2 GiB");
  std::ifstream in(path, std::ios::binary);
  std::vector<uint8_t> bytes(size);
  if (!in || !in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(size)))
    return MakeError(ErrorCode::kIo, path + ": cannot read");
  return ReadObject(bytes, path);
}

}  // namespace etmem::elf
