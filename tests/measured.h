// What the real ExecuTorch runtime did on etmem's own programs, as recorded in tests/measured/
// (each file says how it was measured). Shared by the tests that hold etmem to those records:
// reading a record, opening the program a record names, and re-writing the programs the
// measurements ran (what `etmem replan` writes).
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "etmem/api/internal.h"
#include "etmem/plan/lifetimes.h"
#include "etmem/plan/replan.h"
#include "etmem/plan/rewrite.h"
#include "etmem/testing/scenarios.h"
#include "etmem_cli.h"

namespace etmem::test {

// tests/measured/`file`, parsed.
inline nlohmann::json ReadMeasured(const std::string& file) {
  std::ifstream in(std::filesystem::path(ETMEM_SOURCE_DIR) / "tests/measured" / file);
  return nlohmann::json::parse(in);
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
