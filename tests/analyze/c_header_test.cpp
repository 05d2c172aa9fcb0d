// `etmem header`: the header's numbers are those of `etmem analyze --format json`; it compiles
// warning-free as C99 and C++ with the host gcc and with arm-none-eabi-gcc (when installed); it
// is reproducible byte for byte and names the program by its sha256; each quantity is one macro
// and each pool one array, whatever macros a unit defines (checked on the object's symbols).
#include <algorithm>
#include <chrono>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "etmem/base/sha256.h"
#include "etmem/report/c_header.h"
#include "etmem_cli.h"

namespace etmem::test {
namespace header_test {

using Macros = std::map<std::string, std::string>;  // name -> value as written (suffix stripped)

Macros ParseDefines(const std::string& header) {
  Macros out;
  static const std::regex kDefine(R"(^#define (\w+) ([^ \n]+))", std::regex::multiline);
  for (auto it = std::sregex_iterator(header.begin(), header.end(), kDefine);
       it != std::sregex_iterator(); ++it) {
    std::string value = (*it)[2];
    while (!value.empty() && (value.back() == 'U' || value.back() == 'L')) value.pop_back();
    out[(*it)[1]] = value;
  }
  return out;
}

std::string Header(const fs::path& program, const std::string& options = "") {
  CliRun r = Etmem("header " + program.string() + " " + options);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return r.out;
}

nlohmann::json Analyze(const fs::path& program, const std::string& options = "") {
  CliRun r = Etmem("analyze " + program.string() + " --format json " + options);
  EXPECT_EQ(r.exit_code, 0) << r.err;
  return nlohmann::json::parse(r.out);
}

// The macros a header must hold for `analyze`'s JSON, plus `margin_of(min)` on each pool.
Macros Expected(const nlohmann::json& j, uint64_t (*margin_of)(uint64_t)) {
  Macros out;
  out["ETMEM_POOL_ALIGN"] = std::to_string(j["pool_align"].get<uint64_t>());
  out["ETMEM_PROGRAM_BYTES"] = std::to_string(j["program"]["size_bytes"].get<uint64_t>());
  out["ETMEM_METHOD_COUNT"] = std::to_string(j["methods"].size());
  for (const auto& m : j["methods"]) {
    const std::string p = "ETMEM_" + report::MacroName(m["name"].get<std::string>()) + "_";
    const uint64_t pool = m["method_allocator"]["bytes"];
    out[p + "METHOD_POOL_MIN_BYTES"] = std::to_string(pool);
    out[p + "METHOD_POOL_MARGIN_BYTES"] = std::to_string(margin_of(pool));
    out[p + "METHOD_POOL_BYTES"] = std::to_string(pool + margin_of(pool));
    out[p + "METHOD_POOL_EXACT"] = m["exact"].get<bool>() ? "1" : "0";
    out[p + "TEMP_LOAD_BYTES"] =
        std::to_string(m["temp_allocator"]["load_peak_bytes"].get<uint64_t>());
    out[p + "PLANNED_BUFFER_COUNT"] = std::to_string(m["planned_buffers"].size());
    uint64_t total = 0;
    for (size_t i = 0; i < m["planned_buffers"].size(); ++i) {
      const uint64_t b = m["planned_buffers"][i];
      out[p + "PLANNED_BUFFER_" + std::to_string(i + 1) + "_BYTES"] = std::to_string(b);  // id
      total += b;
    }
    out[p + "PLANNED_BYTES"] = std::to_string(total);
  }
  return out;
}

uint64_t NoMargin(uint64_t) { return 0; }
uint64_t TenPercent(uint64_t min) { return (min * 10 + 99) / 100; }
uint64_t FiveHundredTwelve(uint64_t) { return 512; }

void ExpectMacrosMatch(const Macros& expected, const Macros& actual, const std::string& where) {
  for (const auto& [name, value] : expected) {
    auto it = actual.find(name);
    ASSERT_NE(it, actual.end()) << where << ": no " << name;
    EXPECT_EQ(it->second, value) << where << ": " << name;
  }
}

// A translation unit that includes the header and checks every expected value at compile time
// (a negative array size fails the build), and the pool arrays' sizes when defined.
std::string CheckSource(const Macros& expected, const std::vector<std::string>& pools) {
  std::string src = "#include \"etmem_pools.h\"\n";
  int n = 0;
  for (const auto& [name, value] : expected) {
    if (name == "ETMEM_PROGRAM_SHA256") continue;
    src += "typedef char etmem_check_" + std::to_string(n++) + "[(" + name + " == " + value +
           "ULL) ? 1 : -1];\n";
  }
  for (const std::string& pool : pools) {
    const std::string size_macro = pool == "forward_method_pool"
                                       ? "ETMEM_FORWARD_METHOD_POOL_BYTES"
                                       : "ETMEM_FORWARD_PLANNED_BUFFER_1_BYTES";
    src += "typedef char etmem_size_" + pool + "[(sizeof(etmem_" + pool + ") == " + size_macro +
           ") ? 1 : -1];\n";
    src += "typedef char etmem_align_" + pool + "[(__alignof__(etmem_" + pool +
           ") >= ETMEM_POOL_ALIGN) ? 1 : -1];\n";
    src += "unsigned char* etmem_use_" + pool + "(void);\nunsigned char* etmem_use_" + pool +
           "(void) { return etmem_" + pool + "; }\n";
  }
  return src;
}

struct Compiler {
  std::string command;    // compiler and target flags
  std::string standard;   // -std=...
  std::string extension;  // .c or .cpp
};

// Compiles `source` against `header` in a fresh directory; returns the compiler's output on
// failure and the object's path in `object`.
CliRun Compile(const Compiler& c, const std::string& header, const std::string& source,
               fs::path* object = nullptr) {
  const fs::path dir = TempPath("compile");
  fs::create_directories(dir);
  std::ofstream(dir / "etmem_pools.h") << header;
  std::ofstream(dir / ("check" + c.extension)) << source;
  const fs::path obj = dir / "check.o";
  if (object) *object = obj;
  return Shell(c.command + " " + c.standard + " -Wall -Wextra -Werror -pedantic -c -I" +
               dir.string() + " " + (dir / ("check" + c.extension)).string() + " -o " +
               obj.string());
}

void ExpectCompiles(const Compiler& c, const std::string& header, const std::string& source) {
  CliRun r = Compile(c, header, source);
  EXPECT_EQ(r.exit_code, 0) << c.command << " " << c.standard << ":\n" << r.err << "\n" << header;
  EXPECT_TRUE(r.err.empty()) << r.err;  // not even a warning
}

// Every compiler in `compilers` compiles the motivating program's header, bare and with pools
// in a named section, and agrees with analyze on every number.
void ExpectCompilesEverywhere(const std::vector<Compiler>& compilers) {
  const fs::path program = MotivatingCnnFile();
  const Macros expected = Expected(Analyze(program), NoMargin);
  const Macros expected_margin = Expected(Analyze(program), TenPercent);
  const std::string bare = Header(program);
  const std::string pools = Header(program, "--define-pools --section .etmem_pools --margin 10%");
  const std::string two = Header(TwoMethodsFile(), "--define-pools");
  for (const Compiler& c : compilers) {
    ExpectCompiles(c, bare, CheckSource(expected, {}));
    ExpectCompiles(
        c, pools,
        CheckSource(expected_margin, {"forward_method_pool", "forward_planned_buffer_1"}));
    ExpectCompiles(
        c, two,
        CheckSource(Expected(Analyze(TwoMethodsFile()), NoMargin), {"forward_method_pool"}));
  }
}

TEST(Header, NumbersEqualAnalyzeJson) {
  for (const fs::path& program : {MotivatingCnnFile(), TwoMethodsFile()})
    for (const std::string options : {"", "--runtime 0.3", "--runtime 1.0 --target aarch64",
                                      "--temp nonnull --pool-align 16"}) {
      const Macros actual = ParseDefines(Header(program, options));
      ExpectMacrosMatch(Expected(Analyze(program, options), NoMargin), actual,
                        program.filename().string() + " " + options);
    }
}

TEST(Header, TwoMethodsGetTheirOwnMacros) {
  const Macros m = ParseDefines(Header(TwoMethodsFile()));
  EXPECT_EQ(m.at("ETMEM_METHOD_COUNT"), "2");
  EXPECT_TRUE(m.count("ETMEM_FORWARD_METHOD_POOL_BYTES"));
  EXPECT_TRUE(m.count("ETMEM_ENCODE_METHOD_POOL_BYTES"));
  EXPECT_TRUE(m.count("ETMEM_ENCODE_PLANNED_BUFFER_1_BYTES"));  // by memory id
  EXPECT_FALSE(m.count("ETMEM_ENCODE_PLANNED_BUFFER_0_BYTES"));
  const Macros only = ParseDefines(Header(TwoMethodsFile(), "--method encode"));
  EXPECT_EQ(only.at("ETMEM_METHOD_COUNT"), "1");
  EXPECT_FALSE(only.count("ETMEM_FORWARD_METHOD_POOL_BYTES"));
}

TEST(Header, MarginIsInThePoolMacroAndTheHeaderSaysSo) {
  const fs::path program = MotivatingCnnFile();
  const std::string pct = Header(program, "--margin 10%");
  ExpectMacrosMatch(Expected(Analyze(program), TenPercent), ParseDefines(pct), "10%");
  EXPECT_NE(pct.find("Margin:         10% of the minimum (rounded up) is included"),
            std::string::npos)
      << pct;
  const std::string bytes = Header(program, "--margin 512");
  ExpectMacrosMatch(Expected(Analyze(program), FiveHundredTwelve), ParseDefines(bytes), "512");
  EXPECT_NE(bytes.find("512 B is included in each METHOD_POOL_BYTES"), std::string::npos) << bytes;
  EXPECT_NE(Header(program).find("Margin:         none"), std::string::npos);
}

TEST(Header, StatesEveryAssumption) {
  const fs::path program = MotivatingCnnFile();
  const std::string h = Header(program, "--runtime 0.3 --target riscv32 --pool-align 16");
  const std::string bytes = ReadFile(program);
  const std::string sha = Sha256Hex({reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size()});
  std::string version = Etmem("--version").out;  // "etmem 0.1.0\n"
  version.erase(version.find_last_not_of('\n') + 1);
  for (const std::string& needle :
       {std::string("ExecuTorch 0.3.0"), std::string("Target:         riscv32"),
        std::string("aligned to 16 bytes"), std::string("Temp allocator: none is passed"),
        "Generated by " + version, "sha256 " + sha, "#define ETMEM_PROGRAM_SHA256 \"" + sha + "\""})
    EXPECT_NE(h.find(needle), std::string::npos) << needle << "\n" << h;
  EXPECT_EQ(h.find(program.parent_path().string()), std::string::npos) << "no directories";
}

TEST(Header, CompilesWarningFreeWithHostGcc) {
  if (!HaveTool("gcc") || !HaveTool("g++")) GTEST_SKIP() << "gcc/g++ not installed";
  ExpectCompilesEverywhere({{"gcc", "-std=c99", ".c"}, {"g++", "-std=c++17", ".cpp"}});
}

TEST(Header, CompilesWarningFreeWithArmNoneEabi) {
  if (!HaveTool("arm-none-eabi-gcc") || !HaveTool("arm-none-eabi-g++"))
    GTEST_SKIP() << "arm-none-eabi-gcc/g++ not installed";
  const std::string flags = " -mcpu=cortex-m4 -mthumb";
  ExpectCompilesEverywhere({{"arm-none-eabi-gcc" + flags, "-std=c99", ".c"},
                            {"arm-none-eabi-g++" + flags, "-std=c++17", ".cpp"}});
}

TEST(Header, PoolsLandInTheNamedSection) {
  if (!HaveTool("gcc") || !HaveTool("objdump")) GTEST_SKIP() << "gcc/objdump not installed";
  const fs::path program = MotivatingCnnFile();
  const Macros m = ParseDefines(Header(program));
  fs::path object;
  CliRun r =
      Compile({"gcc", "-std=c99", ".c"}, Header(program, "--define-pools --section .etmem_pools"),
              CheckSource({}, {"forward_method_pool", "forward_planned_buffer_1"}), &object);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  CliRun h = Shell("objdump -h " + object.string());
  std::smatch match;
  ASSERT_TRUE(std::regex_search(h.out, match, std::regex(R"(\.etmem_pools\s+([0-9a-f]+))")))
      << h.out;
  const uint64_t size = std::stoull(match[1], nullptr, 16);
  EXPECT_GE(size, std::stoull(m.at("ETMEM_FORWARD_METHOD_POOL_BYTES")) +
                      std::stoull(m.at("ETMEM_FORWARD_PLANNED_BYTES")));
}

TEST(Header, TwoRunsGiveIdenticalBytesAndAnUnchangedFileIsLeftAlone) {
  const fs::path program = MotivatingCnnFile();
  const std::string options = "--define-pools --margin 4K --section .sram2";
  EXPECT_EQ(Header(program, options), Header(program, options));
  const fs::path out = TempPath("etmem_pools.h");
  ASSERT_EQ(Etmem("header " + program.string() + " " + options + " -o " + out.string()).exit_code,
            0);
  EXPECT_EQ(ReadFile(out), Header(program, options));
  const auto written = fs::last_write_time(out);
  fs::last_write_time(out, written - std::chrono::hours(1));
  ASSERT_EQ(Etmem("header " + program.string() + " " + options + " -o " + out.string()).exit_code,
            0);
  EXPECT_EQ(fs::last_write_time(out), written - std::chrono::hours(1))
      << "rewrote an identical file";
  fs::remove(out);
}

TEST(Header, ADifferentProgramGivesADifferentHeader) {
  EXPECT_NE(Header(MotivatingCnnFile()), Header(TwoMethodsFile()));
  if (!HaveRealModels()) return;
  const std::string a = Header(RealModel("cnn_trained_2025-04-04_34b7e8d"));
  const std::string b = Header(RealModel("cnn_trained-old_2025-04-04_353bb2e"));
  EXPECT_NE(a, b);
  EXPECT_NE(ParseDefines(a).at("ETMEM_PROGRAM_SHA256"), ParseDefines(b).at("ETMEM_PROGRAM_SHA256"));
}

TEST(Header, InvalidUsesExitTwoWithOneLine) {
  const std::string program = MotivatingCnnFile().string();
  for (const std::string options : {"--runtime all", "--target all", "--margin ten",
                                    "--margin 5000%", "--define-pools --section 'bad name'",
                                    "--section .sram2", "--method nope", "--runtime 9.9"}) {
    CliRun r = Etmem("header " + program + " " + options);
    EXPECT_EQ(r.exit_code, 2) << options;
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << options << ": " << r.err;
  }
  CliRun missing = Etmem("header /nonexistent/x.pte");
  EXPECT_EQ(missing.exit_code, 2);
  EXPECT_NE(missing.err.find("/nonexistent/x.pte"), std::string::npos);
}

TEST(Header, MethodsWithTheSameCNameAreRefused) {
  testing::ProgramBuilder program;
  for (const char* name : {"run-fast", "run_fast"}) {
    testing::MethodBuilder& m = program.Method(name);
    const int x = m.Tensor({.sizes = {1, 4}, .placement = testing::Placement{.offset = 0}});
    const int y = m.Tensor({.sizes = {1, 4}, .placement = testing::Placement{.offset = 16}});
    m.Inputs({x});
    m.Outputs({y});
    m.KernelCall(m.Operator("aten::relu", "out"), {x, y, y});
    m.PlannedBufferSizes({32});
  }
  CliRun r = Etmem("header " + WriteScenario(program, "same_c_name").string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("RUN_FAST"), std::string::npos) << r.err;
  EXPECT_EQ(report::MacroName("encode-v2.1"), "ENCODE_V2_1");
}

}  // namespace header_test
}  // namespace etmem::test

namespace etmem::test {
namespace header_test {

// The bytes of every array the object defines (nm -S: symbols named etmem_* with a size, not
// code): each pool the header declares, counted as the linker would.
uint64_t ArrayBytes(const std::string& nm, const fs::path& object, std::string* listing) {
  CliRun r = Shell(nm + " -S -C --defined-only " + object.string());  // -C: C++ names as written
  EXPECT_EQ(r.exit_code, 0) << r.err;
  uint64_t total = 0;
  std::istringstream in(r.out);
  for (std::string line; std::getline(in, line);) {
    std::istringstream fields(line);
    std::string address, size, type, name;
    if (!(fields >> address >> size >> type >> name)) continue;  // no size: not an array
    if (!name.starts_with("etmem_") || type == "t" || type == "T") continue;
    total += std::stoull(size, nullptr, 16);
    *listing += line + "\n";
  }
  return total;
}

// What the pools of `program` take for these options, from analyze's JSON: per method the method
// pool plus the margin, the temp pool (the larger of the load and run-time peaks) when a temp
// allocator is passed, and every planned buffer.
uint64_t PoolBytes(const fs::path& program, const std::string& options,
                   uint64_t (*margin_of)(uint64_t)) {
  const nlohmann::json j = Analyze(program, options);
  uint64_t total = 0;
  for (const auto& m : j["methods"]) {
    const uint64_t pool = m["method_allocator"]["bytes"];
    total += pool + margin_of(pool);
    if (j["temp_allocator"] != "null")
      total += std::max(m["temp_allocator"]["load_peak_bytes"].get<uint64_t>(),
                        m["temp_allocator"]["run"]["peak_bytes"].get<uint64_t>());
    for (const auto& b : m["planned_buffers"]) total += b.get<uint64_t>();
  }
  return total;
}

// The quantities of a header, each said once: no macro defined twice, and the board's section
// gives no size of its own (each pool's size is its one _BYTES macro: the issue's header had
// 4693 for the method pool with the margin and 4266 again in the board's section).
void ExpectEachMacroOnce(const std::string& header) {
  static const std::regex kDefine(R"(^#define (\w+) ([^ \n]+))", std::regex::multiline);
  std::map<std::string, int> names;
  const size_t board = header.find("/* Board ");
  for (auto it = std::sregex_iterator(header.begin(), header.end(), kDefine);
       it != std::sregex_iterator(); ++it) {
    const std::string name = (*it)[1];
    ++names[name];
    if (board != std::string::npos && static_cast<size_t>(it->position()) > board)
      EXPECT_FALSE(name.ends_with("_BYTES")) << name << " in the board's section\n" << header;
  }
  for (const auto& [name, count] : names) EXPECT_EQ(count, 1) << name << "\n" << header;
}

struct PoolCase {
  fs::path program;
  std::string model;   // analyze's options too
  std::string header;  // header's own options
  uint64_t (*margin_of)(uint64_t);
  bool arrays;         // whether the unit defines the pools (with ETMEM_DEFINE_BOARD_POOLS)
};

// A unit that includes the header with every macro on (ETMEM_DEFINE_BOARD_POOLS too) defines
// each pool once: its arrays add up to the pools analyze gives, not to twice as many.
void ExpectEachPoolDeclaredOnce(const Compiler& c, const std::string& nm) {
  const fs::path cnn = MotivatingCnnFile();
  const std::vector<PoolCase> cases = {
      {cnn, "--runtime 0.3", "--board stm32wb55 --margin 10% --define-pools", TenPercent, true},
      {cnn, "--runtime 0.3", "--board stm32wb55 --margin 10%", TenPercent, true},
      {cnn, "--temp nonnull", "--board stm32wb55 --margin 512 --define-pools", FiveHundredTwelve,
       true},
      {cnn, "--temp nonnull", "--define-pools --section .bss.etmem", NoMargin, true},
      {TwoMethodsFile(), "--temp nonnull", "--board stm32h743 --define-pools", NoMargin, true},
      // The Arm runner declares its pools (its planned buffers inside): nothing to define.
      {cnn, "--runner arm-baremetal", "--board corstone-300 --define-pools --margin 10%",
       TenPercent, false},
  };
  for (const PoolCase& k : cases) {
    const std::string where = k.program.filename().string() + " " + k.model + " " + k.header;
    const std::string header = Header(k.program, k.model + " " + k.header);
    ExpectEachMacroOnce(header);
    EXPECT_EQ(header.find("PLANNED_BUFFER_0"), std::string::npos) << where;
    fs::path object;
    // -fno-toplevel-reorder: gcc keeps unreferenced static arrays (a second copy included).
    const std::string keep = " -O0 -fno-toplevel-reorder";
    const Compiler on{c.command + keep + " -DETMEM_DEFINE_BOARD_POOLS", c.standard, c.extension};
    // A declaration of its own: C forbids an empty unit, which it is when no pool is defined.
    const std::string unit = "#include \"etmem_pools.h\"\ntypedef int etmem_check_unit;\n";
    CliRun r = Compile(on, header, unit, &object);
    ASSERT_EQ(r.exit_code, 0) << where << "\n" << r.err << "\n" << header;
    EXPECT_TRUE(r.err.empty()) << r.err;
    std::string listing;
    const uint64_t arrays = ArrayBytes(nm, object, &listing);
    EXPECT_EQ(arrays, k.arrays ? PoolBytes(k.program, k.model, k.margin_of) : 0)
        << where << "\n" << listing << header;
    if (k.header.find("--define-pools") == std::string::npos) {  // off unless asked for
      CliRun off = Compile({c.command + keep, c.standard, c.extension}, header, unit, &object);
      ASSERT_EQ(off.exit_code, 0) << off.err;
      EXPECT_EQ(ArrayBytes(nm, object, &listing), 0u) << where;
    }
  }
}

TEST(Header, EachPoolDeclaredOnceWithEveryMacroOnHostGcc) {
  if (!HaveTool("gcc") || !HaveTool("g++") || !HaveTool("nm")) GTEST_SKIP() << "no gcc/nm";
  ExpectEachPoolDeclaredOnce({"g++", "-std=c++17", ".cpp"}, "nm");
  ExpectEachPoolDeclaredOnce({"gcc", "-std=c99", ".c"}, "nm");
}

TEST(Header, EachPoolDeclaredOnceWithEveryMacroOnArmNoneEabi) {
  if (!HaveTool("arm-none-eabi-gcc") || !HaveTool("arm-none-eabi-nm"))
    GTEST_SKIP() << "arm-none-eabi-gcc/nm not installed";
  ExpectEachPoolDeclaredOnce({"arm-none-eabi-gcc -mcpu=cortex-m4 -mthumb", "-std=c99", ".c"},
                             "arm-none-eabi-nm");
}

// With a board the margin is in the placement too: one size for the method pool, the board's
// region and attributes named as that size's macro; the comment says what the temp pool is.
TEST(Header, TheBoardPlacesTheHeadersOwnSizes) {
  const fs::path program = MotivatingCnnFile();
  const std::string h =
      Header(program, "--runtime 0.3 --board stm32wb55 --margin 10% --define-pools");
  const Macros m = ParseDefines(h);
  for (const char* name : {"ETMEM_FORWARD_METHOD_POOL_REGION", "ETMEM_FORWARD_METHOD_POOL_ATTRIBUTES",
                           "ETMEM_FORWARD_PLANNED_BUFFER_1_REGION",
                           "ETMEM_FORWARD_PLANNED_BUFFER_1_ATTRIBUTES"})
    EXPECT_TRUE(m.count(name)) << name << "\n" << h;
  EXPECT_FALSE(m.count("ETMEM_METHOD_ALLOCATOR_POOL_BYTES")) << h;
  EXPECT_NE(h.find("static uint8_t etmem_forward_method_pool[ETMEM_FORWARD_METHOD_POOL_BYTES]\n"
                   "    ETMEM_FORWARD_METHOD_POOL_ATTRIBUTES"),
            std::string::npos)
      << h;
  EXPECT_EQ(h.find("covers load_method only"), std::string::npos) << h;
  const std::string temp = Header(program, "--temp nonnull --define-pools");
  EXPECT_NE(temp.find("the larger"), std::string::npos) << temp;
  EXPECT_NE(temp.find("etmem_forward_temp_pool[ETMEM_FORWARD_TEMP_POOL_BYTES]"), std::string::npos)
      << temp;
}

}  // namespace header_test
}  // namespace etmem::test
