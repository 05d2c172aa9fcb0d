// Owns: reading the records in tests/measured/ (what the real ExecuTorch runtime did on etmem's
// own programs and the real programs in ../shared; each file says how it was measured) and the
// few helpers every test that holds etmem to those records needs: the program a record names
// (its bytes, or opened), a method's calls to one allocator, the analysis as the stub harness
// ran it, and what `etmem replan` writes.
// Not: any test's expectations (each measured_*_test.cpp owns its comparison).
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "etmem/abi/abi.h"
#include "etmem/api/internal.h"
#include "etmem/plan/lifetimes.h"
#include "etmem/plan/replan.h"
#include "etmem/plan/rewrite.h"
#include "etmem/pte/mapped_file.h"
#include "etmem/analysis/report.h"
#include "etmem/runtime/release.h"
#include "etmem/testing/scenarios.h"
#include "etmem_cli.h"

namespace etmem::test {

// tests/measured/`file`, parsed.
inline nlohmann::json ReadMeasured(const std::string& file) {
  std::ifstream in(std::filesystem::path(ETMEM_SOURCE_DIR) / "tests/measured" / file);
  return nlohmann::json::parse(in);
}

// The bytes of a record's program: the builder's scenario named "program" when "program_set" is
// "builder", else the real program of that name in ../shared (empty when it cannot be read).
// Built or read once per name.
inline const std::vector<uint8_t>& MeasuredProgramBytes(const nlohmann::json& record) {
  static std::map<std::string, std::vector<uint8_t>> bytes;
  const std::string name = record["program"];
  const bool builder = record["program_set"] == "builder";
  auto [it, inserted] = bytes.try_emplace((builder ? "builder." : "real.") + name);
  if (!inserted) return it->second;
  if (builder) {
    it->second = testing::NamedScenarioProgram(name).Build();
  } else if (auto mapped = pte::MappedFile::Open(RealModel(name).string())) {
    it->second.assign((*mapped)->bytes().begin(), (*mapped)->bytes().end());
  }
  return it->second;
}

// A method's calls to one allocator, in order: [size, alignment, offset] each.
inline std::vector<std::array<uint64_t, 3>> PoolCalls(const report::MethodReport& m,
                                                     runtime::PoolKind pool) {
  std::vector<std::array<uint64_t, 3>> calls;
  for (size_t i = 0; i < m.sim.placements.size(); ++i)
    if (m.plan.requests[i].pool == pool)
      calls.push_back({m.plan.requests[i].size, m.plan.requests[i].align, m.sim.placements[i].offset});
  return calls;
}

// The analysis of a record's load as the stub harness ran it (x86-64, pool 16-aligned, the
// record's "tag" and "method", a temp allocator when "temp" is "nonnull", the harness's stub
// backends taking nothing).
inline report::Report AnalyzeAsStubHarness(const pte::ProgramView& p, const nlohmann::json& record) {
  runtime::RuntimeModel model(**runtime::FindRelease(record["tag"]),
                              *abi::FindBuiltinTarget("x86_64"));
  report::ReportOptions o;
  o.pool_align = 16;
  o.load.temp_allocator = record["temp"] == "nonnull";
  for (const char* stub : {"FakeBackend", "StubBackend", "XnnpackBackend"})
    o.load.declared_backends[stub] = {0, 8};  // the harness's stubs take nothing
  o.method = record["method"];
  return *report::BuildReport(p, model, o);
}

// The program a record names: "program_set" "builder" (a named scenario, built in process) or
// "real" (../shared/models/real/NAME.pte).
inline api::Program MeasuredProgram(const nlohmann::json& record) {
  const std::string name = record["program"];
  if (record["program_set"] == "builder") {
    const std::vector<uint8_t> b = testing::NamedScenarioProgram(name).Build();
    return api::Program::FromBytes(b.data(), b.size(), name);
  }
  return api::Program::Open(RealModel(name).string());
}

// What `etmem replan` writes with its default options (alignment 16, every method).
inline std::vector<uint8_t> Replanned(const pte::ProgramView& p) {
  std::vector<plan::PlanEdit> edits;
  for (size_t i = 0; i < p.methods.size(); ++i) {
    auto l = plan::ComputeLifetimes(p.methods[i]);
    EXPECT_TRUE(l) << l.error().message;
    if (!l) return {};
    plan::MethodReplan r = plan::ReplanMethod(*l, 16);
    plan::PlanEdit e{i, {}, r.offsets, r.planned_buffer_sizes};
    for (const plan::PlannedTensor& t : l->tensors) e.values.push_back(t.value);
    edits.push_back(std::move(e));
  }
  auto bytes = plan::RewritePlan(p, edits);
  EXPECT_TRUE(bytes) << bytes.error().message;
  return bytes ? *bytes : std::vector<uint8_t>();
}

}  // namespace etmem::test
