// Owns: the worst-case stack (src/etmem/stack/, `etmem firmware`'s stack section) on our own
// Cortex-M programs, compiled here with arm-none-eabi-gcc (a test is skipped, saying so, when
// the compiler or QEMU is absent): tests/stack/chains.c at -O0, -Os and -O2 with -fstack-usage.
// Every frame read from the disassembly must equal GCC's .su size; each bound must equal the sum
// of GCC's frames along the chain the source makes; recursion, alloca and the indirect calls
// through a registry-shaped table must be named; under QEMU (mps2-an386) with the stack painted
// the bound must hold the measured high-water and lie within 25 % + 256 B of it.
// tests/stack/fake_runtime.cpp gives functions named as ExecuTorch's entries for the CLI.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <sstream>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "etmem/elf/elf_reader.h"
#include "etmem/firmware/declared_stack.h"
#include "etmem/firmware/dtype_pruning.h"
#include "etmem/firmware/stack_entries.h"
#include "etmem/pte/read_program.h"
#include "etmem/runtime/release.h"
#include "etmem/stack/call_graph.h"
#include "etmem/stack/gcc_facts.h"
#include "etmem/testing/scenarios.h"
#include "etmem_cli.h"

namespace etmem::test {
namespace stack_test {

const fs::path kSources = fs::path(ETMEM_SOURCE_DIR) / "tests/stack";
const char* kCc = "arm-none-eabi-gcc";
const char* kArch = "-mcpu=cortex-m4 -mthumb";

#define SKIP_WITHOUT_CC() \
  if (!HaveTool(kCc)) GTEST_SKIP() << kCc << " is not installed: no image to build"

struct Built {
  fs::path dir, elf;
  std::map<std::string, uint64_t> su;  // chains.c's functions: GCC's frame sizes
};

// chains.c at `opt` with -fstack-usage, linked with the QEMU start-up code (always -O2).
Built Build(const std::string& opt) {
  Built b;
  b.dir = TempPath("stack_" + opt);
  fs::create_directories(b.dir);
  b.elf = b.dir / "chains.elf";
  const std::string d = b.dir.string();
  const std::string cmd =
      std::string("cd ") + d + " && " + kCc + " " + kArch + " -" + opt +
      " -fstack-usage -ffreestanding -nostdlib -c " + (kSources / "chains.c").string() +
      " -o chains.o && " + kCc + " " + kArch + " -O2 -fstack-usage -ffreestanding -nostdlib -c " +
      (kSources / "qemu_main.c").string() + " -o qemu_main.o && " + kCc + " " + kArch +
      " -nostdlib -T " + (kSources / "qemu.ld").string() + " chains.o qemu_main.o -lgcc -o " +
      b.elf.string();
  const CliRun r = Shell(cmd);
  EXPECT_EQ(r.exit_code, 0) << cmd << "\n" << r.err;
  auto facts = stack::ParseStackUsage(ReadFile(b.dir / "chains.su"), "chains.su");
  EXPECT_TRUE(facts.has_value());
  if (facts)
    for (const stack::FrameFact& f : *facts) b.su[f.function] = f.bytes;
  return b;
}

stack::CallGraph Graph(const Built& b) {
  auto image = elf::ReadExecutableFile(b.elf.string());
  EXPECT_TRUE(image.has_value()) << (image ? "" : image.error().message);
  auto g = stack::ReadCallGraph(*image);
  EXPECT_TRUE(g.has_value()) << (g ? "" : g.error().message);
  return *g;
}

size_t Fn(const stack::CallGraph& g, const std::string& name) {
  const auto found = g.Find(name);
  EXPECT_EQ(found.size(), 1u) << name;
  return found.empty() ? 0 : found[0];
}

const stack::CallSite* SiteTo(const stack::CallGraph& g, const std::string& from,
                              const std::string& to) {
  const size_t t = Fn(g, to);
  for (const stack::CallSite& s : g.functions[Fn(g, from)].sites)
    if (s.kind != stack::SiteKind::kIndirect && s.target == g.functions[t].address) return &s;
  return nullptr;
}

const stack::CallSite* IndirectSite(const stack::CallGraph& g, const std::string& from) {
  for (const stack::CallSite& s : g.functions[Fn(g, from)].sites)
    if (s.kind == stack::SiteKind::kIndirect) return &s;
  return nullptr;
}

// The registry-shaped table's functions: what a resolution of execute's indirect call is (a
// program calling both operators, or only some).
stack::Resolution ResolveExecute(const stack::CallGraph& g,
                                 const std::vector<std::string>& kernels = {"kernel_small",
                                                                           "kernel_big"}) {
  stack::Resolution r;
  if (const stack::CallSite* s = IndirectSite(g, "execute"))
    for (const std::string& k : kernels) r[s->address].push_back(g.functions[Fn(g, k)].address);
  return r;
}

class StackChains : public ::testing::TestWithParam<std::string> {};

TEST_P(StackChains, EveryFrameFromTheDisassemblyIsGccsOwnSize) {
  SKIP_WITHOUT_CC();
  const Built b = Build(GetParam());
  ASSERT_GE(b.su.size(), 10u);
  const stack::CallGraph g = Graph(b);
  for (const auto& [name, bytes] : b.su) {
    const stack::Function& f = g.functions[Fn(g, name)];
    EXPECT_EQ(f.frame, bytes) << name << " at -" << GetParam();
  }
}

TEST_P(StackChains, AChainsBoundIsTheSumOfItsFrames) {
  SKIP_WITHOUT_CC();
  Built b = Build(GetParam());
  const stack::CallGraph g = Graph(b);
  const stack::Bound top = stack::WorstCase(g, {Fn(g, "top")}, {});
  EXPECT_TRUE(top.complete);
  EXPECT_EQ(top.bytes, b.su["top"] + b.su["mid"] + b.su["leaf"]);
  ASSERT_EQ(top.path.size(), 3u);
  EXPECT_EQ(top.path[0].function, "top");
  EXPECT_EQ(top.path[1].function, "mid");
  EXPECT_EQ(top.path[2].function, "leaf");
  EXPECT_EQ(top.path[2].depth, b.su["top"] + b.su["mid"]);

  // tail -> mid: a sibling call (b.w) leaves tail's frame first; a bl keeps it.
  const stack::CallSite* s = SiteTo(g, "tail", "mid");
  ASSERT_NE(s, nullptr);
  const stack::Bound tail = stack::WorstCase(g, {Fn(g, "tail")}, {});
  if (s->kind == stack::SiteKind::kTail)
    EXPECT_EQ(tail.bytes, std::max(b.su["tail"], b.su["mid"] + b.su["leaf"]));
  else
    EXPECT_EQ(tail.bytes, b.su["tail"] + b.su["mid"] + b.su["leaf"]);
}

TEST_P(StackChains, RecursionAllocaAndIndirectCallsAreNamed) {
  SKIP_WITHOUT_CC();
  Built b = Build(GetParam());
  const stack::CallGraph g = Graph(b);
  const stack::Bound rec = stack::WorstCase(g, {Fn(g, "rec")}, {});
  EXPECT_FALSE(rec.complete);
  ASSERT_EQ(rec.recursion.size(), 1u);
  EXPECT_NE(rec.recursion[0].find("rec calls itself"), std::string::npos) << rec.recursion[0];
  EXPECT_EQ(rec.bytes, 2 * b.su["rec"]);  // one call of the cycle counted

  const stack::Bound dyn = stack::WorstCase(g, {Fn(g, "dyn")}, {});
  EXPECT_FALSE(dyn.complete);
  ASSERT_EQ(dyn.dynamic.size(), 1u);
  EXPECT_NE(dyn.dynamic[0].find("sp, r"), std::string::npos) << dyn.dynamic[0];
  EXPECT_NE(dyn.dynamic[0].find("in dyn"), std::string::npos) << dyn.dynamic[0];

  const stack::Bound ex = stack::WorstCase(g, {Fn(g, "execute")}, {});
  EXPECT_FALSE(ex.complete);
  ASSERT_EQ(ex.unresolved.size(), 1u);
  EXPECT_NE(ex.unresolved[0].find("in execute"), std::string::npos) << ex.unresolved[0];
  EXPECT_EQ(ex.bytes, b.su["execute"]);

  // Resolved through the table: the deepest kernel, kernel_big -> leaf.
  const stack::Bound resolved = stack::WorstCase(g, {Fn(g, "execute")}, ResolveExecute(g));
  EXPECT_TRUE(resolved.complete);
  EXPECT_EQ(resolved.resolved_sites, 1u);
  EXPECT_EQ(resolved.bytes, b.su["execute"] + b.su["kernel_big"] + b.su["leaf"]);
  ASSERT_EQ(resolved.path.size(), 3u);
  EXPECT_EQ(resolved.path[1].function, "kernel_big");
  EXPECT_EQ(resolved.path[1].via, "indirect (resolved)");
}

TEST_P(StackChains, GccsFramesAppliedGiveTheSameBounds) {
  SKIP_WITHOUT_CC();
  Built b = Build(GetParam());
  stack::CallGraph g = Graph(b);
  const uint64_t before = stack::WorstCase(g, {Fn(g, "top")}, {}).bytes;
  auto facts = stack::ReadFactsDirectory(b.dir.string());
  ASSERT_TRUE(facts.has_value()) << facts.error().message;
  const stack::Applied a = stack::ApplyFacts(g, *facts);
  EXPECT_EQ(a.unmatched, 0u);
  EXPECT_EQ(a.functions, a.facts);
  EXPECT_EQ(g.functions[Fn(g, "leaf")].frame_source, ".su");
  EXPECT_EQ(stack::WorstCase(g, {Fn(g, "top")}, {}).bytes, before);
}

// Under QEMU: the bound holds what the code really takes, and is close to it.
TEST_P(StackChains, TheBoundHoldsTheHighWaterMeasuredInQemu) {
  SKIP_WITHOUT_CC();
  if (!HaveTool("qemu-system-arm")) GTEST_SKIP() << "qemu-system-arm is not installed: nothing to run";
  const Built b = Build(GetParam());
  const CliRun run = Shell("timeout 60 qemu-system-arm -M mps2-an386 -nographic -monitor none "
                           "-semihosting-config enable=on,target=native -kernel " +
                           b.elf.string());
  std::map<std::string, uint64_t> measured;
  std::istringstream lines(run.out + run.err);  // semihosting writes to QEMU's stdout or stderr
  std::string name;
  uint64_t bytes = 0;
  while (lines >> name >> bytes) measured[name] = bytes;
  ASSERT_EQ(measured.size(), 4u) << run.out << run.err;
  const stack::CallGraph g = Graph(b);
  // Each run's execute calls one kernel: resolved as a program with that one operator would be.
  const std::map<std::string, std::pair<std::string, std::vector<std::string>>> entry = {
      {"top", {"call_top", {}}},
      {"tail", {"call_tail", {}}},
      {"execute_small", {"call_execute", {"kernel_small"}}},
      {"execute_big", {"call_execute", {"kernel_big"}}}};
  for (const auto& [what, how] : entry) {
    const stack::Bound bound = stack::WorstCase(g, {Fn(g, how.first)}, ResolveExecute(g, how.second));
    EXPECT_TRUE(bound.complete) << what;
    EXPECT_GE(bound.bytes, measured[what]) << what << " at -" << GetParam();
    EXPECT_LE(bound.bytes, measured[what] + measured[what] / 4 + 256) << what << " at -" << GetParam();
  }
}

INSTANTIATE_TEST_SUITE_P(Optimisation, StackChains, ::testing::Values("O0", "Os", "O2"));

TEST(StackGraph, AnImageOfAnotherArchitectureNamesWhatIsRead) {
  if (!HaveTool("riscv64-unknown-elf-gcc")) GTEST_SKIP() << "riscv64-unknown-elf-gcc is not installed";
  const fs::path dir = TempPath("stack_rv");
  fs::create_directories(dir);
  const fs::path elf = dir / "rv.elf";
  const CliRun r = Shell("riscv64-unknown-elf-gcc -march=rv32imac -mabi=ilp32 -O2 -nostdlib "
                         "-ffreestanding -Wl,-e,top " + (kSources / "chains.c").string() +
                         " -o " + elf.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto image = elf::ReadExecutableFile(elf.string());
  ASSERT_TRUE(image.has_value());
  auto g = stack::ReadCallGraph(*image);
  ASSERT_FALSE(g.has_value());
  EXPECT_NE(g.error().message.find("Arm (Thumb"), std::string::npos) << g.error().message;
  EXPECT_NE(g.error().message.find("RISC-V (ELF machine 243, ELF32)"), std::string::npos)
      << g.error().message;
}

// chains.c for RISC-V with GCC's files: the graph from them alone gives the sums of GCC's
// frames along the source's chains, names recursion and the indirect call with its source line.
TEST(StackGraph, ARiscvImagesGraphFromGccsFilesAlone) {
  if (!HaveTool("riscv64-unknown-elf-gcc")) GTEST_SKIP() << "riscv64-unknown-elf-gcc is not installed";
  const fs::path dir = TempPath("stack_rv_facts");
  fs::create_directories(dir);
  const fs::path elf = dir / "rv.elf";
  const CliRun r = Shell("cd " + dir.string() + " && riscv64-unknown-elf-gcc -march=rv32imac "
                         "-mabi=ilp32 -O2 -nostdlib -ffreestanding -fstack-usage "
                         "-fcallgraph-info=su -Wl,-e,top -c " + (kSources / "chains.c").string() +
                         " -o chains.o && riscv64-unknown-elf-gcc -march=rv32imac -mabi=ilp32 "
                         "-nostdlib -Wl,-e,top chains.o -lgcc -o " + elf.string());
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto image = elf::ReadExecutableFile(elf.string());
  ASSERT_TRUE(image.has_value());
  std::vector<stack::CallFact> calls;
  auto facts = stack::ReadFactsDirectory(dir.string(), &calls);
  ASSERT_TRUE(facts.has_value()) << facts.error().message;
  ASSERT_FALSE(calls.empty());
  std::map<std::string, uint64_t> su;
  for (const stack::FrameFact& f : *facts)
    if (f.symbol.empty()) su[f.function] = f.bytes;
  const stack::CallGraph g = stack::CallGraphFromFacts(*image, *facts, calls, "RISC-V");
  for (const std::string name : {"top", "mid", "leaf"}) {
    EXPECT_EQ(g.functions[Fn(g, name)].frame, su[name]) << name;
    EXPECT_EQ(g.functions[Fn(g, name)].frame_source, ".ci") << name;
    EXPECT_TRUE(g.functions[Fn(g, name)].read) << name;
  }
  const stack::Bound top = stack::WorstCase(g, {Fn(g, "top")}, {});
  EXPECT_TRUE(top.complete);
  EXPECT_EQ(top.bytes, su["top"] + su["mid"] + su["leaf"]);
  ASSERT_EQ(top.path.size(), 3u);
  EXPECT_EQ(top.path[2].function, "leaf");
  // tail -> mid: every .ci call keeps the caller's frame (an upper bound for a sibling call).
  EXPECT_EQ(stack::WorstCase(g, {Fn(g, "tail")}, {}).bytes, su["tail"] + su["mid"] + su["leaf"]);
  const stack::Bound rec = stack::WorstCase(g, {Fn(g, "rec")}, {});
  EXPECT_FALSE(rec.complete);
  ASSERT_EQ(rec.recursion.size(), 1u);
  EXPECT_EQ(rec.bytes, 2 * su["rec"]);
  const stack::Bound ex = stack::WorstCase(g, {Fn(g, "execute")}, {});
  EXPECT_FALSE(ex.complete);
  ASSERT_EQ(ex.unresolved.size(), 1u);
  EXPECT_NE(ex.unresolved[0].find("an indirect call at "), std::string::npos) << ex.unresolved[0];
  EXPECT_NE(ex.unresolved[0].find("chains.c:"), std::string::npos) << ex.unresolved[0];
  EXPECT_NE(ex.unresolved[0].find(" in execute"), std::string::npos) << ex.unresolved[0];
  // Resolved through the table as a program calling both kernels: the deeper one counts.
  stack::Resolution both;
  for (const stack::CallSite& site : g.functions[Fn(g, "execute")].sites)
    if (site.kind == stack::SiteKind::kIndirect)
      for (const std::string k : {"kernel_small", "kernel_big"})
        both[site.address].push_back(g.functions[Fn(g, k)].address);
  const stack::Bound resolved = stack::WorstCase(g, {Fn(g, "execute")}, both);
  EXPECT_TRUE(resolved.complete);
  EXPECT_EQ(resolved.bytes, su["execute"] + std::max(su["kernel_big"] + su["leaf"], su["kernel_small"]));
  // Without the .ci files nothing's calls are seen: every function reached is named.
  auto su_only = stack::ParseStackUsage(ReadFile(dir / "chains.su"), "chains.su");
  ASSERT_TRUE(su_only.has_value());
  const stack::CallGraph bare = stack::CallGraphFromFacts(*image, *su_only, {}, "RISC-V");
  const stack::Bound alone = stack::WorstCase(bare, {Fn(bare, "top")}, {});
  EXPECT_FALSE(alone.complete);
  EXPECT_EQ(alone.bytes, su["top"]);
  EXPECT_EQ(alone.unread, std::vector<std::string>{"top"});
}

// ---- `etmem firmware`: the stack section of an image with ExecuTorch's entry names ----

struct Firmware {
  fs::path elf, su_dir;
  std::map<std::string, uint64_t> su;  // fake_runtime.cpp's frames, by GCC's printable name
};

// runner_pools.cpp and fake_runtime.cpp, with -fstack-usage and `flags`, by `cc` for `arch`.
// `program`: the embedded program (default: the motivating CNN).
Firmware LinkFirmware(const std::string& cc = "arm-none-eabi-g++", const std::string& arch = kArch,
                      const std::string& stem = "stack_fw", const std::string& flags_more = "",
                      const std::string& link_more = "",
                      std::optional<std::vector<uint8_t>> embedded = std::nullopt) {
  Firmware f;
  const fs::path dir = TempPath(stem);
  fs::create_directories(dir);
  f.su_dir = dir;
  const auto program = embedded ? *embedded : testing::MotivatingCnn().Build();
  std::string header =
      "__attribute__((section(\"network_model_sec\"), aligned(16))) unsigned char model_pte[] = {";
  for (size_t i = 0; i < program.size(); ++i) header += (i ? "," : "") + std::to_string(program[i]);
  std::ofstream(dir / "model_pte.h") << header << "};\n";
  f.elf = dir / "fw.elf";
  const fs::path fw = fs::path(ETMEM_SOURCE_DIR) / "tests/firmware";
  const std::string flags = arch +
                            " -O2 -ffreestanding -fno-exceptions -fno-rtti -nostdlib -fstack-usage " +
                            flags_more;
  const std::string cmd =
      "cd " + dir.string() + " && " + cc + " " + flags +
      " -DRUNNER_ARM_BAREMETAL -DMETHOD_POOL_BYTES=65536 -DTEMP_POOL_BYTES=2048 -I" + dir.string() +
      " -c " + (fw / "runner_pools.cpp").string() + " -o runner_pools.o && " + cc + " " +
      flags + " -c " + (kSources / "fake_runtime.cpp").string() +
      " -o fake_runtime.o && " + cc + " " + arch + " -nostdlib runner_pools.o fake_runtime.o -T " +
      (fw / "firmware.ld").string() + " -Wl,--defsym=POOL_SKIP=0x100 " + link_more + " -o " +
      f.elf.string();
  const CliRun r = Shell(cmd);
  EXPECT_EQ(r.exit_code, 0) << cmd << "\n" << r.err;
  auto facts = stack::ParseStackUsage(ReadFile(dir / "fake_runtime.su"), "fake_runtime.su");
  EXPECT_TRUE(facts.has_value());
  if (facts)
    for (const stack::FrameFact& x : *facts) f.su[x.function] = x.bytes;
  return f;
}

const nlohmann::json& StackEntry(const nlohmann::json& j, const std::string& entry) {
  for (const nlohmann::json& e : j.at("stack").at("entries"))
    if (e.at("entry") == entry) return e;
  static const nlohmann::json none;
  ADD_FAILURE() << "no stack entry " << entry;
  return none;
}

TEST(FirmwareStack, LoadAndExecuteOfAnImageWithExecuTorchsEntryNames) {
  if (!HaveTool("arm-none-eabi-g++")) GTEST_SKIP() << "arm-none-eabi-g++ is not installed";
  Firmware f = LinkFirmware();
  const uint64_t parse = f.su["int executorch::runtime::parse_tensor(int)"];
  const uint64_t init = f.su["int executorch::runtime::init_method(int)"];
  const uint64_t load_method = f.su["int executorch::runtime::Program::load_method(const char*) const"];
  const uint64_t execute = f.su["int executorch::runtime::Method::execute()"];
  const uint64_t conv = f.su["int executorch::runtime::op_conv(int)"];
  // The add kernel is the deeper one: a bound through every record would take it.
  ASSERT_GT(f.su["int executorch::runtime::op_add(int)"], conv + parse);
  ASSERT_GT(parse, 0u);
  ASSERT_GT(load_method, 0u);
  for (const std::string& extra : std::vector<std::string>{"", " --stack-usage " + f.su_dir.string()}) {
    const CliRun r = Etmem("firmware " + f.elf.string() + " --runtime 1.4.1 --format json" + extra);
    ASSERT_FALSE(r.out.empty()) << r.err;
    const nlohmann::json j = nlohmann::json::parse(r.out);
    const nlohmann::json& load = StackEntry(j, "load");
    EXPECT_TRUE(load.at("exact").get<bool>()) << load.dump(1);
    EXPECT_EQ(load.at("bytes"), load_method + init + parse) << load.dump(1);
    EXPECT_EQ(load.at("functions").size(), 2u);
    EXPECT_EQ(load.at("path").at(0).at("function"),
              "executorch::runtime::Program::load_method(char const*) const");
    EXPECT_EQ(load.at("path").at(0).at("frame_source"), extra.empty() ? "disassembly" : ".su");
    // execute: the kernel call reaches the convolution's kernel through its registry record,
    // not the deeper add kernel the program never calls; the CNN's other operators have no
    // record here, so the bound is a lower bound that names them.
    const nlohmann::json& ex = StackEntry(j, "execute");
    EXPECT_FALSE(ex.at("exact").get<bool>());
    EXPECT_EQ(ex.at("bytes"), execute + conv + parse) << ex.dump(1);
    EXPECT_EQ(ex.at("path").at(1).at("function"), "executorch::runtime::op_conv(int)");
    EXPECT_EQ(ex.at("path").at(1).at("via"), "indirect (resolved)");
    EXPECT_EQ(ex.at("resolved_sites"), 1);
    bool conv_resolved = false, relu_named = false;
    for (const auto& r : ex.at("resolved"))
      conv_resolved = conv_resolved || r.get<std::string>().starts_with(
                                           "aten::convolution.out -> executorch::runtime::op_conv(int)");
    for (const auto& u : ex.at("unresolved"))
      relu_named = relu_named || u.get<std::string>() ==
                                     "operator aten::relu.out: no kernel record with this name in the image";
    EXPECT_TRUE(conv_resolved) << ex.dump(1);
    EXPECT_TRUE(relu_named) << ex.dump(1);
    EXPECT_EQ(ex.at("methods"), nlohmann::json::array({"forward"}));
    EXPECT_FALSE(j.at("stack").at("judged").get<bool>());
    // The runner's main never calls the runtime here: its bound names no kernel.
    const nlohmann::json& main = StackEntry(j, "main");
    EXPECT_EQ(main.at("resolved_sites"), 0);
    EXPECT_TRUE(main.at("unresolved").empty()) << main.dump(1);
  }
  const CliRun text = Etmem("firmware " + f.elf.string() + " --runtime 1.4.1");
  EXPECT_NE(text.out.find("worst-case stack"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find(fmt::format("  load: {} B", load_method + init + parse)), std::string::npos)
      << text.out;
  EXPECT_NE(text.out.find(fmt::format("  execute: at least {} B", execute + conv + parse)), std::string::npos)
      << text.out;
}

// A RISC-V image: no disassembly (capstone 4 has none), so without GCC's files the section names
// what is read; with them (-fstack-usage -fcallgraph-info=su) load and execute get bounds.
TEST(FirmwareStack, ARiscvImageGetsABoundFromGccsFiles) {
  if (!HaveTool("riscv64-unknown-elf-g++")) GTEST_SKIP() << "riscv64-unknown-elf-g++ is not installed";
  Firmware f = LinkFirmware("riscv64-unknown-elf-g++", "-march=rv32imac -mabi=ilp32", "stack_rv_fw",
                            "-fcallgraph-info=su");
  const uint64_t parse = f.su["int executorch::runtime::parse_tensor(int)"];
  const uint64_t init = f.su["int executorch::runtime::init_method(int)"];
  const uint64_t load = f.su["static int executorch::runtime::Program::load(executorch::runtime::DataLoader*, int)"];
  const uint64_t load_method = f.su["int executorch::runtime::Program::load_method(const char*) const"];
  const uint64_t execute = f.su["int executorch::runtime::Method::execute()"];
  const uint64_t conv = f.su["int executorch::runtime::op_conv(int)"];
  ASSERT_GT(parse, 0u);
  ASSERT_GT(load_method, 0u);

  const CliRun none = Etmem("firmware " + f.elf.string() + " --runtime 1.4.1 --format json");
  ASSERT_FALSE(none.out.empty()) << none.err;
  const nlohmann::json n = nlohmann::json::parse(none.out);
  const std::string why = n.at("stack").at("not_read").get<std::string>();
  for (const char* part : {"RISC-V (ELF machine 243, ELF32)", "etmem reads Arm (Thumb", "--stack-usage DIR"})
    EXPECT_NE(why.find(part), std::string::npos) << part << " in " << why;
  EXPECT_TRUE(n.at("stack").at("entries").empty());
  const CliRun none_text = Etmem("firmware " + f.elf.string() + " --runtime 1.4.1");
  EXPECT_NE(none_text.out.find("  " + why + "\n"), std::string::npos) << none_text.out;
  EXPECT_EQ(none_text.exit_code, none.exit_code);

  const CliRun r = Etmem("firmware " + f.elf.string() + " --runtime 1.4.1 --format json --stack-usage " +
                         f.su_dir.string());
  ASSERT_FALSE(r.out.empty()) << r.err;
  EXPECT_EQ(r.exit_code, none.exit_code);
  const nlohmann::json j = nlohmann::json::parse(r.out);
  EXPECT_TRUE(j.at("stack").at("not_read").is_null());
  EXPECT_NE(j.at("stack").at("frames").get<std::string>().find("is not read"), std::string::npos);
  const nlohmann::json& l = StackEntry(j, "load");
  EXPECT_TRUE(l.at("exact").get<bool>()) << l.dump(1);
  EXPECT_EQ(l.at("bytes"), std::max(load, load_method + init + parse)) << l.dump(1);
  EXPECT_EQ(l.at("path").at(0).at("frame_source"), ".ci");
  const nlohmann::json& ex = StackEntry(j, "execute");
  EXPECT_FALSE(ex.at("exact").get<bool>());  // the CNN's other operators have no record
  EXPECT_EQ(ex.at("bytes"), execute + conv + parse) << ex.dump(1);
  EXPECT_EQ(ex.at("path").at(1).at("function"), "executorch::runtime::op_conv(int)");
  EXPECT_EQ(ex.at("path").at(1).at("via"), "indirect (resolved)");
  EXPECT_EQ(ex.at("resolved_sites"), 1);
  // The kernel call is named by its source line (the .ci edge's), not by an address.
  EXPECT_TRUE(ex.at("resolved").at(0).get<std::string>().starts_with("an indirect call at ")) << ex.dump(1);
  EXPECT_NE(ex.at("resolved").at(0).get<std::string>().find("fake_runtime.cpp:"), std::string::npos)
      << ex.dump(1);
  const CliRun text = Etmem("firmware " + f.elf.string() + " --runtime 1.4.1 --stack-usage " + f.su_dir.string());
  EXPECT_NE(text.out.find(fmt::format("  load: {} B", std::max(load, load_method + init + parse))),
            std::string::npos) << text.out;

  // The .su files alone tell no calls: each entry's own frame, at least, its functions named.
  const fs::path su_only = TempPath("stack_rv_su_only");
  fs::create_directories(su_only);
  for (const auto& e : fs::directory_iterator(f.su_dir))
    if (e.path().extension() == ".su") fs::copy_file(e.path(), su_only / e.path().filename(),
                                                      fs::copy_options::overwrite_existing);
  const CliRun bare = Etmem("firmware " + f.elf.string() + " --runtime 1.4.1 --format json --stack-usage " +
                            su_only.string());
  ASSERT_FALSE(bare.out.empty()) << bare.err;
  const nlohmann::json bj = nlohmann::json::parse(bare.out);
  const nlohmann::json& bl = StackEntry(bj, "load");
  EXPECT_FALSE(bl.at("exact").get<bool>());
  EXPECT_EQ(bl.at("bytes"), std::max(load, load_method)) << bl.dump(1);
  EXPECT_FALSE(bl.at("unread").empty()) << bl.dump(1);
}

// ---- the stack the image declares ----

elf::ObjectFile WithSymbols(const std::vector<std::pair<std::string, uint64_t>>& symbols) {
  elf::ObjectFile o;
  for (const auto& [name, value] : symbols) {
    elf::Symbol s;
    s.name = name;
    s.value = value;
    s.binding = 1;
    s.section = 0xfff1;  // SHN_ABS, as a linker script's assignment is
    o.symbols.push_back(s);
  }
  return o;
}

TEST(DeclaredStack, EachConventionAndItsOrder) {
  EXPECT_FALSE(firmware::DeclaredStack(WithSymbols({{"_estack", 0x20020000}})).has_value())
      << "_estack alone (STM32) is the top of RAM, no size";
  EXPECT_FALSE(firmware::DeclaredStack(WithSymbols({})).has_value());
  const auto cmsis = firmware::DeclaredStack(
      WithSymbols({{"__STACK_SIZE", 0x8000}, {"__StackLimit", 0x20078000}, {"__StackTop", 0x20080000}}));
  ASSERT_TRUE(cmsis.has_value());
  EXPECT_EQ(cmsis->bytes, 0x8000u);
  EXPECT_EQ(cmsis->symbols, "__StackTop - __StackLimit = 0x20080000 - 0x20078000");
  EXPECT_EQ(cmsis->others, std::vector<std::string>{"32768 B (__STACK_SIZE = 0x8000)"});
  const auto asf = firmware::DeclaredStack(WithSymbols({{"_sstack", 0x20000100}, {"_estack", 0x20000500}}));
  ASSERT_TRUE(asf.has_value());
  EXPECT_EQ(asf->bytes, 0x400u);
  const auto sifive = firmware::DeclaredStack(WithSymbols({{"__stack_size", 0x800}}));
  ASSERT_TRUE(sifive.has_value());
  EXPECT_EQ(sifive->bytes, 0x800u);
  EXPECT_NE(sifive->meaning.find("RISC-V"), std::string::npos);
  const auto st = firmware::DeclaredStack(WithSymbols({{"_estack", 0x20020000}, {"_Min_Stack_Size", 0x400}}));
  ASSERT_TRUE(st.has_value());
  EXPECT_EQ(st->bytes, 0x400u);
  EXPECT_NE(st->meaning.find("STM32CubeIDE"), std::string::npos);
  // A "region" whose top is not above its bottom is none; an undefined symbol is none.
  EXPECT_FALSE(firmware::DeclaredStack(WithSymbols({{"__StackTop", 0x100}, {"__StackLimit", 0x200}})).has_value());
  elf::ObjectFile undefined = WithSymbols({{"__STACK_SIZE", 0x400}});
  undefined.symbols[0].section = 0;
  EXPECT_FALSE(firmware::DeclaredStack(undefined).has_value());
}

// The fake runtime's image with a record for every operator of the CNN (all to op_conv), so that
// execute's bound is exact, and `link` (the declared stack) on the link line.
Firmware LinkWithEveryRecord(const std::string& stem, const std::string& link) {
  const fs::path records = TempPath(stem + "_records.cpp");
  std::string table;
  Firmware plain = LinkFirmware("arm-none-eabi-g++", kArch, stem + "_plain");
  const CliRun r = Etmem("firmware " + plain.elf.string() + " --runtime 1.4.1 --format json");
  const nlohmann::json j = nlohmann::json::parse(r.out);
  const std::string prefix = "operator ", suffix = ": no kernel record with this name in the image";
  for (const auto& u : StackEntry(j, "execute").at("unresolved")) {
    const std::string line = u.get<std::string>();
    if (line.starts_with(prefix) && line.ends_with(suffix))
      table += "{\"" + line.substr(prefix.size(), line.size() - prefix.size() - suffix.size()) +
               "\", nullptr, op_conv},";
  }
  EXPECT_FALSE(table.empty()) << r.out;
  std::ofstream(records) << "namespace executorch { namespace runtime {\n"
                            "int op_conv(int);\n"
                            "struct Kernel { const char* name; const char* key; int (*op)(int); };\n"
                            "extern const Kernel more_kernels[] = {" << table << "};\n}}\n";
  return LinkFirmware("arm-none-eabi-g++", kArch, stem, "", records.string() + " " + link);
}

struct Judged {
  int exit_code = -1;
  nlohmann::json j;
  std::string text;
};
Judged JudgeImage(const Firmware& f) {
  Judged out;
  const CliRun r = Etmem("firmware " + f.elf.string() + " --runtime 1.4.1 --format json");
  out.exit_code = r.exit_code;
  if (!r.out.empty()) out.j = nlohmann::json::parse(r.out);
  const CliRun t = Etmem("firmware " + f.elf.string() + " --runtime 1.4.1");
  EXPECT_EQ(t.exit_code, r.exit_code);
  out.text = t.out;
  return out;
}

TEST(FirmwareStack, JudgedAgainstTheStackTheImageDeclares) {
  if (!HaveTool("arm-none-eabi-g++")) GTEST_SKIP() << "arm-none-eabi-g++ is not installed";
  // No declaration: information only; the exit status is the pools'.
  const Judged none = JudgeImage(LinkWithEveryRecord("stack_decl_none", ""));
  ASSERT_EQ(none.exit_code, 0) << none.text;
  EXPECT_FALSE(none.j.at("stack").at("judged").get<bool>());
  EXPECT_TRUE(none.j.at("stack").at("declared").is_null());
  const nlohmann::json& ram = none.j.at("ram").at(0);
  ASSERT_TRUE(ram.at("stack_bytes").is_number()) << ram.dump(1);
  const uint64_t bound = ram.at("stack_bytes").get<uint64_t>();
  ASSERT_GT(bound, 0u);
  for (const char* entry : {"load", "execute", "main"})
    EXPECT_TRUE(StackEntry(none.j, entry).at("exact").get<bool>()) << entry;

  // Exactly the bound (CMSIS's __STACK_SIZE): fits, 0 B to spare.
  const Judged exact = JudgeImage(
      LinkWithEveryRecord("stack_decl_exact", fmt::format("-Wl,--defsym=__STACK_SIZE={}", bound)));
  EXPECT_EQ(exact.exit_code, 0) << exact.text;
  EXPECT_TRUE(exact.j.at("stack").at("judged").get<bool>());
  EXPECT_EQ(exact.j.at("stack").at("declared").at("bytes"), bound);
  EXPECT_EQ(exact.j.at("stack").at("verdicts").at(0).at("verdict"), "fits");
  EXPECT_EQ(exact.j.at("verdict"), "fits");
  EXPECT_NE(exact.text.find(fmt::format("method 'forward': fits: {} B of {} B, 0 B to spare", bound, bound)),
            std::string::npos) << exact.text;
  EXPECT_NE(exact.text.find("verdict: fits\n"), std::string::npos) << exact.text;

  // One byte less (the CMSIS region __StackTop - __StackLimit): does not fit, exit 1.
  const Judged over = JudgeImage(LinkWithEveryRecord(
      "stack_decl_over", fmt::format("-Wl,--defsym=__StackLimit=0x20070000 "
                                     "-Wl,--defsym=__StackTop=0x20070000+{}",
                                     bound - 1)));
  EXPECT_EQ(over.exit_code, 1) << over.text;
  EXPECT_EQ(over.j.at("verdict"), "does_not_fit");
  EXPECT_EQ(over.j.at("stack").at("declared").at("symbols"),
            fmt::format("__StackTop - __StackLimit = {:#x} - 0x20070000", 0x20070000 + bound - 1));
  EXPECT_NE(over.j.at("verdict_detail").at("step").get<std::string>().find(
                fmt::format("the worst-case stack takes {} B, 1 B more", bound)),
            std::string::npos) << over.j.at("verdict_detail").dump();
  EXPECT_NE(over.text.find("verdict: DOES NOT FIT\n"), std::string::npos) << over.text;

  // A lower bound (the CNN's other operators have no record): within the declared stack it is
  // unknown (exit 2, with the report); over it, it does not fit.
  const Firmware lower = LinkFirmware("arm-none-eabi-g++", kArch, "stack_decl_lower", "",
                                      "-Wl,--defsym=_Min_Stack_Size=0x100000");
  const Judged unknown = JudgeImage(lower);
  EXPECT_EQ(unknown.exit_code, 2) << unknown.text;
  EXPECT_EQ(unknown.j.at("verdict"), "unknown");
  EXPECT_FALSE(unknown.j.at("stack").at("verdicts").at(0).at("exact").get<bool>());
  EXPECT_NE(unknown.text.find("verdict: the pools fit; the stack is unknown"), std::string::npos)
      << unknown.text;
  const Judged small = JudgeImage(LinkFirmware("arm-none-eabi-g++", kArch, "stack_decl_small", "",
                                               "-Wl,--defsym=_Min_Stack_Size=16"));
  EXPECT_EQ(small.exit_code, 1) << small.text;
  EXPECT_NE(small.j.at("verdict_detail").at("step").get<std::string>().find("takes at least"),
            std::string::npos);
  // --no-stack: nothing to judge the declaration with; the pools decide.
  const CliRun no_stack = Etmem("firmware " + lower.elf.string() + " --runtime 1.4.1 --no-stack");
  EXPECT_EQ(no_stack.exit_code, 0) << no_stack.out;
}

TEST(FirmwareStack, ABadStackUsageFileIsOneLineNamingIt) {
  if (!HaveTool("arm-none-eabi-g++")) GTEST_SKIP() << "arm-none-eabi-g++ is not installed";
  Firmware f = LinkFirmware();
  const fs::path bad = TempPath("stack_bad_su");
  fs::create_directories(bad);
  std::ofstream(bad / "x.su") << "main.c:1:5:main\t12\tstatic\nmain.c:2:5:f\tlots\tstatic\n";
  const CliRun r = Etmem("firmware " + f.elf.string() + " --runtime 1.4.1 --stack-usage " + bad.string());
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_TRUE(r.out.empty());
  EXPECT_NE(r.err.find("x.su:2: the size 'lots' is not a byte count"), std::string::npos) << r.err;
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
}


// ---- pruning execute's bound by the program's dtypes (firmware/dtype_pruning.h) ----

TEST(DtypePruning, CxxTypesAsScalarTypes) {
  auto kind = [](const std::string& type, unsigned long_bits, std::vector<int8_t>* dtypes = nullptr) {
    std::vector<int8_t> d;
    const firmware::ArgumentKind k = firmware::ClassifyArgument(type, long_bits, d);
    if (dtypes) *dtypes = d;
    return k;
  };
  std::vector<int8_t> d;
  // int32_t is `long` on arm-none-eabi (ELF32) and int64_t is `long` on LP64 (ELF64).
  EXPECT_EQ(kind("long", 32, &d), firmware::ArgumentKind::kDtype);
  EXPECT_EQ(d, std::vector<int8_t>{testing::kInt32});
  kind("long", 64, &d);
  EXPECT_EQ(d, std::vector<int8_t>{testing::kInt64});
  kind("long long", 32, &d);
  EXPECT_EQ(d, std::vector<int8_t>{testing::kInt64});
  kind("float const*", 32, &d);
  EXPECT_EQ(d, std::vector<int8_t>{testing::kFloat32});
  kind("c10::Half", 32, &d);
  EXPECT_EQ(d, std::vector<int8_t>{5});
  kind("torch::executor::BFloat16", 32, &d);  // before 0.4
  EXPECT_EQ(d, std::vector<int8_t>{15});
  kind("c10::complex<float>", 32, &d);
  EXPECT_EQ(d, std::vector<int8_t>{9});
  kind("signed char", 32, &d);
  EXPECT_EQ(d, std::vector<int8_t>{testing::kChar});
  kind("unsigned char", 32, &d);
  EXPECT_EQ(d, std::vector<int8_t>{testing::kByte});
  // Maybe a dtype etmem does not map: kept.
  for (const char* unsure : {"char", "long double", "c10::qfoo", "c10::complex<c10::BFloat16>"})
    EXPECT_EQ(kind(unsure, 32), firmware::ArgumentKind::kUnsure) << unsure;
  // No dtype: a size type's class, an enum literal, a function pointer type, a lambda, a number.
  for (const char* neutral :
       {"executorch::runtime::ArrayRef<long long>", "(torch::executor::native::utils::SupportedTensorDtypes)3",
        "long long (*)(void const*)", "3", "true", "ns::Foo",
        "torch::executor::native::add_out(int)::{lambda(float, float)#1}"})
    EXPECT_EQ(kind(neutral, 32), firmware::ArgumentKind::kNeutral) << neutral;
}

// The dtypes a program's calls give each operator: its tensors', with the types the portable
// kernels compute in beside them; Scalar-like values apart.
TEST(DtypePruning, EachOperatorsDtypesFromItsCalls) {
  testing::ProgramBuilder program;
  testing::MethodBuilder& m = program.Method("forward");
  const int half = m.Tensor({.dtype = 5, .sizes = {4}, .placement = testing::Placement{1, 0}});
  const int boolean = m.Tensor({.dtype = testing::kBool, .sizes = {4}, .placement = testing::Placement{1, 16}});
  const int i32 = m.Tensor({.dtype = testing::kInt32, .sizes = {4}, .placement = testing::Placement{1, 32}});
  const int f32 = m.Tensor({.dtype = testing::kFloat32, .sizes = {4}, .placement = testing::Placement{1, 48}});
  const int one = m.Int(1), scale = m.Double(2.5);
  m.Inputs({half});
  m.Outputs({f32});
  const int relu = m.Operator("aten::relu", "out");        // float16 -> float32 computes
  const int add = m.Operator("aten::add", "Scalar_out");    // bool + 1 -> int64
  const int mul = m.Operator("aten::mul", "Scalar_out");    // int32 * 2.5 -> float32
  const int lists = m.Operator("aten::cat", "out");
  const int never = m.Operator("aten::never", "out");      // no call: not known
  m.KernelCall(relu, {half, half, half});
  m.KernelCall(add, {boolean, one, one, i32, i32});
  m.KernelCall(mul, {i32, scale, f32, f32});
  m.KernelCall(lists, {m.TensorList({i32, boolean}), one, f32, f32});
  m.PlannedBufferSizes({64});
  const std::vector<uint8_t> bytes = program.Build();
  auto view = pte::ReadProgramBytes(bytes, "dtypes.pte");
  ASSERT_TRUE(view.has_value()) << view.error().message;
  const auto d = firmware::OperatorDtypes(view->methods.at(0));
  ASSERT_EQ(d.size(), 5u);
  ASSERT_TRUE(d[relu] && d[add] && d[mul] && d[lists]);
  EXPECT_EQ(d[relu]->compute, (std::vector<int8_t>{5, testing::kFloat32}));
  EXPECT_TRUE(d[relu]->scalars.empty());
  EXPECT_EQ(d[add]->compute, (std::vector<int8_t>{testing::kInt32, testing::kInt64, testing::kBool}));
  EXPECT_EQ(d[add]->scalars, std::vector<int8_t>{testing::kInt64});
  EXPECT_EQ(d[mul]->compute, (std::vector<int8_t>{testing::kInt32, testing::kFloat32}));
  EXPECT_EQ(d[mul]->scalars, std::vector<int8_t>{testing::kFloat64});
  // A bool tensor and an Int value (here cat's dim): int64 too, as if the Int were a Scalar.
  EXPECT_EQ(d[lists]->compute,
            (std::vector<int8_t>{testing::kInt32, testing::kInt64, testing::kFloat32, testing::kBool}));
  EXPECT_FALSE(d[never].has_value());
}

// tests/stack/dtype_kernel.cpp's image (fake_runtime.cpp's Method::execute) under QEMU with the stack
// painted: one kernel call with float32, int32 and int64 tensors, at -O0, -Os and -O2. Each
// dtype's bound from the firmware stage (the kernel's record, the operator's dtypes) holds the
// measured high-water; the float32 and int32 bounds drop below the int64 instantiation's, the
// int64 bound keeps it; Less<long long>::operator< (a name etmem cannot read for dtypes) stays,
// named; a kernel whose dtypes are not known prunes nothing.
TEST(DtypePruning, EachDtypesBoundHoldsTheHighWaterMeasuredInQemu) {
  SKIP_WITHOUT_CC();
  if (!HaveTool("arm-none-eabi-g++")) GTEST_SKIP() << "arm-none-eabi-g++ is not installed";
  if (!HaveTool("qemu-system-arm")) GTEST_SKIP() << "qemu-system-arm is not installed: nothing to run";
  auto release = runtime::FindRelease("1.4.1");
  ASSERT_TRUE(release.has_value());
  for (const std::string opt : {"O0", "Os", "O2"}) {
    const fs::path dir = TempPath("stack_dtypes_" + opt);
    fs::create_directories(dir);
    const fs::path elf = dir / "dtypes.elf";
    const std::string cmd =
        "cd " + dir.string() + " && arm-none-eabi-g++ " + kArch + " -" + opt +
        " -ffreestanding -fno-exceptions -fno-rtti -nostdlib -DSTACK_QEMU -c " +
        (kSources / "dtype_kernel.cpp").string() + " -o dtype_kernel.o && arm-none-eabi-g++ " +
        kArch + " -" + opt + " -ffreestanding -fno-exceptions -fno-rtti -nostdlib -DSTACK_DTYPES -c " +
        (kSources / "fake_runtime.cpp").string() + " -o fake_runtime.o && " + kCc + " " + kArch +
        " -O2 -ffreestanding -nostdlib -DSTACK_DTYPES -c " + (kSources / "qemu_main.c").string() +
        " -o qemu_main.o && " + kCc + " " + kArch + " -nostdlib -T " + (kSources / "qemu.ld").string() +
        " dtype_kernel.o fake_runtime.o qemu_main.o -lgcc -o " + elf.string();
    const CliRun built = Shell(cmd);
    ASSERT_EQ(built.exit_code, 0) << cmd << "\n" << built.err;
    const CliRun run = Shell("timeout 60 qemu-system-arm -M mps2-an386 -nographic -monitor none "
                             "-semihosting-config enable=on,target=native -kernel " + elf.string());
    std::map<std::string, uint64_t> measured;
    std::istringstream lines(run.out + run.err);
    std::string name;
    uint64_t bytes = 0;
    while (lines >> name >> bytes) measured[name] = bytes;
    ASSERT_EQ(measured.size(), 3u) << run.out << run.err;
    auto image = elf::ReadExecutableFile(elf.string());
    ASSERT_TRUE(image.has_value());
    const stack::CallGraph g = *stack::ReadCallGraph(*image);
    // qemu_main.c calls run_dtype, which calls Method::execute (not a tail call).
    const uint64_t runner = g.functions[Fn(g, "run_dtype")].frame;
    const uint64_t int64_body = g.functions[Fn(g, "int torch::executor::native::body<long long>(int)")].frame;
    std::map<std::string, api::FirmwareStackEntry> by_dtype;
    for (const auto& [dtype, code] : std::map<std::string, int8_t>{
             {"float32", testing::kFloat32}, {"int32", testing::kInt32}, {"int64", testing::kInt64}}) {
      const firmware::MethodOperators m{"forward", {"aten::convolution.out"},
                                        {firmware::CallDtypes{{code}, {testing::kInt64}}}};
      const api::FirmwareStack st = firmware::StackOf(*image, {m}, *release, "");
      const auto e = std::find_if(st.entries.begin(), st.entries.end(),
                                  [](const api::FirmwareStackEntry& x) { return x.entry == "execute"; });
      ASSERT_NE(e, st.entries.end());
      by_dtype[dtype] = *e;
      EXPECT_TRUE(e->exact) << dtype << " at -" << opt;
      EXPECT_GE(runner + e->bytes, measured[dtype]) << dtype << " at -" << opt;
      bool less_kept = false;
      for (const std::string& k : e->kept)
        less_kept = less_kept || (k.find("Less<long long>::operator<") != std::string::npos &&
                                  k.find("kept, its name holds operator<") != std::string::npos);
      EXPECT_TRUE(less_kept) << dtype << " at -" << opt << ": " << fmt::format("{}", fmt::join(e->kept, "\n"));
      EXPECT_GE(e->unpruned_bytes, e->bytes);
    }
    const api::FirmwareStackEntry& f32 = by_dtype["float32"];
    const api::FirmwareStackEntry& i64 = by_dtype["int64"];
    // The int64 instantiation is the deepest: without pruning every dtype's bound goes through it.
    EXPECT_EQ(f32.unpruned_bytes, i64.bytes) << opt;
    EXPECT_LT(f32.bytes + int64_body / 2, i64.bytes) << opt;
    EXPECT_LT(by_dtype["int32"].bytes, i64.bytes) << opt;
    EXPECT_EQ(i64.bytes, i64.unpruned_bytes) << opt;
    bool through_int64 = false;
    for (const api::FirmwareStackStep& p : i64.path)
      through_int64 = through_int64 || p.function == "int torch::executor::native::body<long long>(int)";
    EXPECT_TRUE(through_int64) << opt;
    // float32: body<long long> and body<long> (int32_t on arm-none-eabi) pruned, body<float> not.
    std::string pruned = fmt::format("{}", fmt::join(f32.pruned, "\n"));
    EXPECT_NE(pruned.find("-> int torch::executor::native::body<long long>(int): its template "
                          "arguments show only int64; the calls reaching it have float32"),
              std::string::npos) << pruned;
    EXPECT_NE(pruned.find("body<long>(int): its template arguments show only int32"), std::string::npos) << pruned;
    EXPECT_EQ(pruned.find("body<float>"), std::string::npos) << pruned;
    // The Scalar's reader: the call's Int value may be read as int64 (kept, it runs), not as
    // double (pruned).
    EXPECT_NE(pruned.find("utils::extract_scalar<double>(int): its template arguments show only "
                          "float64; the calls reaching it have int64, float32"),
              std::string::npos) << pruned;
    EXPECT_EQ(pruned.find("extract_scalar<long long>"), std::string::npos) << pruned;
    EXPECT_EQ(fmt::format("{}", fmt::join(i64.pruned, "\n")).find("body<long long>"), std::string::npos);
    // A kernel whose calls' dtypes are not known: nothing pruned, and said.
    const firmware::MethodOperators unknown{"forward", {"aten::convolution.out"}, {std::nullopt}};
    const api::FirmwareStack st = firmware::StackOf(*image, {unknown}, *release, "");
    for (const api::FirmwareStackEntry& e : st.entries)
      if (e.entry == "execute") {
        EXPECT_EQ(e.bytes, i64.bytes) << opt;
        EXPECT_TRUE(e.pruned.empty());
        EXPECT_NE(fmt::format("{}", fmt::join(e.kept, "\n")).find("the dtypes of its calls are not known"),
                  std::string::npos);
      }
  }
}

// The dtypes come from the program: `etmem firmware` on the fake runtime's image with
// dtype_kernel.cpp's record for aten::convolution.out. The motivating CNN's convolution is a
// float one: the int64 path is pruned (text and JSON say so, with the bound without pruning);
// a program whose convolution takes int64 tensors keeps it.
TEST(DtypePruning, TheProgramsDtypesPruneEachKernel) {
  if (!HaveTool("arm-none-eabi-g++")) GTEST_SKIP() << "arm-none-eabi-g++ is not installed";
  const std::string kernel = "-O2 -fno-exceptions -fno-rtti " + (kSources / "dtype_kernel.cpp").string() + " -lgcc";
  testing::ProgramBuilder int64_program;
  testing::MethodBuilder& m = int64_program.Method("forward");
  const int x = m.Tensor({.dtype = testing::kInt64, .sizes = {1, 4}, .placement = testing::Placement{1, 0}});
  const int y = m.Tensor({.dtype = testing::kInt64, .sizes = {1, 4}, .placement = testing::Placement{1, 32}});
  m.Inputs({x});
  m.Outputs({y});
  m.KernelCall(m.Operator("aten::convolution", "out"), {x, x, y, y});
  m.PlannedBufferSizes({64});
  const Firmware cnn = LinkFirmware("arm-none-eabi-g++", kArch, "stack_dtypes_cnn", "", kernel);
  const Firmware i64 = LinkFirmware("arm-none-eabi-g++", kArch, "stack_dtypes_int64", "", kernel,
                                    int64_program.Build());
  auto image = elf::ReadExecutableFile(cnn.elf.string());
  ASSERT_TRUE(image.has_value());
  const stack::CallGraph g = *stack::ReadCallGraph(*image);
  auto frame = [&](const std::string& name) { return g.functions[Fn(g, name)].frame; };
  const uint64_t execute = frame("executorch::runtime::Method::execute()");
  const uint64_t conv = frame("torch::executor::native::fake_convolution_out(int)");
  const uint64_t deepest = frame("int torch::executor::native::body<long long>(int)");
  ASSERT_GT(deepest, frame("int torch::executor::native::body<float>(int)"));

  const CliRun r = Etmem("firmware " + cnn.elf.string() + " --runtime 1.4.1 --format json");
  ASSERT_FALSE(r.out.empty()) << r.err;
  const nlohmann::json j = nlohmann::json::parse(r.out);
  const nlohmann::json& ex = StackEntry(j, "execute");
  EXPECT_EQ(ex.at("unpruned_bytes"), execute + conv + deepest) << ex.dump(1);
  EXPECT_LT(ex.at("bytes").get<uint64_t>(), execute + conv + deepest) << ex.dump(1);
  ASSERT_FALSE(ex.at("pruned").empty()) << ex.dump(1);
  EXPECT_NE(ex.at("pruned").dump().find("body<long long>(int): its template arguments show only int64"),
            std::string::npos) << ex.dump(1);
  EXPECT_NE(ex.at("kept").dump().find("Less<long long>::operator<"), std::string::npos) << ex.dump(1);
  bool said = false;
  for (const auto& a : j.at("stack").at("assumptions"))
    said = said || a.get<std::string>().find("a dtype switch") != std::string::npos;
  EXPECT_TRUE(said);
  // The runner's main never calls the runtime here: nothing of it is pruned.
  EXPECT_TRUE(StackEntry(j, "main").at("pruned").empty());
  EXPECT_EQ(StackEntry(j, "main").at("unpruned_bytes"), StackEntry(j, "main").at("bytes"));
  const CliRun text = Etmem("firmware " + cnn.elf.string() + " --runtime 1.4.1");
  EXPECT_NE(text.out.find(fmt::format("pruned by the program's dtypes: {} call(s); without pruning at least {} B",
                                      ex.at("pruned").size(), execute + conv + deepest)),
            std::string::npos) << text.out;
  EXPECT_NE(text.out.find("    kept: "), std::string::npos) << text.out;

  const CliRun r64 = Etmem("firmware " + i64.elf.string() + " --runtime 1.4.1 --format json");
  ASSERT_FALSE(r64.out.empty()) << r64.err;
  const nlohmann::json j64 = nlohmann::json::parse(r64.out);
  ASSERT_TRUE(j64.at("stack").is_object()) << r64.out;
  const nlohmann::json& ex64 = StackEntry(j64, "execute");
  EXPECT_EQ(ex64.at("bytes"), execute + conv + deepest) << ex64.dump(1);
  EXPECT_EQ(ex64.at("unpruned_bytes"), ex64.at("bytes"));
  EXPECT_EQ(ex64.at("pruned").dump().find("body<long long>"), std::string::npos) << ex64.dump(1);
  EXPECT_NE(ex64.at("pruned").dump().find("body<float>(int): its template arguments show only float32; "
                                          "the calls reaching it have int64"),
            std::string::npos) << ex64.dump(1);
}

}  // namespace stack_test
}  // namespace etmem::test
