// Owns: checking the ELF symbol reader on objects real compilers make (g++ for ELF64,
// arm-none-eabi-g++ for ELF32; each skipped when absent), and on damaged copies of them:
// every truncation and every corrupted offset must give a one-line error naming the file.
#include <cstring>
#include <random>

#include <gtest/gtest.h>

#include "etmem/elf/elf_reader.h"
#include "etmem_cli.h"

namespace etmem::test {
namespace elf_reader_test {

// Objects whose sizes follow from the compiler's ABI: 3 pointers, an int64 after a char.
constexpr const char* kSource = R"(
#include <cstdint>
struct Padded { char c; int64_t v; };
extern "C" const char etmem_seven[7] = {};
extern "C" const char etmem_three_pointers[3 * sizeof(void*)] = {};
extern "C" const Padded etmem_padded = {};
extern "C" int etmem_function(int x) { return x + 1; }
)";

// Compiles kSource with `compiler`; the object's path, or empty when the compiler is absent.
fs::path CompileObject(const std::string& compiler, const std::string& flags,
                       const std::string& stem) {
  if (!HaveTool(compiler)) return {};
  const fs::path src = WriteTemp(stem + ".cpp", kSource), obj = TempPath(stem + ".o");
  CliRun r = Shell(compiler + " " + flags + " -c " + src.string() + " -o " + obj.string());
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return obj;
}

uint64_t SizeOf(const elf::ObjectFile& object, const std::string& name) {
  auto s = object.Find(name);
  EXPECT_TRUE(s.has_value()) << name << " not found";
  return s ? s->size : 0;
}

TEST(ElfReader, ReadsSymbolSizesFromAnElf64Object) {
  const fs::path obj = CompileObject("g++", "-O2", "elf64");
  if (obj.empty()) GTEST_SKIP() << "no g++";
  if (Shell("g++ -dumpmachine").out.rfind("x86_64", 0) != 0) GTEST_SKIP() << "host is not x86_64";
  auto object = elf::ReadObjectFile(obj.string());
  ASSERT_TRUE(object) << object.error().message;
  EXPECT_EQ(object->bits, 64u);
  EXPECT_EQ(object->machine, 62);   // EM_X86_64
  EXPECT_EQ(object->file_type, 1);  // ET_REL
  EXPECT_EQ(SizeOf(*object, "etmem_seven"), 7u);
  EXPECT_EQ(SizeOf(*object, "etmem_three_pointers"), 24u);
  EXPECT_EQ(SizeOf(*object, "etmem_padded"), 16u);
  auto fn = object->Find("etmem_function");
  ASSERT_TRUE(fn);
  EXPECT_EQ(fn->type, 2);     // STT_FUNC
  EXPECT_EQ(fn->binding, 1);  // STB_GLOBAL
  EXPECT_FALSE(object->Find("etmem_absent"));
}

TEST(ElfReader, ReadsSymbolSizesFromAnElf32Object) {
  const fs::path obj = CompileObject("arm-none-eabi-g++", "-mcpu=cortex-m4 -mthumb -O2", "elf32");
  if (obj.empty()) GTEST_SKIP() << "no arm-none-eabi-g++";
  auto object = elf::ReadObjectFile(obj.string());
  ASSERT_TRUE(object) << object.error().message;
  EXPECT_EQ(object->bits, 32u);
  EXPECT_EQ(object->machine, 40);  // EM_ARM
  EXPECT_EQ(SizeOf(*object, "etmem_seven"), 7u);
  EXPECT_EQ(SizeOf(*object, "etmem_three_pointers"), 12u);
  EXPECT_EQ(SizeOf(*object, "etmem_padded"), 16u);  // AAPCS aligns int64_t to 8
}

// ---- damaged files ----

using Bytes = std::vector<uint8_t>;

uint64_t Get(const Bytes& b, size_t at, unsigned width) {
  uint64_t v = 0;
  std::memcpy(&v, b.data() + at, width);
  return v;
}
void Put(Bytes& b, size_t at, unsigned width, uint64_t v) { std::memcpy(b.data() + at, &v, width); }

// The host object's bytes and where its ELF64 symbol table's section header is.
struct Elf64 {
  Bytes bytes;
  size_t shoff = 0, symtab_header = 0, strtab_header = 0;
};

std::optional<Elf64> HostObject() {
  const fs::path obj = CompileObject("g++", "", "elf64_damaged");
  if (obj.empty()) return std::nullopt;
  const std::string text = ReadFile(obj);
  Elf64 e{Bytes(text.begin(), text.end())};
  if (e.bytes.size() < 64 || e.bytes[4] != 2) return std::nullopt;
  e.shoff = Get(e.bytes, 40, 8);
  for (uint64_t i = 0; i < Get(e.bytes, 60, 2); ++i) {
    const size_t at = e.shoff + i * 64;
    if (Get(e.bytes, at + 4, 4) == 2) e.symtab_header = at;
  }
  e.strtab_header = e.shoff + Get(e.bytes, e.symtab_header + 40, 4) * 64;
  return e;
}

// Parses `bytes` and expects a one-line error that names the file and contains `what`.
void ExpectError(const Bytes& bytes, const std::string& what) {
  auto r = elf::ReadObject(bytes, "damaged.o");
  ASSERT_FALSE(r) << "expected an error containing '" << what << "'";
  EXPECT_EQ(r.error().message.rfind("damaged.o: ", 0), 0u) << r.error().message;
  EXPECT_EQ(r.error().message.find('\n'), std::string::npos) << r.error().message;
  EXPECT_NE(r.error().message.find(what), std::string::npos) << r.error().message;
}

#define HOST_OBJECT_OR_SKIP(e)                                 \
  auto e##_opt = HostObject();                                 \
  if (!e##_opt) GTEST_SKIP() << "no g++ making ELF64 objects"; \
  Elf64& e = *e##_opt

TEST(ElfReaderDamaged, TheUndamagedObjectReads) {
  HOST_OBJECT_OR_SKIP(e);
  auto r = elf::ReadObject(e.bytes, "damaged.o");
  ASSERT_TRUE(r) << r.error().message;
  EXPECT_EQ(r->Find("etmem_seven")->size, 7u);
}

TEST(ElfReaderDamaged, EveryTruncationIsAnError) {
  HOST_OBJECT_OR_SKIP(e);
  for (size_t n = 0; n < e.bytes.size(); ++n) {
    auto r = elf::ReadObject(std::span(e.bytes).first(n), "damaged.o");
    ASSERT_FALSE(r) << "a " << n << "-byte prefix of a " << e.bytes.size() << "-byte object parsed";
    EXPECT_EQ(r.error().message.find('\n'), std::string::npos);
  }
  ExpectError(Bytes(e.bytes.begin(), e.bytes.begin() + 20), "truncated ELF header");
  ExpectError(Bytes(e.bytes.begin(), e.bytes.end() - 1), "section header table");
}

TEST(ElfReaderDamaged, BadIdentification) {
  HOST_OBJECT_OR_SKIP(e);
  Bytes b = e.bytes;
  b[1] = 'X';
  ExpectError(b, "not an ELF file");
  b = e.bytes;
  b[5] = 2;  // ELFDATA2MSB
  ExpectError(b, "only little-endian");
  b = e.bytes;
  b[4] = 3;
  ExpectError(b, "unknown ELF class 3");
  ExpectError({}, "not an ELF file");
}

TEST(ElfReaderDamaged, SectionHeaderTableOutOfTheFile) {
  HOST_OBJECT_OR_SKIP(e);
  Bytes b = e.bytes;
  Put(b, 40, 8, b.size());  // e_shoff at the end
  ExpectError(b, "past the end of the file");
  Put(b, 40, 8, ~uint64_t{0} - 8);  // offset + size overflows
  ExpectError(b, "past the end of the file");
  b = e.bytes;
  Put(b, 60, 2, 0xffff);  // e_shnum
  ExpectError(b, "65535 entries");
  b = e.bytes;
  Put(b, 58, 2, 0);  // e_shentsize
  ExpectError(b, "section header size 0");
  b = e.bytes;
  Put(b, 40, 8, 0);
  ExpectError(b, "no section header table");
}

TEST(ElfReaderDamaged, SymbolTableOutOfTheFile) {
  HOST_OBJECT_OR_SKIP(e);
  Bytes b = e.bytes;
  Put(b, e.symtab_header + 24, 8, b.size() - 8);  // sh_offset
  ExpectError(b, "symbol table (section");
  b = e.bytes;
  Put(b, e.symtab_header + 32, 8, ~uint64_t{0} - 23);  // sh_size: offset + size overflows
  ExpectError(b, "runs past the end of the file");
  b = e.bytes;
  Put(b, e.symtab_header + 56, 8, 0);  // sh_entsize: must not divide by zero
  ExpectError(b, "entry size 0");
  b = e.bytes;
  Put(b, e.symtab_header + 40, 4, 0xffffffff);  // sh_link
  ExpectError(b, "does not link to a string table");
  b = e.bytes;
  Put(b, e.strtab_header + 24, 8, b.size());  // the string table's sh_offset
  ExpectError(b, "string table (section");
}

TEST(ElfReaderDamaged, SymbolNamesOutsideTheStringTable) {
  HOST_OBJECT_OR_SKIP(e);
  const size_t first_symbol = Get(e.bytes, e.symtab_header + 24, 8) + 24;  // entry 1
  const uint64_t strtab_offset = Get(e.bytes, e.strtab_header + 24, 8);
  const uint64_t strtab_size = Get(e.bytes, e.strtab_header + 32, 8);
  Bytes b = e.bytes;
  Put(b, first_symbol, 4, strtab_size);  // st_name one past the table
  ExpectError(b, "outside its string table");
  b = e.bytes;
  b[strtab_offset + strtab_size - 1] = 'x';  // the last name loses its NUL
  Put(b, first_symbol, 4, strtab_size - 1);
  ExpectError(b, "not NUL-terminated");
}

TEST(ElfReaderDamaged, TwoSymbolTablesAreRefused) {
  HOST_OBJECT_OR_SKIP(e);
  Bytes b = e.bytes;
  Put(b, e.strtab_header + 4, 4, 2);  // the string table claims to be a symbol table too
  auto r = elf::ReadObject(b, "damaged.o");
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().message.find('\n'), std::string::npos);
}

TEST(ElfReaderDamaged, NoSymbolTable) {
  HOST_OBJECT_OR_SKIP(e);
  Bytes b = e.bytes;
  Put(b, e.symtab_header + 4, 4, 1);  // SHT_PROGBITS
  ExpectError(b, "no symbol table");
}

// Random corruption of the headers never crashes; a failure is always one line.
TEST(ElfReaderDamaged, RandomCorruptionNeverCrashes) {
  HOST_OBJECT_OR_SKIP(e);
  std::mt19937 rng(20240607);
  const std::vector<size_t> regions = {0, e.shoff, e.symtab_header, e.strtab_header,
                                       Get(e.bytes, e.symtab_header + 24, 8)};
  int failures = 0;
  for (int i = 0; i < 3000; ++i) {
    Bytes b = e.bytes;
    for (int k = 0; k < 4; ++k) {
      const size_t at = regions[rng() % regions.size()] + rng() % 64;
      if (at < b.size()) b[at] = static_cast<uint8_t>(rng());
    }
    auto r = elf::ReadObject(b, "damaged.o");
    if (r) continue;
    ++failures;
    ASSERT_EQ(r.error().message.find('\n'), std::string::npos) << r.error().message;
  }
  EXPECT_GT(failures, 100);  // the corruption did reach the checks
}

TEST(ElfReader, MissingFileIsAnIoError) {
  auto r = elf::ReadObjectFile(TempPath("absent.o").string());
  ASSERT_FALSE(r);
  EXPECT_EQ(r.error().code, ErrorCode::kIo);
  EXPECT_NE(r.error().message.find("absent.o"), std::string::npos);
}

}  // namespace elf_reader_test
}  // namespace etmem::test
