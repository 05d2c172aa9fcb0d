// Owns: the live ranges of a method's memory-planned tensors: where each sits (memory id,
// offset, bytes) and the instructions between its first and last use.
// Not: judging the plan (check.h) or finding a better one (replan.h).
//
// Instructions are numbered globally: chain 0's instructions first, then chain 1's, and so on
// (the order of MethodView::instructions). An instruction uses every value it names: a call's
// args (and, for a tensor list, its items), a move's source and destination, a jump's condition,
// a free's value. Ranges are inclusive: a tensor is live at its first and last use. Program
// inputs and planned tensors with initial state (data_index > 0) are live from instruction 0,
// outputs up to the last instruction. A backward jump makes a loop: a tensor live anywhere in
// it is live across all of it. The output of executorch_prim::et_view shares its input's
// storage: the two form one alias group, and every member is live over the group's union.
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "etmem/base/result.h"
#include "etmem/pte/program_view.h"

namespace etmem::plan {

// Bytes per element of an ExecuTorch ScalarType code; empty for codes no release knows.
std::optional<uint32_t> ElementSize(int8_t dtype);

struct PlannedTensor {
  int32_t value = 0;  // value index in the method
  uint32_t memory_id = 0;
  uint64_t offset = 0;
  uint64_t bytes = 0;  // numel x element size (the upper bound for dynamic shapes)
  int8_t dtype = 0;
  bool used = false;  // some instruction, input or output names it; else first/last are 0
  int64_t first = 0;  // first instruction where it is live
  int64_t last = 0;   // last instruction where it is live (inclusive)
  bool input = false;
  bool output = false;
  bool stateful = false;  // planned with initial state (mutable buffer, data_index > 0)
  int32_t group = 0;      // index (in Lifetimes::tensors) of its alias group's first member

  bool LiveAt(int64_t i) const { return used && first <= i && i <= last; }
};

struct Lifetimes {
  std::vector<PlannedTensor> tensors;  // in value order
  int64_t instructions = 0;            // total over all chains
  std::vector<int64_t> planned_buffer_sizes;  // as stored: index 0 reserved
};

// One piece of planned storage: an alias group seen as a whole (most groups have one member).
struct Storage {
  uint32_t memory_id = 0;
  uint64_t offset = 0;  // the lowest member offset
  uint64_t bytes = 0;   // up to the highest member end
  bool used = false;
  int64_t first = 0;
  int64_t last = 0;
  std::vector<size_t> members;  // indices into Lifetimes::tensors
};
std::vector<Storage> Storages(const Lifetimes& lifetimes);

// Fails when a planned tensor has a dtype no release knows or a byte size that overflows.
Result<Lifetimes> ComputeLifetimes(const pte::MethodView& method);

// True when the two inclusive ranges share an instruction (touching counts).
inline bool RangesMeet(int64_t a_first, int64_t a_last, int64_t b_first, int64_t b_last) {
  return a_first <= b_last && b_first <= a_last;
}

}  // namespace etmem::plan
