// Owns: Simulate / MinimumPool (see simulate.h).
#include "etmem/sim/simulate.h"

#include <algorithm>

#include "etmem/base/checked_math.h"

namespace etmem::sim {
namespace {

// One bump allocator: [base, base + capacity), cursor `used` bytes past base.
class BumpAllocator {
 public:
  explicit BumpAllocator(const PoolConfig& c)
      : base_(c.base_align == 0 ? 0 : c.base_align), capacity_(c.capacity) {}

  // Returns the placement; `failed` when the request does not fit (the cursor then stays).
  Placement Allocate(uint64_t size, uint32_t align, uint64_t& available) {
    const uint64_t cur = base_ + used_;
    const uint64_t start = AlignUp(cur, align);
    Placement p{start - base_, static_cast<uint32_t>(start - cur), false};
    if (capacity_) {
      available = *capacity_ - used_;
      if (p.consumed(size) > available) {
        p.failed = true;
        return p;
      }
    }
    used_ += p.consumed(size);
    peak_ = std::max(peak_, used_);
    return p;
  }
  void Reset() { used_ = 0; }
  uint64_t peak() const { return peak_; }
  uint64_t used() const { return used_; }

 private:
  uint64_t base_;
  std::optional<uint64_t> capacity_;
  uint64_t used_ = 0;
  uint64_t peak_ = 0;
};

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

// After an unchecked allocation fails, the runtime makes at most the very next request, when it
// belongs to the same unchecked pair (IntList: EValue*[] then int64_t[]), and then writes
// through the null pointer. Measured on the real 1.4.1 runtime.
bool MadeAfterUncheckedFailure(std::span<const runtime::AllocationRequest> requests,
                               size_t failed, size_t i) {
  return i == failed + 1 && requests[i].on_failure == runtime::OnFailure::kUnchecked &&
         requests[i].subject == requests[failed].subject;
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
  out.failures.clear();
  out.loads = true;
  out.placements.reserve(requests.size());
  BumpAllocator method_pool(method), temp_pool(temp);
  std::optional<size_t> unchecked_failure;
  for (size_t i = 0; i < requests.size(); ++i) {
    const runtime::AllocationRequest& r = requests[i];
    if (unchecked_failure && !MadeAfterUncheckedFailure(requests, *unchecked_failure, i)) break;
    BumpAllocator& pool = r.pool == runtime::PoolKind::kTemp ? temp_pool : method_pool;
    uint64_t available = 0;
    Placement p = pool.Allocate(r.size, r.align, available);
    out.placements.push_back(p);
    if (p.failed) {
      const uint64_t requested = p.consumed(r.size);
      out.failures.push_back({i, requested, available, r.on_failure, FailureLog(requested, available)});
      if (r.on_failure == runtime::OnFailure::kUnchecked) {
        out.loads = false;
        if (!unchecked_failure) unchecked_failure = i;
      } else if (StopsLoad(r.on_failure, r.size)) {
        out.loads = false;
        break;
      }
    }
    if (r.reset_temp_after) temp_pool.Reset();
  }
  out.method_bytes = method_pool.peak();
  out.temp_peak_bytes = temp_pool.peak();
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
