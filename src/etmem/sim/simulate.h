// Owns: the arithmetic of ExecuTorch's bump allocator (MemoryAllocator::allocate) applied to a
// load plan: where each request lands, the padding it pays, the high-water mark, the temp
// allocator's peak, and - for a pool of a given size - the first allocation that fails and the
// exact line the runtime logs. Not: which requests happen (runtime/).
//
// Padding depends on absolute addresses, so the pool base matters (spec §1, trap 1). The base is
// modelled as aligned to `base_align` but not to 2 * base_align (the smallest such address);
// offsets are reported relative to the base, as the goldens record them.
#pragma once

#include <algorithm>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "etmem/base/checked_math.h"
#include "etmem/runtime/load_plan.h"

namespace etmem::sim {

struct PoolConfig {
  uint32_t base_align = 8;
  std::optional<uint64_t> capacity;  // empty: unbounded (find the requirement)
  // Bytes already taken before the first request (a runner's own allocations before
  // load_method): the cursor starts there, and offsets stay relative to the pool base.
  uint64_t used = 0;
};

struct Placement {
  uint64_t offset = 0;   // from the pool base
  uint32_t padding = 0;  // bytes skipped to reach the alignment
  bool failed = false;
  uint64_t consumed(uint64_t size) const { return padding + size; }
};

struct AllocationFailure {
  size_t request = 0;         // index into the plan's requests
  uint64_t requested = 0;     // padding + size, as the runtime logs it
  uint64_t available = 0;
  runtime::OnFailure consequence = runtime::OnFailure::kError;
  std::string log;            // "Memory allocation failed: ..."
};

struct SimResult {
  std::vector<Placement> placements;  // one per request, in order
  uint64_t method_bytes = 0;          // method allocator high-water mark
  uint64_t temp_peak_bytes = 0;       // temp allocator high-water mark during load
  std::vector<AllocationFailure> failures;  // every failed allocate(), in order
  bool loads = true;                  // no failure stopped (or crashed) the load
};

// One bump allocator: [base, base + capacity), `used` bytes past the base.
class BumpAllocator {
 public:
  explicit BumpAllocator(const PoolConfig& c)
      : base_(c.base_align == 0 ? 0 : c.base_align), capacity_(c.capacity), used_(c.used),
        peak_(c.used) {}
  // Where `size` bytes at `align` land, into `p` field by field (a placement built in a
  // temporary and copied costs a store-forwarding stall per request); `failed` when they do not
  // fit (the cursor then stays). `available` gets the free bytes the runtime logs on failure.
  void Allocate(uint64_t size, uint32_t align, Placement& p, uint64_t& available);
  void Reset() { used_ = 0; }
  bool bounded() const { return capacity_.has_value(); }
  uint64_t peak() const { return peak_; }
  uint64_t used() const { return used_; }

 private:
  uint64_t base_;
  std::optional<uint64_t> capacity_;
  uint64_t used_ = 0;
  uint64_t peak_ = 0;
};

// A load replayed one request at a time, in the runtime's order, on the method allocator and
// the temp allocator: what Simulate does, for requests that are streamed rather than kept.
// Writes everything but placements into `out`; the high-water marks once Finish() is called.
class LoadSimulator {
 public:
  LoadSimulator(const PoolConfig& method, const PoolConfig& temp, SimResult& out);
  // Places the next request. False when the runtime never makes it because an earlier failure
  // ended the load; a request that is made and fails returns true with `p.failed`.
  bool Place(const runtime::AllocationRequest& r, Placement& p);
  // Places a batch in order, calling each(index, request, placement) for every request made.
  // While no pool can fail, the cursors are copied into locals for the batch: a member
  // updated per request is a store-to-load chain that was most of placing one.
  template <class Each>
  void PlaceBatch(std::span<const runtime::AllocationRequest> batch, Each&& each);
  void Finish();

 private:
  bool MadeAfterFailure(const runtime::AllocationRequest& r, size_t i);  // out of the hot path
  void Failed(const runtime::AllocationRequest& r, size_t i, const Placement& p,
              uint64_t available);
  BumpAllocator method_, temp_;
  SimResult& out_;
  size_t next_ = 0;  // index of the next request
  bool stopped_ = false;
  // The first unchecked failure: the runtime makes at most one more request (see Place).
  std::optional<size_t> unchecked_failure_;
  int32_t unchecked_subject_ = -1;
};

// Both are called once per request of a large program: inline, the failure paths out of line.
inline void BumpAllocator::Allocate(uint64_t size, uint32_t align, Placement& p,
                                    uint64_t& available) {
  const uint64_t cur = base_ + used_;
  const uint64_t start = AlignUp(cur, align);
  const uint64_t consumed = start - cur + size;
  p.offset = start - base_;
  p.padding = static_cast<uint32_t>(start - cur);
  p.failed = false;
  if (capacity_) {
    available = *capacity_ - used_;
    if (consumed > available) {
      p.failed = true;
      return;
    }
  }
  used_ += consumed;
  peak_ = std::max(peak_, used_);
}

inline bool LoadSimulator::Place(const runtime::AllocationRequest& r, Placement& p) {
  const size_t i = next_++;
  if ((stopped_ || unchecked_failure_) && !MadeAfterFailure(r, i)) [[unlikely]]
    return false;
  BumpAllocator& pool = r.pool == runtime::PoolKind::kTemp ? temp_ : method_;
  uint64_t available = 0;
  pool.Allocate(r.size, r.align, p, available);
  if (p.failed) [[unlikely]]
    Failed(r, i, p, available);
  if (r.reset_temp_after) temp_.Reset();
  return true;
}

template <class Each>
void LoadSimulator::PlaceBatch(std::span<const runtime::AllocationRequest> batch, Each&& each) {
  Placement p;
  if (stopped_ || unchecked_failure_ || method_.bounded() || temp_.bounded()) {
    for (const runtime::AllocationRequest& r : batch) {
      const size_t i = next_;
      if (!Place(r, p)) return;
      each(i, r, p);
    }
    return;
  }
  BumpAllocator method = method_, temp = temp_;
  uint64_t never_short = 0;  // unbounded: no allocation fails
  size_t i = next_;
  for (const runtime::AllocationRequest& r : batch) {
    if (r.pool == runtime::PoolKind::kTemp) [[unlikely]]
      temp.Allocate(r.size, r.align, p, never_short);
    else
      method.Allocate(r.size, r.align, p, never_short);
    if (r.reset_temp_after) temp.Reset();
    each(i++, r, p);
  }
  next_ = i;
  method_ = method;
  temp_ = temp;
}

SimResult Simulate(std::span<const runtime::AllocationRequest> requests, const PoolConfig& method,
                   const PoolConfig& temp);
// The same into `out`, reusing its buffers.
void Simulate(std::span<const runtime::AllocationRequest> requests, const PoolConfig& method,
              const PoolConfig& temp, SimResult& out);

// The smallest method pool (with this base alignment) in which the plan loads: the high-water
// mark of `unbounded` (a run with no capacity), or less when a zero-size request may fail
// harmlessly and the runtime goes on.
uint64_t MinimumPool(std::span<const runtime::AllocationRequest> requests, uint32_t base_align,
                     const PoolConfig& temp, const SimResult& unbounded);

// The runtime's log text for a failed allocate().
std::string FailureLog(uint64_t requested, uint64_t available);

// What happens after a failed allocation, in words.
const char* ConsequenceText(runtime::OnFailure f);

}  // namespace etmem::sim
