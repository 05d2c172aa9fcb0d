// Owns: the fuzz target of the ELF reader and `etmem firmware`'s checks of a linked image. Bytes
// -> elf::ReadObject (the symbol table, as `etmem probe` reads it) and elf::ReadExecutable; a
// refused file must give one printable line naming it. An accepted image then goes through
// firmware::CheckFirmware at 1.4.1 (programs found by identifier, runner by symbols, pool
// verdicts, the component table): an api::Error must be one printable line naming the file, and
// a report's component table must add up to its sections' sizes. A crash, a hang or a sanitizer
// report is a finding.
#include <cstdint>
#include <string>

#include "etmem/elf/elf_reader.h"
#include "etmem/etmem.h"
#include "etmem/firmware/firmware.h"
#include "fuzz_checks.h"

const char* const etmem::fuzz::kTargetName = "elf_fuzzer";

namespace {
void RequireLine(const std::string& m) {
  etmem::fuzz::Require(m.starts_with("fuzz.elf"), "error does not name the file: " + m);
  etmem::fuzz::Require(etmem::fuzz::OnePrintableLine(m), "error is not one printable line: " + m);
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace etmem;
  if (auto object = elf::ReadObject({data, size}, "fuzz.elf"); !object)
    RequireLine(object.error().message);
  auto image = elf::ReadExecutable(std::vector<uint8_t>(data, data + size), "fuzz.elf");
  if (!image) {
    RequireLine(image.error().message);
    return 0;
  }
  firmware::FirmwareOptions o;
  o.model.runtime = "1.4.1";
  try {
    const report::FirmwareReport r = firmware::CheckFirmware(*image, "fuzz.elf", o);
    if (r.components) {
      fuzz::Require(r.components->flash_total == r.components->section_flash_bytes,
                    "component flash does not add up to the sections'");
      fuzz::Require(r.components->ram_total == r.components->section_ram_bytes,
                    "component RAM does not add up to the sections'");
    }
    for (const report::FirmwareMethod& m : r.methods)
      for (const report::FirmwarePool& p : m.pools)
        fuzz::Require(p.fits || p.needed > p.bytes || !p.failing.empty(),
                      "a pool too small without a shortfall or a failing allocation");
  } catch (const api::Error& e) {
    RequireLine(e.what());
  }
  return 0;
}
