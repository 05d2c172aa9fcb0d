// Owns: advisories about planned memory the export could avoid: kernel outputs nothing reads
// (the `indices` of max_pool2d_with_indices) and view-like operators applied to constant
// tensors at run time (a permute_copy of a weight), each with the bytes it costs.
// Not: the checks a plan must pass (check.h).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "etmem/plan/lifetimes.h"
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
  std::string change;         // what to change at export time
};

std::vector<Advice> Advise(const pte::MethodView& method, const Lifetimes& lifetimes,
                           uint64_t alignment = 16);

}  // namespace etmem::plan
