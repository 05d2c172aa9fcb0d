// Owns: `etmem firmware` on real linked images. Each test compiles tests/firmware/runner_pools.cpp
// with a cross compiler the project installs (arm-none-eabi-g++; riscv64-unknown-elf-g++ for
// RISC-V; a test is skipped, saying so, when its compiler is absent), declaring one runner's
// pools as that runner does and embedding a builder program as that runner's build does, links it
// with tests/firmware/firmware.ld, and checks what etmem finds: the program and where it lives,
// the runner, each pool's size, address and alignment, and the verdict, against the model's own
// figures (api::Analyze with the same assumptions). Damaged copies of a linked image must give
// one printable line naming the file.
#include <gtest/gtest.h>

#include <cstring>
#include <fstream>
#include <map>
#include <set>
#include <nlohmann/json.hpp>

#include "etmem/elf/elf_reader.h"
#include "etmem/etmem.h"
#include "etmem/firmware/components.h"
#include "etmem/firmware/firmware.h"
#include "etmem/runner/profile.h"
#include "etmem/runtime/release.h"
#include "etmem/runtime/release_range.h"
#include "etmem/testing/scenarios.h"
#include "etmem_cli.h"

namespace etmem::test {
namespace firmware_test {

using nlohmann::json;

const fs::path kSources = fs::path(ETMEM_SOURCE_DIR) / "tests/firmware";

struct Layout {
  std::string compiler = "arm-none-eabi-g++";
  std::string arch = "-mcpu=cortex-m4 -mthumb";
  std::string runner = "RUNNER_ARM_BAREMETAL";
  uint64_t method_pool = 32768;
  uint64_t temp_pool = 2048;
  uint64_t pool_skip = 0x100;  // the method pool's offset in .ddr (Arm): its alignment
  // How model_pte.h declares the array: as the Arm runner's pte_to_header.py ("arm"), as the
  // Arduino and Zephyr exports do (a static const array, "const"), or a plain initialised
  // array (copied to RAM at boot, "data").
  std::string program_decl = "arm";
  std::string linker_script = "firmware.ld";  // in tests/firmware
  std::string defines;                        // more -D options
};

std::string ProgramHeader(const std::vector<uint8_t>& bytes, const std::string& decl) {
  std::string out = decl == "arm"     ? "__attribute__((section(\"network_model_sec\"), aligned(16))) unsigned char model_pte[] = {"
                    : decl == "const" ? "alignas(16) static const unsigned char model_pte[] = {"
                                      : "alignas(16) unsigned char model_pte[] = {";
  for (size_t i = 0; i < bytes.size(); ++i) out += (i ? "," : "") + std::to_string(bytes[i]);
  return out + "};\n";
}

// The linked image's path; empty when the compiler is absent.
fs::path Link(const Layout& l, const std::vector<uint8_t>& program, const std::string& stem) {
  if (!HaveTool(l.compiler)) return {};
  const fs::path dir = TempPath("fw_" + stem);
  fs::create_directories(dir);
  std::ofstream(dir / "model_pte.h") << ProgramHeader(program, l.program_decl);
  const fs::path elf = dir / (stem + ".elf");
  const std::string cmd = l.compiler + " " + l.arch +
                          " -O2 -ffreestanding -fno-exceptions -fno-rtti -nostdlib -D" + l.runner +
                          " -DMETHOD_POOL_BYTES=" + std::to_string(l.method_pool) +
                          " -DTEMP_POOL_BYTES=" + std::to_string(l.temp_pool) + " " + l.defines +
                          " -I" + dir.string() + " " + (kSources / "runner_pools.cpp").string() +
                          " -T " + (kSources / l.linker_script).string() +
                          " -Wl,--defsym=POOL_SKIP=" + std::to_string(l.pool_skip) + " -o " +
                          elf.string();
  const CliRun r = Shell(cmd);
  EXPECT_EQ(r.exit_code, 0) << cmd << "\n" << r.err;
  return elf;
}

std::vector<uint8_t> BuilderCnn() { return testing::MotivatingCnn().Build(); }

std::vector<uint8_t> FileBytes(const fs::path& p) {
  const std::string s = ReadFile(p);
  return {s.begin(), s.end()};
}

json FirmwareJson(const fs::path& elf, const std::string& extra, int* exit_code = nullptr) {
  const CliRun r = Etmem("firmware " + elf.string() + " --format json " + extra);
  if (exit_code) *exit_code = r.exit_code;
  // 2 with a report: the verdict is unknown (etmem could not judge); 2 without: bad input.
  EXPECT_TRUE(r.exit_code == 0 || r.exit_code == 1 || (r.exit_code == 2 && !r.out.empty()))
      << r.err;
  return !r.out.empty() ? json::parse(r.out) : json();
}

const json& Pool(const json& j, const std::string& id) {
  for (const json& p : j.at("methods").at(0).at("pools"))
    if (p.at("id") == id) return p;
  static const json none;
  ADD_FAILURE() << "no pool " << id;
  return none;
}

// What `etmem analyze` says for the same program, release, target, runner and pool alignment.
api::MethodSummary Analysed(const std::vector<uint8_t>& program, const std::string& runner,
                            const std::string& target, uint32_t pool_align,
                            std::optional<uint64_t> pool) {
  api::Options o;
  o.runtime = "1.4.1";
  o.target = target;
  o.runner = runner;
  o.pool_align = pool_align;
  o.pool = pool;
  return api::Analyze(api::Program::FromBytes(program.data(), program.size()), o).methods()[0];
}

#define SKIP_WITHOUT(tool) \
  if (!HaveTool(tool)) GTEST_SKIP() << tool << " is not installed: no image to link"

// ---- the motivating CNN, Arm runner declarations, 1.4.1 ----

void CheckMotivatingCnn(const std::vector<uint8_t>& program, const std::string& stem) {
  Layout small;
  small.method_pool = 32768;
  const fs::path elf = Link(small, program, stem + "_32k");
  int code = -1;
  const CliRun text = Etmem("firmware " + elf.string() + " --runtime 1.4.1");
  EXPECT_EQ(text.exit_code, 1) << text.out << text.err;
  EXPECT_NE(text.out.find("method_allocation_pool (method pool): 32768 B at 0x60000100"),
            std::string::npos) << text.out;
  EXPECT_NE(text.out.find("TOO SMALL by 3312 B: 36080 B needed, 32768 B declared"),
            std::string::npos) << text.out;
  EXPECT_NE(text.out.find("verdict: DOES NOT FIT"), std::string::npos);
  json j = FirmwareJson(elf, "--runtime 1.4.1", &code);
  EXPECT_EQ(code, 1);
  EXPECT_EQ(Pool(j, "method").at("short"), 3312);
  EXPECT_EQ(Pool(j, "method").at("needed"), 36080);

  Layout exact = small;
  exact.method_pool = 36080;
  const fs::path ok = Link(exact, program, stem + "_exact");
  const CliRun fits = Etmem("firmware " + ok.string() + " --runtime 1.4.1");
  EXPECT_EQ(fits.exit_code, 0) << fits.out << fits.err;
  EXPECT_NE(fits.out.find("fits: 36080 B needed, 0 B to spare"), std::string::npos) << fits.out;
  EXPECT_NE(fits.out.find("verdict: fits"), std::string::npos);
}

TEST(Firmware, MotivatingCnnBuilderRebuildInAnArmImage) {
  SKIP_WITHOUT("arm-none-eabi-g++");
  const std::vector<uint8_t> cnn = BuilderCnn();
  // The figure the command line gives today for the same assumptions (16-aligned pools).
  ASSERT_EQ(Analysed(cnn, "arm-baremetal", "cortex-m", 16, std::nullopt).method_pool_bytes, 36080u);
  CheckMotivatingCnn(cnn, "builder_cnn");
}

TEST(Firmware, MotivatingCnnRealProgramInAnArmImage) {
  SKIP_WITHOUT("arm-none-eabi-g++");
  const fs::path real = RealModel("cnn_trained_2025-04-04_34b7e8d");
  if (!fs::exists(real)) GTEST_SKIP() << real << " is absent (../shared not mounted)";
  CheckMotivatingCnn(FileBytes(real), "real_cnn");
}

// ---- exact lines, alignment ----

TEST(Firmware, PoolOneByteShortIsCaughtWithTheRuntimesLine) {
  SKIP_WITHOUT("arm-none-eabi-g++");
  const std::vector<uint8_t> cnn = BuilderCnn();
  for (uint64_t skip : {0x10, 0x20, 0x100}) {
    const uint32_t align = static_cast<uint32_t>(skip);
    const uint64_t needed =
        Analysed(cnn, "arm-baremetal", "cortex-m", align, std::nullopt).method_pool_bytes;
    Layout l;
    l.pool_skip = skip;
    l.method_pool = needed - 1;
    const fs::path elf = Link(l, cnn, "short_" + std::to_string(skip));
    int code = -1;
    const json j = FirmwareJson(elf, "--runtime 1.4.1", &code);
    EXPECT_EQ(code, 1);
    const json& p = Pool(j, "method");
    EXPECT_EQ(p.at("align"), align) << "the largest power of two dividing 0x6000" << skip;
    EXPECT_EQ(p.at("address"), 0x60000000u + skip);
    EXPECT_EQ(p.at("needed"), needed);
    EXPECT_EQ(p.at("short"), 1);
    // The same lines the model gives for a pool of that size, at that alignment.
    const api::MethodSummary m = Analysed(cnn, "arm-baremetal", "cortex-m", align, needed - 1);
    ASSERT_TRUE(m.pool_check && !m.pool_check->fits);
    std::string log;
    for (const json& line : p.at("log")) log += (log.empty() ? "" : "\n") + line.get<std::string>();
    EXPECT_EQ(log, m.pool_check->log);
    EXPECT_FALSE(log.empty());
    EXPECT_NE(p.at("failing").get<std::string>().find(" B asked, "), std::string::npos)
        << p.at("failing");
  }
}

TEST(Firmware, TempPoolAgainstItsLoadPeak) {
  SKIP_WITHOUT("arm-none-eabi-g++");
  const std::vector<uint8_t> cnn = BuilderCnn();
  Layout l;
  l.method_pool = 65536;
  const fs::path elf = Link(l, cnn, "temp");
  const json j = FirmwareJson(elf, "--runtime 1.4.1");
  const json& t = Pool(j, "temp");
  EXPECT_EQ(t.at("symbol"), "temp_allocation_pool");
  EXPECT_EQ(t.at("section"), ".sram.bss");
  EXPECT_EQ(t.at("bytes"), 2048);
  EXPECT_EQ(t.at("address"), 0x20000000u);
  EXPECT_TRUE(t.at("temp").get<bool>());
  EXPECT_EQ(t.at("fits").get<bool>(), t.at("needed").get<uint64_t>() <= 2048);
  const json& m = Pool(j, "method");
  EXPECT_EQ(m.at("align"), 256);
  EXPECT_EQ(m.at("needed"), Analysed(cnn, "arm-baremetal", "cortex-m", 256, std::nullopt).method_pool_bytes);
  EXPECT_EQ(m.at("spare"), 65536 - m.at("needed").get<uint64_t>());
}

// ---- the temp pool while the method runs ----

// The builder's topk program (three aten::topk.values calls; the portable kernel's requests on
// Cortex-M: 80, 640 and 112 B, tests/model/run_temp_test.cpp) in an Arm image whose temp pool is one
// byte short of the run-time peak, then exactly the peak.
TEST(Firmware, TempPoolOneByteShortOfTheRunTimePeak) {
  SKIP_WITHOUT("arm-none-eabi-g++");
  const std::vector<uint8_t> topk = testing::NamedScenarioProgram("topk").Build();
  api::Options o;
  o.runtime = "1.4.1";
  o.runner = "arm-baremetal";
  const api::MethodSummary analysed =
      api::Analyze(api::Program::FromBytes(topk.data(), topk.size()), o).methods()[0];
  ASSERT_EQ(analysed.temp_run_peak_bytes, 640u);  // what `etmem analyze` gives
  ASSERT_LT(analysed.temp_load_peak_bytes, 639u) << "the load alone fits a 639 B pool";
  Layout l;
  l.method_pool = 65536;
  l.temp_pool = 639;
  int code = -1;
  const fs::path short_elf = Link(l, topk, "topk_639");
  const json j = FirmwareJson(short_elf, "--runtime 1.4.1", &code);
  EXPECT_EQ(code, 1);
  EXPECT_EQ(j.at("verdict"), "does_not_fit");  // the verdict the exit status comes from
  const json& t = Pool(j, "temp");
  EXPECT_EQ(t.at("bytes"), 639);
  EXPECT_EQ(t.at("load_peak"), analysed.temp_load_peak_bytes);
  EXPECT_EQ(t.at("run_peak"), 640);
  EXPECT_EQ(t.at("needed"), 640);
  EXPECT_EQ(t.at("short"), 1);
  EXPECT_FALSE(t.at("fits").get<bool>());
  EXPECT_TRUE(t.at("run_unknown").is_null());
  EXPECT_EQ(t.at("log"), json({"Memory allocation failed: 640B requested (adjusted for "
                               "alignment), 639B available",
                               "Failed to allocate temp memory. Bytes requested: 640",
                               "Check failed (temp_mem_allocated): ",
                               "KernelCall failed at instruction 0:1 in operator "
                               "aten::topk.values: 0x21"}));
  EXPECT_NE(t.at("failing").get<std::string>().find("instruction 1 (aten::topk.values"),
            std::string::npos) << t.at("failing");
  const CliRun text = Etmem("firmware " + short_elf.string() + " --runtime 1.4.1 --no-components");
  EXPECT_NE(text.out.find("TOO SMALL by 1 B: 640 B needed (the larger of its peaks: " +
                          std::to_string(analysed.temp_load_peak_bytes) +
                          " B during load_method, 640 B while the method runs), 639 B declared"),
            std::string::npos) << text.out;

  l.temp_pool = 640;
  const json ok = FirmwareJson(Link(l, topk, "topk_640"), "--runtime 1.4.1", &code);
  EXPECT_EQ(code, 0) << ok.dump();
  EXPECT_EQ(Pool(ok, "temp").at("spare"), 0);
}

// The image's Arm build attributes say which M-profile extension CMSIS-NN was built for, where
// the built-in cortex-m target would assume MVE: the Cortex-M backend's run-time scratch (1.1-1.3
// take it from the temp allocator) is the one a target file saying that extension gives.
TEST(Firmware, TempPoolSizedForTheExtensionTheImageWasBuiltFor) {
  SKIP_WITHOUT("arm-none-eabi-g++");
  const std::vector<uint8_t> conv = testing::NamedScenarioProgram("cortex_m_conv").Build();
  struct Core {
    const char* arch;
    const char* extension;
    const char* evidence;
  };
  const Core cores[] = {
      {"-mcpu=cortex-m4 -mthumb", "dsp", "Tag_CPU_arch v7E-M"},
      {"-mcpu=cortex-m55 -mfloat-abi=hard -mthumb", "mve", "Tag_MVE_arch 2"},
      {"-mcpu=cortex-m0plus -mthumb", "none", "neither Tag_MVE_arch nor Tag_DSP_extension"},
  };
  std::set<uint64_t> peaks;
  for (const Core& c : cores) {
    Layout l;
    l.arch = c.arch;
    l.temp_pool = 65536;
    const fs::path elf = Link(l, conv, std::string("cmsis_") + c.extension);
    const json j = FirmwareJson(elf, "--runtime 1.2.0 --no-components");
    const fs::path target = TempPath(std::string("target_") + c.extension + ".json");
    std::ofstream(target) << R"({"pointer": [4, 4], "size_t": [4, 4], "int64": [8, 8],
        "double": [8, 8], "m_extension": ")" << c.extension << R"("})";
    api::Options o;
    o.runtime = "1.2.0";
    o.target = target.string();
    o.pool_align = 16;  // the image's pool is at least 16-aligned: no padding before a request
    o.runner = "arm-baremetal";
    const api::MethodSummary said =
        api::Analyze(api::Program::FromBytes(conv.data(), conv.size()), o).methods()[0];
    EXPECT_EQ(Pool(j, "temp").at("run_peak"), said.temp_run_peak_bytes) << c.arch;
    peaks.insert(said.temp_run_peak_bytes);
    const CliRun text = Etmem("firmware " + elf.string() + " --runtime 1.2.0 --no-components");
    EXPECT_NE(text.out.find(std::string("CMSIS-NN built for m_extension ") + c.extension +
                            " (the image's Arm build attributes, " + c.evidence),
              std::string::npos)
        << text.out;
  }
  EXPECT_EQ(peaks.size(), 3u) << "the three builds ask for different scratch";
}

// An operator no modelled kernel library implements: the temp pool's verdict is "unknown",
// naming the operator, not "fits"; the exit status is the verdict's, 2 (etmem could not judge).
TEST(Firmware, TempPoolUnknownWhereTheKernelsAreUnknown) {
  SKIP_WITHOUT("arm-none-eabi-g++");
  testing::ProgramBuilder b;
  testing::MethodBuilder& m = b.Method("forward");
  const int x = m.Tensor({.sizes = {4}});
  m.KernelCall(m.Operator("my_ns::frobnicate", "out"), {x, x});
  Layout l;
  l.method_pool = 65536;
  const fs::path elf = Link(l, b.Build(), "unknown_kernel");
  int code = -1;
  const json j = FirmwareJson(elf, "--runtime 1.4.1", &code);
  EXPECT_EQ(code, 2) << "unknown: etmem could not judge";
  EXPECT_EQ(j.at("verdict"), "unknown");
  EXPECT_EQ(j.at("fits"), true) << "the known peaks fit";
  EXPECT_NE(j.at("verdict_detail").at("step").get<std::string>().find("my_ns::frobnicate.out"),
            std::string::npos);
  const json& t = Pool(j, "temp");
  EXPECT_NE(t.at("run_unknown").get<std::string>().find("my_ns::frobnicate.out"),
            std::string::npos) << t;
  const CliRun text = Etmem("firmware " + elf.string() + " --runtime 1.4.1 --no-components");
  EXPECT_NE(text.out.find("    unknown: "), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("not known: the run-time requests of instruction 0 (my_ns::frobnicate.out)"),
            std::string::npos) << text.out;
  EXPECT_NE(text.out.find("verdict: fits as far as etmem knows"), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find("verdict: fits\n"), std::string::npos) << text.out;
}

// ---- the public API ----

// api::CheckFirmware (include/etmem/etmem.h) gives the structured value the command line prints,
// from a path or from bytes, and api::Render prints exactly what `etmem firmware` does.
TEST(Firmware, PublicApiFromPathAndBytesRendersAsTheCommandLine) {
  SKIP_WITHOUT("arm-none-eabi-g++");
  Layout l;
  const fs::path elf = Link(l, BuilderCnn(), "public_api");
  api::FirmwareOptions o;
  o.model.runtime = "1.4.1";
  const api::FirmwareReport r = api::CheckFirmware(elf.string(), o);
  EXPECT_FALSE(r.fits());
  ASSERT_EQ(r.programs.size(), 1u);
  EXPECT_EQ(r.programs[0].name, "model_pte");
  ASSERT_FALSE(r.methods.empty());
  const api::FirmwarePool& method = r.methods[0].pools.at(0);
  EXPECT_EQ(method.symbol, "method_allocation_pool");
  EXPECT_EQ(method.bytes, 32768u);
  EXPECT_EQ(method.address, 0x60000100u);
  EXPECT_EQ(method.align, 256u);
  EXPECT_EQ(method.needed, 36080u);
  ASSERT_TRUE(r.components.has_value());
  EXPECT_EQ(r.components->flash_total, r.components->section_flash_bytes);
  EXPECT_EQ(api::Render(r, api::Format::kText),
            Etmem("firmware " + elf.string() + " --runtime 1.4.1").out);
  EXPECT_EQ(api::Render(r, api::Format::kJson),
            Etmem("firmware " + elf.string() + " --runtime 1.4.1 --format json").out);
  const std::vector<uint8_t> bytes = FileBytes(elf);
  const api::FirmwareReport b =
      api::CheckFirmware(std::as_bytes(std::span(bytes)), elf.string(), o);
  EXPECT_EQ(api::Render(b, api::Format::kJson), api::Render(r, api::Format::kJson));
  EXPECT_THROW(api::Render(r, api::Format::kCsv), api::Error);
  o.model.runtime.clear();
  try {
    api::CheckFirmware(std::as_bytes(std::span(bytes)), "app.elf", o);
    ADD_FAILURE() << "no --runtime accepted";
  } catch (const api::Error& e) {
    EXPECT_EQ(e.kind(), api::ErrorKind::kInvalidArgument);
    EXPECT_TRUE(std::string(e.what()).starts_with("app.elf: ")) << e.what();
  }
}

// ---- programs: found, verified, placed ----

TEST(Firmware, ProgramReadInPlaceOrCopiedToRamAtBoot) {
  SKIP_WITHOUT("arm-none-eabi-g++");
  const std::vector<uint8_t> cnn = BuilderCnn();
  Layout in_place;
  in_place.method_pool = 65536;
  const json a = FirmwareJson(Link(in_place, cnn, "in_place"), "--runtime 1.4.1");
  ASSERT_EQ(a.at("programs").size(), 1u);
  const json& p = a.at("programs").at(0);
  EXPECT_EQ(p.at("name"), "model_pte");
  EXPECT_EQ(p.at("bytes"), cnn.size());
  EXPECT_EQ(p.at("section"), ".ddr");
  EXPECT_EQ(p.at("address").get<uint64_t>() % 16, 0u);
  EXPECT_EQ(p.at("ram_bytes"), 0);
  EXPECT_TRUE(p.at("load_address").is_null());

  Layout copied = in_place;
  copied.program_decl = "data";
  const json b = FirmwareJson(Link(copied, cnn, "copied"), "--runtime 1.4.1");
  const json& q = b.at("programs").at(0);
  EXPECT_EQ(q.at("section"), ".data");
  EXPECT_EQ(q.at("placement"), "copied to RAM at boot (initialised data)");
  EXPECT_EQ(q.at("ram_bytes"), cnn.size());
  EXPECT_LT(q.at("load_address").get<uint64_t>(), 0x20000000u) << "its load image is in flash";
}

TEST(Firmware, ProgramOnTheCommandLineWhenNoneIsEmbedded) {
  SKIP_WITHOUT("arm-none-eabi-g++");
  Layout l;
  l.method_pool = 65536;
  // An image whose "program" is not one: 64 bytes of zeros.
  const fs::path elf = Link(l, std::vector<uint8_t>(64, 0), "no_program");
  const CliRun none = Etmem("firmware " + elf.string() + " --runtime 1.4.1");
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_NE(none.err.find("no ExecuTorch program in an allocated section"), std::string::npos)
      << none.err;
  const CliRun given = Etmem("firmware " + elf.string() + " " + MotivatingCnnFile().string() +
                             " --runtime 1.4.1");
  EXPECT_EQ(given.exit_code, 0) << given.out << given.err;
  EXPECT_NE(given.out.find("from the command line"), std::string::npos) << given.out;
}

// ---- release and runner ----

TEST(Firmware, ReleaseIsRequiredAndTheMessageSaysWhy) {
  SKIP_WITHOUT("arm-none-eabi-g++");
  const fs::path elf = Link(Layout{}, BuilderCnn(), "no_runtime");
  const CliRun r = Etmem("firmware " + elf.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("does not show which ExecuTorch release"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("pass --runtime VERSION"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}

TEST(Firmware, RunnerChosenByItsSymbolsOthersNamed) {
  SKIP_WITHOUT("arm-none-eabi-g++");
  const std::vector<uint8_t> cnn = BuilderCnn();
  Layout arm;
  arm.method_pool = 65536;
  const json a = FirmwareJson(Link(arm, cnn, "arm_runner"), "--runtime 1.4.1");
  EXPECT_EQ(a.at("assumptions").at("runner"), "arm-baremetal");
  EXPECT_EQ(a.at("assumptions").at("target"), "cortex-m");
  EXPECT_NE(a.at("elf").at("abi_evidence").get<std::string>().find("Tag_CPU_arch_profile 'M'"),
            std::string::npos) << a.at("elf");
  const auto others = a.at("assumptions").at("other_runners").get<std::vector<std::string>>();
  EXPECT_NE(std::find(others.begin(), others.end(), "zephyr-hello"), others.end());
  EXPECT_NE(std::find(others.begin(), others.end(), "ethos-u-image-classification"), others.end());

  Layout zephyr = arm;
  zephyr.runner = "RUNNER_ZEPHYR_HELLO";
  zephyr.program_decl = "const";
  const json z = FirmwareJson(Link(zephyr, cnn, "zephyr_runner"), "--runtime 1.4.1");
  EXPECT_EQ(z.at("assumptions").at("runner"), "zephyr-hello");
  EXPECT_EQ(Pool(z, "method").at("section"), ".bss");
  EXPECT_EQ(z.at("programs").at(0).at("section"), ".text");
  EXPECT_EQ(z.at("programs").at(0).at("placement"),
            "read in place (read-only section, not copied to RAM)");

  // Forcing another runner checks the image as that runner would use its pools.
  const json forced = FirmwareJson(Link(arm, cnn, "arm_forced"), "--runtime 1.4.1 --runner zephyr-hello");
  EXPECT_EQ(forced.at("assumptions").at("runner"), "zephyr-hello");
  EXPECT_EQ(forced.at("assumptions").at("runner_source"), "--runner");
}

TEST(Firmware, StaticPoolsArduinoAndPico2) {
  SKIP_WITHOUT("arm-none-eabi-g++");
  const std::vector<uint8_t> cnn = BuilderCnn();
  Layout arduino;
  arduino.runner = "RUNNER_ARDUINO";
  arduino.program_decl = "const";
  arduino.method_pool = 8192;  // the sketch's 8 KiB: too small for the CNN
  int code = -1;
  const json a = FirmwareJson(Link(arduino, cnn, "arduino"), "--runtime 1.4.1", &code);
  EXPECT_EQ(code, 1);
  EXPECT_EQ(a.at("assumptions").at("runner"), "arduino");
  EXPECT_EQ(Pool(a, "method").at("symbol"), "_ZL11method_pool");
  EXPECT_EQ(a.at("programs").at(0).at("name"), "model_pte");
  EXPECT_EQ(Pool(a, "method").at("bytes"), 8192);
  EXPECT_EQ(Pool(a, "method").at("needed"),
            Analysed(cnn, "arduino", "cortex-m",
                     static_cast<uint32_t>(Pool(a, "method").at("align").get<uint64_t>()),
                     std::nullopt)
                .method_pool_bytes);

  Layout pico = arduino;
  pico.runner = "RUNNER_PICO2";
  pico.arch = "-mcpu=cortex-m33 -mthumb";
  pico.method_pool = 200 * 1024;
  const json p = FirmwareJson(Link(pico, cnn, "pico2"), "--runtime 1.4.1", &code);
  EXPECT_EQ(code, 0) << p.dump();
  EXPECT_EQ(p.at("assumptions").at("runner"), "pico2");
  EXPECT_EQ(Pool(p, "method").at("symbol"), "_ZZ4mainE21method_allocator_pool");
}

TEST(Firmware, EspressifOnRiscv32) {
  SKIP_WITHOUT("riscv64-unknown-elf-g++");
  Layout esp;
  esp.compiler = "riscv64-unknown-elf-g++";
  esp.arch = "-march=rv32imac -mabi=ilp32";
  esp.runner = "RUNNER_ESPRESSIF";
  esp.program_decl = "const";
  esp.method_pool = 65536;
  const std::vector<uint8_t> cnn = BuilderCnn();
  int code = -1;
  const json j = FirmwareJson(Link(esp, cnn, "esp"), "--runtime 1.4.1", &code);
  EXPECT_EQ(code, 0) << j.dump();
  EXPECT_EQ(j.at("elf").at("bits"), 32);
  EXPECT_EQ(j.at("assumptions").at("target"), "riscv32");
  EXPECT_EQ(j.at("assumptions").at("runner"), "espressif");
  const json& m = Pool(j, "method");
  EXPECT_EQ(m.at("needed"),
            Analysed(cnn, "espressif", "riscv32",
                     static_cast<uint32_t>(m.at("align").get<uint64_t>()), std::nullopt)
                .method_pool_bytes);
}

// ---- flash and RAM by component ----

TEST(Firmware, ComponentTableAddsUpToTheSections) {
  SKIP_WITHOUT("arm-none-eabi-g++");
  const std::vector<uint8_t> cnn = BuilderCnn();
  for (const std::string decl : {"arm", "data"}) {
    Layout l;
    l.program_decl = decl;
    const json j = FirmwareJson(Link(l, cnn, "components_" + decl), "--runtime 1.4.1");
    const json& c = j.at("components");
    EXPECT_EQ(c.at("flash_total"), c.at("section_flash_bytes"));
    EXPECT_EQ(c.at("ram_total"), c.at("section_ram_bytes"));
    uint64_t flash = 0, ram = 0, program = 0, pool = 0;
    for (const json& r : c.at("rows")) {
      flash += r.at("flash_bytes").get<uint64_t>();
      ram += r.at("ram_bytes").get<uint64_t>();
      if (r.at("name") == "program model_pte")
        program = r.at("flash_bytes").get<uint64_t>() + r.at("ram_bytes").get<uint64_t>();
      if (r.at("name") == "pool method_allocation_pool") pool = r.at("ram_bytes").get<uint64_t>();
    }
    EXPECT_EQ(flash, c.at("flash_total").get<uint64_t>());
    EXPECT_EQ(ram, c.at("ram_total").get<uint64_t>());
    // In .ddr (writable, loaded in place) the program counts as RAM; copied, as both.
    EXPECT_EQ(program, decl == "arm" ? cnn.size() : 2 * cnn.size());
    EXPECT_EQ(pool, 32768u);
  }
}

// A symbol is its own name's namespace's, not a namespace its parameters mention; an operator's
// entry point is named, its helpers are not; torch::executor outside `native` is the kernels'
// since the runtime moved to executorch::runtime (0.4.0), the runtime's before.
TEST(Firmware, ComponentRulesFollowTheSymbolsOwnName) {
  using firmware::Attribute;
  const std::set<std::string> modern = {"10executorch7runtime"};
  // Method::init(executorch_flatbuffer::ExecutionPlan*, ...) is the runtime's, not flatbuffers'.
  EXPECT_EQ(Attribute("_ZN10executorch7runtime6Method4initEPN21executorch_flatbuffer13ExecutionPlanE"
                      "PKNS0_12NamedDataMapE", modern).component,
            "ExecuTorch runtime core");
  EXPECT_EQ(Attribute("_ZNK21executorch_flatbuffer13ExecutionPlan6valuesEv", modern).component,
            "flatbuffers");
  EXPECT_EQ(Attribute("_ZNK11flatbuffers5Table8GetFieldIaEET_tS2_", modern).component,
            "flatbuffers");
  // An entry point, a lambda inside one, a helper namespace, an anonymous-namespace helper.
  const firmware::Attribution entry = Attribute(
      "_ZN5torch8executor6native7cat_outERN10executorch7runtime20KernelRuntimeContextENS3_8ArrayRefI"
      "NS4_7etensor6TensorEEExRS8_", modern);
  EXPECT_EQ(entry.kind, "operator");
  EXPECT_EQ(entry.detail, "cat_out");
  EXPECT_EQ(Attribute("_ZZN5torch8executor6native7cat_outERN10executorch7runtime20KernelRuntimeContext"
                      "EENKUlvE_clEv", modern).detail,
            "cat_out");
  const firmware::Attribution helper = Attribute(
      "_ZN5torch8executor6native5utils8internal16load_and_convertIhxEET_PKv", modern);
  EXPECT_EQ(helper.kind, "operator");
  EXPECT_EQ(helper.detail, "");
  EXPECT_EQ(Attribute("_ZN5torch8executor6native12_GLOBAL__N_119convolution_wrapperIsPFsPKvEEEvRKN10"
                      "executorch7runtime7etensor6TensorE", modern).detail,
            "");
  // torch::executor outside native: the kernels' utilities in a 0.4.0+ image, the runtime before.
  const std::string check = "_ZN5torch8executor14check_cat_argsEN10executorch7runtime8ArrayRefINS2_7"
                            "etensor6TensorEEExRS5_";
  EXPECT_EQ(Attribute(check, modern).component, "kernels: shared helpers");
  EXPECT_EQ(Attribute("_ZN5torch8executor6Method4initEPN21executorch_flatbuffer13ExecutionPlanE")
                .component,
            "ExecuTorch runtime core");
  EXPECT_EQ(Attribute("_ZN5torch8executor8function12_GLOBAL__N_1L19kernels_to_registerE", modern)
                .component,
            "kernel registration (generated)");
  // The C and C++ libraries as an arm-none-eabi image has them; ExecuTorch's c10.
  for (const char* lib : {"_malloc_trim_r", "_ZNSs4_Rep9_S_createEjjRKSaIcE", "_Znwj", "_ZdlPvj",
                          "_ZTVN10__cxxabiv117__class_type_infoE", "___Unwind_Resume",
                          "_ZNKSt9type_infoeqERKS_", "_ZGTtNKSt13bad_exception4whatEv"})
    EXPECT_EQ(Attribute(lib, modern).component, "C and C++ runtime libraries") << lib;
  EXPECT_EQ(Attribute("_ZN3c104HalfC2Ef", modern).component, "ExecuTorch runtime core");
  EXPECT_EQ(Attribute("main", modern).component, "");
}

// The Arm runner's model_pte[] (not const: a writable section) linked in place with the code in
// flash, as on a microcontroller: flash, not RAM. Kernel-named functions: the entry point of
// aten::_softmax.out's kernel (softmax_out) is the program's, not "linked but not called".
TEST(Firmware, ProgramLinkedInPlaceWithTheCodeIsFlash) {
  SKIP_WITHOUT("arm-none-eabi-g++");
  const std::vector<uint8_t> cnn = BuilderCnn();
  Layout l;
  l.linker_script = "firmware_mcu.ld";
  l.defines = "-DWITH_KERNEL_NAMES";
  const json j = FirmwareJson(Link(l, cnn, "components_mcu"), "--runtime 1.4.1");
  const json& c = j.at("components");
  uint64_t flash = 0, ram = 0;
  std::map<std::string, std::pair<uint64_t, uint64_t>> rows;
  for (const json& r : c.at("rows")) {
    flash += r.at("flash_bytes").get<uint64_t>();
    ram += r.at("ram_bytes").get<uint64_t>();
    rows[r.at("name")] = {r.at("flash_bytes").get<uint64_t>(), r.at("ram_bytes").get<uint64_t>()};
  }
  EXPECT_EQ(flash, c.at("section_flash_bytes").get<uint64_t>());
  EXPECT_EQ(ram, c.at("section_ram_bytes").get<uint64_t>());
  EXPECT_EQ(rows["program model_pte"], std::make_pair(uint64_t{cnn.size()}, uint64_t{0}));
  EXPECT_EQ(rows["pool method_allocation_pool"], std::make_pair(uint64_t{0}, uint64_t{32768}));
  EXPECT_GT(rows["kernels: softmax_out"].first, 0u);
  EXPECT_GT(rows["kernels: shared helpers"].first, 0u);
  EXPECT_GT(rows["ExecuTorch runtime core"].first, 0u);  // init(executorch_flatbuffer::...*)
  EXPECT_EQ(rows.count("flatbuffers"), 0u);
  EXPECT_TRUE(c.at("unused_operators").empty()) << c.at("unused_operators").dump();
}

// ---- the data ----

// The runners' declarations in an image are their profiles' ("image"): a built-in's, or those
// of a runner file given with --runner, which a firmware of one's own can state.
TEST(Firmware, RunnerDeclarationsComeFromTheProfile) {
  SKIP_WITHOUT("arm-none-eabi-g++");
  Layout arm;
  arm.method_pool = 65536;
  const fs::path elf = Link(arm, BuilderCnn(), "declared_by_profile");
  const json builtin = FirmwareJson(elf, "--runtime 1.4.1");
  const runner::Profile& profile =
      **runner::ProfileFor(*runner::SelectRunner("arm-baremetal"), "1.4.1");
  ASSERT_TRUE(profile.image);
  EXPECT_EQ(Pool(builtin, "method").at("expected_section"), profile.image->pools.at(0).section);
  const fs::path dir = TempPath("fw_runner_files");
  fs::create_directories(dir);
  std::ofstream(dir / "moved.json") << R"({"etmem_runner_profile": 1, "extends": "arm-baremetal-1.4",
      "name": "my-arm", "image": {"pools": [{"id": "method", "section": ".my_pools"},
                                            {"id": "temp", "section": null}]}})";
  std::ofstream(dir / "none.json") << R"({"etmem_runner_profile": 1, "extends": "arm-baremetal-1.4",
      "name": "my-arm", "image": null})";
  const json moved = FirmwareJson(elf, "--runtime 1.4.1 --runner " + (dir / "moved.json").string());
  EXPECT_EQ(moved.at("assumptions").at("runner"), "my-arm");
  EXPECT_EQ(Pool(moved, "method").at("expected_section"), ".my_pools");
  EXPECT_EQ(Pool(moved, "temp").at("expected_section"), "");
  const json none = FirmwareJson(elf, "--runtime 1.4.1 --runner " + (dir / "none.json").string());
  EXPECT_EQ(Pool(none, "method").at("expected_section"), "");
  // The verdicts do not depend on where the runner said its pools would be.
  EXPECT_EQ(Pool(moved, "method").at("needed"), Pool(builtin, "method").at("needed"));
  EXPECT_EQ(Pool(none, "method").at("fits"), Pool(builtin, "method").at("fits"));
}

// A runner's successive profiles that declare the same symbols are one candidate over their
// releases together; each release a profile with declarations covers has exactly one.
TEST(Firmware, BuiltinRunnerDeclarationsCoverTheirProfilesReleases) {
  for (const auto& p : runner::BuiltinProfiles()) {
    if (!p->image) continue;
    SCOPED_TRACE(p->file);
    for (const std::string& v : {p->first_release, p->last_release}) {
      size_t covering = 0;
      for (const firmware::RunnerSymbols& r : firmware::BuiltinRunnerSymbols())
        if (r.runner == p->name && runtime::ReleaseRange{r.first, r.last}.Contains(v)) {
          ++covering;
          EXPECT_EQ(r.pools, firmware::SymbolsOf(*p).pools) << v;
          EXPECT_EQ(r.markers, p->image->markers) << v;
        }
      EXPECT_EQ(covering, 1u) << v;
    }
  }
}

// ---- a 0 B temp pool (issue 37 item 3) ----

// `etmem analyze --runner arm-baremetal` for `release` with the image's 256-aligned pools and a
// temp pool of `temp` bytes (unset: the runner's).
api::MethodSummary ArmAnalysed(const std::vector<uint8_t>& program, const std::string& release,
                               std::optional<uint64_t> temp, std::optional<uint64_t> pool = {}) {
  api::Options o;
  o.runtime = release;
  o.target = "cortex-m";
  o.runner = "arm-baremetal";
  o.pool_align = 256;
  o.temp_pool = temp;
  o.pool = pool;
  return api::Analyze(api::Program::FromBytes(program.data(), program.size()), o).methods()[0];
}

// A temp pool declared as an array of no elements is a defined object of st_size 0: a 0 B pool,
// which the runtime sees as a temp allocator whose size() is 0. From 1.0.0 on,
// Method::resolve_operator passes it over for the method allocator (its "allocator == nullptr ||
// allocator->size() == 0"), so the operator metadata moves to the method pool: the image needs
// what `analyze --temp-pool 0` says, more than with the runner's 2048 B pool. At 0.7.0 the
// metadata is on the method allocator whatever the temp pool is.
TEST(Firmware, ZeroByteTempPoolIsASizeAndTheMetadataFallsBack) {
  SKIP_WITHOUT("arm-none-eabi-g++");
  const std::vector<uint8_t> cnn = BuilderCnn();
  for (const std::string release : {"0.7.0", "1.0.0", "1.4.1"}) {
    SCOPED_TRACE(release);
    const uint64_t with_temp = ArmAnalysed(cnn, release, std::nullopt).method_pool_bytes;
    const api::MethodSummary zero = ArmAnalysed(cnn, release, 0);
    if (release == "0.7.0") {
      EXPECT_EQ(zero.method_pool_bytes, with_temp);
    } else {
      EXPECT_GT(zero.method_pool_bytes, with_temp) << "the metadata moved to the method pool";
      EXPECT_EQ(zero.temp_load_peak_bytes, 0u) << "and nothing is asked of the empty temp pool";
    }
    Layout l;
    l.temp_pool = 0;
    l.method_pool = zero.method_pool_bytes;
    int code = -1;
    const json j = FirmwareJson(Link(l, cnn, "temp0_" + release), "--runtime " + release, &code);
    EXPECT_EQ(code, 0) << j.dump();
    const json& t = Pool(j, "temp");
    EXPECT_EQ(t.at("bytes"), 0);
    EXPECT_EQ(t.at("needed"), 0);
    EXPECT_TRUE(t.at("fits").get<bool>());
    EXPECT_EQ(Pool(j, "method").at("needed"), zero.method_pool_bytes);
    EXPECT_EQ(Pool(j, "method").at("spare"), 0);

    l.method_pool = zero.method_pool_bytes - 1;
    const json s = FirmwareJson(Link(l, cnn, "temp0_short_" + release), "--runtime " + release,
                                &code);
    EXPECT_EQ(code, 1);
    EXPECT_EQ(Pool(s, "method").at("short"), 1);
    // The same verdict as analyze's for that pool.
    const api::MethodSummary short_pool = ArmAnalysed(cnn, release, 0, zero.method_pool_bytes - 1);
    ASSERT_TRUE(short_pool.pool_check);
    EXPECT_FALSE(short_pool.pool_check->fits);
  }
}

// The text says where the metadata went and why, at a release that passes an empty temp
// allocator over, and the figure is the one the firmware check gives.
TEST(Firmware, AnalyzeTempPoolZeroSaysTheMetadataFellBack) {
  const fs::path cnn = MotivatingCnnFile();
  const CliRun r = Etmem("analyze " + cnn.string() + " --runtime 1.4.1 --runner arm-baremetal "
                         "--temp-pool 0 --pool-align 256 --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const json j = json::parse(r.out);
  const json& meta = j.at("methods").at(0).at("temp_allocator").at("operator_metadata");
  EXPECT_EQ(meta.at("kernel_calls_on_temp"), 0);
  EXPECT_GT(meta.at("kernel_calls_on_method").get<int>(), 0);
  EXPECT_EQ(meta.at("fell_back_to_method"), meta.at("kernel_calls_on_method"));
  const CliRun text = Etmem("analyze " + cnn.string() + " --runtime 1.4.1 --temp nonnull "
                            "--temp-pool 0");
  EXPECT_NE(text.out.find("all on the method allocator (the temp pool is empty, 0 B"),
            std::string::npos) << text.out;
  // 0.7.0 has nothing to fall back from: no such line.
  const CliRun old = Etmem("analyze " + cnn.string() + " --runtime 0.7.0 --temp nonnull "
                           "--temp-pool 0");
  EXPECT_EQ(old.out.find("the temp pool is empty"), std::string::npos) << old.out;
}

// ---- the methods the runner loads, the runner by its own symbols (issue 37 item 4) ----

// The builder's CNN as method 0, then two methods whose 1 MiB planned buffer no image here has
// room for: the Arm runner loads program.get_method_name(0) only, so they are not judged.
std::vector<uint8_t> CnnWithTwoLargeMethods() {
  testing::ProgramBuilder p = testing::MotivatingCnn();
  for (const char* name : {"large_a", "large_b"}) {
    testing::MethodBuilder& m = p.Method(name);
    constexpr int kElements = 128 * 1024;  // 512 KiB of floats each, two of them
    const int x = m.Tensor({.sizes = {1, kElements}, .placement = testing::Placement{1, 0}});
    const int y = m.Tensor({.sizes = {1, kElements},
                            .placement = testing::Placement{1, uint64_t{kElements} * 4}});
    m.Inputs({x});
    m.Outputs({y});
    m.KernelCall(m.Operator("aten::relu", "out"), {x, y, y});
    m.PlannedBufferSizes({int64_t{kElements} * 8});
  }
  return p.Build();
}

TEST(Firmware, ArmRunnerImageIsJudgedOnTheFirstMethodOnly) {
  SKIP_WITHOUT("arm-none-eabi-g++");
  const std::vector<uint8_t> program = CnnWithTwoLargeMethods();
  const uint64_t needed = ArmAnalysed(BuilderCnn(), "1.4.1", std::nullopt).method_pool_bytes;
  Layout l;
  l.method_pool = needed;
  const fs::path elf = Link(l, program, "three_methods");
  int code = -1;
  const json j = FirmwareJson(elf, "--runtime 1.4.1", &code);
  EXPECT_EQ(code, 0) << j.dump();
  ASSERT_EQ(j.at("methods").size(), 1u);
  EXPECT_EQ(j.at("methods").at(0).at("name"), "forward");
  EXPECT_EQ(Pool(j, "method").at("needed"), needed);
  ASSERT_EQ(j.at("methods_not_judged").size(), 2u);
  EXPECT_EQ(j.at("methods_not_judged").at(0).at("name"), "large_a");
  EXPECT_EQ(j.at("methods_not_judged").at(1).at("name"), "large_b");
  EXPECT_NE(j.at("methods_not_judged").at(0).at("why").get<std::string>().find(
                "loads the program's first method only"),
            std::string::npos);
  const CliRun text = Etmem("firmware " + elf.string() + " --runtime 1.4.1 --no-components");
  EXPECT_NE(text.out.find("method 'large_b' of model_pte: not judged: the arm-baremetal runner "
                          "loads the program's first method only ('forward'"),
            std::string::npos) << text.out;
  EXPECT_EQ(text.out.find("aborts"), std::string::npos) << text.out;
  // Asked for by name, a method the runner never loads is judged, with a note saying so.
  const json asked = FirmwareJson(elf, "--runtime 1.4.1 --method large_a", &code);
  EXPECT_EQ(code, 1);
  EXPECT_EQ(asked.at("methods").at(0).at("name"), "large_a");
  EXPECT_NE(asked.at("notes").dump().find("never this one"), std::string::npos);
}

TEST(Firmware, ArmRunnerPoolsInBssAreNotAnotherRunners) {
  SKIP_WITHOUT("arm-none-eabi-g++");
  const std::vector<uint8_t> cnn = BuilderCnn();
  Layout l;
  l.method_pool = 65536;
  l.defines = "-DPOOLS_IN_BSS";
  const json a = FirmwareJson(Link(l, cnn, "arm_bss"), "--runtime 1.4.1");
  EXPECT_EQ(Pool(a, "method").at("section"), ".bss");
  EXPECT_EQ(a.at("assumptions").at("runner"), "arm-baremetal");
  EXPECT_TRUE(a.at("assumptions").at("runner_undecided").is_null());
  // The program array in a plain const array too: nothing but the runner's own function tells.
  l.program_decl = "const";
  const json b = FirmwareJson(Link(l, cnn, "arm_bss_const"), "--runtime 1.4.1");
  EXPECT_EQ(b.at("assumptions").at("runner"), "arm-baremetal");
  // Without it, the runners that declare the same names fit equally: the Arm runner (listed
  // first) is checked and the report says which symbol would decide.
  l.defines = "-DPOOLS_IN_BSS -DNO_RUNNER_MARKER";
  const fs::path tie = Link(l, cnn, "arm_bss_tie");
  const json c = FirmwareJson(tie, "--runtime 1.4.1");
  EXPECT_EQ(c.at("assumptions").at("runner"), "arm-baremetal");
  const std::string undecided = c.at("assumptions").at("runner_undecided").get<std::string>();
  EXPECT_NE(undecided.find("espressif"), std::string::npos) << undecided;
  EXPECT_NE(undecided.find("13RunnerContext (arm-baremetal)"), std::string::npos) << undecided;
  EXPECT_NE(undecided.find("app_main (espressif)"), std::string::npos) << undecided;
  const CliRun text = Etmem("firmware " + tie.string() + " --runtime 1.4.1 --no-components");
  EXPECT_NE(text.out.find("what would decide:"), std::string::npos) << text.out;
}

TEST(Firmware, RuntimeIdentifierStringIsNoProgram) {
  SKIP_WITHOUT("arm-none-eabi-g++");
  Layout l;
  l.method_pool = 65536;
  l.defines = "-DWITH_IDENTIFIER_STRING";
  const fs::path elf = Link(l, BuilderCnn(), "identifier_string");
  const std::string bytes = ReadFile(elf);
  ASSERT_NE(bytes.find("ET12"), bytes.rfind("ET12")) << "the string and the program both hold it";
  int code = -1;
  const json j = FirmwareJson(elf, "--runtime 1.4.1", &code);
  EXPECT_EQ(code, 0);
  EXPECT_EQ(j.at("programs").size(), 1u);
  EXPECT_EQ(j.at("notes").dump().find("file identifier"), std::string::npos) << j.at("notes");
}

// v1.0.0's Arm runner allocates its input list as num_inputs x sizeof(EValue*) and
// Method::get_inputs writes whole EValues into it (prepare_input_tensors): a method pool one byte
// short of the minimum gets through every allocation and the runner silently writes past it.
TEST(Firmware, ArmRunnerAtOneZeroWritesPastItsPoolSilently) {
  SKIP_WITHOUT("arm-none-eabi-g++");
  const std::vector<uint8_t> cnn = BuilderCnn();
  const uint64_t needed = ArmAnalysed(cnn, "1.0.0", std::nullopt).method_pool_bytes;
  Layout l;
  l.method_pool = needed - 1;
  int code = -1;
  const json j = FirmwareJson(Link(l, cnn, "arm10_overwrite"), "--runtime 1.0.0", &code);
  EXPECT_EQ(code, 1);
  const json& p = Pool(j, "method");
  EXPECT_FALSE(p.at("fits").get<bool>());
  EXPECT_TRUE(p.at("logs_nothing").get<bool>());
  EXPECT_TRUE(p.at("log").empty());
  const std::string failing = p.at("failing").get<std::string>();
  // On Cortex-M (AAPCS) a pointer is 4 B; v1.0.0's EValue is 24 B: its payload union holds a
  // BoxedEvalueList (ArrayRef<EValue*> and a pointer, 12 B) next to int64_t and double (8-aligned),
  // so 16 B, then its 4 B tag at 16. Moving a Tensor input into it writes the payload's pointer and
  // the tag: the last byte written is byte 19, 16 B past the 4 B allocated.
  EXPECT_NE(failing.find("1 input(s) x 4 B (EValue*); the runner then writes 1 whole EValue of "
                         "24 B into it, up to byte 20 (the last one's members end there): 16 B "
                         "past the 4 B allocated"),
            std::string::npos) << failing;
  EXPECT_NE(failing.find("writes 1 B past the pool's end"), std::string::npos) << failing;
  EXPECT_NE(p.at("consequence").get<std::string>().find("silent memory corruption"),
            std::string::npos) << p.at("consequence");
  const CliRun text = Etmem("firmware " + Link(l, cnn, "arm10_overwrite_text").string() +
                            " --runtime 1.0.0 --no-components");
  EXPECT_NE(text.out.find("log: nothing"), std::string::npos) << text.out;
  EXPECT_EQ(text.out.find("log: unknown"), std::string::npos) << text.out;
}

// ---- hostile images ----

bool OnePrintableLine(const std::string& s) {
  return std::all_of(s.begin(), s.end(), [](char c) { return c >= 0x20 && c <= 0x7e; });
}

void ExpectOneLine(const std::vector<uint8_t>& bytes, const std::string& what) {
  firmware::FirmwareOptions o;
  o.model.runtime = "1.4.1";
  try {
    firmware::CheckFirmware(bytes, "bad.elf", o);
  } catch (const api::Error& e) {
    const std::string m = e.what();
    EXPECT_TRUE(m.starts_with("bad.elf")) << what << ": " << m;
    EXPECT_TRUE(OnePrintableLine(m)) << what << ": " << m;
  }
}

TEST(Firmware, DamagedImagesGiveOneLine) {
  SKIP_WITHOUT("arm-none-eabi-g++");
  Layout l;
  l.method_pool = 65536;
  const std::vector<uint8_t> good = FileBytes(Link(l, BuilderCnn(), "hostile"));
  ASSERT_GT(good.size(), 1000u);
  for (size_t n = 0; n < good.size(); n += std::max<size_t>(1, good.size() / 97))
    ExpectOneLine({good.begin(), good.begin() + static_cast<ptrdiff_t>(n)}, "truncated");
  // Every byte of the headers set to 0xff in turn (offsets, sizes, counts, indices).
  for (size_t at = 0; at < 52 + 4 * 32; ++at) {
    std::vector<uint8_t> bad = good;
    bad[at] = 0xff;
    ExpectOneLine(bad, "header byte " + std::to_string(at));
  }
  uint32_t shoff = 0;
  std::memcpy(&shoff, good.data() + 32, 4);
  for (size_t at = shoff; at < good.size(); ++at) {
    std::vector<uint8_t> bad = good;
    bad[at] ^= 0x80;
    ExpectOneLine(bad, "section header byte " + std::to_string(at));
  }
}

TEST(Firmware, ProgramSpanningItsSectionsEndIsRefused) {
  SKIP_WITHOUT("arm-none-eabi-g++");
  Layout l;
  l.method_pool = 65536;
  const fs::path path = Link(l, BuilderCnn(), "spans");
  std::vector<uint8_t> bytes = FileBytes(path);
  auto image = elf::ReadExecutable(bytes, "spans.elf");
  ASSERT_TRUE(image) << image.error().message;
  // Find model_pte's symbol entry and make its size run 4 KiB past .ddr's end.
  const elf::Section* symtab = nullptr;
  for (const elf::Section& s : image->elf.sections)
    if (s.type == 2) symtab = &s;
  ASSERT_NE(symtab, nullptr);
  bool patched = false;
  for (uint64_t i = 0; i < symtab->size / 16; ++i) {
    if (image->elf.symbols[i].name != "model_pte") continue;
    const uint32_t size = static_cast<uint32_t>(image->elf.symbols[i].size) + 4096;
    std::memcpy(bytes.data() + symtab->offset + i * 16 + 8, &size, 4);
    patched = true;
  }
  ASSERT_TRUE(patched);
  firmware::FirmwareOptions o;
  o.model.runtime = "1.4.1";
  try {
    firmware::CheckFirmware(bytes, "spans.elf", o);
    ADD_FAILURE() << "accepted a program past its section's end";
  } catch (const api::Error& e) {
    EXPECT_NE(std::string(e.what()).find("spans the end of its section"), std::string::npos)
        << e.what();
  }
}

}  // namespace firmware_test
}  // namespace etmem::test
