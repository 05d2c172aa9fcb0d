// Owns: `etmem probe` end to end, on tiny fake ExecuTorch trees the test writes: a few headers
// declaring structs with the runtime's type names and namespaces, sized to agree with etmem's
// model except where a test wants a mismatch. They only exercise the mechanism (and are not
// ExecuTorch code). Each compiler is skipped when absent.
#include <sstream>
#include <tuple>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "etmem_cli.h"

namespace etmem::test {
namespace probe_test {

void WriteHeader(const fs::path& tree, const std::string& rel, const std::string& text) {
  fs::create_directories((tree / rel).parent_path());
  std::ofstream(tree / rel) << "#pragma once\n#include <cstddef>\n#include <cstdint>\n" << text;
}

// The namespaces of the newer releases (executorch::runtime, etensor, exec_aten as an alias of
// executorch::aten). TensorImpl carries one pointer more than etmem's model: a mismatch. The
// merged data map header does not compile, so each type is then probed on its own.
fs::path NewStyleTree() {
  const fs::path tree = TempPath("fake_new") / "executorch";
  WriteHeader(tree, "runtime/core/portable_type/tensor_impl.h", R"(
namespace executorch::runtime::etensor {
class TensorImpl { void* p[4]; size_t n[3]; int8_t t; uint8_t s; int8_t dev[2]; void* extra; };
}
namespace torch::executor { using ::executorch::runtime::etensor::TensorImpl; }
)");
  WriteHeader(tree, "runtime/core/exec_aten/exec_aten.h", R"(#include <optional>
#include <executorch/runtime/core/portable_type/tensor_impl.h>
namespace executorch::runtime::etensor { struct Tensor { TensorImpl* impl; }; }
namespace executorch::aten { using ::executorch::runtime::etensor::Tensor; using std::optional; }
namespace exec_aten = ::executorch::aten;
)");
  WriteHeader(tree, "runtime/core/evalue.h", R"(
namespace executorch::runtime {
struct EValue { union { int64_t i; double d; void* p; } payload; uint32_t tag; };
template <typename T> class BoxedEvalueList { T** wrapped; size_t n; T* unwrapped; };
}
namespace torch::executor { using ::executorch::runtime::EValue; }
)");
  WriteHeader(tree, "runtime/core/memory_allocator.h", R"(
namespace executorch::runtime {
class MemoryAllocator {
 public:
  virtual ~MemoryAllocator() = default;
 private:
  uint8_t* a; uint8_t* b; uint8_t* c; uint32_t d; int32_t e;
};
}
)");
  WriteHeader(tree, "runtime/executor/merged_data_map.h",
              "#error fake header that does not compile\n");
  return tree;
}

// The namespaces of the first modelled release: everything in torch::executor, exec_aten a
// namespace of its own, ExecuTorch's own optional with its tag member. Sized as etmem's model.
fs::path OldStyleTree() {
  const fs::path tree = TempPath("fake_old") / "executorch";
  WriteHeader(tree, "runtime/core/evalue.h", R"(
namespace torch { namespace executor {
struct EValue {
  union { int64_t i; double d; struct { void* wrapped; size_t n; void* unwrapped; } list; } payload;
  uint32_t tag;
};
template <typename T> class BoxedEvalueList { T** wrapped; size_t n; T* unwrapped; };
} }
)");
  WriteHeader(tree, "runtime/core/exec_aten/exec_aten.h", R"(
namespace torch { namespace executor {
struct Tensor { void* impl; };
template <class T> struct optional {
  struct Tag {} tag;
  union { char dummy; T value; } storage;
  bool init;
};
} }
namespace exec_aten {
using Tensor = torch::executor::Tensor;
template <class T> using optional = torch::executor::optional<T>;
}
)");
  return tree;
}

struct Probe {
  CliRun run;
  nlohmann::json target;
  fs::path file;
};

Probe RunProbe(const fs::path& tree, const std::string& cxx, const std::string& flags,
               const std::string& release, const std::string& stem) {
  Probe p;
  p.file = TempPath(stem + ".json");
  p.run = Etmem("probe --executorch " + tree.string() + " --cxx " + cxx + " --cxxflags '" + flags +
                "' --release " + release + " -o " + p.file.string());
  if (p.run.exit_code == 0) p.target = nlohmann::json::parse(ReadFile(p.file));
  return p;
}

size_t Count(const std::string& text, const std::string& what) {
  size_t n = 0;
  for (size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
  return n;
}

// The line of `out` that starts with `prefix` after indentation, or "".
std::string LineOf(const std::string& out, const std::string& prefix) {
  std::istringstream in(out);
  for (std::string line; std::getline(in, line);)
    if (line.find_first_not_of(' ') != std::string::npos &&
        line.compare(line.find_first_not_of(' '), prefix.size(), prefix) == 0)
      return line;
  return "";
}

// `etmem analyze` accepts the written file, and its numbers are those of the built-in target
// with the same ABI.
void ExpectAnalyzeMatches(const Probe& p, const std::string& builtin) {
  const fs::path program = MotivatingCnnFile();
  CliRun probed = Etmem("analyze " + program.string() + " --runtime 1.4 --format json --target " +
                        p.file.string());
  ASSERT_EQ(probed.exit_code, 0) << probed.err;
  CliRun known =
      Etmem("analyze " + program.string() + " --runtime 1.4 --format json --target " + builtin);
  ASSERT_EQ(known.exit_code, 0) << known.err;
  auto a = nlohmann::json::parse(probed.out), b = nlohmann::json::parse(known.out);
  EXPECT_EQ(a["target"], p.target["name"]);
  // The assumption sentences name the target each was given; the rest is the same.
  for (nlohmann::json* j : {&a, &b})
    for (nlohmann::json& m : (*j)["methods"]) {
      const std::string target = (*j)["target"].get<std::string>();
      std::string s = m["assuming"].get<std::string>();
      const size_t at = s.find(", target " + target + ",");
      ASSERT_NE(at, std::string::npos) << s;
      m["assuming"] = s.replace(at, target.size() + 9, ", target T");
    }
  EXPECT_EQ(a["methods"], b["methods"]);
}

TEST(Probe, HostCompilerOnTheNewNamespaces) {
  if (!HaveTool("g++") || Shell("g++ -dumpmachine").out.rfind("x86_64", 0) != 0)
    GTEST_SKIP() << "no x86_64 g++";
  Probe p = RunProbe(NewStyleTree(), "g++", "-O2", "1.4", "probe_new_x86");
  ASSERT_EQ(p.run.exit_code, 0) << p.run.err << p.run.out;
  const nlohmann::json& t = p.target;
  EXPECT_EQ(t["name"], "etmem_" + std::to_string(::getpid()) + "_probe_new_x86");
  EXPECT_EQ(t["pointer"], nlohmann::json({8, 8}));
  EXPECT_EQ(t["size_t"], nlohmann::json({8, 8}));
  EXPECT_EQ(t["int64"], nlohmann::json({8, 8}));
  EXPECT_EQ(t["double"], nlohmann::json({8, 8}));
  EXPECT_EQ(t["max_align"], 16);
  EXPECT_EQ(t["malloc_align"], 16);
  EXPECT_EQ(t["measured"]["EValue"], nlohmann::json({16, 8}));
  EXPECT_EQ(t["measured"]["TensorImpl"], nlohmann::json({72, 8}));
  EXPECT_EQ(t["measured"]["MemoryAllocator"], nlohmann::json({40, 8}));
  EXPECT_EQ(t["measured"]["optional<Tensor>"], nlohmann::json({16, 8}));
  EXPECT_FALSE(t["measured"].contains("MergedDataMap"));
  EXPECT_FALSE(t["measured"].contains("PlatformMemoryAllocator"));  // no such header
  // The one mismatch is a warning naming the type and both numbers; the rest agree.
  EXPECT_EQ(Count(p.run.out, "warning:"), 1u) << p.run.out;
  EXPECT_NE(LineOf(p.run.out, "warning: TensorImpl: measured 72/8").find("computes 64/8"),
            std::string::npos)
      << p.run.out;
  EXPECT_NE(LineOf(p.run.out, "EValue").find("agrees"), std::string::npos) << p.run.out;
  EXPECT_NE(LineOf(p.run.out, "MergedDataMap").find("not probed"), std::string::npos) << p.run.out;
  EXPECT_NE(LineOf(p.run.out, "MergedDataMap").find("fake header"), std::string::npos) << p.run.out;
  ExpectAnalyzeMatches(p, "x86_64");
  // --format json: the same run's values (the warning as agrees: false with both numbers).
  CliRun json = Etmem("probe --executorch " + NewStyleTree().string() +
                      " --cxx g++ --cxxflags '-O2' --release 1.4 --format json -o " +
                      p.file.string());
  ASSERT_EQ(json.exit_code, 0) << json.err;
  const nlohmann::json j = nlohmann::json::parse(json.out);
  EXPECT_EQ(j["target_file"], p.file.string());
  EXPECT_EQ(j["primitives"]["size_t"], nlohmann::json({8, 8}));
  size_t disagreeing = 0;
  for (const nlohmann::json& type : j["types"]) {
    if (type["name"] == "TensorImpl") {
      EXPECT_EQ(type["measured"], nlohmann::json({72, 8}));
      EXPECT_EQ(type["computed"], nlohmann::json({64, 8}));
    }
    if (!type["computed"].is_null() && !type["agrees"].get<bool>()) ++disagreeing;
  }
  EXPECT_EQ(disagreeing, 1u);
  bool merged_not_probed = false;
  for (const nlohmann::json& f : j["not_probed"]) merged_not_probed |= f["name"] == "MergedDataMap";
  EXPECT_TRUE(merged_not_probed);
}

TEST(Probe, CortexMCrossCompilerOnTheNewNamespaces) {
  if (!HaveTool("arm-none-eabi-g++")) GTEST_SKIP() << "no arm-none-eabi-g++";
  Probe p = RunProbe(NewStyleTree(), "arm-none-eabi-g++", "-mcpu=cortex-m4 -mthumb", "1.4",
                     "probe_new_arm");
  ASSERT_EQ(p.run.exit_code, 0) << p.run.err << p.run.out;
  const nlohmann::json& t = p.target;
  EXPECT_EQ(t["pointer"], nlohmann::json({4, 4}));
  EXPECT_EQ(t["size_t"], nlohmann::json({4, 4}));
  EXPECT_EQ(t["int64"], nlohmann::json({8, 8}));
  EXPECT_EQ(t["double"], nlohmann::json({8, 8}));
  EXPECT_EQ(t["max_align"], 8);
  EXPECT_EQ(t["measured"]["EValue"], nlohmann::json({16, 8}));
  EXPECT_EQ(t["measured"]["TensorImpl"], nlohmann::json({36, 4}));
  EXPECT_EQ(t["measured"]["MemoryAllocator"], nlohmann::json({24, 4}));
  EXPECT_EQ(Count(p.run.out, "warning:"), 1u) << p.run.out;
  EXPECT_NE(LineOf(p.run.out, "warning: TensorImpl: measured 36/4").find("computes 32/4"),
            std::string::npos)
      << p.run.out;
  ExpectAnalyzeMatches(p, "cortex-m");
}

TEST(Probe, OldNamespacesInOneCompile) {
  for (const auto& [cxx, flags, evalue] :
       {std::tuple{"g++", "", nlohmann::json({32, 8})},
        std::tuple{"arm-none-eabi-g++", "-mcpu=cortex-m4 -mthumb", nlohmann::json({24, 8})}}) {
    if (!HaveTool(cxx)) continue;
    Probe p = RunProbe(OldStyleTree(), cxx, flags, "0.3", std::string("probe_old_") + cxx);
    ASSERT_EQ(p.run.exit_code, 0) << cxx << ": " << p.run.err << p.run.out;
    EXPECT_EQ(p.target["measured"]["EValue"], evalue) << cxx;
    EXPECT_TRUE(p.target["measured"].contains("optional<Tensor>")) << cxx;
    EXPECT_TRUE(p.target["measured"].contains("Tensor")) << cxx;
    EXPECT_EQ(Count(p.run.out, "agrees with etmem 0.3.0"), 4u) << cxx << ":\n" << p.run.out;
    EXPECT_EQ(p.run.out.find("warning:"), std::string::npos) << cxx << ":\n" << p.run.out;
    EXPECT_EQ(p.run.out.find("not probed"), std::string::npos) << cxx << ":\n" << p.run.out;
  }
}

void ExpectOneLineFailure(const CliRun& r, const std::string& what) {
  EXPECT_EQ(r.exit_code, 2) << r.out;
  EXPECT_EQ(Count(r.err, "\n"), 1u) << r.err;
  EXPECT_NE(r.err.find(what), std::string::npos) << r.err;
}

TEST(Probe, BadInputsAreOneLineErrors) {
  const fs::path out = TempPath("probe_bad.json");
  const fs::path not_tree = TempPath("not_a_tree");
  fs::create_directories(not_tree);
  ExpectOneLineFailure(
      Etmem("probe --executorch " + not_tree.string() + " --cxx g++ -o " + out.string()),
      "not an ExecuTorch source tree");
  const fs::path tree = OldStyleTree();
  ExpectOneLineFailure(Etmem("probe --executorch " + tree.string() +
                             " --cxx etmem-no-such-compiler -o " + out.string()),
                       "etmem-no-such-compiler failed on the probe");
  ExpectOneLineFailure(
      Etmem("probe --executorch " + tree.string() + " --cxx g++ --release 9.9 -o " + out.string()),
      "9.9");
  EXPECT_FALSE(fs::exists(out));
}

}  // namespace probe_test
}  // namespace etmem::test
