// The CMake module (cmake/etmem.cmake, installed as find_package(etmem)): a tiny firmware project
// cross-compiled for Cortex-M4 with arm-none-eabi-gcc takes its pool size from the header that
// etmem_add_pools() generates with the host etmem; touching the program reruns etmem without
// recompiling, a different program changes the header and recompiles; include() from the source
// tree works too (with Ninja when installed); etmem_check_firmware() fails a build whose linked
// image has a pool one byte short (the Arm example of docs/firmware.md). Skipped without
// arm-none-eabi-gcc (arm-none-eabi-g++ for the firmware check), saying so.
#include <regex>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "etmem_cli.h"

namespace etmem::test {
namespace cmake_module_test {

constexpr const char* kToolchain = R"(set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)
set(CMAKE_C_COMPILER arm-none-eabi-gcc)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(CMAKE_C_FLAGS_INIT "-mcpu=cortex-m4 -mthumb")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
)";

// The pool's size comes from the header; fw_pool_bytes() lets the test read it back.
constexpr const char* kMainC = R"(#include "etmem_pools.h"
static unsigned char method_pool[ETMEM_FORWARD_METHOD_POOL_BYTES]
    __attribute__((aligned(ETMEM_POOL_ALIGN)));
unsigned char* fw_pool(void);
unsigned char* fw_pool(void) { return method_pool; }
)";

struct Project {
  fs::path source;
  fs::path build;
};

// Writes the firmware project; `find` is how its CMakeLists gets etmem_add_pools().
Project WriteProject(const std::string& name, const std::string& find,
                     const fs::path& program,
                     const std::string& pools = "RUNTIME 0.3 TARGET_ABI cortex-m MARGIN 512") {
  Project p{TempPath(name), TempPath(name) / "build"};
  fs::create_directories(p.source);
  std::ofstream(p.source / "toolchain.cmake") << kToolchain;
  std::ofstream(p.source / "main.c") << kMainC;
  std::ofstream(p.source / "CMakeLists.txt")
      << "cmake_minimum_required(VERSION 3.22)\nproject(fw C)\n" << find
      << "add_library(fw STATIC main.c)\n"
         "etmem_add_pools(TARGET fw PROGRAM model.pte " << pools
      << " HEADER generated/etmem_pools.h)\n";
  fs::copy_file(program, p.source / "model.pte", fs::copy_options::overwrite_existing);
  return p;
}

CliRun Configure(const Project& p, const std::string& options) {
  return Shell("cmake -S " + p.source.string() + " -B " + p.build.string() +
               " -DCMAKE_TOOLCHAIN_FILE=" + (p.source / "toolchain.cmake").string() + " " +
               options);
}

CliRun Build(const Project& p) { return Shell("cmake --build " + p.build.string() + " 2>&1"); }

// The method pool's size as compiled into the Cortex-M object (from its symbol table).
uint64_t CompiledPoolBytes(const Project& p) {
  CliRun nm = Shell("arm-none-eabi-nm -S " + (p.build / "libfw.a").string());
  std::smatch m;
  if (!std::regex_search(nm.out, m, std::regex(R"(([0-9a-f]+) [bBdD] method_pool)"))) return 0;
  return std::stoull(m[1], nullptr, 16);
}

uint64_t AnalyzedPoolBytes(const fs::path& program) {
  CliRun r = Etmem("analyze " + program.string() + " --runtime 0.3 --target cortex-m");
  std::smatch m;
  if (!std::regex_search(r.out, m, std::regex(R"(Method allocator pool: (\d+) bytes)"))) return 0;
  return std::stoull(m[1]);
}

bool HaveArmGcc() { return HaveTool("arm-none-eabi-gcc") && HaveTool("arm-none-eabi-nm"); }

TEST(CMakeModule, InstalledPackageCrossBuildsAndRegeneratesTheHeader) {
  if (!HaveArmGcc()) GTEST_SKIP() << "arm-none-eabi-gcc not installed";
  const fs::path prefix = TempPath("install");
  CliRun install = Shell("cmake --install " ETMEM_BUILD_DIR " --prefix " + prefix.string());
  ASSERT_EQ(install.exit_code, 0) << install.out << install.err;
  const fs::path cnn = MotivatingCnnFile();
  Project p = WriteProject("fw_package", "find_package(etmem 0.1 REQUIRED)\n", cnn);
  CliRun configure = Configure(p, "-DCMAKE_PREFIX_PATH=" + prefix.string());
  ASSERT_EQ(configure.exit_code, 0) << configure.out << configure.err;
  CliRun first = Build(p);
  ASSERT_EQ(first.exit_code, 0) << first.out;
  EXPECT_EQ(CompiledPoolBytes(p), AnalyzedPoolBytes(cnn) + 512) << first.out;
  EXPECT_NE(ReadFile(p.build / "generated/etmem_pools.h").find("ExecuTorch 0.3.0"),
            std::string::npos);

  // Touched, same bytes: etmem runs again, the header stays, nothing recompiles.
  fs::last_write_time(p.source / "model.pte", fs::file_time_type::clock::now());
  CliRun touched = Build(p);
  ASSERT_EQ(touched.exit_code, 0) << touched.out;
  EXPECT_NE(touched.out.find("etmem: pool header etmem_pools.h for fw"), std::string::npos)
      << touched.out;
  EXPECT_EQ(touched.out.find("Building C object"), std::string::npos) << touched.out;
  CliRun again = Build(p);
  EXPECT_EQ(again.out.find("etmem: pool header"), std::string::npos) << "up to date: " << again.out;

  // A different program: a new header and a recompiled pool of the new size.
  const fs::path scaled = WriteScenario(testing::ScaledCnn(4), "scaled_cnn");
  fs::copy_file(scaled, p.source / "model.pte", fs::copy_options::overwrite_existing);
  CliRun changed = Build(p);
  ASSERT_EQ(changed.exit_code, 0) << changed.out;
  EXPECT_NE(changed.out.find("Building C object"), std::string::npos) << changed.out;
  ASSERT_NE(AnalyzedPoolBytes(scaled), AnalyzedPoolBytes(cnn));
  EXPECT_EQ(CompiledPoolBytes(p), AnalyzedPoolBytes(scaled) + 512);
}

TEST(CMakeModule, IncludeFromTheSourceTreeWithAnExplicitExecutable) {
  if (!HaveArmGcc()) GTEST_SKIP() << "arm-none-eabi-gcc not installed";
  Project p = WriteProject("fw_include",
                           "include(" ETMEM_SOURCE_DIR "/cmake/etmem.cmake)\n"
                           "if(NOT TARGET etmem::recording_allocator)\n"
                           "  message(FATAL_ERROR \"no etmem::recording_allocator\")\n"
                           "endif()\n",
                           MotivatingCnnFile());
  const std::string generator = HaveTool("ninja") ? "-G Ninja " : "";
  CliRun configure = Configure(p, generator + "-DETMEM_EXECUTABLE=" ETMEM_BINARY);
  ASSERT_EQ(configure.exit_code, 0) << configure.out << configure.err;
  CliRun build = Build(p);
  ASSERT_EQ(build.exit_code, 0) << build.out;
  EXPECT_EQ(CompiledPoolBytes(p), AnalyzedPoolBytes(MotivatingCnnFile()) + 512);
}

TEST(CMakeModule, MissingArgumentsFailAtConfigureTime) {
  if (!HaveArmGcc()) GTEST_SKIP() << "arm-none-eabi-gcc not installed";
  Project p = WriteProject("fw_bad", "include(" ETMEM_SOURCE_DIR "/cmake/etmem.cmake)\n",
                           MotivatingCnnFile());
  std::ofstream(p.source / "CMakeLists.txt", std::ios::app)
      << "etmem_add_pools(TARGET fw PROGRAM model.pte)\n";
  CliRun configure = Configure(p, "-DETMEM_EXECUTABLE=" ETMEM_BINARY);
  EXPECT_NE(configure.exit_code, 0);
  EXPECT_NE(configure.err.find("etmem_add_pools: HEADER is required"), std::string::npos)
      << configure.err;
}

// RUNNER (here a runner file beside the CMakeLists): the header also defines the runner's own
// pool-size macro, with etmem's minimum.
TEST(CMakeModule, ARunnerAddsItsDefines) {
  if (!HaveArmGcc()) GTEST_SKIP() << "arm-none-eabi-gcc not installed";
  Project p = WriteProject("fw_runner", "include(" ETMEM_SOURCE_DIR "/cmake/etmem.cmake)\n",
                           MotivatingCnnFile(),
                           "RUNTIME 1.4 TARGET_ABI cortex-m RUNNER my_runner.json");
  fs::copy_file(fs::path(ETMEM_SOURCE_DIR) / "src/etmem/runner/profiles/arm-baremetal-1.4.json",
                p.source / "my_runner.json", fs::copy_options::overwrite_existing);
  CliRun configure = Configure(p, "-DETMEM_EXECUTABLE=" ETMEM_BINARY);
  ASSERT_EQ(configure.exit_code, 0) << configure.out << configure.err;
  CliRun build = Build(p);
  ASSERT_EQ(build.exit_code, 0) << build.out;
  CliRun r = Etmem("analyze " + MotivatingCnnFile().string() +
                   " --runtime 1.4 --runner arm-baremetal --format json");
  const uint64_t minimum =
      nlohmann::json::parse(r.out)["methods"][0]["runner"]["pools"][0]["minimum_bytes"];
  const std::string define =
      "#define ET_ARM_BAREMETAL_METHOD_ALLOCATOR_POOL_SIZE " + std::to_string(minimum) + "UL";
  EXPECT_NE(ReadFile(p.build / "generated/etmem_pools.h").find(define), std::string::npos);
}

// BOARD (a built-in board) with RESERVE and LINKER_SCRIPT: the header places each pool in its
// region's section, and the build writes the linker fragment.
TEST(CMakeModule, ABoardPlacesThePoolsAndWritesTheLinkerFragment) {
  if (!HaveArmGcc()) GTEST_SKIP() << "arm-none-eabi-gcc not installed";
  Project p = WriteProject("fw_board", "include(" ETMEM_SOURCE_DIR "/cmake/etmem.cmake)\n",
                           MotivatingCnnFile(),
                           "RUNTIME 0.3 TARGET_ABI cortex-m BOARD stm32wb55 RESERVE SRAM1=24K "
                           "LINKER_SCRIPT generated/etmem_regions.ld");
  CliRun configure = Configure(p, "-DETMEM_EXECUTABLE=" ETMEM_BINARY);
  ASSERT_EQ(configure.exit_code, 0) << configure.out << configure.err;
  CliRun build = Build(p);
  ASSERT_EQ(build.exit_code, 0) << build.out;
  EXPECT_NE(ReadFile(p.build / "generated/etmem_pools.h").find("section(\".etmem_sram1\")"),
            std::string::npos);
  EXPECT_NE(ReadFile(p.build / "generated/etmem_regions.ld").find("KEEP(*(.etmem_sram1))"),
            std::string::npos);
}

// ---- etmem_check_firmware: the Arm example of docs/firmware.md ----

constexpr const char* kArmToolchain = R"(set(CMAKE_SYSTEM_NAME Generic)
set(CMAKE_SYSTEM_PROCESSOR arm)
set(CMAKE_CXX_COMPILER arm-none-eabi-g++)
set(CMAKE_TRY_COMPILE_TARGET_TYPE STATIC_LIBRARY)
set(CMAKE_CXX_FLAGS_INIT "-mcpu=cortex-m4 -mthumb -ffreestanding -fno-exceptions -fno-rtti")
set(CMAKE_EXE_LINKER_FLAGS_INIT "-nostdlib")
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
)";

// The Arm runner's declarations (examples/arm/executor_runner/arm_executor_runner.cpp, v1.4.1:
// the method pool in input_data_sec, the temp pool in .bss.tensor_arena, both aligned 16; the
// program, as pte_to_header.py writes model_pte.h, in network_model_sec aligned 16).
constexpr const char* kArmMain = R"(#include <stddef.h>
#include "model_pte.h"
const size_t method_allocation_pool_size = METHOD_POOL_BYTES;
unsigned char __attribute__((section("input_data_sec"), aligned(16)))
method_allocation_pool[METHOD_POOL_BYTES];
const size_t temp_allocation_pool_size = 2048;
unsigned char __attribute__((section(".bss.tensor_arena"), aligned(16)))
temp_allocation_pool[2048];
volatile const void* keep[3];
int main() {
  keep[0] = model_pte;
  keep[1] = method_allocation_pool;
  keep[2] = temp_allocation_pool;
  return 0;
}
extern "C" void _start() { main(); for (;;) {} }
)";

// Corstone-300's layout in short: the temp pool in SRAM, the method pool and the program in DDR
// (the method pool 0x100 past the region's base, so its address is 256-aligned).
constexpr const char* kArmLinkerScript = R"(MEMORY {
  FLASH (rx) : ORIGIN = 0x00000000, LENGTH = 4M
  SRAM (rwx) : ORIGIN = 0x20000000, LENGTH = 512K
  DDR (rwx)  : ORIGIN = 0x60000000, LENGTH = 64M
}
ENTRY(_start)
SECTIONS {
  .text : { *(.text*) *(.rodata*) } > FLASH
  .data : { *(.data*) } > SRAM AT > FLASH
  .sram.bss (NOLOAD) : { *(.bss.tensor_arena) } > SRAM
  .bss (NOLOAD) : { *(.bss*) *(COMMON) } > SRAM
  .ddr : { . = . + 0x100; *(input_data_sec) . = ALIGN(16); *(network_model_sec) } > DDR
  /DISCARD/ : { *(.ARM.exidx*) *(.comment) }
}
)";

bool HaveArmGxx() { return HaveTool("arm-none-eabi-g++"); }

// The Arm example: an arm_executor_runner-like image whose method pool is METHOD_POOL bytes (a
// cache variable), checked after linking by etmem_check_firmware.
Project WriteArmFirmware(const std::string& name, const std::string& check = "RUNTIME 1.4.1") {
  Project p{TempPath(name), TempPath(name) / "build"};
  fs::create_directories(p.source);
  std::ofstream(p.source / "toolchain.cmake") << kArmToolchain;
  std::ofstream(p.source / "main.cpp") << kArmMain;
  std::ofstream(p.source / "app.ld") << kArmLinkerScript;
  const std::string cnn = ReadFile(MotivatingCnnFile());
  std::string header =
      "__attribute__((section(\"network_model_sec\"), aligned(16))) unsigned char model_pte[] = {";
  for (size_t i = 0; i < cnn.size(); ++i)
    header += (i ? "," : "") + std::to_string(static_cast<unsigned char>(cnn[i]));
  std::ofstream(p.source / "model_pte.h") << header << "};\n";
  std::ofstream(p.source / "CMakeLists.txt")
      << "cmake_minimum_required(VERSION 3.22)\n"
         "project(app CXX)\n"
         "include(" ETMEM_SOURCE_DIR "/cmake/etmem.cmake)\n"
         "set(METHOD_POOL 65536 CACHE STRING \"the method pool's bytes\")\n"
         "add_executable(app main.cpp)\n"
         "set_target_properties(app PROPERTIES SUFFIX .elf)\n"
         "target_compile_definitions(app PRIVATE METHOD_POOL_BYTES=${METHOD_POOL})\n"
         "target_link_options(app PRIVATE -T ${CMAKE_CURRENT_SOURCE_DIR}/app.ld)\n"
         "etmem_check_firmware(TARGET app " << check << ")\n";
  return p;
}

// The post-link step fails the build with etmem's report for a method pool one byte short of
// what `etmem firmware` says the image needs, deleting the image, and passes one that fits.
TEST(CMakeModule, CheckFirmwareFailsTheBuildForAPoolOneByteShort) {
  if (!HaveArmGxx()) GTEST_SKIP() << "arm-none-eabi-g++ not installed: no firmware to link";
  Project p = WriteArmFirmware("fw_check");
  CliRun configure = Configure(p, "-DETMEM_EXECUTABLE=" ETMEM_BINARY);
  ASSERT_EQ(configure.exit_code, 0) << configure.out << configure.err;
  CliRun roomy = Build(p);
  ASSERT_EQ(roomy.exit_code, 0) << roomy.out;
  EXPECT_NE(roomy.out.find("etmem: checking app's pools against its program"), std::string::npos)
      << roomy.out;
  EXPECT_NE(roomy.out.find("verdict: fits"), std::string::npos) << roomy.out;
  const fs::path image = p.build / "app.elf";
  CliRun j = Etmem("firmware " + image.string() + " --runtime 1.4.1 --format json");
  ASSERT_EQ(j.exit_code, 0) << j.err;
  const uint64_t needed = nlohmann::json::parse(j.out)["methods"][0]["pools"][0]["needed"];
  EXPECT_EQ(needed, 36080u) << "the motivating CNN under the Arm runner at 1.4.1, 256-aligned";

  ASSERT_EQ(Configure(p, "-DMETHOD_POOL=" + std::to_string(needed - 1)).exit_code, 0);
  CliRun short_pool = Build(p);
  EXPECT_NE(short_pool.exit_code, 0) << short_pool.out;
  EXPECT_NE(short_pool.out.find("TOO SMALL by 1 B: " + std::to_string(needed) + " B needed, " +
                                std::to_string(needed - 1) + " B declared"),
            std::string::npos)
      << short_pool.out;
  EXPECT_NE(short_pool.out.find("log: Memory allocation failed: "), std::string::npos)
      << short_pool.out;
  // CMake's error (on stderr) wraps its words: compared with white space folded.
  const std::string error = std::regex_replace(short_pool.err, std::regex(R"(\s+)"), " ");
  EXPECT_NE(error.find("etmem firmware: " + image.string() + " fails its check (exit 1); image "
                       "deleted"),
            std::string::npos)
      << short_pool.err;
  EXPECT_FALSE(fs::exists(image)) << "a refused image is not kept";

  ASSERT_EQ(Configure(p, "-DMETHOD_POOL=" + std::to_string(needed)).exit_code, 0);
  CliRun fits = Build(p);
  EXPECT_EQ(fits.exit_code, 0) << fits.out;
  EXPECT_NE(fits.out.find("fits: " + std::to_string(needed) + " B needed, 0 B to spare"),
            std::string::npos)
      << fits.out;
  EXPECT_TRUE(fs::exists(image));
}

// STACK_USAGE: GCC writes the target's .su and .ci files beside its objects and the check reads
// them (--stack-usage): the stack section's frames come from them.
TEST(CMakeModule, CheckFirmwareWithStackUsageReadsGccsFiles) {
  if (!HaveArmGxx()) GTEST_SKIP() << "arm-none-eabi-g++ not installed: no firmware to link";
  Project p = WriteArmFirmware("fw_check_su", "RUNTIME 1.4.1 STACK_USAGE");
  CliRun configure = Configure(p, "-DETMEM_EXECUTABLE=" ETMEM_BINARY);
  ASSERT_EQ(configure.exit_code, 0) << configure.out << configure.err;
  CliRun build = Build(p);
  ASSERT_EQ(build.exit_code, 0) << build.out;
  const fs::path objects = p.build / "CMakeFiles" / "app.dir";
  EXPECT_TRUE(fs::exists(objects / "main.cpp.su")) << "no -fstack-usage file in " << objects;
  EXPECT_TRUE(fs::exists(objects / "main.cpp.ci")) << "no -fcallgraph-info file in " << objects;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(build.out, m,
                                std::regex(R"(GCC's sizes from (\S+) \(\.su/\.ci, (\d+) entries\) replace them for (\d+) functions)")))
      << build.out;
  EXPECT_EQ(fs::path(m[1].str()), objects);
  EXPECT_GT(std::stoul(m[2]), 0u);
  EXPECT_GT(std::stoul(m[3]), 0u);
  EXPECT_TRUE(std::regex_search(build.out, std::regex(R"( main \(entry, frame from \.(ci|su)\))")))
      << build.out;

  // A bad option pairing fails the configure step with one message.
  Project bad = WriteArmFirmware("fw_check_su_bad", "RUNTIME 1.4.1 STACK_USAGE_DIR x");
  const CliRun refused = Configure(bad, "-DETMEM_EXECUTABLE=" ETMEM_BINARY);
  EXPECT_NE(refused.exit_code, 0);
  const std::string error = std::regex_replace(refused.err, std::regex(R"(\s+)"), " ");
  EXPECT_NE(error.find("STACK_USAGE_TARGETS and STACK_USAGE_DIR go with STACK_USAGE"),
            std::string::npos) << refused.err;
}

}  // namespace cmake_module_test
}  // namespace etmem::test
