// Owns: judging a method's memory plan: tensors that share bytes while both are live, tensors
// placed outside their buffer, and per-buffer bounds (planned size against the peak of live
// bytes). Plain data out; printing is the tool's business.
// Not: computing the live ranges (lifetimes.h) or re-planning (replan.h).
#pragma once

#include <cstdint>
#include <vector>

#include "etmem/plan/lifetimes.h"

namespace etmem::plan {

// Two planned tensors in one buffer whose bytes overlap while both are live.
struct Overlap {
  int32_t a = 0;  // value indices, a < b
  int32_t b = 0;
  uint32_t memory_id = 0;
  int64_t instruction = 0;  // the first instruction where both are live
  uint64_t overlap_bytes = 0;
};

// A planned tensor that does not lie inside its buffer.
struct Misplaced {
  int32_t value = 0;
  uint32_t memory_id = 0;
  uint64_t offset = 0;
  uint64_t bytes = 0;
  int64_t buffer_size = -1;  // -1: memory_id is 0 or names no buffer
};

struct Validation {
  std::vector<Overlap> overlaps;
  std::vector<Misplaced> misplaced;
  bool sound() const { return overlaps.empty() && misplaced.empty(); }
};

Validation Validate(const Lifetimes& lifetimes);

struct BufferBounds {
  uint32_t memory_id = 0;
  int64_t planned = 0;        // planned_buffer_sizes[memory_id]
  uint64_t lower_bound = 0;   // peak over instructions of the aligned live bytes
  int64_t peak_instruction = -1;  // first instruction reaching it; -1 when nothing is live
  int64_t excess() const { return planned - static_cast<int64_t>(lower_bound); }
  double excess_percent() const {
    return planned > 0 ? 100.0 * static_cast<double>(excess()) / static_cast<double>(planned) : 0;
  }
};

// One entry per buffer (memory ids 1..planned_buffer_sizes.size()-1). Each tensor counts with
// its size rounded up to `alignment` (a power of two), the granularity the planner places at.
std::vector<BufferBounds> ComputeBounds(const Lifetimes& lifetimes, uint64_t alignment = 16);

// Aligned live bytes in `memory_id` at each instruction.
std::vector<uint64_t> LiveBytes(const Lifetimes& lifetimes, uint32_t memory_id,
                                uint64_t alignment = 16);

}  // namespace etmem::plan
