// Owns: `etmem measure --format json` (see measure_json.h).
#include "etmem/report/measure_json.h"

#include <nlohmann/json.hpp>

#include "etmem/report/json_report.h"

#include "etmem/analysis/assumptions.h"

namespace etmem::report {
namespace {

using ojson = nlohmann::ordered_json;

template <typename T>
ojson OrNull(const std::optional<T>& v) {
  return v ? ojson(*v) : ojson(nullptr);
}

ojson MethodJson(const measure::MethodMeasurement& m) {
  const device::Prediction& p = m.expected.prediction;
  ojson calls = ojson::array();
  const size_t n = std::max(m.measured.size(), p.calls.size());
  for (size_t i = 0; i < n; ++i) {
    ojson row;
    row["call"] = i;
    if (i < m.measured.size())
      row["measured"] = {{"size", m.measured[i].size},
                         {"align", m.measured[i].align},
                         {"offset", OrNull(m.measured[i].offset)}};
    else
      row["measured"] = nullptr;
    if (i < p.calls.size())
      row["etmem"] = {{"size", p.calls[i].size},
                      {"align", p.calls[i].align},
                      {"offset", p.calls[i].failed ? ojson(nullptr) : ojson(p.calls[i].offset)}};
    else
      row["etmem"] = nullptr;
    row["what"] = i < m.expected.what.size() ? m.expected.what[i] : "";
    calls.push_back(std::move(row));
  }
  ojson unknowns = ojson::array();
  for (const runtime::UnknownPart& u : m.unknowns)
    unknowns.push_back({{"delegate", u.delegate}, {"backend", u.backend}, {"why", u.why}});
  ojson j;
  j["name"] = m.name;
  j["layout"] = m.layout;
  j["assumptions"] = AssumptionSentence(m.assumptions, MeasureWording(m.pool));
  j["measured_verdict"] = m.measured_verdict;
  j["etmem_verdict"] = m.etmem_verdict;
  j["etmem_refusal"] = m.refusal_reason.empty() ? ojson(nullptr) : ojson(m.refusal_reason);
  j["verdicts_agree"] = m.verdicts_agree;
  j["logged"] = m.logged;
  j["measured_bytes"] = m.measured_bytes;
  j["etmem_bytes"] = p.used_bytes;
  j["runtime_error_line"] = OrNull(m.runtime_error_line);
  j["calls"] = std::move(calls);
  j["first_divergence"] =
      m.difference ? ojson{{"call", OrNull(m.difference->call)},
                           {"log_line", m.difference->line},
                           {"measured", m.difference->got},
                           {"etmem", m.difference->predicted}}
                   : ojson(nullptr);
  j["unknowns"] = std::move(unknowns);
  j["log"] = m.log_path;
  j["matches"] = m.matches();
  return j;
}

ojson TempRequestsJson(const std::vector<measure::ExecutedCall::Alloc>& allocs) {
  ojson out = ojson::array();
  for (const auto& a : allocs)
    out.push_back({{"size", a.size}, {"align", a.align}, {"offset", OrNull(a.offset)}});
  return out;
}

ojson ExecutionJson(const measure::ExecutionRun& run) {
  ojson kernels = ojson::array();
  for (const measure::RealKernel& k : run.kernels)
    kernels.push_back({{"op", k.op}, {"source", k.source}, {"prim", k.prim}});
  ojson methods = ojson::array();
  for (const measure::MethodExecution& m : run.methods) {
    const measure::ExecutionComparison& c = m.comparison;
    ojson rows = ojson::array();
    for (const measure::ExecutionRow& r : c.rows) {
      ojson heap = ojson::array();
      for (const auto& [size, given] : r.measured.heap) heap.push_back({{"size", size}, {"given", given}});
      ojson predicted = nullptr;
      if (r.predicted) {
        ojson requests = ojson::array();
        for (const kernels::TempRequest& q : r.predicted->requests)
          requests.push_back({{"size", q.bytes}, {"align", q.alignment}});
        predicted = {{"what", r.predicted->what},
                     {"library", r.predicted->library},
                     {"requests", std::move(requests)},
                     {"pool_bytes", r.predicted->pool_bytes},
                     {"heap_bytes", r.predicted->heap_bytes},
                     {"formula", r.predicted->formula},
                     {"upper_bound", r.predicted->upper_bound}};
      }
      rows.push_back({{"instruction", OrNull(r.instruction)},
                      {"measured",
                       {{"what", r.measured.what},
                        {"temp", TempRequestsJson(r.measured.temp)},
                        {"heap", std::move(heap)},
                        {"pool_bytes", r.measured.pool_bytes}}},
                      {"etmem", std::move(predicted)},
                      {"match", r.match}});
    }
    ojson peak = nullptr;
    if (c.peak)
      peak = {{"measured", c.peak->measured},
              {"etmem", c.peak->etmem},
              {"measured_instruction", OrNull(c.peak->measured_instruction)},
              {"etmem_instruction", OrNull(c.peak->etmem_instruction)},
              {"match", c.peak->match}};
    ojson failure = nullptr;
    if (c.failure)
      failure = {{"measured_instruction", OrNull(c.failure->measured_instruction)},
                 {"etmem_instruction", OrNull(c.failure->etmem_instruction)},
                 {"same_instruction", c.failure->same_instruction},
                 {"logged", c.failure->logged},
                 {"etmem_log", c.failure->predicted},
                 {"log_match", c.failure->log_match}};
    methods.push_back({{"name", m.name},
                       {"etmem", m.predicted},
                       {"notes", m.notes},
                       {"crash_signal", OrNull(m.crash_signal)},
                       {"ran", c.ran},
                       {"measured_verdict", c.measured_verdict},
                       {"etmem_verdict", c.etmem_verdict},
                       {"calls_executed", c.calls_executed},
                       {"call_sites", c.call_sites},
                       {"calls_in_instruction_order", c.straight},
                       {"heap", c.heap_mode},
                       {"rows", std::move(rows)},
                       {"peak", std::move(peak)},
                       {"failure", std::move(failure)},
                       {"matches", m.matches()}});
  }
  ojson j;
  j["kernels"] = std::move(kernels);
  j["kernel_sources"] = run.sources;
  j["temp_allocator"] = run.temp_allocator;
  j["temp_pool_bytes"] = run.temp_allocator ? ojson(run.temp_pool_bytes) : ojson(nullptr);
  j["no_heap"] = run.no_heap;
  j["methods"] = std::move(methods);
  j["matches"] = run.exit_code() == 0;
  return j;
}

}  // namespace

std::string MeasureJson(const measure::MeasureRun& run) {
  ojson j;
  const nlohmann::json verdict = VerdictMembers(OutcomeVerdict(
      run.exit_code() == 0, "the real runtime's calls against the prediction",
      "a method's calls on the real runtime differ from the prediction"));
  for (const char* key : {"schema", "verdict", "verdict_detail"}) j[key] = verdict.at(key);
  j["tree"] = {{"root", run.setup.tree},
               {"version_source", run.setup.version_source},
               {"commit", run.setup.commit}};
  j["release"] = {{"compared_with", run.setup.release}, {"why", run.setup.why}};
  if (run.build) {
    const measure::MeasureBuild& b = *run.build;
    j["build"] = {{"compiler", b.compiler},
                  {"compiler_version", b.compiler_version},
                  {"sources", b.sources},
                  {"reused", b.reused},
                  {"work", OrNull(b.work)},
                  {"stubbed_backends", b.stubbed},
                  {"pool_bytes", b.pool_bytes},
                  {"pool_align", b.pool_align}};
  } else {
    j["build"] = nullptr;
  }
  j["methods"] = ojson::array();
  for (const measure::MethodMeasurement& m : run.methods) j["methods"].push_back(MethodJson(m));
  j["execution"] = run.execution ? ExecutionJson(*run.execution) : ojson(nullptr);
  j["kept_logs"] = OrNull(run.kept_logs);
  j["matches"] = run.exit_code() == 0;
  return j.dump(2, ' ', false, ojson::error_handler_t::replace) + "\n";
}

}  // namespace etmem::report
