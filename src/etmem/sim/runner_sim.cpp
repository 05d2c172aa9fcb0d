// Owns: SimulateRunner (runner_sim.h).
#include "etmem/sim/runner_sim.h"

#include <algorithm>

namespace etmem::sim {
namespace {

// One pass over the runner's sequence, the method pool bounded by `capacity` (or not).
struct Pass {
  std::vector<RunnerPoolResult> pools;
  std::optional<RunnerFailure> failure;
  std::vector<RunnerFailure> tolerated;
  uint64_t written_end = 0;  // method pool: the furthest byte the runner writes
  std::optional<size_t> furthest_writer;
};

RunnerFailure LoadFailure(const runner::RunnerPlan& plan, size_t i, const AllocationFailure& f) {
  const runner::RunnerRequest& r = plan.requests[i];
  RunnerFailure out{i,           f.request, f.requested,
                    f.available, {f.log},   ConsequenceText(f.consequence)};
  // load_method returns an error to the runner only when the runtime itself went on; an abort
  // or a write through a null pointer happens inside load_method.
  if (f.consequence == runtime::OnFailure::kError) {
    out.log.insert(out.log.end(), r.failure_logs.begin(), r.failure_logs.end());
    if (!r.then.empty()) out.consequence += "; then the runner " + r.then;
  }
  return out;
}

Pass Run(const runner::RunnerPlan& plan, std::span<const runtime::AllocationRequest> load,
         std::optional<uint64_t> capacity, std::vector<MethodPoolCall>* calls = nullptr) {
  Pass pass;
  auto config = [&](size_t p, uint64_t used) {
    return PoolConfig{plan.pools[p].base_align, p == plan.method_pool ? capacity : std::nullopt,
                      used};
  };
  std::vector<BumpAllocator> pools;
  for (size_t p = 0; p < plan.pools.size(); ++p) {
    pools.emplace_back(config(p, 0));
    pass.pools.push_back({p, {}, 0, 0, static_cast<int64_t>(p) == plan.temp_pool});
  }
  auto high_water = [&](size_t p, uint64_t bytes) {
    pass.pools[p].high_water = std::max(pass.pools[p].high_water, bytes);
  };
  for (size_t i = 0; i < plan.requests.size(); ++i) {
    const runner::RunnerRequest& r = plan.requests[i];
    if (r.load_method) {
      const bool temp_pool = r.temp_pool >= 0;
      const size_t t = temp_pool ? static_cast<size_t>(r.temp_pool) : 0;
      SimResult sr;
      LoadSimulator sim(config(r.pool, pools[r.pool].used()),
                        temp_pool ? config(t, pools[t].used()) : PoolConfig{8, std::nullopt}, sr);
      RunnerEntry method{i, true}, temp{i, true};
      method.allocations = temp.allocations = 0;
      method.offset = pools[r.pool].used();
      temp.offset = temp_pool ? pools[t].used() : 0;
      Placement p;
      for (size_t j = 0; j < load.size(); ++j) {
        const runtime::AllocationRequest& req = load[j];
        if (!sim.Place(req, p)) break;
        if (calls && req.pool == runtime::PoolKind::kMethod)
          calls->push_back({i, j, req.size, req.align, p.offset, p.padding, p.failed});
        if (p.failed) continue;
        RunnerEntry& e = req.pool == runtime::PoolKind::kMethod ? method : temp;
        if (e.allocations == 0) e.first = p.offset;
        e.bytes += p.consumed(req.size);
        e.padding += p.padding;
        e.align = std::max<uint32_t>(e.align, req.align);
        e.allocations += 1;
      }
      sim.Finish();
      // Nothing in the method pool is freed during load: its cursor is its high-water mark.
      pools[r.pool] = BumpAllocator(config(r.pool, sr.method_bytes));
      high_water(r.pool, sr.method_bytes);
      method.end = sr.method_bytes;
      temp.end = sr.temp_peak_bytes;
      pass.pools[r.pool].entries.push_back(method);
      if (temp_pool) {
        high_water(t, sr.temp_peak_bytes);
        if (temp.allocations > 0) pass.pools[t].entries.push_back(temp);
      }
      for (const AllocationFailure& f : sr.failures) {
        RunnerFailure failure = LoadFailure(plan, i, f);
        if (sr.loads)
          pass.tolerated.push_back(std::move(failure));  // a zero-size request the runtime ignores
        else if (!pass.failure)
          pass.failure = std::move(failure);
      }
      if (pass.failure) return pass;
      continue;
    }
    Placement p;
    uint64_t available = 0;
    pools[r.pool].Allocate(r.size, r.align, p, available);
    if (calls && r.pool == plan.method_pool)
      calls->push_back({i, std::nullopt, r.size, r.align, p.offset, p.padding, p.failed});
    if (p.failed) {
      RunnerFailure f{i,
                      std::nullopt,
                      p.consumed(r.size),
                      available,
                      {FailureLog(p.consumed(r.size), available)},
                      ""};
      f.log.insert(f.log.end(), r.failure_logs.begin(), r.failure_logs.end());
      f.consequence =
          "the runner " + (r.then.empty() ? std::string(r.aborts ? "aborts" : "goes on") : r.then);
      if (r.harmless) {
        pass.tolerated.push_back(std::move(f));
        continue;
      }
      pass.failure = std::move(f);
      return pass;
    }
    high_water(r.pool, pools[r.pool].peak());
    pass.pools[r.pool].entries.push_back({i, false, p.offset, p.offset, r.size, p.padding, r.align,
                                          r.written, 1, p.offset + r.size});
    if (r.pool == plan.method_pool && p.offset + r.written > pass.written_end) {
      pass.written_end = p.offset + r.written;
      pass.furthest_writer = i;
    }
  }
  return pass;
}

// Whether a load request can fail harmlessly in the method pool (only then can a pool below the
// high-water mark get through).
bool AnyTolerated(std::span<const runtime::AllocationRequest> load) {
  return std::any_of(load.begin(), load.end(), [](const runtime::AllocationRequest& r) {
    return r.size == 0 && r.on_failure == runtime::OnFailure::kErrorUnlessEmpty &&
           r.pool == runtime::PoolKind::kMethod;
  });
}

bool Fits(const Pass& p, uint64_t capacity) { return !p.failure && p.written_end <= capacity; }

}  // namespace

RunnerTrace TraceMethodPool(const runner::RunnerPlan& plan,
                            std::span<const runtime::AllocationRequest> load,
                            std::optional<uint64_t> method_pool_bytes) {
  RunnerTrace out;
  Pass pass = Run(plan, load, method_pool_bytes, &out.calls);
  for (RunnerFailure& f : pass.tolerated)
    if (plan.requests[f.request].pool == plan.method_pool) out.failures.push_back(std::move(f));
  out.gets_through = !pass.failure;
  if (pass.failure) out.failures.push_back(std::move(*pass.failure));
  out.method_bytes = pass.pools[plan.method_pool].high_water;
  return out;
}

RunnerResult SimulateRunner(const runner::RunnerPlan& plan,
                            std::span<const runtime::AllocationRequest> load,
                            std::optional<uint64_t> method_pool_bytes) {
  RunnerResult out;
  Pass unbounded = Run(plan, load, std::nullopt);
  for (RunnerPoolResult& p : unbounded.pools) p.minimum = p.high_water;
  RunnerPoolResult& method = unbounded.pools[plan.method_pool];
  method.minimum = std::max(method.high_water, unbounded.written_end);
  const bool harmless = std::any_of(plan.requests.begin(), plan.requests.end(),
                                    [](const runner::RunnerRequest& r) { return r.harmless; });
  if (harmless || AnyTolerated(load)) {
    // A failed zero-size request that the runtime ignores may let a smaller pool through; each
    // step strictly shrinks the candidate.
    uint64_t candidate = method.minimum;
    while (candidate > 0) {
      Pass smaller = Run(plan, load, candidate - 1);
      if (!Fits(smaller, candidate - 1)) break;
      candidate = std::max(smaller.pools[plan.method_pool].high_water, smaller.written_end);
    }
    method.minimum = candidate;
  }
  for (const runner::RunnerRequest& r : plan.requests)
    if (!r.bug.empty() && std::find(out.bugs.begin(), out.bugs.end(), r.bug) == out.bugs.end())
      out.bugs.push_back(r.bug);
  out.refusals = plan.refusals;
  if (method_pool_bytes) {
    Pass bounded = Run(plan, load, *method_pool_bytes);
    RunnerCheck c;
    c.pool_bytes = *method_pool_bytes;
    c.failure = std::move(bounded.failure);
    c.tolerated = std::move(bounded.tolerated);
    c.gets_through = !c.failure;
    if (c.gets_through && bounded.written_end > *method_pool_bytes) {
      c.overwritten_bytes = bounded.written_end - *method_pool_bytes;
      c.overwriting_request = bounded.furthest_writer;
    }
    out.check = std::move(c);
  }
  out.pools = std::move(unbounded.pools);
  out.method_pool = plan.method_pool;
  return out;
}

}  // namespace etmem::sim
