// Owns: the built-in target rows and reading a target-description file.
// One row per --target value. Only primitive facts live here; struct sizes are computed.
#include <fstream>
#include <sstream>

#include <nlohmann/json.hpp>

#include "etmem/abi/abi.h"
#include "etmem/base/checked_math.h"
#include "etmem/base/printable.h"

namespace etmem::abi {

const std::vector<Abi>& BuiltinTargets() {
  static const std::vector<Abi> kTargets = {
      {"cortex-m", "Arm Cortex-M (arm-none-eabi, AAPCS ILP32, 8-byte int64 alignment)",
       {4, 4}, {4, 4}, {8, 8}, {8, 8}, 8, 8, "arm-none-eabi-gcc 12"},
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

Result<SizeAlign> ReadPair(const nlohmann::json& j, const char* key, const std::string& path) {
  auto bad = [&](const std::string& why) {
    return MakeError(ErrorCode::kInvalidArgument, path + ": \"" + key + "\" " + why);
  };
  if (!j.contains(key)) return bad("is missing (want [size, align])");
  const auto& v = j.at(key);
  if (!v.is_array() || v.size() != 2 || !v[0].is_number_unsigned() || !v[1].is_number_unsigned())
    return bad("must be [size, align] with two non-negative integers");
  uint64_t size = v[0].get<uint64_t>(), align = v[1].get<uint64_t>();
  if (size < 1 || size > 16) return bad("size must be 1..16");
  if (!IsPowerOfTwo(align) || align > size) return bad("align must be a power of two <= size");
  return SizeAlign{static_cast<uint32_t>(size), static_cast<uint32_t>(align)};
}

Result<uint32_t> ReadAlign(const nlohmann::json& j, const char* key, uint32_t fallback,
                           const std::string& path) {
  if (!j.contains(key)) return fallback;
  const auto& v = j.at(key);
  if (!v.is_number_unsigned() || !IsPowerOfTwo(v.get<uint64_t>()) || v.get<uint64_t>() > 4096)
    return MakeError(ErrorCode::kInvalidArgument,
                     path + ": \"" + key + "\" must be a power of two up to 4096");
  return static_cast<uint32_t>(v.get<uint64_t>());
}

}  // namespace

Result<Abi> ReadTargetFile(const std::string& path) {
  std::ifstream in(path);
  if (!in)
    return MakeError(ErrorCode::kInvalidArgument, Printable(path, kShownPathBytes) + ": cannot open target file");
  std::stringstream text;
  text << in.rdbuf();
  return ReadTargetText(text.str(), path);
}

Result<Abi> ReadTargetText(const std::string& text, const std::string& path_raw) {
  const std::string path = Printable(path_raw, kShownPathBytes);  // every message and the name quote it
  nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (j.is_discarded() || !j.is_object())
    return MakeError(ErrorCode::kInvalidArgument, path + ": not a JSON object");
  Abi abi;
  for (const char* key : {"name", "description", "compiler"})
    if (j.contains(key) && !j.at(key).is_string())
      return MakeError(ErrorCode::kInvalidArgument, path + ": \"" + key + "\" must be a string");
  // Reports quote these: kept printable.
  abi.name = Printable(j.value("name", path), kShownPathBytes);
  abi.description = Printable(j.value("description", "target described by " + path), 4096);
  abi.compiler = Printable(j.value("compiler", ""), 4096);
  ETMEM_TRY(abi.pointer, ReadPair(j, "pointer", path));
  ETMEM_TRY(abi.size_type, ReadPair(j, "size_t", path));
  ETMEM_TRY(abi.int64, ReadPair(j, "int64", path));
  ETMEM_TRY(abi.float64, ReadPair(j, "double", path));
  ETMEM_TRY(abi.max_align, ReadAlign(j, "max_align", 8, path));
  ETMEM_TRY(abi.malloc_align, ReadAlign(j, "malloc_align", abi.max_align, path));
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
