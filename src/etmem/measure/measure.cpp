// Owns: the measure stage's comparison (see measure.h).
#include "etmem/measure/measure.h"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <optional>
#include <span>
#include <sstream>
#include <utility>

#include "etmem/check/prediction.h"
#include "etmem/measure/harness_output.h"
#include "etmem/runtime/release.h"
#include "etmem/sim/runner_sim.h"

namespace etmem::measure {
namespace {

constexpr uint64_t kPortableTemp = 1ull << 20;  // the portable runner's temp allocator

// A runner's own requests on the method pool placed around load_method's by the simulator
// (sim::TraceMethodPool, the placement check and the report use), as the harness replays them.
void PredictRunnerCalls(const report::MethodReport& m, std::optional<uint64_t> pool,
                        Expected& e) {
  const runner::RunnerPlan& plan = m.runner->plan;
  const sim::RunnerTrace t = sim::TraceMethodPool(plan, m.plan.requests, pool);
  size_t load = plan.requests.size();
  for (size_t i = 0; i < plan.requests.size(); ++i)
    if (plan.requests[i].load_method) load = std::min(load, i);
  // The runner stops when load_method refuses the method: nothing of its own after that.
  const bool stops = m.plan.refusal.has_value();
  uint64_t used = 0;
  for (const sim::MethodPoolCall& c : t.calls) {
    if (stops && c.request > load) break;
    e.prediction.calls.push_back({c.size, c.align, c.offset, c.failed});
    e.what.push_back(c.load_request ? report::Describe(m, *c.load_request)
                                    : "the runner's " + plan.requests[c.request].what);
    if (!c.failed) used = std::max(used, c.offset + c.size);
  }
  size_t k = 0;
  for (const sim::RunnerFailure& f : t.failures) {
    while (k < e.prediction.calls.size() && !e.prediction.calls[k].failed) ++k;
    if (k == e.prediction.calls.size()) break;
    e.prediction.failures.push_back({f.requested, f.available, k});
    ++k;
  }
  e.prediction.used_bytes = stops ? used : t.method_bytes;
}

}  // namespace

std::string HostTarget() {
#if defined(__x86_64__)
  return "x86_64";
#elif defined(__aarch64__)
  return "aarch64";
#else
  return "";
#endif
}

ReleaseChoice ClosestRelease(const std::string& version) {
  const std::vector<std::string>& modelled = runtime::ReleaseVersions();
  if (std::find(modelled.begin(), modelled.end(), version) != modelled.end())
    return {version, "the tree's release"};
  const int wanted = VersionNumber(version).value_or(0);
  std::string best;
  for (const std::string& v : modelled) {
    const auto n = VersionNumber(v);
    if (n && *n <= wanted) best = v;
  }
  if (best.empty()) best = modelled.front();
  return {best, version + " is not a modelled release: the closest modelled one"};
}

HarnessStubs StubKernelsAndBackends(
    const pte::ProgramView& program,
    const std::map<std::string, runtime::DeclaredBackendInit>& declared) {
  HarnessStubs out;
  std::vector<std::string> kernels, backends;
  for (const pte::MethodView& m : program.methods) {
    for (const pte::OperatorView& op : m.operators)
      kernels.push_back(std::string(op.name) + (op.overload.empty() ? "" : ".") +
                        std::string(op.overload));
    // A delegate without an id (or with an empty one) gets no stub: the runtime refuses the
    // first before any lookup, and no backend can be registered under the second.
    for (const pte::DelegateView& d : m.delegates)
      if (!d.backend.empty()) backends.push_back(std::string(d.backend));
  }
  for (auto* v : {&kernels, &backends}) {
    std::sort(v->begin(), v->end());
    v->erase(std::unique(v->begin(), v->end()), v->end());
  }
  for (const std::string& k : kernels) out.steps += "kernel " + k + "\n";
  for (const std::string& b : backends) {
    const auto it = declared.find(b);
    const uint64_t bytes = it == declared.end() ? 0 : it->second.bytes;
    const uint32_t align = it == declared.end() ? 1 : it->second.align;
    out.steps += "backend " + b + " " + std::to_string(bytes) + " " + std::to_string(align) + "\n";
    out.stubbed.push_back(b + "=" + std::to_string(bytes) +
                          (align == 1 ? "" : ":" + std::to_string(align)));
  }
  return out;
}

// The first of load_method's temp requests that a temp allocator of `temp` bytes cannot hold
// (its base 16 mod 32, as the harness places it; reset after each operator), and the runtime's
// "N B requested (adjusted for alignment), M B available" for it: load_method fails there with
// MemoryAllocationFailed, so the method allocator's calls stop before it.
std::optional<std::pair<size_t, device::PredictedFailure>> TempFailure(
    std::span<const runtime::AllocationRequest> requests, uint64_t temp) {
  uint64_t cursor = 0;
  for (size_t i = 0; i < requests.size(); ++i) {
    const runtime::AllocationRequest& q = requests[i];
    if (q.pool != runtime::PoolKind::kTemp) continue;
    const uint64_t align = std::max<uint64_t>(q.align, 1);
    const uint64_t pad = (align - (16 + cursor) % align) % align;
    if (cursor + pad + q.size > temp)
      return std::make_pair(i, device::PredictedFailure{pad + q.size, temp - cursor, 0});
    cursor = q.reset_temp_after ? 0 : cursor + pad + q.size;
  }
  return std::nullopt;
}

// --temp-pool, where the report does not carry it as the load's temp pool (a release whose load
// does not depend on its size): the harness passes a temp allocator of exactly that size.
std::optional<uint64_t> AskedTemp(const report::Report& r) {
  if (r.assumptions.run_temp_pool_source == "--temp-pool") return r.assumptions.run_temp_pool_bytes;
  return std::nullopt;
}

Expected Expect(const report::Report& r, const report::MethodReport& m,
                std::optional<uint64_t> pool) {
  Expected e;
  if (!m.runner) {
    e.pool_align = r.assumptions.pool_align;
    // The temp pool's size matters only where operator metadata falls back (main): then the
    // report's assumed size, else the portable runner's 1 MiB.
    if (r.assumptions.temp_allocator)
      e.temp_bytes = r.assumptions.temp_pool_bytes.value_or(AskedTemp(r).value_or(kPortableTemp));
    e.steps = "planned heap\nload\n";
    e.layout = "the portable executor_runner's layout (planned buffers apart from the method pool)";
    std::span<const runtime::AllocationRequest> requests = m.plan.requests;
    std::optional<device::PredictedFailure> temp_failure;
    if (e.temp_bytes)
      if (auto f = TempFailure(requests, *e.temp_bytes)) {
        requests = requests.first(f->first);
        temp_failure = f->second;
      }
    check::MethodPrediction p = check::PredictMethodPool(requests, e.pool_align, pool);
    if (temp_failure && p.prediction.failures.empty()) {
      temp_failure->call = p.prediction.calls.size();
      p.prediction.failures.push_back(*temp_failure);
    }
    e.prediction = std::move(p.prediction);
    for (size_t i : p.request_of_call) e.what.push_back(report::Describe(m, i));
    return e;
  }
  // A runner: the harness replays its own requests on the method pool around load_method's.
  const runner::RunnerPlan& plan = m.runner->plan;
  e.pool_align = plan.pools[plan.method_pool].base_align;
  e.layout = r.assumptions.runner + "; its own allocations on the method pool "
             "replayed around load_method";
  bool planned_done = false;
  for (const runner::RunnerRequest& q : plan.requests) {
    const runner::StepSpec& step = plan.profile->steps[q.step];
    if (q.load_method) {
      if (!planned_done) e.steps += "planned heap\n";
      planned_done = true;
      e.steps += "load\n";
      if (q.temp_pool >= 0) {
        const uint64_t t = plan.pools[static_cast<size_t>(q.temp_pool)].spec->default_bytes;
        e.temp_bytes = r.assumptions.temp_pool_bytes.value_or(
            AskedTemp(r).value_or(t ? t : kPortableTemp));
      }
      if (m.plan.refusal) break;  // the runner stops when load_method fails
      continue;
    }
    const bool on_method_pool = q.pool == plan.method_pool;
    if (step.kind == runner::StepKind::kPlannedBuffers) {
      if (!planned_done)
        e.steps += on_method_pool ? "planned pool " + std::to_string(q.align) + "\n"
                                  : std::string("planned heap\n");
      planned_done = true;
    } else if (on_method_pool) {
      e.steps += "alloc " + std::to_string(q.size) + " " + std::to_string(q.align) + "\n";
    }
  }
  PredictRunnerCalls(m, pool, e);
  return e;
}

Result<MethodMeasurement> MeasureMethod(const report::Report& r, const Built& built,
                                        const std::string& work, const std::string& program_path,
                                        const std::string& stubs, std::optional<uint64_t> pool) {
  namespace fs = std::filesystem;
  const report::MethodReport& m = r.methods.front();
  MethodMeasurement out;
  out.name = std::string(m.method->name);
  out.expected = Expect(r, m, pool);
  const Expected& e = out.expected;
  out.layout = e.layout;
  out.pool = pool;
  ETMEM_TRY(HarnessRun run, RunHarness(built, work, program_path, out.name,
                                       pool.value_or(kDefaultPool), e.pool_align, e.temp_bytes,
                                       stubs + e.steps));
  out.log_path = (fs::path(work) / ("measured-" + out.name + ".log")).string();
  {
    std::ofstream log(out.log_path);
    log << run.output;
  }
  const HarnessFacts facts = ReadFacts(run.output);
  out.etmem_verdict = m.plan.refusal ? m.plan.refusal->error : "Ok";
  if (m.plan.refusal && m.plan.refusal->program_load)
    out.etmem_verdict = "Program::load " + out.etmem_verdict;
  if (m.plan.refusal && m.plan.refusal->method_meta)
    out.etmem_verdict = "method_meta " + out.etmem_verdict;
  if (m.plan.refusal) out.refusal_reason = m.plan.refusal->reason;
  if (!m.plan.refusal && !e.prediction.failures.empty())
    out.etmem_verdict = "MemoryAllocationFailed";
  out.measured_verdict = Verdict(facts, run.status);
  if (out.measured_verdict == "the runner's own allocation failed" &&
      !e.prediction.failures.empty())
    out.measured_verdict = out.etmem_verdict;  // what etmem predicts as a failure
  out.verdicts_agree = VerdictsAgree(out.measured_verdict, out.etmem_verdict, run.status);
  out.unknowns = m.plan.unknowns;
  out.assumptions = r.assumptions;
  out.assumptions.pool_align = e.pool_align;
  out.assumptions.temp_allocator = e.temp_bytes.has_value();
  out.assumptions.temp_pool_bytes = r.assumptions.temp_pool_bytes ? e.temp_bytes : std::nullopt;
  auto log = device::ParseDeviceLog(run.output, out.log_path);
  if (!log) return out;  // no record: the program or method never reached the allocator
  out.logged = true;
  // The high-water mark: the T record, or the calls when the runtime crashed before it.
  for (const device::CallRecord& c : log->calls)
    if (c.offset) out.measured_bytes = std::max(out.measured_bytes, *c.offset + c.size);
  if (log->totals) out.measured_bytes = log->totals->used_bytes;
  out.measured = log->calls;
  // The runtime's first error line (a failed allocation, a refusal), as it logged it.
  std::istringstream lines(run.output);
  for (std::string line; std::getline(lines, line);)
    if (line.starts_with("E executorch:")) {
      out.runtime_error_line = line;
      break;
    }
  out.difference = device::Compare(*log, e.prediction);
  return out;
}

}  // namespace etmem::measure
