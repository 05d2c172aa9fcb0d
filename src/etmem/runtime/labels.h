// Owns: the words for each allocation ("TensorImpl of value 42 (float32 [1,32,96])"). Built
// only when a report prints them, so analysing without printing costs no strings.
#pragma once

#include <string>

#include "etmem/pte/program_view.h"
#include "etmem/runtime/load_plan.h"

namespace etmem::runtime {

// A request of `plan` (kept or streamed), in words.
std::string DescribeRequest(const AllocationRequest& request, const LoadPlan& plan,
                            const pte::MethodView& method);

// "float32", "int64", ... for an ExecuTorch ScalarType code.
std::string DtypeName(int8_t code);

// "float32 [1,32,96]" (plus ", dynamic" for bounded dynamic shapes).
std::string DescribeTensor(const pte::TensorView& t, const pte::MethodView& method);

// "aten::permute_copy.out" for a kernel call, "delegate 0 (XnnpackBackend)" for a delegate call.
std::string DescribeInstruction(const pte::InstructionView& ins, const pte::MethodView& method);

}  // namespace etmem::runtime
