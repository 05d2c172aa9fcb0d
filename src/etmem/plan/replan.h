// Owns: re-planning a method's planned memory. Planners speak plain numbers (a buffer is a size
// and an inclusive range of instructions, like TFLite Micro's MicroMemoryPlanner): greedy by
// size, greedy by conflicts, and a bounded hill-climb over the placement order. The best plan
// that CheckPlan accepts wins, and never one larger than the plan the program already has.
// Not: reading or writing programs (rewrite.h).
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

#include "etmem/base/result.h"
#include "etmem/plan/check.h"
#include "etmem/plan/lifetimes.h"

namespace etmem::plan {

struct Buffer {
  uint64_t size = 0;
  int64_t first = 0;  // inclusive instruction range; buffers whose ranges touch may not share
  int64_t last = 0;
};

class MemoryPlanner {
 public:
  virtual ~MemoryPlanner() = default;
  virtual std::string name() const = 0;
  // One offset per buffer, each a multiple of `alignment` (a power of two).
  virtual std::vector<uint64_t> Place(std::span<const Buffer> buffers, uint64_t alignment) const = 0;
};

std::unique_ptr<MemoryPlanner> GreedyBySize();
std::unique_ptr<MemoryPlanner> GreedyByConflicts();
// Starts from the better greedy order and tries `iterations` random moves of one buffer in the
// order (seeded, so runs repeat), keeping each that does not grow the plan. Large inputs get
// fewer iterations so the cost stays bounded.
constexpr uint32_t kClimbIterations = 400;
constexpr uint64_t kClimbSeed = 1;
std::unique_ptr<MemoryPlanner> HillClimb(uint32_t iterations = kClimbIterations,
                                         uint64_t seed = kClimbSeed);

// About how many buffer placements BestPlan makes for `buffers` buffers: the greedy orders and
// the climb's trials (for a caller that bounds its work).
uint64_t BestPlanWork(size_t buffers);

// Bytes the plan needs: the largest offset + size (0 for no buffers).
uint64_t PlanSize(std::span<const Buffer> buffers, std::span<const uint64_t> offsets);

// Ok when every offset is aligned and no two buffers with meeting ranges share a byte.
Status CheckPlan(std::span<const Buffer> buffers, std::span<const uint64_t> offsets,
                 uint64_t alignment);

struct PlanChoice {
  std::vector<uint64_t> offsets;
  uint64_t size = 0;
  std::string planner;
};
// Runs every planner and keeps the smallest plan that passes CheckPlan, preferring one whose
// offsets all fit in 32 bits (then also trying small tensors first).
PlanChoice BestPlan(std::span<const Buffer> buffers, uint64_t alignment);

struct BufferReplan {
  uint32_t memory_id = 0;
  int64_t before = 0;  // planned_buffer_sizes[memory_id] as stored
  int64_t after = 0;
  std::string planner;  // "original" when the stored plan was kept
  // The plan written puts a tensor at 4 GiB or more: a target whose size_t has 32 bits cannot
  // use it (from 0.2 refused, "size_t cannot hold memory offset"; at 0.6-1.0.1 the high word is
  // dropped). A new plan has one only when no sound plan the planners find stays below 4 GiB.
  bool offsets_need_64_bits = false;
};

struct MethodReplan {
  std::vector<uint64_t> offsets;  // one per Lifetimes::tensors entry
  std::vector<int64_t> planned_buffer_sizes;  // index 0 reserved, as stored
  std::vector<BufferReplan> buffers;
  int64_t saved() const;  // bytes, over all buffers
};

// Re-plans every buffer of the method. A buffer keeps its stored plan when that plan is sound
// and no planner beats it. Tensors never live go to offset 0 (they must still fit).
MethodReplan ReplanMethod(const Lifetimes& lifetimes, uint64_t alignment = 16);
// The same for one buffer only: `buffers` holds just its entry, the other buffers keep their
// stored plans.
MethodReplan ReplanBuffer(const Lifetimes& lifetimes, uint32_t memory_id, uint64_t alignment = 16);

}  // namespace etmem::plan
