// Owns: the golden traces of the real runtime (../shared/golden, measured on Cortex-M4 under QEMU
// and on x86-64; ../shared/README.md says how), checked in this process through the public API:
// every file, every measured variant (pool base alignment x temp allocator), every method. The
// same checks as ../shared/tools/check-goldens makes of the etmem binary (the plain build's
// ctest runs that tool as golden_traces_match_real_runtime): bytes, every allocate(size, align)
// and its offset, the temp allocator's load peak, the runtime's line one byte below the minimum
// and at 4096 B, and a refusal for the programs the runtime refuses. In one process it is cheap
// under the sanitizers, where the tool's three thousand etmem processes took seven minutes.
// Not: the CLI's argument parsing (cli_test) or its exit codes (the tool, in the plain build).
#include <algorithm>
#include <array>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "etmem/etmem.h"

namespace etmem {
namespace golden_traces_test {

namespace fs = std::filesystem;
using nlohmann::json;

const fs::path kShared = ETMEM_SHARED_DIR;

std::string TargetOf(const std::string& abi) { return abi == "x86_64" ? "x86_64" : "cortex-m"; }

// The part of a runtime log line from "Memory allocation failed" on, as the tool compares it.
// Both ends trimmed of white space (a measured line may end in "\r" or spaces).
std::string Message(const std::string& line) {
  const size_t found = line.find("Memory allocation failed");
  std::string m = found == std::string::npos ? line : line.substr(found);
  const size_t begin = m.find_first_not_of(" \t\r\n");
  if (begin == std::string::npos) return "";
  return m.substr(begin, m.find_last_not_of(" \t\r\n") + 1 - begin);
}

json Methods(const api::Program& program, const api::Options& o) {
  const api::Report report = api::Analyze(program, o);
  const json rendered = json::parse(report.Render(api::Format::kJson));
  json out;
  for (const json& m : rendered["methods"]) out[m["name"].get<std::string>()] = m;
  return out;
}

// Every problem of one golden file's variant, as check-goldens words them.
std::vector<std::string> CheckVariant(const api::Program& program, const std::string& release,
                                      const std::string& target, const json& golden,
                                      const std::string& variant) {
  const std::string align = variant.substr(10, variant.find('/') - 10);  // "pool_align<A>/temp_<t>"
  api::Options o;
  o.runtime = release;
  o.target = target;
  o.pool_align = static_cast<uint32_t>(std::stoul(align));
  o.temp = variant.substr(variant.find("/temp_") + 6);
  std::vector<std::string> problems;
  const json methods = Methods(program, o);
  for (const json& gm : golden["methods"]) {
    const std::string name = gm["name"];
    const json& v = gm["variants"][variant];
    if (!methods.contains(name)) {
      problems.push_back("method " + name + " missing");
      continue;
    }
    const json& ma = methods[name]["method_allocator"];
    if (ma["bytes"] != v["total_bytes"])
      problems.push_back(name + ": bytes " + ma["bytes"].dump() + " != " + v["total_bytes"].dump());
    std::vector<std::array<uint64_t, 3>> got, want;
    for (const json& a : ma["allocations"]) got.push_back({a["size"], a["align"], a["offset"]});
    for (const json& t : v["trace"]) want.push_back({t[0], t[1], t[3]});
    if (got != want) problems.push_back(name + ": trace differs (" + std::to_string(got.size()) +
                                        " vs " + std::to_string(want.size()) + " calls)");
    if (v.contains("temp_allocator_peak_bytes") && !v["temp_allocator_peak_bytes"].is_null()) {
      const json& temp = methods[name]["temp_allocator"];
      if (!temp.is_object() || temp["load_peak_bytes"] != v["temp_allocator_peak_bytes"])
        problems.push_back(name + ": temp load peak " + temp.dump() + " != " +
                           v["temp_allocator_peak_bytes"].dump());
    }
    std::vector<std::pair<int64_t, std::string>> pools;
    if (v["fail_line_at_min_minus_1"].is_string())
      pools.emplace_back(v["total_bytes"].get<int64_t>() - 1, Message(v["fail_line_at_min_minus_1"]));
    if (v.contains("fail_line_at_4096") && v["fail_line_at_4096"].is_string())
      pools.emplace_back(4096, Message(v["fail_line_at_4096"]));
    for (const auto& [pool, want_line] : pools) {
      if (pool < 0) continue;
      api::Options at = o;
      at.pool = static_cast<uint64_t>(pool);
      const json checked = Methods(program, at);
      const json pc = checked.contains(name) ? checked[name].value("pool_check", json()) : json();
      if (!pc.is_object() || pc["fits"] != false || Message(pc.value("log", "")) != want_line)
        problems.push_back(name + ": pool " + std::to_string(pool) + ": " + pc.dump() + ", want " +
                           want_line);
    }
  }
  return problems;
}

TEST(GoldenTraces, EveryMeasuredVariantMatchesInProcess) {
  const fs::path golden = kShared / "golden";
  if (!fs::exists(golden)) GTEST_SKIP() << golden << " not found: golden traces not checked";
  std::vector<fs::path> files;
  for (const auto& abi : fs::directory_iterator(golden))
    if (abi.is_directory())
      for (const auto& tag : fs::directory_iterator(abi.path()))
        if (tag.is_directory())
          for (const auto& f : fs::directory_iterator(tag.path()))
            if (f.path().extension() == ".json") files.push_back(f.path());
  std::sort(files.begin(), files.end());
  size_t cases = 0;
  for (const fs::path& f : files) {
    const json g = json::parse(std::ifstream(f));
    const std::string abi = f.parent_path().parent_path().filename().string();
    const std::string release = f.parent_path().filename().string().substr(1);  // "v1.4.1"
    const std::string program = (kShared / g["program"].get<std::string>()).string();
    SCOPED_TRACE(f.string());
    if (!g["program_load_ok"].get<bool>()) {
      // The runtime refuses the program: etmem says why (the CLI exits 2 with that line).
      api::Options o;
      o.runtime = release;
      o.target = TargetOf(abi);
      try {
        api::Analyze(api::Program::Open(program), o);
        ADD_FAILURE() << "etmem analyses a program the runtime refuses";
      } catch (const api::Error& e) {
        EXPECT_NE(std::string(e.what()), "");
      }
      ++cases;
      continue;
    }
    const api::Program p = api::Program::Open(program);
    if (g["methods"].empty()) continue;
    for (const auto& [variant, _] : g["methods"][0]["variants"].items()) {
      for (const std::string& problem : CheckVariant(p, release, TargetOf(abi), g, variant))
        ADD_FAILURE() << "[" << variant << "] " << problem;
      ++cases;
    }
  }
  // The tool counts the same cases ("1008 passed" with the shared folder of 2026-12).
  EXPECT_GT(cases, 0u);
  std::cout << cases << " golden cases checked\n";
}

}  // namespace golden_traces_test
}  // namespace etmem
