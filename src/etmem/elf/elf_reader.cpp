// Owns: parsing an ELF object's header, section headers and symbol tables from bytes in memory.
// Fields are read with memcpy at checked offsets, never through casts of the file's bytes.
#include "etmem/elf/elf_reader.h"

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>

#include "etmem/base/checked_math.h"
#include "etmem/base/printable.h"

namespace etmem::elf {
namespace {

constexpr uint32_t kShtSymtab = 2;
constexpr uint32_t kShtStrtab = 3;
constexpr uint64_t kMaxFileBytes = uint64_t{1} << 31;
constexpr uint64_t kMaxNameBytes = uint64_t{1} << 26;  // all symbol names together

constexpr uint32_t kShtArmAttributes = 0x70000003;

// The layout facts that differ between ELF32 and ELF64.
struct Format {
  unsigned bits;
  uint64_t header_size, section_size, symbol_size;
  uint64_t e_shoff, e_shentsize, e_shnum;            // offsets in the ELF header
  uint64_t sh_offset, sh_size, sh_link, sh_entsize;  // offsets in a section header
  unsigned word;                                     // bytes of an address-sized field
  uint64_t e_entry, e_phoff, e_flags, e_phentsize, e_phnum, e_shstrndx;
  uint64_t sh_flags, sh_addr, sh_addralign;
  uint64_t segment_size;  // one program header
  // Offsets in a program header.
  uint64_t p_offset, p_vaddr, p_paddr, p_filesz, p_memsz, p_flags, p_align;
};
constexpr Format kElf32{32, 52, 40, 16, 32, 46, 48, 16, 20, 24, 36, 4,
                        24, 28, 36, 42, 44, 50, 8, 12, 32,
                        32, 4, 8, 12, 16, 20, 24, 28};
constexpr Format kElf64{64, 64, 64, 24, 40, 58, 60, 24, 32, 40, 56, 8,
                        24, 32, 48, 54, 56, 62, 8, 16, 48,
                        56, 8, 16, 24, 32, 40, 4, 48};

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
    return MakeError(ErrorCode::kInvalidArgument, Printable(path_, 400) + ": " + what);
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

// The header's fields; the name is read later from the section name string table (its offset
// kept in `name_offset`).
Section ReadSection(const Reader& r, const Format& f, uint64_t at, uint32_t& name_offset) {
  Section s;
  name_offset = static_cast<uint32_t>(r.Read(at, 4));
  s.type = static_cast<uint32_t>(r.Read(at + 4, 4));
  s.flags = r.Read(at + f.sh_flags, f.word);
  s.address = r.Read(at + f.sh_addr, f.word);
  s.offset = r.Read(at + f.sh_offset, f.word);
  s.size = r.Read(at + f.sh_size, f.word);
  s.link = static_cast<uint32_t>(r.Read(at + f.sh_link, 4));
  s.align = r.Read(at + f.sh_addralign, f.word);
  s.entsize = r.Read(at + f.sh_entsize, f.word);
  return s;
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
  uint32_t unused = 0;
  if (count == 0) count = ReadSection(r, f, shoff, unused).size;  // extended numbering: entry 0
  auto table = CheckedMul(count, entsize);
  if (!table || !r.Has(shoff, *table))
    return r.Fail("section header table (" + std::to_string(count) + " entries at offset " +
                  std::to_string(shoff) + ") runs past the end of the file (" +
                  std::to_string(r.size()) + " bytes)");
  std::vector<Section> sections;
  std::vector<uint32_t> names;
  sections.reserve(count);
  names.reserve(count);
  for (uint64_t i = 0; i < count; ++i) {
    uint32_t name = 0;
    sections.push_back(ReadSection(r, f, shoff + i * entsize, name));
    names.push_back(name);
  }
  // Section names: e_shstrndx (SHN_XINDEX, 0xffff: the index is entry 0's sh_link).
  uint64_t shstrndx = r.Read(f.e_shstrndx, 2);
  if (shstrndx == 0xffff) {
    if (sections.empty())
      return r.Fail("section name table index is extended (0xffff) but there is no section 0 "
                    "to hold it");
    shstrndx = sections[0].link;
  }
  if (shstrndx == 0) return sections;  // no names (allowed by the specification)
  if (shstrndx >= sections.size() || sections[shstrndx].type != kShtStrtab)
    return r.Fail("section name table index " + std::to_string(shstrndx) +
                  " is not a string table");
  const Section& strtab = sections[shstrndx];
  if (!r.Has(strtab.offset, strtab.size))
    return r.Fail("section name string table (section " + std::to_string(shstrndx) + ", offset " +
                  std::to_string(strtab.offset) + ", " + std::to_string(strtab.size) +
                  " bytes) runs past the end of the file (" + std::to_string(r.size()) +
                  " bytes)");
  uint64_t budget = kMaxNameBytes;
  for (uint64_t i = 0; i < count; ++i) {
    if (names[i] == 0 && i == 0) continue;
    if (names[i] >= strtab.size)
      return r.Fail("section " + std::to_string(i) + " names string offset " +
                    std::to_string(names[i]) + " outside the section name table (" +
                    std::to_string(strtab.size) + " bytes)");
    const char* begin = reinterpret_cast<const char*>(r.data() + strtab.offset + names[i]);
    const uint64_t scan = std::min<uint64_t>(strtab.size - names[i], 4096);
    const void* nul = std::memchr(begin, 0, scan);
    if (!nul)
      return r.Fail("section " + std::to_string(i) +
                    "'s name is not NUL-terminated within 4096 bytes");
    const uint64_t length = static_cast<uint64_t>(static_cast<const char*>(nul) - begin);
    if (length > budget) return r.Fail("section names total more than 64 MiB");
    budget -= length;
    sections[i].name.assign(begin, static_cast<const char*>(nul));
  }
  return sections;
}

Result<std::vector<Segment>> ReadSegments(const Reader& r, const Format& f) {
  const uint64_t phoff = r.Read(f.e_phoff, f.word);
  const uint64_t entsize = r.Read(f.e_phentsize, 2);
  const uint64_t count = r.Read(f.e_phnum, 2);
  std::vector<Segment> segments;
  if (count == 0) return segments;
  if (count == 0xffff)
    return r.Fail("more than 65534 program headers (PN_XNUM) are not read");
  if (entsize < f.segment_size)
    return r.Fail("program header size " + std::to_string(entsize) + " is below the ELF" +
                  std::to_string(f.bits) + " minimum " + std::to_string(f.segment_size));
  auto table = CheckedMul(count, entsize);
  if (!table || !r.Has(phoff, *table))
    return r.Fail("program header table (" + std::to_string(count) + " entries at offset " +
                  std::to_string(phoff) + ") runs past the end of the file (" +
                  std::to_string(r.size()) + " bytes)");
  for (uint64_t i = 0; i < count; ++i) {
    const uint64_t at = phoff + i * entsize;
    Segment s;
    s.type = static_cast<uint32_t>(r.Read(at, 4));
    s.flags = static_cast<uint32_t>(r.Read(at + f.p_flags, 4));
    s.offset = r.Read(at + f.p_offset, f.word);
    s.vaddr = r.Read(at + f.p_vaddr, f.word);
    s.paddr = r.Read(at + f.p_paddr, f.word);
    s.filesz = r.Read(at + f.p_filesz, f.word);
    s.memsz = r.Read(at + f.p_memsz, f.word);
    s.align = r.Read(at + f.p_align, f.word);
    segments.push_back(s);
  }
  return segments;
}

// ULEB128 at `at` within [.., end); advances `at`. Empty on a truncated or over-long number.
std::optional<uint64_t> ReadUleb(const uint8_t* p, uint64_t& at, uint64_t end) {
  uint64_t v = 0;
  for (unsigned shift = 0; at < end && shift < 64; shift += 7) {
    const uint8_t b = p[at++];
    v |= uint64_t{b & 0x7fu} << shift;
    if (!(b & 0x80)) return v;
  }
  return std::nullopt;
}

// The "aeabi" attributes of an .ARM.attributes section: format 'A', then subsections (length,
// vendor name, then tagged sub-subsections). Only file-scope attributes (Tag_File) are read.
Result<ArmAttributes> ReadArmAttributes(const Reader& r, const Section& s, uint64_t index) {
  const std::string where = "Arm attributes (section " + std::to_string(index) + ")";
  if (!r.Has(s.offset, s.size))
    return r.Fail(where + " run past the end of the file (" + std::to_string(r.size()) + " bytes)");
  const uint8_t* p = r.data() + s.offset;
  ArmAttributes out;
  if (s.size == 0) return out;
  if (p[0] != 'A') return r.Fail(where + " have format version " + std::to_string(p[0]) +
                                 ", not 'A'");
  uint64_t at = 1;
  while (at < s.size) {
    if (s.size - at < 4) return r.Fail(where + ": truncated subsection length");
    uint32_t length = 0;
    std::memcpy(&length, p + at, 4);
    if (length < 4 || length > s.size - at)
      return r.Fail(where + ": subsection length " + std::to_string(length) +
                    " runs past the section (" + std::to_string(s.size) + " bytes)");
    const uint64_t sub_end = at + length;
    uint64_t q = at + 4;
    const void* nul = std::memchr(p + q, 0, sub_end - q);
    if (!nul) return r.Fail(where + ": vendor name is not NUL-terminated");
    const std::string vendor(reinterpret_cast<const char*>(p + q), static_cast<const char*>(nul));
    q = static_cast<uint64_t>(static_cast<const uint8_t*>(nul) - p) + 1;
    while (vendor == "aeabi" && q < sub_end) {
      if (sub_end - q < 5) return r.Fail(where + ": truncated attribute block");
      const uint8_t tag = p[q];
      uint32_t block = 0;
      std::memcpy(&block, p + q + 1, 4);
      if (block < 5 || block > sub_end - q)
        return r.Fail(where + ": attribute block length " + std::to_string(block) +
                      " runs past its subsection");
      const uint64_t block_end = q + block;
      uint64_t a = q + 5;
      while (tag == 1 && a < block_end) {  // Tag_File: tag/value pairs to the block's end
        const auto attr = ReadUleb(p, a, block_end);
        if (!attr) return r.Fail(where + ": truncated attribute tag");
        // Strings: Tag_CPU_raw_name (4), Tag_CPU_name (5), Tag_also_compatible_with (65),
        // Tag_conformance (67), and from 32 up the odd tags; Tag_compatibility (32) is a number
        // then a string; the rest numbers.
        const bool string = *attr == 4 || *attr == 5 || *attr == 65 || *attr == 67 ||
                            (*attr > 32 && (*attr & 1) != 0);
        if (*attr == 32 && !ReadUleb(p, a, block_end))
          return r.Fail(where + ": truncated attribute value");
        if (string || *attr == 32) {
          const void* end = std::memchr(p + a, 0, block_end - a);
          if (!end) return r.Fail(where + ": attribute string is not NUL-terminated");
          const auto* e = static_cast<const uint8_t*>(end);
          if (*attr == 5) out.cpu_name.assign(reinterpret_cast<const char*>(p + a),
                                              reinterpret_cast<const char*>(e));
          a = static_cast<uint64_t>(e - p) + 1;
          continue;
        }
        const auto value = ReadUleb(p, a, block_end);
        if (!value) return r.Fail(where + ": truncated attribute value");
        if (*attr == 6) out.cpu_arch = *value;
        if (*attr == 7 && *value != 0) out.profile = static_cast<char>(*value & 0x7f);
        if (*attr == 46) out.dsp_extension = *value;
        if (*attr == 48) out.mve_arch = *value;
      }
      q = block_end;
    }
    at = sub_end;
  }
  return out;
}

// What ReadExecutable adds: sections and segments that agree with the file and each other.
Status CheckLayout(const Reader& r, const ObjectFile& o) {
  struct Range {
    uint64_t begin, end;
    size_t index;
  };
  std::vector<Range> file, memory;
  for (size_t i = 1; i < o.sections.size(); ++i) {
    const Section& s = o.sections[i];
    const std::string name = "section " + std::to_string(i) + " (" + Printable(s.name) + ")";
    if (s.has_file_bytes() && !r.Has(s.offset, s.size))
      return r.Fail(name + " (offset " + std::to_string(s.offset) + ", " +
                    std::to_string(s.size) + " bytes) runs past the end of the file (" +
                    std::to_string(r.size()) + " bytes)");
    if (s.allocated() && !CheckedAdd(s.address, s.size))
      return r.Fail(name + " at address " + std::to_string(s.address) + " with " +
                    std::to_string(s.size) + " bytes wraps past the end of the address space");
    if (s.has_file_bytes() && s.size > 0) file.push_back({s.offset, s.offset + s.size, i});
    // A thread-local .tbss takes no addresses of its own (it overlays what follows).
    if (s.allocated() && s.size > 0 && !(s.type == kShtNobits && (s.flags & kShfTls)))
      memory.push_back({s.address, s.address + s.size, i});
  }
  auto overlap = [&](std::vector<Range>& ranges, const char* what) -> Status {
    std::sort(ranges.begin(), ranges.end(),
              [](const Range& a, const Range& b) { return a.begin < b.begin; });
    for (size_t k = 1; k < ranges.size(); ++k)
      if (ranges[k].begin < ranges[k - 1].end)
        return r.Fail("sections " + std::to_string(ranges[k - 1].index) + " (" +
                      Printable(o.sections[ranges[k - 1].index].name) + ") and " +
                      std::to_string(ranges[k].index) + " (" +
                      Printable(o.sections[ranges[k].index].name) + ") overlap in " + what);
    return Ok{};
  };
  if (Status s = overlap(file, "the file"); !s) return s;
  if (Status s = overlap(memory, "memory"); !s) return s;
  for (size_t i = 0; i < o.segments.size(); ++i) {
    const Segment& g = o.segments[i];
    if (g.type != kPtLoad) continue;
    const std::string name = "segment " + std::to_string(i);
    if (!r.Has(g.offset, g.filesz))
      return r.Fail(name + " (offset " + std::to_string(g.offset) + ", " +
                    std::to_string(g.filesz) + " bytes) runs past the end of the file (" +
                    std::to_string(r.size()) + " bytes)");
    if (g.filesz > g.memsz)
      return r.Fail(name + " has more file bytes (" + std::to_string(g.filesz) +
                    ") than memory (" + std::to_string(g.memsz) + ")");
    if (!CheckedAdd(g.vaddr, g.memsz) || !CheckedAdd(g.paddr, g.memsz))
      return r.Fail(name + " wraps past the end of the address space");
  }
  return Ok{};
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

const Section* ObjectFile::SectionOf(const Symbol& s) const {
  // 0 undefined; 0xff00.. reserved (absolute 0xfff1, common 0xfff2, SHN_XINDEX 0xffff).
  if (s.section == 0 || s.section >= 0xff00 || s.section >= sections.size()) return nullptr;
  return &sections[s.section];
}

const Section* ObjectFile::SectionAt(uint64_t address) const {
  for (const Section& s : sections)
    if (s.allocated() && s.size > 0 && !(s.type == kShtNobits && (s.flags & kShfTls)) &&
        s.Contains(address, 1))
      return &s;
  return nullptr;
}

namespace {
Result<ObjectFile> Parse(const Reader& r) {
  ETMEM_TRY(const Format* f, ReadIdent(r));
  ObjectFile out;
  out.bits = f->bits;
  out.file_type = static_cast<uint16_t>(r.Read(16, 2));
  out.machine = static_cast<uint16_t>(r.Read(18, 2));
  out.entry = r.Read(f->e_entry, f->word);
  out.flags = static_cast<uint32_t>(r.Read(f->e_flags, 4));
  ETMEM_TRY(out.sections, ReadSections(r, *f));
  ETMEM_TRY(uint64_t symtab, FindSymtab(r, out.sections));
  if (Status s = ReadSymtab(r, *f, out.sections, symtab, out); !s) return s.error();
  ETMEM_TRY(out.segments, ReadSegments(r, *f));
  for (size_t i = 0; i < out.sections.size(); ++i) {
    if (out.sections[i].type != kShtArmAttributes || out.machine != 40) continue;
    ETMEM_TRY(out.arm, ReadArmAttributes(r, out.sections[i], i));
    break;
  }
  return out;
}
}  // namespace

Result<ObjectFile> ReadObject(std::span<const uint8_t> bytes, const std::string& path) {
  const Reader r(bytes, path);
  return Parse(r);
}

namespace {
Result<std::vector<uint8_t>> ReadWholeFile(const std::string& path) {
  std::error_code ec;
  const std::string name = Printable(path, 400);
  if (std::filesystem::is_directory(path, ec))
    return MakeError(ErrorCode::kIo, name + ": is a directory, not an ELF file");
  const uint64_t size = std::filesystem::file_size(path, ec);
  if (ec) return MakeError(ErrorCode::kIo, name + ": cannot read (" + ec.message() + ")");
  if (size > kMaxFileBytes) return MakeError(ErrorCode::kIo, name + ": larger than 2 GiB");
  std::ifstream in(path, std::ios::binary);
  std::vector<uint8_t> bytes(size);
  if (!in || !in.read(reinterpret_cast<char*>(bytes.data()), static_cast<std::streamsize>(size)))
    return MakeError(ErrorCode::kIo, name + ": cannot read");
  return bytes;
}
}  // namespace

Result<ObjectFile> ReadObjectFile(const std::string& path) {
  ETMEM_TRY(std::vector<uint8_t> bytes, ReadWholeFile(path));
  return ReadObject(bytes, path);
}

std::span<const uint8_t> Executable::SectionBytes(const Section& s) const {
  if (!s.has_file_bytes() || s.offset > bytes.size() || s.size > bytes.size() - s.offset)
    return {};
  return std::span<const uint8_t>(bytes).subspan(s.offset, s.size);
}

const Segment* Executable::SegmentOf(const Section& s) const {
  for (const Segment& g : elf.segments)
    if (g.type == kPtLoad && s.address >= g.vaddr && s.size <= g.memsz &&
        s.address - g.vaddr <= g.memsz - s.size)
      return &g;
  return nullptr;
}

Result<Executable> ReadExecutable(std::vector<uint8_t> bytes, const std::string& path) {
  Executable out;
  out.bytes = std::move(bytes);
  const Reader r(out.bytes, path);
  ETMEM_TRY(out.elf, Parse(r));
  if (out.elf.file_type != 2 && out.elf.file_type != 3)
    return r.Fail(out.elf.file_type == 1
                      ? std::string("a relocatable object, not a linked executable (link it first)")
                      : "ELF type " + std::to_string(out.elf.file_type) +
                            " is not an executable");
  if (Status s = CheckLayout(r, out.elf); !s) return s.error();
  return out;
}

Result<Executable> ReadExecutableFile(const std::string& path) {
  ETMEM_TRY(std::vector<uint8_t> bytes, ReadWholeFile(path));
  return ReadExecutable(std::move(bytes), path);
}

}  // namespace etmem::elf
