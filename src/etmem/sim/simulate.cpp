// Owns: Simulate / MinimumPool (see simulate.h).
#include "etmem/sim/simulate.h"

#include <algorithm>

#include "etmem/base/checked_math.h"

namespace etmem::sim {
namespace {

bool StopsLoad(runtime::OnFailure f, uint64_t size) {
  return !(f == runtime::OnFailure::kErrorUnlessEmpty && size == 0);
}

}  // namespace

std::string FailureLog(uint64_t requested, uint64_t available) {
  return "Memory allocation failed: " + std::to_string(requested) +
         "B requested (adjusted for alignment), " + std::to_string(available) + "B available";
}

const char* ConsequenceText(runtime::OnFailure f) {
  switch (f) {
    case runtime::OnFailure::kError: return "load_method returns MemoryAllocationFailed";
    case runtime::OnFailure::kErrorUnlessEmpty:
      return "a zero-size request: the runtime ignores the failure and goes on";
    case runtime::OnFailure::kUnchecked:
      return "not null-checked: the runtime goes on with a null pointer (crash or corruption)";
    case runtime::OnFailure::kAbort: return "a constructor ET_CHECKs the pointer: the runtime aborts";
  }
  return "?";
}

LoadSimulator::LoadSimulator(const PoolConfig& method, const PoolConfig& temp, SimResult& out)
    : method_(method), temp_(temp), out_(out) {
  out_.failures.clear();
  out_.loads = true;
  out_.method_bytes = out_.temp_peak_bytes = 0;
}

// After an unchecked allocation fails, the runtime makes at most the very next request, when it
// belongs to the same unchecked pair (IntList: EValue*[] then int64_t[]), and then writes
// through the null pointer. Measured on the real 1.4.1 runtime.
bool LoadSimulator::MadeAfterFailure(const runtime::AllocationRequest& r, size_t i) {
  if (!stopped_ && i == *unchecked_failure_ + 1 &&
      r.on_failure == runtime::OnFailure::kUnchecked && r.subject == unchecked_subject_)
    return true;
  stopped_ = true;
  return false;
}

void LoadSimulator::Failed(const runtime::AllocationRequest& r, size_t i, const Placement& p,
                           uint64_t available) {
  const uint64_t requested = p.consumed(r.size);
  out_.failures.push_back({i, requested, available, r.on_failure, FailureLog(requested, available)});
  if (r.on_failure == runtime::OnFailure::kUnchecked) {
    out_.loads = false;
    if (!unchecked_failure_) unchecked_failure_ = i, unchecked_subject_ = r.subject;
  } else if (StopsLoad(r.on_failure, r.size)) {
    out_.loads = false;
    stopped_ = true;
  }
}

void LoadSimulator::Finish() {
  out_.method_bytes = method_.peak();
  out_.temp_peak_bytes = temp_.peak();
}

SimResult Simulate(std::span<const runtime::AllocationRequest> requests, const PoolConfig& method,
                   const PoolConfig& temp) {
  SimResult out;
  Simulate(requests, method, temp, out);
  return out;
}

void Simulate(std::span<const runtime::AllocationRequest> requests, const PoolConfig& method,
              const PoolConfig& temp, SimResult& out) {
  out.placements.clear();  // keeps the capacity of a reused result
  out.placements.reserve(requests.size());
  LoadSimulator sim(method, temp, out);
  Placement p;
  for (const runtime::AllocationRequest& r : requests) {
    if (!sim.Place(r, p)) break;
    out.placements.push_back(p);
  }
  sim.Finish();
}

uint64_t MinimumPool(std::span<const runtime::AllocationRequest> requests, uint32_t base_align,
                     const PoolConfig& temp, const SimResult& unbounded) {
  uint64_t pool = unbounded.method_bytes;
  // Only a failed zero-size request that the runtime ignores lets a smaller pool load.
  const bool any_tolerated = std::any_of(requests.begin(), requests.end(), [](const auto& r) {
    return r.size == 0 && r.on_failure == runtime::OnFailure::kErrorUnlessEmpty &&
           r.pool == runtime::PoolKind::kMethod;
  });
  if (!any_tolerated) return pool;
  // A smaller pool can only load if a failure is tolerated; each step strictly shrinks `pool`.
  while (pool > 0) {
    SimResult smaller = Simulate(requests, {base_align, pool - 1}, temp);
    if (!smaller.loads) break;
    pool = smaller.method_bytes;
  }
  return pool;
}

}  // namespace etmem::sim
