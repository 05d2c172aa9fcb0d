// Owns: the tests of `etmem firmware`'s one RAM total for the ExecuTorch part (firmware/ram.h): on
// an image linked as tests/firmware/firmware_test.cpp links them (tests/firmware/runner_pools.cpp with the
// Arm runner's pools and the builder's CNN, arm-none-eabi-g++; skipped, saying so, without it):
// every line has a source, the pools are the image's symbol sizes, the .data/.bss lines are the
// component table's rows, the stack is the stack section's and leaves the verdict alone, the total adds
// up, and with a board file the total is placed by region.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "etmem/etmem.h"
#include "etmem/testing/scenarios.h"
#include "etmem_cli.h"

namespace etmem::test {
namespace firmware_ram_test {

using nlohmann::json;

const fs::path kSources = fs::path(ETMEM_SOURCE_DIR) / "tests/firmware";

// The Arm runner's pools (method 36080 B: what the builder's CNN needs at 1.4.1; temp 2048 B)
// and the CNN in network_model_sec, linked with tests/firmware/firmware.ld.
fs::path LinkArmImage(const std::string& stem) {
  const fs::path dir = TempPath("fwram_" + stem);
  fs::create_directories(dir);
  const std::vector<uint8_t> cnn = testing::MotivatingCnn().Build();
  std::string header =
      "__attribute__((section(\"network_model_sec\"), aligned(16))) unsigned char model_pte[] = {";
  for (size_t i = 0; i < cnn.size(); ++i) header += (i ? "," : "") + std::to_string(cnn[i]);
  std::ofstream(dir / "model_pte.h") << header << "};\n";
  const fs::path elf = dir / (stem + ".elf");
  const std::string cmd =
      "arm-none-eabi-g++ -mcpu=cortex-m4 -mthumb -O2 -ffreestanding -fno-exceptions -fno-rtti "
      "-nostdlib -DRUNNER_ARM_BAREMETAL -DMETHOD_POOL_BYTES=36080 -DTEMP_POOL_BYTES=2048 -I" +
      dir.string() + " " + (kSources / "runner_pools.cpp").string() + " -T " +
      (kSources / "firmware.ld").string() + " -Wl,--defsym=POOL_SKIP=256 -o " + elf.string();
  const CliRun r = Shell(cmd);
  EXPECT_EQ(r.exit_code, 0) << cmd << "\n" << r.err;
  return elf;
}

const json* Line(const json& ram, const std::string& what) {
  for (const json& l : ram.at("lines"))
    if (l.at("what") == what) return &l;
  return nullptr;
}

TEST(FirmwareRam, OneTotalWithASourcePerLine) {
  if (!HaveTool("arm-none-eabi-g++")) GTEST_SKIP() << "arm-none-eabi-g++ is not installed";
  const fs::path elf = LinkArmImage("total");
  const CliRun run = Etmem("firmware " + elf.string() + " --runtime 1.4.1 --format json");
  ASSERT_EQ(run.exit_code, 0) << "the stack leaves the verdict alone\n" << run.err;
  const json j = json::parse(run.out);
  ASSERT_EQ(j.at("ram").size(), 1u);
  const json& ram = j.at("ram")[0];
  EXPECT_EQ(ram.at("method"), "forward");
  // The pools: each the image's symbol size.
  for (const json& p : j.at("methods")[0].at("pools")) {
    const json* l = Line(ram, "pool " + p.at("id").get<std::string>() + " (" +
                                  p.at("symbol").get<std::string>() + ")");
    ASSERT_NE(l, nullptr) << p.dump();
    EXPECT_EQ(l->at("bytes"), p.at("bytes"));
    EXPECT_NE(l->at("source").get<std::string>().find(p.at("symbol").get<std::string>()),
              std::string::npos);
  }
  // .data/.bss: the component table's rows of the runtime, kernels and backends.
  uint64_t runtime = 0, kernels = 0;
  for (const json& row : j.at("components").at("rows")) {
    const std::string name = row.at("name");
    if (name == "ExecuTorch runtime core" || name == "flatbuffers")
      runtime += row.at("ram_bytes").get<uint64_t>();
    if (name.starts_with("kernels: ") || name == "kernel registration (generated)")
      kernels += row.at("ram_bytes").get<uint64_t>();
  }
  ASSERT_NE(Line(ram, "runtime .data/.bss"), nullptr);
  EXPECT_EQ(Line(ram, "runtime .data/.bss")->at("bytes"), runtime);
  EXPECT_EQ(Line(ram, "kernels .data/.bss")->at("bytes"), kernels);
  // The stack: the stack section's deepest entry among those that run for the method.
  const json* stack = Line(ram, "stack");
  ASSERT_NE(stack, nullptr);
  // (This image's only entry is its main, a leaf without a frame: 0 B, but a figure.)
  ASSERT_FALSE(j.at("stack").at("entries").empty()) << j.at("stack").dump();
  uint64_t deepest = 0;
  for (const json& e : j.at("stack").at("entries")) {
    const json& methods = e.at("methods");
    if (e.at("entry") == "execute" &&
        std::find(methods.begin(), methods.end(), json("forward")) == methods.end())
      continue;
    deepest = std::max(deepest, e.at("bytes").get<uint64_t>());
  }
  EXPECT_EQ(stack->at("bytes"), deepest) << stack->dump();
  EXPECT_EQ(ram.at("stack_bytes"), deepest);
  EXPECT_NE(stack->at("source").get<std::string>().find("stack section"), std::string::npos);
  // The heap: the portable kernels malloc nothing (their library data).
  ASSERT_NE(Line(ram, "heap: kernels' malloc"), nullptr);
  EXPECT_EQ(Line(ram, "heap: kernels' malloc")->at("bytes"), 0);
  // Every line has a source or says why it is unknown; the total is the known lines'.
  uint64_t sum = 0;
  for (const json& l : ram.at("lines")) {
    EXPECT_TRUE(!l.at("source").get<std::string>().empty() || !l.at("unknown").is_null())
        << l.dump();
    if (!l.at("bytes").is_null() && !l.at("inside").get<bool>())
      sum += l.at("bytes").get<uint64_t>();
  }
  EXPECT_EQ(ram.at("known_bytes"), sum);
  EXPECT_GE(sum, 36080u + 2048u);

  const CliRun text = Etmem("firmware " + elf.string() + " --runtime 1.4.1");
  EXPECT_EQ(text.exit_code, 0);
  EXPECT_NE(text.out.find("RAM of the ExecuTorch part, method 'forward' of model_pte: " +
                          std::string(ram.at("complete").get<bool>() ? "" : "at least ") +
                          std::to_string(sum) + " B"),
            std::string::npos)
      << text.out;

  // The public API gives the same value.
  api::FirmwareOptions o;
  o.model.runtime = "1.4.1";
  const api::FirmwareReport r = api::CheckFirmware(elf.string(), o);
  ASSERT_EQ(r.ram.size(), 1u);
  EXPECT_EQ(r.ram[0].known_bytes, sum);
  EXPECT_EQ(r.ram[0].stack_bytes, deepest);
}

TEST(FirmwareRam, PlacedInTheBoardsRegions) {
  if (!HaveTool("arm-none-eabi-g++")) GTEST_SKIP() << "arm-none-eabi-g++ is not installed";
  const fs::path elf = LinkArmImage("board");
  // A board with tests/firmware/firmware.ld's memory map.
  const fs::path board = WriteTemp("fwram_board.json", R"({
    "name": "test-board", "description": "tests/firmware/firmware.ld's regions",
    "sources": ["tests/firmware/firmware.ld"],
    "regions": [
      {"name": "SRAM", "origin": "0x20000000", "size": "512K", "base_align": 16, "section": ".sram",
       "reserved": [{"name": "stack", "bytes": "0x1000"}]},
      {"name": "DDR", "origin": "0x60000000", "size": "64M", "base_align": 16, "section": ".ddr"}
    ]})");
  const CliRun run = Etmem("firmware " + elf.string() + " --runtime 1.4.1 --board " +
                           board.string() + " --format json");
  ASSERT_EQ(run.exit_code, 0) << run.err;
  const json ram = json::parse(run.out).at("ram")[0];
  EXPECT_EQ(Line(ram, "pool method (method_allocation_pool)")->at("region"), "DDR");
  EXPECT_EQ(Line(ram, "runtime .data/.bss")->at("region"), "SRAM");
  uint64_t placed = 0;
  for (const json& g : ram.at("regions")) {
    placed += g.at("bytes").get<uint64_t>();
    if (g.at("name") == "SRAM") EXPECT_EQ(g.at("free_bytes"), 512 * 1024 - 0x1000);
  }
  EXPECT_EQ(placed, ram.at("known_bytes"));
}

}  // namespace firmware_ram_test
}  // namespace etmem::test
