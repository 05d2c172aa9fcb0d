// Owns: the built-in target rows and reading a target-description file.
// One row per --target value. Only primitive facts live here; struct sizes are computed.
#include <nlohmann/json.hpp>

#include "etmem/abi/abi.h"
#include "etmem/base/checked_math.h"
#include "etmem/base/json_file.h"
#include "etmem/base/printable.h"

namespace etmem::abi {

const char* MExtensionName(MExtension e) {
  switch (e) {
    case MExtension::kNone: return "none";
    case MExtension::kDsp: return "dsp";
    case MExtension::kMve: return "mve";
  }
  return "none";
}

std::optional<MExtension> MExtensionNamed(std::string_view name) {
  for (MExtension e : {MExtension::kNone, MExtension::kDsp, MExtension::kMve})
    if (name == MExtensionName(e)) return e;
  return std::nullopt;
}

const std::vector<Abi>& BuiltinTargets() {
  // Not an Arm M-profile core: CMSIS-NN's plain C paths (neither ARM_MATH_DSP nor ARM_MATH_MVEI),
  // which is what these rows' compilers give; none of them is Arm Compiler 6.
  static const std::vector<Abi> kTargets = {
      {"cortex-m", "Arm Cortex-M (arm-none-eabi, AAPCS ILP32, 8-byte int64 alignment)",
       {4, 4}, {4, 4}, {8, 8}, {8, 8}, 8, 8, "arm-none-eabi-gcc 12", MExtension::kMve,
       "the target does not name its core: assumed a Cortex-M55 (MVE), the Cortex-M backend's "
       "documented target (backends/cortex_m/README.md: examples/arm/run.sh "
       "--target=cortex-m55); a target file with \"m_extension\" says otherwise"},
      {"riscv32", "RISC-V 32-bit (riscv64-unknown-elf -march=rv32imac -mabi=ilp32)",
       {4, 4}, {4, 4}, {8, 8}, {8, 8}, 16, 8, "riscv64-unknown-elf-gcc 12"},
      {"xtensa", "Xtensa LX6/LX7 (ESP32, xtensa-esp32-elf, ILP32)",
       {4, 4}, {4, 4}, {8, 8}, {8, 8}, 8, 8, "xtensa-esp32-elf-gcc"},
      {"aarch64", "AArch64 LP64 (Linux, Cortex-A)",
       {8, 8}, {8, 8}, {8, 8}, {8, 8}, 16, 16, "aarch64-linux-gnu-gcc 12"},
      {"x86_64", "x86-64 LP64 (Linux host)",
       {8, 8}, {8, 8}, {8, 8}, {8, 8}, 16, 16, "g++ 12"},
  };
  return kTargets;
}

Result<Abi> FindBuiltinTarget(const std::string& name) {
  std::string known;
  for (const Abi& a : BuiltinTargets()) {
    if (a.name == name) return a;
    known += (known.empty() ? "" : ", ") + a.name;
  }
  return MakeError(ErrorCode::kInvalidArgument,
                   "unknown target '" + Printable(name) + "' (known: " + known + ", or a target file)");
}

namespace {

Result<SizeAlign> ReadPair(const json_file::Object& f, const char* key) {
  auto bad = [&](const std::string& why) {
    return json_file::Bad(f.where() + ": \"" + key + "\" " + why);
  };
  const nlohmann::json* v = f.Optional(key);
  if (!v) return json_file::Bad(f.Missing(key).message + " (want [size, align])");
  if (!v->is_array() || v->size() != 2 || !(*v)[0].is_number_unsigned() ||
      !(*v)[1].is_number_unsigned())
    return f.WrongType(key, "[size, align] with two non-negative integers");
  uint64_t size = (*v)[0].get<uint64_t>(), align = (*v)[1].get<uint64_t>();
  if (size < 1 || size > 16)
    return bad("size is " + std::to_string(size) + ", out of range (1 to 16)");
  if (!IsPowerOfTwo(align) || align > size) return bad("align must be a power of two <= size");
  return SizeAlign{static_cast<uint32_t>(size), static_cast<uint32_t>(align)};
}

Result<uint32_t> ReadAlign(const json_file::Object& f, const char* key, uint32_t fallback) {
  ETMEM_TRY(const uint64_t v, f.Unsigned(key, false, 1, 4096, fallback));
  if (!IsPowerOfTwo(v))
    return json_file::Bad(f.where() + ": \"" + key + "\" must be a power of two up to 4096");
  return static_cast<uint32_t>(v);
}

Result<MExtension> ReadMExtension(const json_file::Object& f) {
  const nlohmann::json* v = f.Optional("m_extension");
  if (!v) return MExtension::kNone;
  if (v->is_string())
    if (auto e = MExtensionNamed(v->get<std::string>())) return *e;
  return f.WrongType("m_extension", "\"none\", \"dsp\" or \"mve\"");
}

}  // namespace

Result<Abi> ReadTargetFile(const std::string& path) {
  ETMEM_TRY(const std::string text, json_file::ReadText(path, "target"));
  return ReadTargetText(text, path);
}

Result<Abi> ReadTargetText(const std::string& text, const std::string& path_raw) {
  const std::string path = Printable(path_raw, kShownPathBytes);  // every message and the name quote it
  ETMEM_TRY(const nlohmann::json j, json_file::Parse(text, path));
  const json_file::Object f(j, path);
  // "measured": the types `etmem probe` measured, kept in the file for the reader (not read).
  if (auto ok = f.Known({"name", "description", "compiler", "pointer", "size_t", "int64", "double",
                         "max_align", "malloc_align", "m_extension", "armclang", "measured"});
      !ok)
    return ok.error();
  Abi abi;
  ETMEM_TRY(abi.name, f.String("name", false));
  ETMEM_TRY(abi.description, f.String("description", false));
  ETMEM_TRY(abi.compiler, f.String("compiler", false));
  // Reports quote these: kept printable.
  abi.name = Printable(abi.name, kShownPathBytes);
  abi.description = Printable(abi.description, 4096);
  abi.compiler = Printable(abi.compiler, 4096);
  if (!f.Optional("name")) abi.name = path;
  if (!f.Optional("description")) abi.description = "target described by " + path;
  ETMEM_TRY(abi.pointer, ReadPair(f, "pointer"));
  ETMEM_TRY(abi.size_type, ReadPair(f, "size_t"));
  ETMEM_TRY(abi.int64, ReadPair(f, "int64"));
  ETMEM_TRY(abi.float64, ReadPair(f, "double"));
  ETMEM_TRY(abi.max_align, ReadAlign(f, "max_align", 8));
  ETMEM_TRY(abi.malloc_align, ReadAlign(f, "malloc_align", abi.max_align));
  ETMEM_TRY(abi.m_extension, ReadMExtension(f));
  if (!f.Optional("m_extension"))
    abi.m_extension_assumed = "the target file does not say (\"m_extension\"): assumed none "
                              "(no DSP or MVE extension: CMSIS-NN's plain C paths)";
  ETMEM_TRY(abi.armclang, f.Bool("armclang", false));
  if (!f.Optional("armclang"))
    abi.armclang_assumed = "the target file does not say (\"armclang\"): assumed not Arm "
                           "Compiler 6 (GCC or clang)";
  return abi;
}

Result<Abi> ResolveTarget(const std::string& name_or_path) {
  auto builtin = FindBuiltinTarget(name_or_path);
  if (builtin) return builtin;
  if (name_or_path.find('/') != std::string::npos || name_or_path.ends_with(".json"))
    return ReadTargetFile(name_or_path);
  return builtin.error();
}

}  // namespace etmem::abi
