// docs/ cannot drift from the code: every number in the sizing guide that carries an
// `<!-- etmem: OPTIONS: FIELD -->` comment is recomputed here from the bundled example program.
#include <filesystem>
#include <fstream>
#include <numeric>
#include <regex>
#include <sstream>

#include <gtest/gtest.h>

#include "etmem/abi/abi.h"
#include "etmem/pte/read_program.h"
#include "etmem/analysis/report.h"
#include "etmem/testing/scenarios.h"

namespace etmem {
namespace docs_test {

struct Options {
  std::string runtime = "1.4", target = "cortex-m", temp = "runner";
  std::optional<uint32_t> pool_align;
  std::optional<uint64_t> pool;
  std::string runner;  // --runner NAME[+OPTION]
};

Options Parse(const std::string& text) {
  Options o;
  std::istringstream in(text);
  std::string flag, value;
  while (in >> flag >> value) {
    if (flag == "--runtime") o.runtime = value;
    else if (flag == "--target") o.target = value;
    else if (flag == "--temp") o.temp = value;
    else if (flag == "--pool-align") o.pool_align = std::stoul(value);
    else if (flag == "--pool") o.pool = std::stoull(value);
    else if (flag == "--runner") o.runner = value;
    else ADD_FAILURE() << "unknown option in the guide: " << flag;
  }
  return o;
}

uint64_t Field(const report::Report& r, const std::string& field) {
  const report::MethodReport& m = r.methods.front();
  const auto& planned = m.method->planned_buffer_sizes;
  if (field == "method_bytes") return m.method_bytes;
  if (field == "temp_peak") return m.temp_load_peak_bytes;
  if (field == "planned_bytes") return std::accumulate(planned.begin(), planned.end(), int64_t{0});
  if (field == "allocations") return m.sim.placements.size();
  if (field == "file_bytes") return r.flash.file_bytes;
  if (field == "flash_metadata") return r.flash.metadata_bytes;
  if (field == "flash_constants") return r.flash.segment_constant_bytes + r.flash.inline_constant_bytes;
  if (m.runner) {
    const sim::RunnerPoolResult& pool = m.runner->result.method();
    if (field == "runner_method_pool") return pool.minimum;
    if (field == "runner_through") return pool.high_water;
    if (field == "runner_temp" && m.runner->plan.temp_pool >= 0)
      return m.runner->result.pools[m.runner->plan.temp_pool].minimum;
    for (const sim::RunnerEntry& e : pool.entries)
      if (field == "runner_load" && e.load_method) return e.bytes;
  }
  if (m.pool_check && m.pool_check->failing) {
    const size_t i = m.pool_check->failing->index;
    sim::SimResult s = sim::Simulate(m.plan.requests, {r.assumptions.pool_align, m.pool_check->pool_bytes},
                                     {r.assumptions.pool_align, std::nullopt});
    if (field == "failed_index") return i;
    if (field == "failed_requested") return s.failures.front().requested;
    if (field == "failed_available") return s.failures.front().available;
  }
  ADD_FAILURE() << "unknown field in the guide: " << field;
  return 0;
}

TEST(Docs, EveryMarkedNumberInTheSizingGuideIsWhatEtmemComputes) {
  std::ifstream in(std::filesystem::path(ETMEM_SOURCE_DIR) / "docs/sizing-guide.md");
  const std::string guide{std::istreambuf_iterator<char>(in), {}};
  const std::vector<uint8_t> bytes = testing::MotivatingCnn().Build();
  const pte::ProgramView program = *pte::ReadProgramBytes(bytes, "cnn.pte");
  const std::regex marked(R"((\d+)<!-- etmem: ([^:]*): (\w+) -->)");
  int checked = 0;
  for (auto it = std::sregex_iterator(guide.begin(), guide.end(), marked); it != std::sregex_iterator(); ++it) {
    const Options o = Parse((*it)[2]);
    const runtime::RuntimeTraits& release = **runtime::FindRelease(o.runtime);
    const abi::Abi target = *abi::FindBuiltinTarget(o.target);
    report::ReportOptions ro;
    ro.load.temp_allocator = o.temp == "runner" ? release.runner_passes_temp : o.temp == "nonnull";
    ro.pool_align = o.pool_align.value_or(target.malloc_align);
    ro.pool_bytes = o.pool;
    if (!o.runner.empty()) ro.runner = *runner::SelectRunner(o.runner);
    const report::Report r = *report::BuildReport(program, runtime::RuntimeModel(release, target), ro);
    EXPECT_EQ(std::to_string(Field(r, (*it)[3])), (*it)[1].str()) << (*it)[0];
    ++checked;
  }
  EXPECT_GE(checked, 15);
}

}  // namespace docs_test
}  // namespace etmem
