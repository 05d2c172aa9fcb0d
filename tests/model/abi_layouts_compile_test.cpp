// Owns: checking the layout engine against real compilers. For every modelled release and every
// built-in target whose compiler is installed, the mirror header (abi/mirror.h) must compile:
// each of its static_asserts states a computed size, alignment or offset. A target without a
// compiler is skipped with a message; one without C++ library headers (bare riscv64-unknown-elf)
// compiles freestanding and checks the mirrors only. Deliberately wrong layouts must fail, so
// a silently passing compiler run cannot hide a broken check.
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <map>
#include <optional>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "etmem/abi/abi.h"
#include "etmem/abi/layout.h"
#include "etmem/abi/mirror.h"
#include "etmem/runtime/release.h"

namespace etmem {
namespace abi_compiler_test {

// How to run a target's compiler on this machine.
struct CompilerSpec {
  std::string target;                   // built-in target name
  std::vector<std::string> candidates;  // executables to try, in order
  std::string machine;                  // `-dumpmachine` must start with this
  std::string flags;
};

const std::vector<CompilerSpec>& Specs() {
  static const std::vector<CompilerSpec> kSpecs = {
      {"x86_64", {"x86_64-linux-gnu-g++", "g++"}, "x86_64", "-std=c++20"},
      {"cortex-m", {"arm-none-eabi-g++"}, "arm-none-eabi", "-std=c++20 -mcpu=cortex-m4 -mthumb"},
      {"riscv32",
       {"riscv64-unknown-elf-g++", "riscv64-unknown-elf-gcc"},
       "riscv64-unknown-elf",
       "-std=c++20 -march=rv32imac -mabi=ilp32"},
      {"xtensa", {"xtensa-esp32-elf-g++"}, "xtensa", "-std=c++20"},
      {"aarch64", {"aarch64-linux-gnu-g++", "g++"}, "aarch64", "-std=c++20"},
  };
  return kSpecs;
}

struct RunResult {
  bool ok = false;
  std::string output;  // stdout and stderr
};

std::string Slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::string TempPath(const std::string& stem, const std::string& ext) {
  return ::testing::TempDir() + "etmem_abi_" + stem + "_" + std::to_string(getpid()) + ext;
}

RunResult Run(const std::string& command) {
  std::string log = TempPath("log", ".txt");
  int status = std::system((command + " >" + log + " 2>&1").c_str());
  RunResult r{status != -1 && WIFEXITED(status) && WEXITSTATUS(status) == 0, Slurp(log)};
  std::remove(log.c_str());
  return r;
}

// A compiler ready to use, with the flags that work on this machine.
struct Compiler {
  std::string command;     // executable plus flags, without -fsyntax-only
  bool std_headers = true; // false: compiled freestanding, real std types left out
};

bool HasStdHeaders(const std::string& command) {
  std::string probe = TempPath("probe", ".cpp");
  std::ofstream(probe) << "#include <cstddef>\n#include <cstdint>\n#include <optional>\n"
                          "#include <variant>\n#include <string>\n#include <vector>\n"
                          "#include <memory>\n";
  bool ok = Run(command + " -fsyntax-only -x c++ " + probe).ok;
  std::remove(probe.c_str());
  return ok;
}

std::optional<Compiler> Detect(const CompilerSpec& spec) {
  for (const std::string& exe : spec.candidates) {
    if (!Run("command -v " + exe).ok) continue;
    RunResult machine = Run(exe + " -dumpmachine");
    if (!machine.ok || machine.output.rfind(spec.machine, 0) != 0) continue;
    Compiler c{exe + " " + spec.flags};
    c.std_headers = HasStdHeaders(c.command);
    if (!c.std_headers) c.command += " -ffreestanding -DETMEM_MIRROR_NO_STD";
    return c;
  }
  return std::nullopt;
}

// Detection runs each compiler a few times, so it is done once per target and process.
const std::optional<Compiler>& CompilerFor(const std::string& target) {
  static std::map<std::string, std::optional<Compiler>> cache;
  auto it = cache.find(target);
  if (it != cache.end()) return it->second;
  for (const CompilerSpec& spec : Specs())
    if (spec.target == target) return cache[target] = Detect(spec);
  return cache[target] = std::nullopt;
}

std::string CandidateList(const std::string& target) {
  std::string out;
  for (const CompilerSpec& spec : Specs())
    if (spec.target == target)
      for (const std::string& exe : spec.candidates) out += (out.empty() ? "" : " or ") + exe;
  return out;
}

RunResult CompileSource(const Compiler& compiler, const std::string& source,
                        const std::string& stem) {
  std::string path = TempPath(stem, ".cpp");
  std::ofstream(path) << source;
  RunResult r = Run(compiler.command + " -fsyntax-only -x c++ " + path);
  if (r.ok) std::remove(path.c_str());  // a failing source stays, for reading
  return r;
}

std::string Ident(std::string s) {
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return s;
}

// ---- every release on every target ----

struct Case {
  std::string release;
  std::string target;
};

void PrintTo(const Case& c, std::ostream* os) { *os << "release " << c.release << " on " << c.target; }

std::vector<Case> AllCases() {
  std::vector<Case> out;
  for (const runtime::RuntimeTraits& r : runtime::AllReleases())
    for (const CompilerSpec& spec : Specs()) out.push_back({r.version, spec.target});
  return out;
}

// A release's mirror header for a target; its names carry the release's prefix.
std::string MirrorSource(const std::string& release, const std::string& target) {
  const runtime::RuntimeTraits* traits = runtime::FindRelease(release).value();
  return abi::EmitMirrorHeader(traits->types, abi::FindBuiltinTarget(target).value(),
                               "v" + Ident(release) + "_");
}

// Every release's mirror for one target in one compiler run, once per target and process:
// the names are prefixed per release, so the headers are independent, and the standard
// headers (most of a run: x86_64, 16 releases, 15.1 s of CPU one by one, 1.5 s together) are
// read once. true: every release's mirror compiles, since any failing static_assert fails the
// whole run.
bool EveryReleaseCompiles(const Compiler& compiler, const std::string& target) {
  static std::map<std::string, bool> compiled;
  auto it = compiled.find(target);
  if (it != compiled.end()) return it->second;
  std::string source;
  for (const runtime::RuntimeTraits& r : runtime::AllReleases()) source += MirrorSource(r.version, target);
  return compiled[target] = CompileSource(compiler, source, "every_release_" + Ident(target)).ok;
}

class MirrorCompilesTest : public ::testing::TestWithParam<Case> {};

// A case passes on the shared run of its target; when that run fails, each case compiles its
// release's mirror alone, so a failure names its release with the compiler's output for it.
TEST_P(MirrorCompilesTest, CompilerAcceptsEveryComputedLayout) {
  const Case& c = GetParam();
  const std::optional<Compiler>& compiler = CompilerFor(c.target);
  if (!compiler) GTEST_SKIP() << "no compiler for " << c.target << " (" << CandidateList(c.target) << ")";
  if (!EveryReleaseCompiles(*compiler, c.target)) {
    RunResult r = CompileSource(*compiler, MirrorSource(c.release, c.target),
                                "v" + Ident(c.release) + "_" + Ident(c.target));
    EXPECT_TRUE(r.ok) << "release " << c.release << " on " << c.target << " ("
                      << compiler->command << "):\n" << r.output;
  }
  if (!compiler->std_headers)
    std::printf("note: %s has no C++ library headers; real std types not checked\n",
                c.target.c_str());
}

INSTANTIATE_TEST_SUITE_P(AbiCompiler, MirrorCompilesTest, ::testing::ValuesIn(AllCases()),
                         [](const ::testing::TestParamInfo<Case>& info) {
                           return "v" + Ident(info.param.release) + "_" + Ident(info.param.target);
                         });

// ---- the standard-library shapes, on each target that has the headers ----

abi::TypeTable StdShapes() {
  abi::TypeTable t;
  t.Add(abi::Struct("Tensor", {{"impl", abi::Prim::kPtr}}));
  t.Add(abi::Struct("Wide", {{"v", abi::Prim::kI64}, {"fn", abi::Prim::kFnPtr}}));
  t.Add(abi::Struct("Small", {{"b", abi::Prim::kU8, 3}}));
  abi::AddStdOptional(t, "Tensor");
  abi::AddStdOptional(t, "Wide");
  abi::AddStdVariant(t, {"Tensor", "Wide"});
  abi::AddStdVariant(t, {"Small", "Tensor"});
  abi::AddStdString(t);
  abi::AddStdVector(t);
  abi::AddStdSharedPtr(t);
  return t;
}

class StdShapesCompileTest : public ::testing::TestWithParam<std::string> {};

TEST_P(StdShapesCompileTest, LibstdcxxLayoutsMatchTheModel) {
  const std::string& target = GetParam();
  const std::optional<Compiler>& compiler = CompilerFor(target);
  if (!compiler) GTEST_SKIP() << "no compiler for " << target << " (" << CandidateList(target) << ")";
  if (!compiler->std_headers) GTEST_SKIP() << target << ": the compiler has no C++ library headers";
  std::string source = abi::EmitMirrorHeader(StdShapes(), abi::FindBuiltinTarget(target).value(), "S_");
  ASSERT_NE(source.find("std::string"), std::string::npos);
  RunResult r = CompileSource(*compiler, source, "std_shapes_" + Ident(target));
  EXPECT_TRUE(r.ok) << target << " (" << compiler->command << "):\n" << r.output;
}

INSTANTIATE_TEST_SUITE_P(AbiCompiler, StdShapesCompileTest,
                         ::testing::Values("x86_64", "cortex-m", "riscv32", "xtensa", "aarch64"),
                         [](const ::testing::TestParamInfo<std::string>& info) {
                           return Ident(info.param);
                         });

// ---- the check can fail ----

const Compiler* HostCompiler() {
  const std::optional<Compiler>& c = CompilerFor("x86_64");
  return c && c->std_headers ? &*c : nullptr;
}

TEST(AbiCompilerTest, WrongStructLayoutFailsToCompile) {
  const Compiler* host = HostCompiler();
  if (!host) GTEST_SKIP() << "no x86_64 host C++ compiler";
  abi::TypeTable t;
  t.Add(abi::Struct("Handle", {{"count", abi::Prim::kI32}, {"data", abi::Prim::kPtr},
                               {"stamp", abi::Prim::kI64}}));
  abi::Abi wrong = abi::FindBuiltinTarget("x86_64").value();
  // i386's rows (4-byte pointers and size_t, int64 aligned to 4) on an x86-64 compiler: the
  // model says Handle is 16/4, the compiler makes it 24/8.
  wrong.pointer = wrong.size_type = {4, 4};
  wrong.int64 = wrong.float64 = {8, 4};
  std::string source = abi::EmitMirrorHeader(t, wrong, "W_");
  ASSERT_NE(source.find("sizeof(W_Handle) == 16 && alignof(W_Handle) == 4"), std::string::npos);
  RunResult r = CompileSource(*host, source, "wrong_struct");
  EXPECT_FALSE(r.ok) << "a mirror claiming Handle is 16/4 compiled on x86_64";
  EXPECT_NE(r.output.find("Handle on x86_64: etmem computes 16/4"), std::string::npos) << r.output;
}

TEST(AbiCompilerTest, WrongStdModelFailsToCompile) {
  const Compiler* host = HostCompiler();
  if (!host) GTEST_SKIP() << "no x86_64 host C++ compiler";
  abi::TypeTable t;
  t.Add(abi::Struct("Tensor", {{"impl", abi::Prim::kPtr}}));
  // A wrong model of libstdc++'s optional: a separate word for the flag. The mirror agrees with
  // itself, so only the check against the real std::optional can catch it.
  t.Add(abi::Struct("optional<Tensor>",
                    {{"payload", "Tensor"}, {"engaged", abi::Prim::kBool}, {"pad", abi::Prim::kPtr}},
                    "std::optional<Tensor>"));
  abi::Abi x86 = abi::FindBuiltinTarget("x86_64").value();
  RunResult r = CompileSource(*host, abi::EmitMirrorHeader(t, x86, "W_"), "wrong_std");
  EXPECT_FALSE(r.ok) << "a mirror claiming std::optional<Tensor> is 24/8 compiled on x86_64";
  EXPECT_NE(r.output.find("the real std::optional<Tensor> differs"), std::string::npos) << r.output;
  EXPECT_EQ(r.output.find("optional<Tensor> on x86_64: etmem computes 24/8\""), std::string::npos)
      << "the mirror itself should still agree:\n" << r.output;
}

TEST(AbiCompilerTest, WrongTargetRowFailsToCompile) {
  const Compiler* host = HostCompiler();
  if (!host) GTEST_SKIP() << "no x86_64 host C++ compiler";
  abi::TypeTable t;
  t.Add(abi::Struct("Tensor", {{"impl", abi::Prim::kPtr}}));
  // The cortex-m mirror on an x86-64 compiler: the pointer row itself must be refused.
  abi::Abi cortex_m = abi::FindBuiltinTarget("cortex-m").value();
  RunResult r = CompileSource(*host, abi::EmitMirrorHeader(t, cortex_m, "W_"), "wrong_row");
  EXPECT_FALSE(r.ok);
  EXPECT_NE(r.output.find("row: data pointer is 4/4"), std::string::npos) << r.output;
}

}  // namespace abi_compiler_test
}  // namespace etmem
