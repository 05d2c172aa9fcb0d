// Owns: checking computed type layouts against the sizes measured on the real ExecuTorch runtime
// (../shared/golden/<abi>/types.json, per release tag). Every measured type we model must match
// in sizeof and alignof; the primitive rows (void*, size_t, double, max_align_t) are checked
// against the target row. Measured types we do not model are listed explicitly, so a new key in
// types.json fails here until it is mapped or listed. Skips when ../shared is absent.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "etmem/abi/abi.h"
#include "etmem/abi/layout.h"
#include "etmem/runtime/release.h"

#ifndef ETMEM_SHARED_DIR
#define ETMEM_SHARED_DIR ""
#endif

namespace etmem {
namespace types_json_test {

namespace fs = std::filesystem;

struct GoldenAbi {
  std::string dir;     // folder under golden/
  std::string target;  // our built-in target
};

void PrintTo(const GoldenAbi& g, std::ostream* os) { *os << g.dir << " as " << g.target; }

// types.json key -> the name of the type in our release tables.
const std::map<std::string, std::string>& NameMap() {
  static const std::map<std::string, std::string> kMap = {
      {"EValue", "EValue"},
      {"EValue*", "EValue*"},
      {"TensorImpl", "TensorImpl"},
      {"Tensor", "Tensor"},
      {"optional<Tensor>", "optional<Tensor>"},
      {"Chain", "Chain"},
      {"BackendDelegate", "BackendDelegate"},
      {"OpFunction", "OpFunction"},
      {"InstructionArgs", "InstructionArgs"},
      {"InstructionArgs (Span<EValue*>)", "InstructionArgs"},
      {"TensorMeta", "TensorMeta"},
      {"CompileSpec", "CompileSpec"},
      {"BoxedEvalueList<int64_t>", "BoxedEvalueList"},
      {"BoxedEvalueList<Tensor>", "BoxedEvalueList"},
      {"BoxedEvalueList<optional<Tensor>>", "BoxedEvalueList"},
      {"ArrayRef<bool>", "ArrayRef"},
      {"ArrayRef<double>", "ArrayRef"},
      {"ArrayRef<char>", "ArrayRef"},
      {"ArrayRef<int64_t>", "ArrayRef"},
      {"int64_t", "int64_t"},
      {"bool", "bool"},
      {"SizesType", "SizesType"},
      {"DimOrderType", "DimOrderType"},
      {"StridesType", "StridesType"},
      {"MemoryAllocator", "MemoryAllocator"},
      {"PlatformMemoryAllocator", "PlatformMemoryAllocator"},
      {"FreeableBuffer", "FreeableBuffer"},
      {"NamedData", "NamedData"},
      {"MergedDataMap", "MergedDataMap"},
  };
  return kMap;
}

// Measured, but never allocated by the load sequence etmem models.
const std::set<std::string>& NotModelled() {
  static const std::set<std::string> kKeys = {"Method",        "Kernel",  "KernelKey",
                                              "MemoryManager", "Program", "HierarchicalAllocator"};
  return kKeys;
}

// Keys that are target-row facts rather than table types.
std::optional<abi::SizeAlign> RowFact(const std::string& key, const abi::Abi& abi) {
  if (key == "void*") return abi.pointer;
  if (key == "size_t") return abi.size_type;
  if (key == "double") return abi.float64;
  return std::nullopt;
}

abi::SizeAlign Measured(const nlohmann::json& entry) {
  return {entry.at("sizeof").get<uint32_t>(), entry.at("alignof").get<uint32_t>()};
}

std::string Pair(abi::SizeAlign sa) {
  return std::to_string(sa.size) + "/" + std::to_string(sa.align);
}

// What one release's measurements say about our model.
struct Findings {
  int compared = 0;
  std::vector<std::string> problems;
};

void CheckKey(const std::string& key, const nlohmann::json& entry,
              const runtime::RuntimeTraits& release, const abi::Abi& abi, Findings& out) {
  abi::SizeAlign real = Measured(entry);
  std::string where = key + " (v" + release.version + ", " + abi.name + "): ";
  if (key == "max_align_t") {
    ++out.compared;
    if (real.align != abi.max_align)
      out.problems.push_back(where + "alignof is " + std::to_string(real.align) +
                             ", target row max_align is " + std::to_string(abi.max_align));
    return;
  }
  std::optional<abi::SizeAlign> computed = RowFact(key, abi);
  auto mapped = NameMap().find(key);
  if (!computed && mapped != NameMap().end()) {
    if (!release.types.Has(mapped->second)) {
      out.problems.push_back(where + "measured " + Pair(real) + ", but the type table has no '" +
                             mapped->second + "'");
      return;
    }
    computed = release.types.Compute(mapped->second, abi).size_align;
  }
  if (!computed) {
    if (!NotModelled().count(key))
      out.problems.push_back(where + "unknown key: map it in NameMap() or list it in NotModelled()");
    return;
  }
  ++out.compared;
  if (*computed != real)
    out.problems.push_back(where + "computed " + Pair(*computed) + ", measured " + Pair(real));
}

class TypesJsonTest : public ::testing::TestWithParam<GoldenAbi> {};

TEST_P(TypesJsonTest, ComputedLayoutsMatchMeasuredTypes) {
  const GoldenAbi& golden = GetParam();
  fs::path shared(ETMEM_SHARED_DIR);
  if (shared.empty() || !fs::is_directory(shared))
    GTEST_SKIP() << "no shared folder at '" << shared.string() << "': measured types unavailable";
  fs::path file = shared / "golden" / golden.dir / "types.json";
  if (!fs::exists(file)) GTEST_SKIP() << "no " << file.string();
  std::ifstream in(file);
  nlohmann::json doc = nlohmann::json::parse(in, nullptr, /*allow_exceptions=*/false);
  ASSERT_TRUE(doc.is_object()) << file.string() << ": not a JSON object";
  abi::Abi abi = abi::FindBuiltinTarget(golden.target).value();
  Findings findings;
  for (const auto& [tag, types] : doc.items()) {
    Result<const runtime::RuntimeTraits*> release = runtime::FindRelease(tag);
    if (!release) {
      findings.problems.push_back(tag + ": " + release.error().message);
      continue;
    }
    for (const auto& [key, entry] : types.items()) CheckKey(key, entry, **release, abi, findings);
  }
  EXPECT_GT(findings.compared, 0) << file.string() << " has no type we model";
  std::string report;
  for (const std::string& p : findings.problems) report += "  " + p + "\n";
  EXPECT_TRUE(findings.problems.empty())
      << findings.problems.size() << " disagreement(s) with " << file.string() << ":\n" << report;
}

INSTANTIATE_TEST_SUITE_P(Golden, TypesJsonTest,
                         ::testing::Values(GoldenAbi{"arm-cortex-m4", "cortex-m"},
                                           GoldenAbi{"x86_64", "x86_64"}),
                         [](const ::testing::TestParamInfo<GoldenAbi>& info) {
                           return info.param.target == "cortex-m" ? std::string("cortex_m")
                                                                  : info.param.target;
                         });

}  // namespace types_json_test
}  // namespace etmem
