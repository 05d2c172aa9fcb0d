// Owns: advisories about planned memory the export could avoid: kernel outputs nothing reads
// (the `indices` of max_pool2d_with_indices) and view-like operators applied to constant
// tensors at run time (a permute_copy of a weight), each with the bytes it costs: the drop in
// the buffer's lower bound, and the drop in the buffer's size when the method is re-planned
// (replan.h) with and without the tensor.
// Large methods: the savings in the lower bound take O(log n) each; the re-plans per advisory
// stop at a work limit, after which the saving is a bound (Advice::cut_short).
// Not: the checks a plan must pass (check.h) or the planners themselves (replan.h).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "etmem/plan/lifetimes.h"
#include "etmem/plan/replan.h"
#include "etmem/pte/program_view.h"

namespace etmem::plan {

enum class AdviceKind { kUnreadOutput, kConstantOpAtRuntime };
const char* AdviceKindName(AdviceKind k);  // "unread-output", "constant-op-at-runtime"

struct Advice {
  AdviceKind kind = AdviceKind::kUnreadOutput;
  int32_t value = 0;          // the planned tensor that costs the bytes
  int64_t instruction = 0;    // the call that writes it
  std::string op;             // "aten::max_pool2d_with_indices.out"
  uint64_t bytes = 0;         // the tensor's size
  uint64_t bound_saving = 0;  // how much the buffer's lower bound drops without it
  uint32_t memory_id = 0;     // the buffer it sits in
  // The buffer's size re-planned as it is (ReplanMethod: never above the stored size), and
  // re-planned without the tensor (an unread output needs no memory; the result of an operator
  // on a constant becomes a constant): both computed by the planners, never estimated.
  int64_t replanned = 0;
  int64_t replanned_without = 0;
  int64_t planned_saving() const { return replanned - replanned_without; }
  // The method was too large to re-plan once per advisory (kAdviceWork, kExactAdviceBuffers):
  // replanned_without is then the plan re-planned as it is with the tensor taken out, a bound
  // (the buffer needs at most that much without the tensor; a re-plan could only lower it).
  bool cut_short = false;
  std::string change;  // what to change at export time
};

// Work limit on the advisories' re-plans, in buffer placements (BestPlanWork) plus tensors
// copied, over one method; and the largest buffer (pieces of storage) re-planned once per
// advisory. Every program in ../shared and the builder's scenarios stays well within both.
constexpr uint64_t kAdviceWork = 2'000'000;
constexpr size_t kExactAdviceBuffers = 4096;

std::vector<Advice> Advise(const pte::MethodView& method, const Lifetimes& lifetimes,
                           uint64_t alignment = 16);
// The same with the method re-planned already (ReplanMethod(lifetimes, alignment)).
std::vector<Advice> Advise(const pte::MethodView& method, const Lifetimes& lifetimes,
                           const MethodReplan* replanned, uint64_t alignment = 16);

// The method's buffer sizes (index 0 reserved, as stored) after re-planning with the planned
// tensors of the given values and their alias groups taking no planned memory. Never above
// ReplanMethod's plan with those tensors taken out (which stays a plan without them), so never
// above ReplanMethod's sizes either.
std::vector<int64_t> ReplannedSizesWithout(const Lifetimes& lifetimes,
                                           std::span<const int32_t> values,
                                           uint64_t alignment = 16);
std::vector<int64_t> ReplannedSizesWithout(const Lifetimes& lifetimes,
                                           const MethodReplan& replanned,
                                           std::span<const int32_t> values,
                                           uint64_t alignment = 16);

// The values every advisory names, once each: what ReplannedSizesWithout takes to apply them
// all.
std::vector<int32_t> AdvisedValues(std::span<const Advice> advice);

}  // namespace etmem::plan
