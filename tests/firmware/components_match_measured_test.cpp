// Owns: holding `etmem firmware` to the image measured in tests/measured/arm_firmware_components.json
// (ExecuTorch v1.4.1's runtime and the portable kernels of the motivating CNN cross-compiled for
// Cortex-M4, linked with the Arm runner's declarations and the program embedded; the file says how):
// without the image, that the component table etmem printed adds up, byte for byte, to the
// sections' sizes (per region and in total), that every ExecuTorch component has its row (the
// runtime core, each called operator's kernel, flatbuffers, the generated registration, the
// program, the pools, the C library, the application), and that the verdict's figures are the
// model's own for that program at the pools' recorded sizes and alignments.
#include <gtest/gtest.h>

#include <map>
#include <set>

#include "etmem/base/sha256.h"
#include "etmem/etmem.h"
#include "measured.h"

namespace etmem {
namespace measured_firmware_components_test {

using nlohmann::json;

const json& Record() {
  static const json record = test::ReadMeasured("arm_firmware_components.json");
  return record;
}

// The flash and RAM of the memory map the record names: FLASH at 0x08000000 (1 MiB), RAM at
// 0x20000000 (256 KiB); initialised data in RAM has its load image in flash.
TEST(MeasuredFirmwareComponents, SectionsAddUpToTheRecordedTotals) {
  const json& r = Record();
  uint64_t flash = 0, ram = 0;
  for (const json& s : r["sections"]) {
    const uint64_t a = s["address"], size = s["size"];
    const bool in_flash = a >= 0x08000000 && a < 0x08100000;
    const bool in_ram = a >= 0x20000000 && a < 0x20040000;
    ASSERT_TRUE(in_flash || in_ram) << s["name"];
    if (in_flash || s["type"] == "PROGBITS") flash += size;
    if (in_ram) ram += size;
  }
  EXPECT_EQ(flash, r["section_totals"]["flash_bytes"].get<uint64_t>());
  EXPECT_EQ(ram, r["section_totals"]["ram_bytes"].get<uint64_t>());
}

TEST(MeasuredFirmwareComponents, TheTableAddsUpToTheSectionsByteForByte) {
  const json& r = Record();
  const json& c = r["components"];
  uint64_t flash = 0, ram = 0;
  for (const json& row : c["rows"]) {
    flash += row["flash_bytes"].get<uint64_t>();
    ram += row["ram_bytes"].get<uint64_t>();
  }
  EXPECT_EQ(flash, c["flash_total"].get<uint64_t>());
  EXPECT_EQ(ram, c["ram_total"].get<uint64_t>());
  // etmem's own section totals, and the ones read from the section headers apart from etmem.
  EXPECT_EQ(flash, c["section_flash_bytes"].get<uint64_t>());
  EXPECT_EQ(ram, c["section_ram_bytes"].get<uint64_t>());
  EXPECT_EQ(flash, r["section_totals"]["flash_bytes"].get<uint64_t>());
  EXPECT_EQ(ram, r["section_totals"]["ram_bytes"].get<uint64_t>());
}

TEST(MeasuredFirmwareComponents, EveryComponentHasItsRow) {
  const json& r = Record();
  std::map<std::string, std::pair<uint64_t, uint64_t>> rows;
  for (const json& row : r["components"]["rows"])
    rows[row["name"]] = {row["flash_bytes"].get<uint64_t>(), row["ram_bytes"].get<uint64_t>()};
  // The program, read in place from flash; the pools, in RAM, at their symbols' sizes.
  const uint64_t program = r["program"]["bytes"];
  EXPECT_EQ(rows["program model_pte"], std::make_pair(program, uint64_t{0}));
  for (const json& p : r["verdict"]["pools"])
    EXPECT_EQ(rows["pool " + p["symbol"].get<std::string>()],
              std::make_pair(uint64_t{0}, p["bytes"].get<uint64_t>()));
  for (const char* name : {"ExecuTorch runtime core", "flatbuffers", "kernel registration (generated)",
                           "kernels: shared helpers", "C and C++ runtime libraries", "application"})
    EXPECT_GT(rows[name].first, 0u) << name;
  // Each operator the program calls has its kernel's row (aten::_softmax.out: softmax_out), and
  // no kernel is listed as linked but not called.
  for (const json& op : r["program"]["operators"]) {
    std::string kernel = op.get<std::string>().substr(6);  // "aten::"
    while (kernel.starts_with("_")) kernel.erase(0, 1);
    std::replace(kernel.begin(), kernel.end(), '.', '_');
    EXPECT_GT(rows["kernels: " + kernel].first, 0u) << op;
  }
  EXPECT_TRUE(r["components"]["unused_operators"].empty());
  // The runtime's own code is the runtime's: flatbuffers is its accessors only.
  EXPECT_LT(rows["flatbuffers"].first, rows["ExecuTorch runtime core"].first / 10);
}

// The verdict etmem gave is the model's figure for the program, the release, the runner and each
// pool's recorded size and alignment (computed here, not copied).
TEST(MeasuredFirmwareComponents, TheVerdictIsTheModelsFigure) {
  const json& r = Record();
  const std::vector<uint8_t>& bytes = test::MeasuredProgramBytes(r["program"]);
  ASSERT_EQ(bytes.size(), r["program"]["bytes"].get<uint64_t>());
  ASSERT_EQ(Sha256Hex(bytes), r["program"]["sha256"]);
  ASSERT_TRUE(r["verdict"]["fits"].get<bool>());
  for (const json& p : r["verdict"]["pools"]) {
    SCOPED_TRACE(p["symbol"].get<std::string>());
    const uint64_t size = p["bytes"], align = p["align"], needed = p["needed"];
    EXPECT_EQ(align & (align - 1), 0u);
    EXPECT_EQ(p["address"].get<uint64_t>() % align, 0u);
    EXPECT_NE(p["address"].get<uint64_t>() % (2 * align), 0u);  // the largest power of two
    api::Options o;
    o.runtime = r["runtime"];
    o.target = r["target"];
    o.runner = r["runner"];
    o.pool_align = static_cast<uint32_t>(align);
    if (p["id"] == "method") {
      o.pool = size;
      const api::MethodSummary m =
          api::Analyze(api::Program::FromBytes(bytes.data(), bytes.size()), o).methods()[0];
      EXPECT_EQ(m.method_pool_bytes, needed);
    } else {
      o.temp_pool = size;
      const api::MethodSummary m =
          api::Analyze(api::Program::FromBytes(bytes.data(), bytes.size()), o).methods()[0];
      EXPECT_EQ(m.temp_load_peak_bytes, p["load_peak"].get<uint64_t>());
      EXPECT_EQ(m.temp_run_peak_bytes, p["run_peak"].get<uint64_t>());
      EXPECT_EQ(std::max(m.temp_load_peak_bytes, m.temp_run_peak_bytes), needed);
    }
    EXPECT_LE(needed, size);
    EXPECT_EQ(p["spare"].get<uint64_t>(), size - needed);
  }
}

}  // namespace measured_firmware_components_test
}  // namespace etmem
